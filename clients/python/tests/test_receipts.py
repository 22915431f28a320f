"""Conformance receipts verify with the reference key, on both backends; changed ones do not."""

import base64
import copy
import unittest

from proofline import SCORE_CONTEXT, ReceiptVerificationError, ed25519, public_keys, verify_receipt
from proofline.canonical import loads
from support import conformance_text, expected, reference_keys

RECEIPTS = {  # receipt file -> the request it answers
    "receipts/invoice-draft.full.json": "requests/invoice-draft.json",
    "receipts/invoice-final.compact.json": "requests/invoice-final.json",
}


def _backends():
    return ["pure", "cryptography"] if ed25519.HAVE_CRYPTOGRAPHY else ["pure"]


class ConformanceReceiptsTest(unittest.TestCase):
    def setUp(self):
        self.keys = reference_keys()

    def test_every_listed_receipt_verifies_on_every_backend(self):
        self.assertEqual(sorted(expected()["receipts_that_must_verify"]), sorted(RECEIPTS))
        for receipt_file, request_file in RECEIPTS.items():
            text = conformance_text(receipt_file)
            request = loads(conformance_text(request_file))
            for backend in _backends():
                with self.subTest(receipt_file, backend=backend):
                    self.assertTrue(verify_receipt(text, self.keys, backend=backend))
                    self.assertTrue(verify_receipt(loads(text), self.keys, request=request, backend=backend))

    def test_a_changed_field_is_refused(self):
        receipt = loads(conformance_text("receipts/invoice-draft.full.json"))
        changes = {"result": "pass", "agent_id": "someone-else", "verified_at": "2026-10-01T01:01:09.606994+00:00"}
        for field, value in changes.items():
            forged = dict(receipt, **{field: value})
            for backend in _backends():
                with self.subTest(field, backend=backend), self.assertRaises(ReceiptVerificationError) as caught:
                    verify_receipt(forged, self.keys, backend=backend)
                self.assertEqual(caught.exception.code, "bad_signature")

    def test_a_changed_nested_value_is_refused(self):
        receipt = loads(conformance_text("receipts/invoice-draft.full.json"))
        forged = copy.deepcopy(receipt)
        forged["schema_compliance"]["passed"] = 21
        with self.assertRaises(ReceiptVerificationError):
            verify_receipt(forged, self.keys, backend="pure")

    def test_a_flipped_signature_bit_is_refused(self):
        receipt = loads(conformance_text("receipts/invoice-final.compact.json"))
        signature = bytearray(base64.b64decode(receipt["attestation"]["signature"]))
        signature[0] ^= 0x80
        receipt["attestation"]["signature"] = base64.b64encode(bytes(signature)).decode()
        for backend in _backends():
            with self.subTest(backend=backend), self.assertRaises(ReceiptVerificationError) as caught:
                verify_receipt(receipt, self.keys, backend=backend)
            self.assertEqual(caught.exception.code, "bad_signature")

    def test_the_score_context_does_not_verify_a_receipt(self):
        text = conformance_text("receipts/invoice-final.compact.json")
        with self.assertRaises(ReceiptVerificationError):
            verify_receipt(text, self.keys, context=SCORE_CONTEXT)

    def test_hashes_of_another_request_are_refused(self):
        text = conformance_text("receipts/invoice-final.compact.json")
        other = loads(conformance_text("requests/invoice-draft.json"))
        with self.assertRaises(ReceiptVerificationError) as caught:
            verify_receipt(text, self.keys, request=other)
        self.assertEqual(caught.exception.code, "hash_mismatch")

    def test_the_request_may_be_text_and_a_wrong_one_is_named_as_the_callers(self):
        text = conformance_text("receipts/invoice-final.compact.json")
        self.assertTrue(verify_receipt(text, self.keys, request=conformance_text("requests/invoice-final.json")))
        for wrong in ({"expected_schema": {}}, {"task_id": "t", "expected_schema": {}, "submitted_output": {},
                                                "rules": [1]}, ["not", "a", "request"]):
            with self.subTest(wrong=wrong), self.assertRaises(ValueError) as caught:
                verify_receipt(text, self.keys, request=wrong)
            self.assertIn("request:", str(caught.exception))
        for keys in (None, "a key", 7):
            with self.subTest(keys=keys), self.assertRaises(TypeError) as caught:
                verify_receipt(text, keys)
            self.assertIn("keys:", str(caught.exception))

    def test_malformed_answers_name_their_problem(self):
        receipt = loads(conformance_text("receipts/invoice-final.compact.json"))
        without = {name: value for name, value in receipt.items() if name != "attestation"}
        deep = {}
        for _ in range(100_000):
            deep = {"a": deep}
        cases = [
            ("missing_attestation", without),
            ("malformed_attestation", dict(receipt, attestation=dict(receipt["attestation"], signature="AAAA"))),
            ("malformed_attestation", dict(receipt, attestation=dict(receipt["attestation"], signature="\u00e9" * 88))),
            ("unknown_key_version", dict(receipt, attestation=dict(receipt["attestation"], key_version="v9"))),
            ("malformed_receipt", '{"a": 1, "a": 2}'),
            ("malformed_receipt", "[" * 100_000),
            ("malformed_receipt", dict(receipt, deep=deep)),
        ]
        for code, answer in cases:
            with self.subTest(code), self.assertRaises(ReceiptVerificationError) as caught:
                verify_receipt(answer, self.keys)
            self.assertEqual(caught.exception.code, code)
            self.assertIsNone(caught.exception.status)


class PublicKeysTest(unittest.TestCase):
    def test_keys_from_an_agent_card(self):
        (version, key), = reference_keys().items()
        card = {"capabilities": {"extensions": [
            {"uri": "urn:example:other", "params": {"publicKeys": [{"keyVersion": "x", "publicKey": "AA=="}]}},
            {"uri": "urn:json-schema-verifier:extension:attestation:v1",
             "params": {"publicKeys": [{"keyVersion": version, "algorithm": "Ed25519", "publicKey": key}]}},
        ]}}
        self.assertEqual(public_keys(card), {version: base64.b64decode(key)})
        self.assertTrue(verify_receipt(conformance_text("receipts/invoice-draft.full.json"), card))

    def test_any_version_of_the_attestation_extension_and_no_crash_on_junk(self):
        # SPEC section 7: the uri starts with the attestation prefix; a later version is still read.
        (version, key), = reference_keys().items()
        card = {"capabilities": {"extensions": [
            "junk", {"uri": 7}, {"uri": "urn:json-schema-verifier:extension:attestation:v2", "params": []},
            {"uri": "urn:json-schema-verifier:extension:attestation:v2",
             "params": {"publicKeys": [{"keyVersion": 3}, "junk", {"keyVersion": "bad", "publicKey": "!!"},
                                       {"keyVersion": version, "algorithm": "Ed25519", "publicKey": key}]}},
        ]}}
        self.assertEqual(public_keys(card), {version: base64.b64decode(key)})
        self.assertEqual(public_keys({"capabilities": []}), {})


if __name__ == "__main__":
    unittest.main()
