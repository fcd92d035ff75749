"""Sizes a reader can hold (issue 25 item 3): no JavaScript file of ours over 400 lines (the
vendored libraries of static/js/VENDORED.txt aside); all of ours together no longer than the
2,070 lines they were when the manche in progress became one object (issue 52), counted as the
files hold them, and no line so long that the count could be met by joining lines."""

from __future__ import annotations

from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "static" / "js"
MOST = 400
ALL = 2070
WIDEST = 210  # the longest line of ours when the cap was set (night.js, 207)


def ours() -> dict[str, list[str]]:
    """Each JavaScript file of ours (every folder of static/js), by its path there: its lines."""
    vendored = {line.split()[0] for line in (JS / "VENDORED.txt").read_text().splitlines() if line and line[0] != "#"}
    files = (path for path in JS.rglob("*.js") if path.relative_to(JS).as_posix() not in vendored)
    return {path.relative_to(JS).as_posix(): path.read_text(encoding="utf-8").splitlines() for path in files}


def test_no_javascript_file_of_ours_is_over_400_lines():
    files = ours()
    assert len(files) >= 5
    over = {name: len(lines) for name, lines in files.items() if len(lines) > MOST}
    assert not over, over


def test_our_javascript_is_no_longer_than_2070_lines_and_none_is_joined():
    files = ours()
    assert {"app.js", "entry.js", "hands.js", "sw.js"} <= set(files)
    assert "htmx.min.js" not in files
    assert sum(len(lines) for lines in files.values()) <= ALL
    wide = {
        f"{name}:{i}": len(line)
        for name, lines in files.items()
        for i, line in enumerate(lines, 1)
        if len(line) > WIDEST
    }
    assert not wide, wide
