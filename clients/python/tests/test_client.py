"""The client against a local HTTP server serving canned Proofline answers (no network)."""

import base64
import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from proofline import (
    AllowanceExhaustedError,
    AuthenticationError,
    InvalidRequestError,
    PaymentRequiredError,
    ProoflineClient,
    ProoflineError,
    ReceiptVerificationError,
)
from proofline.canonical import loads
from support import conformance_text, reference_keys

API_KEY = "pl_secret-test-token-0123456789"

INVALID = {"code": "invalid_request", "message": "The request has 1 problem: expected_schema is required.",
           "status": 422, "retryable": False, "charged": False,
           "next_actions": [{"action": "fix_request_fields", "fields": ["expected_schema"]}],
           "fields": [{"field": "expected_schema", "problem": "is required", "fix": "Send a JSON Schema object."}]}
PAYMENT_REQUIRED = {"x402Version": 2, "error": "payment required",
                    "resource": {"url": "http://127.0.0.1/verify/schema", "description": "verification",
                                 "mimeType": "application/json"},
                    "accepts": [{"scheme": "exact", "network": "eip155:8453", "amount": "20000",
                                 "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "payTo": "0xabc",
                                 "maxTimeoutSeconds": 60, "extra": {"name": "USD Coin", "version": "2"}}]}
TRIAL_EXHAUSTED = {"code": "free_trial_exhausted", "message": "Pay to continue.", "status": 402,
                   "retryable": False, "charged": False, "next_actions": [{"action": "pay_and_retry"}],
                   "free_trial": {"available": False, "remaining_calls_today": 0}}
ALLOWANCE = {"code": "free_allowance_exhausted", "message": "Used up.", "status": 429, "retryable": True,
             "charged": False, "retry_after": 41230, "next_actions": [{"action": "retry_after_reset"}],
             "free_trial": {"available": False}}
UNAUTHORIZED = {"code": "unauthorized", "message": "Unknown key.", "status": 401, "retryable": False,
                "charged": False, "next_actions": [{"action": "send_valid_key"}]}


def _document(payload, status=200, headers=()):
    return status, json.dumps(payload).encode(), dict(headers)


