"""A small HTTP client for one Proofline deployment (docs/http.md), on the standard library only.

It sends requests, turns Proofline's error documents into exceptions (errors.py) and checks
receipts against the deployment's published keys, so an agent can submit output and hand on a
receipt in a few lines. The API key travels only as ``Authorization: Bearer <key>``
(docs/access.md): never in a URL, never to another host after a redirect, never to an agent-card
URL, and never in an exception or a repr.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from urllib.parse import quote

from .canonical import loads
from .errors import ProoflineError, ReceiptVerificationError, error_from_response
from .receipts import VERIFY_CONTEXT, verify_receipt

AGENT_CARD_PATH = "/.well-known/agent-card.json"
# No answer of Proofline's comes near this (a receipt's lists are capped); a larger one is not read.
MAX_ANSWER_BYTES = 16 * 1024 * 1024


def _read_capped(answer, http_response) -> bytes:
    """The body, up to MAX_ANSWER_BYTES; ``http_response`` is the http.client response under it."""
    payload = answer.read(MAX_ANSWER_BYTES + 1)
    if len(payload) > MAX_ANSWER_BYTES:
        raise ProoflineError("answer_too_large", f"the answer is larger than {MAX_ANSWER_BYTES} bytes",
                             getattr(http_response, "status", None))
    # A bounded read stops quietly where the connection ended; an unbounded one would have raised.
    remaining = getattr(http_response, "length", None)
    if remaining:
        raise http.client.IncompleteRead(payload, remaining)
    return payload


class _Unread:
    """A redirect's body, never read: the standard handler reads it whole, with no limit, before
    it follows the redirect (which opens a new connection anyway)."""

    def __init__(self, answer):
        self._answer = answer

    @property
    def closed(self):
        return self._answer.closed

    def read(self, *_):
        return b""

    def close(self):
        self._answer.close()


class _GetRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects of GETs only, without reading their bodies. A POST answered with a
    redirect is not resent as a GET without its body (what the standard handler does for 301-303):
    it ends as an error the client names ``redirected``."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if req.get_method() != "GET":
            return None
        # Before Python 3.11 the standard handler follows no 308; for a GET it means what 307 does.
        return super().redirect_request(req, fp, 307 if code == 308 else code, msg, headers, newurl)

    def http_error_302(self, req, fp, code, msg, headers):
        return super().http_error_302(req, _Unread(fp), code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


@dataclass(frozen=True)
class VerificationResult:
    """What a caller usually needs from a receipt (docs/receipt.md), plus the receipt itself.

    ``passed``: the receipt's ``result`` is ``"pass"``. ``hints``: one ``{source, check, path,
    expected, found}`` per failed check; empty for a compact receipt, which has no lists.
    ``receipt``: the whole signed receipt, to check (``verify_receipt``) or hand on unchanged.
    """

    passed: bool
    hints: list
    receipt: dict
    verification_id: str

    @classmethod
    def from_receipt(cls, receipt: dict) -> "VerificationResult":
        return cls(receipt.get("result") == "pass", receipt.get("hints", []), receipt,
                   receipt.get("verification_id"))


def _header_safe_key(api_key):
    """The key as it goes into ``Authorization``: surrounding spaces, tabs and line breaks dropped (a
    token file ends with a newline); an empty one is no key. Anything else a header cannot carry is refused without quoting the
    key, since http.client's own error would quote the whole header value."""
    key = (api_key or "").strip(" \t\r\n")
    if not key:
        return None  # as before: no key, no header
    for position, char in enumerate(key):
        if not "\x21" <= char <= "\x7e":
            raise ValueError(
                f"the API key has a character that is not visible ASCII at position {position} "
                "(the key is not shown); send the token as `proofline caller add` printed it")
    return key


