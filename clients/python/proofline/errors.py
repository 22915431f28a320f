"""The exceptions the package raises, one class per thing a caller does differently.

Proofline answers every error with one document (docs/errors.md): ``{code, message, status,
retryable, charged, next_actions, fields?, retry_after?}``. Callers should switch on ``code``;
the classes below only group the statuses that call for a different reaction (fix the request,
pay, wait, send another key), so ``except`` clauses stay short. Every class keeps the whole
document. Nothing here ever holds the caller's API key.
"""

from __future__ import annotations

import base64
import json


class ProoflineError(Exception):
    """Proofline refused or could not answer; also the base of every exception of the package.

    ``code`` is the error document's code, or ``http_<status>`` when the body was not an error
    document. ``retry_after`` (seconds) is set on retryable codes. ``document`` is the whole
    error document (None when there was none).
    """

    def __init__(self, code, message, status=None, retryable=False, retry_after=None, document=None):
        super().__init__(f"{code}: {message}" if status is None else f"{code} ({status}): {message}")
        self.code = code
        self.message = message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.document = document


class InvalidRequestError(ProoflineError):
    """422: the request is not valid (``invalid_request``, with ``fields`` naming each problem and
    its fix) or too costly to check (``verification_budget_exceeded``). Fix it; do not retry."""

    @property
    def fields(self):
        return (self.document or {}).get("fields", [])


class AuthenticationError(ProoflineError):
    """401 ``unauthorized``: the key is missing where one is needed, unknown or revoked."""


class ForbiddenError(ProoflineError):
    """403 ``forbidden``: the key is valid but its role does not allow this route."""


class PaymentRequiredError(ProoflineError):
    """402: the free allowance is used up and this deployment takes x402 payments, or a payment
    was refused. ``requirements`` is the decoded ``Payment-Required`` header (the x402 version 2
    PaymentRequired object: ``{x402Version, error, resource, accepts}``), or None if absent."""

    def __init__(self, *args, requirements=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.requirements = requirements


class AllowanceExhaustedError(ProoflineError):
    """429 ``free_allowance_exhausted``: today's free verifications are used up and this
    deployment takes no payment; ``retry_after`` is the number of seconds until they reset."""


class ReceiptVerificationError(ProoflineError):
    """A receipt or score answer failed the offline check (docs/signing.md). ``code`` says why:
    ``malformed_receipt``, ``missing_attestation``, ``malformed_attestation``,
    ``unknown_key_version``, ``bad_signature`` or ``hash_mismatch``. It never means the service
    refused anything, so ``status`` is None."""


_BY_STATUS = {
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: ForbiddenError,
    422: InvalidRequestError,
    429: AllowanceExhaustedError,
}


def error_from_response(status: int, body: bytes, headers) -> ProoflineError:
    """The exception for an HTTP answer with a non-2xx ``status``; ``headers`` is the answer's
    header mapping (case-insensitive ``get``)."""
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        document = None
    if not isinstance(document, dict) or not isinstance(document.get("code"), str):
        return ProoflineError(f"http_{status}", "the answer is not an error document", status)
    retry_after = document.get("retry_after")
    if isinstance(retry_after, bool) or not isinstance(retry_after, int) or retry_after < 0:
        retry_after = None  # documented as whole seconds; anything else is not a wait to honour
    header = headers.get("Retry-After") or ""
    # isascii: str.isdigit() is also true for "²", which int() refuses; and int() refuses more than
    # 4,300 digits with a ValueError, so a header longer than any real wait is not read.
    if retry_after is None and header.isascii() and header.isdigit() and len(header) <= 10:
        retry_after = int(header)
    message = document.get("message")
    cls = _BY_STATUS.get(status, ProoflineError)
    extra = {"requirements": _payment_requirements(headers)} if cls is PaymentRequiredError else {}
    return cls(
        document["code"],
        message if isinstance(message, str) else "",
        status,
        document.get("retryable") is True,
        retry_after,
        document,
        **extra,
    )


def _payment_requirements(headers):
    """The ``Payment-Required`` header: standard base64 of the PaymentRequired JSON
    (docs/payments.md). None when absent or not decodable."""
    encoded = headers.get("Payment-Required")
    if not encoded:
        return None
    try:
        return json.loads(base64.b64decode(encoded, validate=True))
    except (ValueError, RecursionError):
        return None
