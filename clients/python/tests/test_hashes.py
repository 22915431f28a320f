"""Request hashes against conformance/expected.json and the vectors of docs/hashes.md."""

import unittest

from proofline import canonicalize, canonical_request, request_hashes
from proofline.canonical import loads
from support import conformance_text, expected


class ConformanceHashesTest(unittest.TestCase):
    def test_every_published_hash_matches(self):
        for request_file, published in expected()["hashes"].items():
            request = loads(conformance_text(request_file))
            computed = request_hashes(request)
            for name, value in published.items():
                with self.subTest(request_file, hash=name):
                    if name == "canonical_request":
                        self.assertEqual(canonicalize(canonical_request(request)), value)
                    else:
                        self.assertEqual(computed[name], value)

    def test_defaults_left_out_hash_the_same(self):
        spelled_out = loads(conformance_text("requests/request-hash-vector-2.json"))
        short = {
            "task_id": "tv-2", "agent_id": "seller-7", "enforce_rules": True,
            "expected_schema": spelled_out["expected_schema"],
            "submitted_output": spelled_out["submitted_output"],
            "bounds": {"items[].price": {"min": 0, "max": 100}},
            "rules": [{"type": "sum_equals", "field": "items[].price", "equals_field": "total", "tolerance": 0.01},
                      {"type": "unique", "field": "items[].id"}],
            "detail": "compact",
        }
        self.assertEqual(request_hashes(short)["request_hash"], request_hashes(spelled_out)["request_hash"])

    def test_draft_invoice_output_canonical_form(self):
        request = loads(conformance_text("requests/invoice-draft.json"))
        self.assertEqual(
            canonicalize(request["submitted_output"]),
            '{"currency":"USD","invoice_id":"INV-7731","line_items":[{"line_total":87,"qty":3,"sku":"CRWL-100"},'
            '{"line_total":42.5,"qty":1,"sku":"CRWL-200"}],"total":135}')


if __name__ == "__main__":
    unittest.main()
