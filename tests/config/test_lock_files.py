"""The lock files agree: `make install` (and CI) installs requirements/dev.txt only, the Docker image base.txt, so a
package pinned in base.txt and missing from dev.txt runs in production and fails every test (segno did)."""

import re
from pathlib import Path

REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements"
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+)", re.MULTILINE)


def pins(name: str) -> dict[str, str]:
    return {package.lower(): version for package, version in PIN.findall((REQUIREMENTS / name).read_text())}


def test_every_package_pinned_for_production_is_pinned_alike_for_development():
    base, dev = pins("base.txt"), pins("dev.txt")
    assert base, "no pins read from base.txt"
    assert {package: version for package, version in base.items() if dev.get(package) != version} == {}
