"""Build dist/proofline-<version>-py3-none-any.whl with the standard library only.

Usage: python3 build_wheel.py [OUTPUT_DIR]   (prints the wheel's path)

The package is pure Python with no required dependency, so a wheel is just a zip of its modules
plus three metadata files (PEP 427, PEP 376); writing it directly means no setuptools, pip or
network is needed to produce an installable artefact. The build is deterministic: same sources,
same bytes (sorted entries, fixed timestamps and permissions).
"""

import base64
import hashlib
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "proofline"
TAG = "py3-none-any"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold


def version() -> str:
    source = (HERE / NAME / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"$', source, re.M).group(1)


def metadata(ver: str) -> str:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {ver}\n"
        "Summary: Client for Proofline: verify AI agents' JSON output and check its signed receipts offline\n"
        "Requires-Python: >=3.9\n"
        "Provides-Extra: cryptography\n"
        'Requires-Dist: cryptography>=2.6; extra == "cryptography"\n'
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: {NAME} build_wheel.py\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{path},sha256={digest},{len(data)}\n"


def build(output_dir: Path) -> Path:
    ver = version()
    dist_info = f"{NAME}-{ver}.dist-info"
    files = {f"{NAME}/{path.name}": path.read_bytes() for path in sorted((HERE / NAME).glob("*.py"))}
    files[f"{dist_info}/METADATA"] = metadata(ver).encode("utf-8")
    files[f"{dist_info}/WHEEL"] = wheel_file().encode("utf-8")
    record = "".join(record_line(path, data) for path, data in files.items()) + f"{dist_info}/RECORD,,\n"
    files[f"{dist_info}/RECORD"] = record.encode("utf-8")

    output_dir.mkdir(parents=True, exist_ok=True)
    wheel = output_dir / f"{NAME}-{ver}-{TAG}.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=FIXED_TIME)
            entry.create_system = 3  # Unix, so the permissions below mean the same everywhere
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return wheel


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "dist"))
