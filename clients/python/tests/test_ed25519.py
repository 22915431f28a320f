"""The Ed25519 verifiers against RFC 8032 section 7.1, and their refusals."""

import unittest

from proofline import ed25519
from proofline.ed25519 import L, verify_signature

RFC8032_VECTORS = [  # (name, public key, message, signature), RFC 8032 section 7.1
    ("TEST 1", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("TEST 2", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("TEST 3", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
]


def _backends():
    return ["pure", "cryptography"] if ed25519.HAVE_CRYPTOGRAPHY else ["pure"]


class Rfc8032Test(unittest.TestCase):
    def check(self, expectation, public_key, message, signature):
        for backend in _backends():
            with self.subTest(backend=backend):
                self.assertIs(verify_signature(public_key, message, signature, backend), expectation)

    def test_vectors_verify(self):
        for name, key, message, signature in RFC8032_VECTORS:
            with self.subTest(name):
                self.check(True, bytes.fromhex(key), bytes.fromhex(message), bytes.fromhex(signature))

    def test_tampered_message_key_or_signature_is_refused(self):
        _, key, message, signature = RFC8032_VECTORS[2]
        key, message, signature = bytes.fromhex(key), bytes.fromhex(message), bytes.fromhex(signature)
        flipped = bytearray(signature)
        flipped[10] ^= 0x01
        self.check(False, key, b"\xaf\x83", signature)
        self.check(False, key, message, bytes(flipped))
        self.check(False, bytes.fromhex(RFC8032_VECTORS[0][1]), message, signature)

    def test_non_canonical_s_is_refused(self):
        _, key, message, signature = RFC8032_VECTORS[0]
        signature = bytes.fromhex(signature)
        s_plus_l = int.from_bytes(signature[32:], "little") + L  # the same scalar mod L, not canonical
        self.check(False, bytes.fromhex(key), bytes.fromhex(message), signature[:32] + s_plus_l.to_bytes(32, "little"))

    def test_bad_point_encodings_are_refused(self):
        _, key, message, signature = RFC8032_VECTORS[0]
        message, signature = bytes.fromhex(message), bytes.fromhex(signature)
        y_not_reduced = b"\xff" * 31 + b"\x7f"  # y = 2^255 - 1 >= p
        x_zero_negative = b"\x01" + b"\x00" * 30 + b"\x80"  # y = 1 gives x = 0, whose sign bit must be 0
        for bad in (y_not_reduced, x_zero_negative):
            self.assertFalse(verify_signature(bad, message, signature, "pure"))
            self.assertFalse(verify_signature(bytes.fromhex(key), message, bad + signature[32:], "pure"))

    def test_wrong_lengths_are_refused(self):
        _, key, message, signature = RFC8032_VECTORS[0]
        self.check(False, bytes.fromhex(key)[:31], b"", bytes.fromhex(signature))
        self.check(False, bytes.fromhex(key), b"", bytes.fromhex(signature)[:63])

    def test_unknown_backend_is_an_error(self):
        with self.assertRaises(ValueError):
            verify_signature(b"", b"", b"", "openssl")


if __name__ == "__main__":
    unittest.main()
