"""Ed25519 signature verification (RFC 8032), with or without the ``cryptography`` package.

Receipts must be checkable anywhere, including on machines where ``cryptography`` cannot be
installed, so the package carries a small pure-Python verifier (verify only: it never handles a
private key, and its speed, a few milliseconds per signature, is fine for checking receipts).
When ``cryptography`` is importable it is used instead, being faster and audited. Both refuse a
non-canonical ``S`` (S >= L) and a public key or ``R`` that is not a valid point encoding.
"""

from __future__ import annotations

import hashlib

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    HAVE_CRYPTOGRAPHY = True
except ImportError:
    HAVE_CRYPTOGRAPHY = False

BACKENDS = ("auto", "cryptography", "pure")

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # order of the base point
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def verify_signature(public_key: bytes, message: bytes, signature: bytes, backend: str = "auto") -> bool:
    """True when ``signature`` (64 bytes) is a valid Ed25519 signature of ``message`` by the raw
    32-byte ``public_key``; False for any invalid or malformed input.

    ``backend``: ``"auto"`` (``cryptography`` when importable, else pure Python),
    ``"cryptography"`` (ImportError when it is missing) or ``"pure"``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}")
    if backend == "cryptography" and not HAVE_CRYPTOGRAPHY:
        raise ImportError("the cryptography package is not installed")
    if len(public_key) != 32 or len(signature) != 64:
        return False
    if int.from_bytes(signature[32:], "little") >= L:
        return False  # non-canonical S: refused whichever backend runs
    if backend == "pure" or not HAVE_CRYPTOGRAPHY:
        return _verify_pure(public_key, message, signature)
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


# Points are extended homogeneous coordinates (X, Y, Z, T) with x = X/Z, y = Y/Z, x*y = T/Z
# (RFC 8032, section 5.1.4).

def _add(p, q):
    a = (p[1] - p[0]) * (q[1] - q[0]) % P
    b = (p[1] + p[0]) * (q[1] + q[0]) % P
    c = 2 * p[3] * q[3] * D % P
    d = 2 * p[2] * q[2] % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _multiply(scalar, point):
    result = (0, 1, 1, 0)  # the neutral element
    while scalar:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _equal(p, q):
    return (p[0] * q[2] - q[0] * p[2]) % P == 0 and (p[1] * q[2] - q[1] * p[2]) % P == 0


def _decode_point(encoded: bytes):
    """The point a 32-byte encoding names, or None if it names none (RFC 8032, section 5.1.3)."""
    y = int.from_bytes(encoded, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        if sign:
            return None
        return (0, y, 1, 0)
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


_BASE_Y = 4 * pow(5, P - 2, P) % P
BASE = _decode_point(_BASE_Y.to_bytes(32, "little"))


def _verify_pure(public_key: bytes, message: bytes, signature: bytes) -> bool:
    a = _decode_point(public_key)
    r = _decode_point(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    h = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % L
    return _equal(_multiply(s, BASE), _add(r, _multiply(h, a)))
