"""Where the tests find Proofline's conformance data: the repository's own ``conformance/``
(two levels above clients/python), so a clean clone runs every test; PROOFLINE_CONFORMANCE
points elsewhere."""

import json
import os
import unittest
from pathlib import Path

CONFORMANCE = Path(os.environ.get("PROOFLINE_CONFORMANCE")
                   or Path(__file__).resolve().parents[3] / "conformance")


def conformance_path(relative: str) -> Path:
    """The path of a conformance file; skips the calling test when the data is absent."""
    path = CONFORMANCE / relative
    if not path.is_file():
        raise unittest.SkipTest(f"conformance data not found at {path} (set PROOFLINE_CONFORMANCE)")
    return path


def conformance_text(relative: str) -> str:
    return conformance_path(relative).read_text(encoding="utf-8")


def expected() -> dict:
    return json.loads(conformance_text("expected.json"))


def reference_keys() -> dict:
    """The reference service's key, as expected.json publishes it: {keyVersion: base64}."""
    key = expected()["reference_public_key"]
    return {key["keyVersion"]: key["publicKey"]}
