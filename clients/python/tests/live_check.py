"""Check the client against a running Proofline node: python live_check.py BASE_URL [API_KEY] [--expect-429 N]

Not a unit test (unittest does not discover it): it needs a live node. It sends both conformance
invoices and compares the verdicts with conformance/expected.json, verifies each receipt against
the node's agent-card, checks that a forged receipt and a request without expected_schema are
refused, and with --expect-429 N sends up to N requests without a key until the free allowance
runs out. One line per check; exits 1 on the first failure.
"""

import argparse
import sys
import unittest
from pathlib import Path

try:
    import proofline
except ImportError:  # run from a source checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import proofline

from proofline import AllowanceExhaustedError, InvalidRequestError, ProoflineClient, ReceiptVerificationError
from proofline.canonical import loads
from support import conformance_text, expected

INVOICES = {"requests/invoice-draft.json": "invoice_draft_expected_result",
            "requests/invoice-final.json": "invoice_final_expected_result"}


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def invoices(client, expectations):
    receipts = {}
    for request_file, expectation_name in INVOICES.items():
        request = loads(conformance_text(request_file))
        want = expectations[expectation_name]
        result = client.verify(request)
        receipt = result.receipt
        check(receipt.get("result") == want["result"] and result.passed == (want["result"] == "pass"),
              f"{request_file}: result {receipt.get('result')!r}, expected {want['result']!r}")
        got_blocking = receipt.get("summary", {}).get("blocking_checks")
        check(got_blocking == want["blocking_checks"],
              f"{request_file}: blocking_checks {got_blocking}, expected {want['blocking_checks']}")
        if "schema_compliance" in want:
            check(receipt.get("schema_compliance") == want["schema_compliance"],
                  f"{request_file}: schema_compliance {receipt.get('schema_compliance')}, expected {want['schema_compliance']}")
        if "rule_failure_found" in want:
            hint = next((h for h in result.hints if h.get("check") == "consistency:sum_equals"), {})
            check((hint.get("found"), hint.get("expected")) == (want["rule_failure_found"], want["rule_failure_expected"]),
                  f"{request_file}: rule hint {hint}, expected found/expected "
                  f"{want['rule_failure_found']!r}/{want['rule_failure_expected']!r}")
        print(f"ok   verdict {request_file}: {receipt['result']} {got_blocking} ({result.verification_id})")
        client.verify_receipt(receipt, request=request)
        print(f"ok   receipt {request_file}: signature (key {receipt['attestation']['key_version']}) and hashes verify")
        receipts[request_file] = receipt
    return receipts


def forged(client, receipt):
    changed = dict(receipt, result="pass" if receipt["result"] == "fail" else "fail")
    try:
        client.verify_receipt(changed)
    except ReceiptVerificationError as error:
        check(error.code == "bad_signature", f"forged receipt refused with {error.code}, expected bad_signature")
        print(f"ok   forged receipt refused: {error.code}")
        return
    raise CheckFailed("a receipt with its result changed verified")


def invalid_request(client):
    request = loads(conformance_text("requests/invoice-final.json"))
    del request["expected_schema"]
    try:
        client.verify(request)
    except InvalidRequestError as error:
        check(error.code == "invalid_request" and error.status == 422,
              f"missing expected_schema answered {error.code} ({error.status}), expected invalid_request (422)")
        check(any(field.get("field") == "expected_schema" for field in error.fields),
              f"invalid_request does not name expected_schema: {error.fields}")
        print(f"ok   missing expected_schema: {error.code} ({error.status}) naming expected_schema")
        return
    raise CheckFailed("a request without expected_schema was accepted")


def allowance(base_url, limit):
    anonymous = ProoflineClient(base_url)
    request = loads(conformance_text("requests/invoice-final.json"))
    for sent in range(1, limit + 1):
        try:
            anonymous.verify(request)
        except AllowanceExhaustedError as error:
            check(isinstance(error.retry_after, int) and error.retry_after > 0,
                  f"429 without a positive retry_after: {error.retry_after!r}")
            print(f"ok   free allowance: 429 {error.code} at request {sent}, retry_after {error.retry_after}s")
            return
    raise CheckFailed(f"no 429 after {limit} requests without a key")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("api_key", nargs="?")
    parser.add_argument("--expect-429", type=int, metavar="N",
                        help="send up to N requests without a key, expecting 429 free_allowance_exhausted")
    args = parser.parse_args()
    client = ProoflineClient(args.base_url, api_key=args.api_key)
    try:
        card = client.agent_card()
        print(f"ok   agent-card: {len(proofline.public_keys(card))} public key(s)")
        receipts = invoices(client, expected())
        forged(client, receipts["requests/invoice-draft.json"])
        invalid_request(client)
        if args.expect_429:
            allowance(args.base_url, args.expect_429)
    except (CheckFailed, proofline.ProoflineError, OSError, unittest.SkipTest) as failure:
        print(f"FAIL {type(failure).__name__}: {failure}")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
