"""Proofline's Python client: submit agent output for verification, read the signed receipt,
and check receipts and trust scores offline (docs/signing.md), with the standard library only.

    from proofline import ProoflineClient
    client = ProoflineClient("http://127.0.0.1:8080")
    result = client.verify_output({"type": "object", "required": ["ok"]}, {"ok": True})
    client.verify_receipt(result.receipt)
"""

from .canonical import canonical_bytes, canonicalize
from .client import ProoflineClient, VerificationResult
from .ed25519 import verify_signature
from .errors import (
    AllowanceExhaustedError,
    AuthenticationError,
    ForbiddenError,
    InvalidRequestError,
    PaymentRequiredError,
    ProoflineError,
    ReceiptVerificationError,
)
from .hashes import canonical_request, request_hash, request_hashes
from .receipts import SCORE_CONTEXT, VERIFY_CONTEXT, public_keys, verify_receipt

__version__ = "0.1.0"

__all__ = [
    "AllowanceExhaustedError",
    "AuthenticationError",
    "ForbiddenError",
    "InvalidRequestError",
    "PaymentRequiredError",
    "ProoflineClient",
    "ProoflineError",
    "ReceiptVerificationError",
    "SCORE_CONTEXT",
    "VERIFY_CONTEXT",
    "VerificationResult",
    "__version__",
    "canonical_bytes",
    "canonical_request",
    "canonicalize",
    "public_keys",
    "request_hash",
    "request_hashes",
    "verify_receipt",
    "verify_signature",
]
