"""The four hashes a receipt carries, recomputed from the request you sent (docs/hashes.md).

A valid signature proves Proofline signed the receipt; only matching hashes prove the receipt is
about your request and not another one. Each hash is the SHA-256 hex of the canonical JSON of
part of the request; ``request_hash`` covers the request with its defaults filled in, so two
requests that mean the same thing hash the same.
"""

from __future__ import annotations

import hashlib

from .canonical import canonical_bytes

RULE_DEFAULTS = {"equals_field": None, "equals": None, "other_field": None, "value": None,
                 "in_field": None, "values": None, "tolerance": 1e-9, "if_present": False}
BOUND_DEFAULTS = {"min": None, "max": None, "if_present": False}


def sha256_canonical(value) -> str:
    """Lowercase hex SHA-256 of the canonical JSON of ``value``."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def canonical_request(request: dict) -> dict:
    """The eight-key object ``request_hash`` covers: the request without ``detail``, with every
    absent optional field and every rule's and bound's optional fields set to their defaults."""
    rules, bounds = request.get("rules"), request.get("bounds")
    return {
        "task_id": request["task_id"],
        "agent_id": request.get("agent_id"),
        "expected_schema": request["expected_schema"],
        "submitted_output": request["submitted_output"],
        "strict_content_check": request.get("strict_content_check") is True,
        "enforce_rules": request.get("enforce_rules") is True,
        "rules": None if rules is None else [{**RULE_DEFAULTS, **rule} for rule in rules],
        "bounds": None if bounds is None else {path: {**BOUND_DEFAULTS, **bound} for path, bound in bounds.items()},
    }


def request_hash(request: dict) -> str:
    """The receipt's ``request_hash`` for ``request`` (full receipts only)."""
    return sha256_canonical(canonical_request(request))


def request_hashes(request: dict) -> dict:
    """All four hashes of ``request``, keyed as in the receipt."""
    return {
        "output_hash": sha256_canonical(request["submitted_output"]),
        "schema_hash": sha256_canonical(request["expected_schema"]),
        "rules_hash": sha256_canonical({"bounds": request.get("bounds"), "rules": request.get("rules")}),
        "request_hash": request_hash(request),
    }