class _Handler(BaseHTTPRequestHandler):
    """Answers from ROUTES: path -> (status, body, headers); records each request it saw."""

    def do_GET(self):
        self._answer()

    def do_POST(self):
        self._answer()

    def _answer(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.seen.append((self.command, self.path, dict(self.headers), body))
        status, payload, headers = self.server.routes[self.path]
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if "Content-Length" not in headers:  # a route may declare more than it sends
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        self.server.seen = []
        self.server.routes = {}
        self.client = ProoflineClient(self.base + "/", api_key=API_KEY, timeout=5)

    def serve(self, path, answer):
        self.server.routes[path] = answer

    def assert_key_hidden(self, error):
        for text in (str(error), repr(error), repr(error.document), repr(self.client)):
            self.assertNotIn(API_KEY, text)

    def test_verify_returns_the_receipt_and_sends_the_key(self):
        receipt = conformance_text("receipts/invoice-draft.full.json")
        self.serve("/verify/schema", (200, receipt.encode(), {"Content-Type": "application/json"}))
        request = loads(conformance_text("requests/invoice-draft.json"))
        result = self.client.verify(request)
        self.assertFalse(result.passed)
        self.assertEqual(result.verification_id, "28afb453-7c39-4993-a9c4-fcade1b7924f")
        self.assertEqual([hint["check"] for hint in result.hints], ["consistency:sum_equals"])
        self.assertEqual(result.receipt, loads(receipt))
        method, _, headers, body = self.server.seen[0]
        self.assertEqual((method, headers["Authorization"]), ("POST", "Bearer " + API_KEY))
        self.assertEqual(json.loads(body), request)

    def test_a_key_read_from_its_file_is_trimmed_and_a_broken_one_refused_unquoted(self):
        self.serve("/verify/schema", (200, conformance_text("receipts/invoice-final.compact.json").encode(), {}))
        client = ProoflineClient(self.base, api_key=API_KEY + "\n", timeout=5)  # as operator.token ends
        client.verify(loads(conformance_text("requests/invoice-final.json")))
        self.assertEqual(self.server.seen[0][2]["Authorization"], "Bearer " + API_KEY)
        for broken in (API_KEY + "\r\nX-Injected: 1", API_KEY[:10] + "\u00e9" + API_KEY[11:], API_KEY + "\u00a0"):
            with self.assertRaises(ValueError) as refused:
                ProoflineClient(self.base, api_key=broken)
            self.assertNotIn(API_KEY[12:], str(refused.exception))
        ProoflineClient(self.base, api_key="", timeout=5).verify(loads(conformance_text("requests/invoice-final.json")))
        self.assertNotIn("Authorization", self.server.seen[1][2], "an empty key is no key")

    def test_verify_output_builds_the_request(self):
        self.serve("/verify/schema", (200, conformance_text("receipts/invoice-final.compact.json").encode(), {}))
        result = self.client.verify_output({"type": "object"}, None, agent_id="agent-1", enforce_rules=False)
        self.assertTrue(result.passed)
        self.assertEqual(result.hints, [])
        sent = json.loads(self.server.seen[0][3])
        self.assertTrue(sent.pop("task_id").startswith("task-"))
        self.assertEqual(sent, {"expected_schema": {"type": "object"}, "submitted_output": None,
                                "agent_id": "agent-1", "enforce_rules": False})

    def test_422_is_invalid_request_with_fields(self):
        self.serve("/verify/schema", _document(INVALID, 422))
        with self.assertRaises(InvalidRequestError) as caught:
            self.client.verify({"task_id": "t", "submitted_output": {}})
        error = caught.exception
        self.assertEqual((error.code, error.status, error.retryable), ("invalid_request", 422, False))
        self.assertEqual(error.fields[0]["field"], "expected_schema")
        self.assertEqual(error.document, INVALID)
        self.assert_key_hidden(error)

    def test_402_decodes_the_payment_required_header(self):
        header = base64.b64encode(json.dumps(PAYMENT_REQUIRED).encode()).decode()
        self.serve("/verify/schema", _document(TRIAL_EXHAUSTED, 402, {"Payment-Required": header}))
        with self.assertRaises(PaymentRequiredError) as caught:
            self.client.verify_output({"type": "object"}, {})
        error = caught.exception
        self.assertEqual((error.code, error.status), ("free_trial_exhausted", 402))
        self.assertEqual(error.requirements, PAYMENT_REQUIRED)
        self.assertEqual(error.document["free_trial"]["remaining_calls_today"], 0)
        self.assert_key_hidden(error)

    def test_402_without_the_header_has_no_requirements(self):
        self.serve("/verify/schema", _document(dict(TRIAL_EXHAUSTED, code="payment_replayed"), 402))
        with self.assertRaises(PaymentRequiredError) as caught:
            self.client.verify_output({"type": "object"}, {})
        self.assertIsNone(caught.exception.requirements)

    def test_429_carries_retry_after(self):
        self.serve("/verify/schema", _document(ALLOWANCE, 429, {"Retry-After": "41230"}))
        with self.assertRaises(AllowanceExhaustedError) as caught:
            self.client.verify_output({"type": "object"}, {})
        error = caught.exception
        self.assertEqual((error.code, error.retry_after, error.retryable), ("free_allowance_exhausted", 41230, True))
        self.assert_key_hidden(error)

    def test_retry_after_header_is_read_when_the_document_lacks_it(self):
        document = {"code": "broker_unavailable", "message": "Later.", "status": 503, "retryable": True}
        self.serve("/verify/schema", _document(document, 503, {"Retry-After": "5"}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.verify_output({"type": "object"}, {})
        self.assertIs(type(caught.exception), ProoflineError)
        self.assertEqual(caught.exception.retry_after, 5)

    def test_401_is_an_authentication_error(self):
        self.serve("/receipts/abc", _document(UNAUTHORIZED, 401, {"WWW-Authenticate": "Bearer"}))
        with self.assertRaises(AuthenticationError) as caught:
            self.client.receipt("abc")
        self.assertEqual(caught.exception.code, "unauthorized")
        self.assert_key_hidden(caught.exception)

    def test_a_body_that_is_not_an_error_document(self):
        self.serve("/score/agent%2F1", (502, b"<html>Bad Gateway</html>", {"Content-Type": "text/html"}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.score("agent/1")
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.document),
                         ("http_502", 502, None))

    def test_a_retry_after_of_other_digits_is_ignored(self):
        document = {"code": "broker_unavailable", "message": "Later.", "status": 503, "retryable": True}
        self.serve("/verify/schema", _document(document, 503, {"Retry-After": "\u00b2"}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.verify_output({"type": "object"}, {})
        self.assertEqual((caught.exception.code, caught.exception.retry_after), ("broker_unavailable", None))

    def test_an_answer_nested_past_the_parser_is_no_json_object(self):
        self.serve("/score/deep", (200, b"[" * 100_000, {}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.score("deep")
        self.assertEqual(caught.exception.code, "http_200")
        self.serve("/score/deep", (503, b"[" * 100_000, {}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.score("deep")
        self.assertEqual(caught.exception.code, "http_503")

    def test_an_answer_cut_short_is_an_os_error(self):
        self.serve("/score/short", (200, b"{}", {"Content-Length": "100"}))
        with self.assertRaises(OSError):
            self.client.score("short")

    def test_an_answer_that_is_not_http_1_is_an_os_error(self):
        import socket
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)

        def answer_once():
            connection, _ = listener.accept()
            with connection:
                connection.recv(65536)
                connection.sendall(b"HTTP/2.0 200 OK\r\nContent-Length: 2\r\n\r\n{}")

        threading.Thread(target=answer_once, daemon=True).start()
        try:
            with self.assertRaises(OSError):
                ProoflineClient(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5).score("a")
        finally:
            listener.close()

    def test_a_url_that_cannot_be_used_is_not_a_broken_answer(self):
        with self.assertRaises(Exception) as caught:
            ProoflineClient("http://127.0.0.1:notaport").score("a")
        self.assertNotIsInstance(caught.exception, OSError)

    def test_an_answer_past_the_cap_is_not_read_whole(self):
        from proofline.client import MAX_ANSWER_BYTES
        self.serve("/score/huge", (200, b" " * (MAX_ANSWER_BYTES + 1), {}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.score("huge")
        self.assertEqual(caught.exception.code, "answer_too_large")

    def test_score_as_of_travels_as_a_query_parameter(self):
        self.serve("/score/seller-7?as_of=2026-11-30T12%3A00%3A00Z", _document({"decayed_score": 0.5}))
        self.assertEqual(self.client.score("seller-7", as_of="2026-11-30T12:00:00Z"), {"decayed_score": 0.5})

    def test_a_redirect_is_followed_without_reading_its_body(self):
        # It claims a body it never sends: the standard handler would wait for all of it, unbounded.
        for status in (301, 302, 303, 307, 308):
            with self.subTest(status=status):
                self.serve("/receipts/moved", (status, b"", {"Location": "/receipts/here",
                                                            "Content-Length": str(10**12)}))
                self.serve("/receipts/here", _document({"result": "pass"}))
                self.assertEqual(self.client.receipt("moved"), {"result": "pass"})

    def test_a_redirected_post_is_an_error_not_a_get_without_its_body(self):
        for status in (301, 302, 303, 307, 308):
            with self.subTest(status=status):
                self.server.seen = []
                self.serve("/verify/schema", (status, b"", {"Location": "/elsewhere"}))
                self.serve("/elsewhere", _document({"result": "pass"}))
                with self.assertRaises(ProoflineError) as caught:
                    self.client.verify({"task_id": "t"})
                self.assertEqual(caught.exception.code, "redirected")
                self.assertEqual(caught.exception.status, status)
                self.assertEqual([seen[1] for seen in self.server.seen], ["/verify/schema"])
                self.assertNotIn("/elsewhere", str(caught.exception))
                self.assert_key_hidden(caught.exception)

    def test_a_redirect_loop_ends_as_redirected(self):
        self.serve("/receipts/loop", (302, b"", {"Location": "/receipts/loop"}))
        with self.assertRaises(ProoflineError) as caught:
            self.client.receipt("loop")
        self.assertEqual(caught.exception.code, "redirected")

    def test_a_retry_after_that_is_no_wait_is_not_read_as_one(self):
        throttled = dict(ALLOWANCE)
        del throttled["retry_after"]
        for header in ("9" * 5000, "soon", "-5", "²"):
            with self.subTest(header=header[:10]):
                self.serve("/score/x", _document(throttled, 429, {"Retry-After": header}))
                with self.assertRaises(AllowanceExhaustedError) as caught:
                    self.client.score("x")
                self.assertIsNone(caught.exception.retry_after)
        for value in ("soon", True, -3, 1.5, None):
            with self.subTest(document=value):
                self.serve("/score/x", _document(dict(throttled, retry_after=value), 429, {"Retry-After": "7"}))
                with self.assertRaises(AllowanceExhaustedError) as caught:
                    self.client.score("x")
                self.assertEqual(caught.exception.retry_after, 7, "the header, when the document has no wait")
        self.serve("/score/x", _document(dict(throttled, message=["not", "text"]), 429))
        with self.assertRaises(AllowanceExhaustedError) as caught:
            self.client.score("x")
        self.assertEqual(caught.exception.message, "")

    def test_an_empty_task_id_is_sent_as_given(self):
        self.serve("/verify/schema", _document(INVALID, 422))
        with self.assertRaises(InvalidRequestError):
            self.client.verify_output({"type": "object"}, {}, task_id="")
        self.assertEqual(json.loads(self.server.seen[0][3])["task_id"], "")

    def test_the_key_is_not_forwarded_on_a_redirect(self):
        self.serve("/receipts/moved", (302, b"", {"Location": "/receipts/here"}))
        self.serve("/receipts/here", _document({"result": "pass"}))
        self.assertEqual(self.client.receipt("moved"), {"result": "pass"})
        first, second = self.server.seen
        self.assertIn("Authorization", first[2])
        self.assertNotIn("Authorization", second[2])

    def test_verify_receipt_uses_the_agent_card_and_refetches_once_for_a_new_key(self):
        (version, key), = reference_keys().items()
        old_card = {"capabilities": {"extensions": [{"uri": "urn:json-schema-verifier:extension:attestation:v1",
                                                     "params": {"publicKeys": []}}]}}
        new_card = json.loads(json.dumps(old_card))
        new_card["capabilities"]["extensions"][0]["params"]["publicKeys"] = [
            {"keyVersion": version, "algorithm": "Ed25519", "publicKey": key}]
        receipt = conformance_text("receipts/invoice-draft.full.json")
        self.serve("/.well-known/agent-card.json", _document(old_card))
        self.assertEqual(self.client.agent_card(), old_card)
        self.serve("/.well-known/agent-card.json", _document(new_card))  # the service rotated its key
        self.assertTrue(self.client.verify_receipt(receipt))
        self.assertTrue(self.client.verify_receipt(receipt))
        card_fetches = [seen for seen in self.server.seen if seen[1] == "/.well-known/agent-card.json"]
        self.assertEqual(len(card_fetches), 2)
        self.assertTrue(all("Authorization" not in headers for _, _, headers, _ in card_fetches))
        forged = dict(loads(receipt), result="pass")
        with self.assertRaises(ReceiptVerificationError) as caught:
            self.client.verify_receipt(forged, self.base + "/.well-known/agent-card.json")
        self.assertEqual(caught.exception.code, "bad_signature")


if __name__ == "__main__":
    unittest.main()
