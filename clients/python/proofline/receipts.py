"""Offline verification of signed Proofline answers: receipts and trust scores (docs/signing.md).

A receipt is worth something to a third party (a buyer, an auditor) only if it can be checked
without asking Proofline. Checking needs the answer, the service's public keys and the context
string naming what kind of answer was signed; this module rebuilds the signed message and checks
the Ed25519 signature over its canonical form, and, given the request, the receipt's hashes.
"""

from __future__ import annotations

import base64
import binascii

from .canonical import canonical_bytes, loads
from .ed25519 import verify_signature
from .errors import ReceiptVerificationError
from .hashes import request_hashes

VERIFY_CONTEXT = "json-schema-verifier/verify-schema-attestation/v1"
SCORE_CONTEXT = "json-schema-verifier/trust-score-attestation/v1"
ATTESTATION_EXTENSION_PREFIX = "urn:json-schema-verifier:extension:attestation:"


def public_keys(source) -> dict:
    """``{key_version: raw 32-byte public key}`` from any of: an agent-card (its attestation
    extension's ``params.publicKeys``), a list of ``{keyVersion, publicKey}`` entries, or a
    mapping from key version to the key as base64 text or raw bytes."""
    if isinstance(source, dict) and "capabilities" in source:
        source = _card_key_entries(source)
    if not isinstance(source, (dict, list)):
        raise TypeError("keys: an agent-card, a list of {keyVersion, publicKey} entries, or a mapping of"
                        f" key versions to keys, not {type(source).__name__}")
    if isinstance(source, list):
        source = {entry["keyVersion"]: entry["publicKey"] for entry in source
                  if isinstance(entry, dict) and isinstance(entry.get("keyVersion"), str)
                  and isinstance(entry.get("publicKey"), str) and entry.get("algorithm", "Ed25519") == "Ed25519"}
    keys = {}
    for version, key in source.items():
        if isinstance(key, bytes):
            keys[version] = key
            continue
        try:
            keys[version] = base64.b64decode(key, validate=True)
        except (binascii.Error, ValueError, TypeError):
            continue  # a key this client cannot check with, as the Java client skips it
    return keys


def verify_receipt(answer, keys, *, context=VERIFY_CONTEXT, request=None, backend="auto") -> bool:
    """Return True if ``answer`` was signed by one of ``keys``; raise ReceiptVerificationError if not.

    ``answer``: the receipt (or, with ``context=SCORE_CONTEXT``, the score answer) as a parsed
    dict or as JSON text, which is parsed refusing duplicate keys. ``keys``: anything
    ``public_keys`` accepts; trust keys you chose, never the ones the answer points to.
    ``request``: the request you sent; if given, every hash the receipt carries must match it.
    ``backend``: see ``ed25519.verify_signature``.
    """
    if not isinstance(answer, dict):
        try:
            answer = loads(answer)
        except (ValueError, TypeError) as problem:
            raise ReceiptVerificationError("malformed_receipt", f"not a JSON object: {problem}") from None
        if not isinstance(answer, dict):
            raise ReceiptVerificationError("malformed_receipt", "not a JSON object")
    attestation = answer.get("attestation")
    if not isinstance(attestation, dict):
        raise ReceiptVerificationError("missing_attestation", "the answer has no attestation object")
    if attestation.get("algorithm") != "Ed25519":
        raise ReceiptVerificationError("malformed_attestation", "attestation.algorithm is not Ed25519")
    for field in ("key_version", "timestamp", "signature"):
        if not isinstance(attestation.get(field), str):
            raise ReceiptVerificationError("malformed_attestation", f"attestation.{field} is not a string")
    try:
        signature = base64.b64decode(attestation["signature"], validate=True)
    except ValueError:  # binascii.Error, and plain ValueError for text that is not ASCII
        signature = b""
    if len(signature) != 64:
        raise ReceiptVerificationError("malformed_attestation", "attestation.signature is not base64 of 64 bytes")
    key_version = attestation["key_version"]
    key = public_keys(keys).get(key_version)
    if key is None:
        raise ReceiptVerificationError("unknown_key_version", f"no trusted public key has version {key_version!r}")
    response = {name: value for name, value in answer.items() if name != "attestation"}
    message = {"context": context, "algorithm": "Ed25519", "key_version": key_version,
               "attested_at": attestation["timestamp"], "response": response}
    try:
        signed = canonical_bytes(message)
    except (ValueError, TypeError) as problem:
        raise ReceiptVerificationError("malformed_receipt", f"no canonical form: {problem}") from None
    if not verify_signature(key, signed, signature, backend):
        raise ReceiptVerificationError("bad_signature", f"the signature does not verify with key {key_version!r} "
                                        "(changed, forged, or checked with the wrong context)")
    if request is not None:
        for name, value in _hashes_of(request).items():
            if name in answer and answer[name] != value:
                raise ReceiptVerificationError("hash_mismatch", f"{name} differs: the receipt is genuine but about other data")
    return True


def _hashes_of(request) -> dict:
    """The four hashes of the caller's ``request`` (a dict, or JSON text); a ValueError naming the
    argument when it is not a request Proofline could have taken (that is the caller's mistake, not
    the receipt's)."""
    if isinstance(request, (str, bytes, bytearray)):
        request = loads(request)
    try:
        return request_hashes(request)
    except (KeyError, TypeError, AttributeError) as problem:
        raise ValueError("request: not a verification request (it needs task_id, expected_schema and"
                         f" submitted_output, and rules and bounds as documented): {type(problem).__name__}") from None


def _card_key_entries(card: dict) -> list:
    """Keys of every extension whose uri starts with the attestation prefix (SPEC section 7: the
    version follows it), as the Java client reads them."""
    entries = []
    capabilities = card.get("capabilities")
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    for extension in extensions if isinstance(extensions, list) else []:
        if not isinstance(extension, dict) or not isinstance(extension.get("uri"), str):
            continue
        if extension["uri"].startswith(ATTESTATION_EXTENSION_PREFIX):
            params = extension.get("params")
            keys = params.get("publicKeys", []) if isinstance(params, dict) else []
            entries.extend(keys if isinstance(keys, list) else [])
    return entries

