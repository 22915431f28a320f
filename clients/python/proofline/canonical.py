"""RFC 8785 (JCS) canonical JSON, exactly as Proofline writes it (docs/hashes.md).

Every hash in a receipt and every signature covers the canonical form of parsed JSON, not the
text that travelled, so a verifier must reproduce that form byte for byte. Python's ``json.dumps``
does not: it sorts keys by code point rather than UTF-16 code unit, prints ``1.0`` and ``1e-07``
where ECMAScript prints ``1`` and ``1e-7``, and escapes differently. This module owns the one
canonical writer the package uses, and the strict reader that matches Proofline's reading rules.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Context, Decimal

MAX_EXACT_INTEGER = 2**53

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f"\\]')
_SURROGATE = re.compile("[\ud800-\udfff]")

# Room for any double's 17 significant digits and exponents from 5e-324 to 1.8e308, traps as ever.
_EXACT = Context(prec=40, Emin=-9999, Emax=9999)


def canonicalize(value) -> str:
    """The canonical JSON text of ``value`` (dict, list/tuple, str, int, float, bool or None).

    Raises ValueError for what has no canonical form (NaN, infinities, lone surrogates) and
    TypeError for values that are not JSON (including non-string object keys).
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return format_number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonicalize(item) for item in value) + "]"
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("JSON object keys must be strings")
        keys = sorted(value, key=_utf16_order)
        return "{" + ",".join(_string(key) + ":" + canonicalize(value[key]) for key in keys) + "}"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def canonical_bytes(value) -> bytes:
    """The UTF-8 bytes of the canonical form: what Proofline hashes and signs."""
    try:
        return canonicalize(value).encode("utf-8")
    except RecursionError:
        raise ValueError("nested too deeply to put in canonical form") from None


def format_number(number) -> str:
    """A number as Proofline prints it: an integer up to 2^53 in magnitude as its digits, every
    other number as the double it reads as, printed by ECMAScript's Number::toString.

    Integers beyond 2^53 are printed as the nearest double on purpose: that is what Proofline
    (and any JavaScript verifier) hashes, and the receipt's ``sanity:exact_number`` check warns
    about it.
    """
    if isinstance(number, int) and abs(number) <= MAX_EXACT_INTEGER:
        return str(number)
    try:
        number = float(number)
    except OverflowError:
        raise ValueError("an integer too large for a double has no canonical form") from None
    if not math.isfinite(number):
        raise ValueError(f"{number} has no canonical form")
    if number == 0:
        return "0"  # -0 included
    # repr gives the shortest digits that read back as the same double (the closest if several).
    # normalize() rounds to its context's precision; the caller's context (decimal.getcontext(),
    # perhaps 9 digits in a finance app) must not change what is hashed and signed.
    _, digit_tuple, exponent = Decimal(repr(abs(number))).normalize(_EXACT).as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = exponent + k  # |number| = 0.DIGITS * 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        text = f"{mantissa}e{'+' if n > 0 else '-'}{abs(n - 1)}"
    return ("-" if number < 0 else "") + text


def loads(text):
    """Parse JSON the way Proofline reads it: duplicate keys, NaN and Infinity are refused;
    integers stay integers and every other number becomes a double."""

    def no_duplicates(pairs):
        result = dict(pairs)
        if len(result) != len(pairs):
            raise ValueError("duplicate key in JSON object")
        return result

    def no_constants(name):
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constants)
    except RecursionError:
        # json's decoder recurses once per level: an answer of 100,000 "[" is malformed JSON to
        # the caller, not an interpreter error.
        raise ValueError("JSON nested too deeply") from None


def _string(text: str) -> str:
    if _SURROGATE.search(text):
        raise ValueError("a string with a lone surrogate has no canonical form")
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _escape(match) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _utf16_order(key: str) -> bytes:
    # Big-endian UTF-16 bytes compare exactly as sequences of UTF-16 code units.
    return key.encode("utf-16-be", "surrogatepass")