class ProoflineClient:
    """``ProoflineClient("https://proofline.example", api_key=None, timeout=30.0)``.

    Every method raises ProoflineError (or a subclass) when the service answers with an error,
    and the standard library's OSError (``urllib.error.URLError``, ``TimeoutError``) when it
    cannot be reached.
    """

    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._api_key = _header_safe_key(api_key)
        self._agent_cards = {}

    def __repr__(self):
        return f"ProoflineClient({self.base_url!r}, api_key={'<set>' if self._api_key else None})"

    def verify(self, request: dict) -> VerificationResult:
        """``POST /verify/schema`` with a whole request (docs/request.md)."""
        return VerificationResult.from_receipt(self._call("POST", "/verify/schema", request))

    def verify_output(self, schema, output, rules=None, task_id=None, agent_id=None, bounds=None,
                      enforce_rules=None, strict_content_check=None, detail=None) -> VerificationResult:
        """Verify ``output`` against the JSON Schema ``schema``; fields left None are not sent (the
        service applies its defaults). ``task_id`` None becomes a fresh ``task-<uuid4>``."""
        request = {"task_id": task_id if task_id is not None else f"task-{uuid.uuid4()}", "expected_schema": schema,
                   "submitted_output": output}
        optional = {"agent_id": agent_id, "rules": rules, "bounds": bounds, "enforce_rules": enforce_rules,
                    "strict_content_check": strict_content_check, "detail": detail}
        request.update({name: value for name, value in optional.items() if value is not None})
        return self.verify(request)

    def score(self, agent_id: str, as_of: str | None = None) -> dict:
        """``GET /score/{agent_id}``: the signed trust score (check it with ``context=SCORE_CONTEXT``):
        the lifetime ``trust_score``, the ``decayed_score`` and the 1, 7 and 30 day ``windows``, as of
        now or of ``as_of`` (RFC 3339 or epoch milliseconds, not before the agent's latest receipt)."""
        query = "" if as_of is None else "?as_of=" + quote(str(as_of), safe="")
        return self._call("GET", "/score/" + quote(agent_id, safe="") + query)

    def receipt(self, verification_id: str) -> dict:
        """``GET /receipts/{verification_id}``: a receipt this key (or address) submitted."""
        return self._call("GET", "/receipts/" + quote(verification_id, safe=""))

    def agent_card(self) -> dict:
        """The deployment's agent-card, fetched once and kept."""
        return self._agent_card(self.base_url + AGENT_CARD_PATH)

    def verify_receipt(self, receipt, agent_card_url: str | None = None, *, context=VERIFY_CONTEXT,
                       request=None) -> bool:
        """True if ``receipt`` (dict or JSON text) is signed by a key of the agent-card at
        ``agent_card_url`` (default: this deployment's); else ReceiptVerificationError.
        ``request``, if given, must match the receipt's hashes. A key version the kept card does
        not know makes the card be fetched once more, in case the service rotated its key."""
        url = agent_card_url or self.base_url + AGENT_CARD_PATH
        kept = url in self._agent_cards
        try:
            return verify_receipt(receipt, self._agent_card(url), context=context, request=request)
        except ReceiptVerificationError as error:
            if not (kept and error.code == "unknown_key_version"):
                raise
        del self._agent_cards[url]
        return verify_receipt(receipt, self._agent_card(url), context=context, request=request)

    def _agent_card(self, url: str) -> dict:
        if url not in self._agent_cards:
            self._agent_cards[url] = self._send("GET", url, None, authorize=False)
        return self._agent_cards[url]

    def _call(self, method: str, path: str, body=None) -> dict:
        return self._send(method, self.base_url + path, body, authorize=True)

    def _exchange(self, request):
        """``(status, body, headers)`` of the answer; headers only for an error status."""
        try:
            # Built per call, as urlopen's is: proxy settings are read from the environment now.
            with urllib.request.build_opener(_GetRedirects).open(request, timeout=self.timeout) as response:
                return response.status, _read_capped(response, response), None
        except urllib.error.HTTPError as answer:
            with answer:
                return answer.code, _read_capped(answer, answer.fp), answer.headers

    def _send(self, method: str, url: str, body, authorize: bool) -> dict:
        data = None if body is None else json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method, headers={"Accept": "application/json"})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if authorize and self._api_key:
            # An unredirected header is not copied onto a redirect, which may lead to another host.
            request.add_unredirected_header("Authorization", "Bearer " + self._api_key)
        try:
            status, payload, error_headers = self._exchange(request)
        except http.client.InvalidURL:
            raise  # the caller's URL, not the answer
        except http.client.HTTPException as broken:
            # An answer cut short or not HTTP at all (IncompleteRead, BadStatusLine, LineTooLong):
            # the service could not be heard, as documented for an unreachable one.
            raise ConnectionError(f"the answer broke off or is not HTTP ({type(broken).__name__})") from None
        if 300 <= status < 400:
            # A POST redirected, or too many redirects: the Location is not quoted (it may carry anything).
            raise ProoflineError("redirected", f"the service answered {status}, a redirect the client does not"
                                 f" follow for a {method}; use the address it names as the base URL", status)
        if error_headers is not None:
            raise error_from_response(status, payload, error_headers)
        try:
            document = loads(payload)
        except ValueError:
            document = None
        if not isinstance(document, dict):
            raise ProoflineError(f"http_{status}", "the answer is not a JSON object", status)
        return document
