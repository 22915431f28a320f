"""Verifies a Proofline receipt with nothing of Proofline's: its own RFC 8785 and the `cryptography` package.

usage: independent_verify.py RECEIPT.json PUBLIC_KEY_BASE64 CONTEXT  -> prints "valid" or "invalid"
"""
import base64
import json
import math
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def es_number(x):
    """ECMAScript Number::toString, from Python's shortest round-trip repr."""
    if isinstance(x, bool) or not math.isfinite(x):
        raise ValueError("not a finite number")
    if x == 0:
        return "0"
    if isinstance(x, int):
        x = float(x) if abs(x) > 2**53 else x
        if isinstance(x, int):
            return str(x)
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    point = len(whole) + int(exp or 0) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out


def jcs(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return es_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(jcs(v) for v in value) + "]"
    keys = sorted(value, key=lambda k: k.encode("utf-16-be"))
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + jcs(value[k]) for k in keys) + "}"


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        receipt = json.load(f)
    public_key = Ed25519PublicKey.from_public_bytes(base64.b64decode(sys.argv[2]))
    attestation = receipt.pop("attestation")
    message = {
        "context": sys.argv[3],
        "algorithm": attestation["algorithm"],
        "key_version": attestation["key_version"],
        "attested_at": attestation["timestamp"],
        "response": receipt,
    }
    try:
        public_key.verify(base64.b64decode(attestation["signature"]), jcs(message).encode("utf-8"))
        print("valid")
    except InvalidSignature:
        print("invalid")


if __name__ == "__main__":
    main()
