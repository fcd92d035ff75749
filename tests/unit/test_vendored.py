"""The vendored front-end libraries are the files their npm packages hold (static/js/VENDORED.txt):
a file edited by hand, or upgraded without its line, fails here."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "static" / "js"
LINES = [line.split() for line in (JS / "VENDORED.txt").read_text().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize(("file", "package", "inside", "sha256"), LINES, ids=[line[0] for line in LINES])
def test_a_vendored_file_is_its_package_s_file(file, package, inside, sha256):
    assert "@" in package and inside.startswith("package/")
    assert hashlib.sha256((JS / file).read_bytes()).hexdigest() == sha256
