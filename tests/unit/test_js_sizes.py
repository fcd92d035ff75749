"""Sizes a reader can hold (issue 25 item 3): no JavaScript file of ours over 400 lines (the
vendored libraries of static/js/VENDORED.txt aside)."""

from __future__ import annotations

from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "static" / "js"
MOST = 400


def test_no_javascript_file_of_ours_is_over_400_lines():
    vendored = {line.split()[0] for line in (JS / "VENDORED.txt").read_text().splitlines() if line and line[0] != "#"}
    ours = [path for path in JS.rglob("*.js") if path.relative_to(JS).as_posix() not in vendored]
    assert len(ours) >= 5
    over = {path.name: n for path in ours if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST}
    assert not over, over
