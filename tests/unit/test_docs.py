"""The README and the guides of docs/ hold together: every relative link leads to a file (and a
heading) that is there, every picture is one the suite draws, every command sits in a code block
that ``tests/e2e/test_doc_commands.py`` runs or that says what it needs, and no guide repeats
another's paragraph.

A block of commands is a fence marked ``sh``; the line before it may say
``<!-- needs: what it needs -->`` (a server of its own, PostgreSQL, the registry…): then it is only
checked for its shell syntax, else it is run.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.browser.test_readme_screens import KEY, png_text

ROOT = Path(__file__).resolve().parents[2]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKDOWN = [*GUIDES, ROOT / "ARCHITECTURE.md", ROOT / "tests" / "README.md", *sorted((ROOT / "bench").glob("*.md"))]
LANGUAGES = {"sh", "json", "nginx", "text"}  # what a fence of the guides may hold
# A code span of the prose that starts with one of these is a command: it belongs in a block.
COMMANDS = ("flask ", "gunicorn ", "python ", "python3 ", "pip ", "curl ", "bash ", "npm ", "apt-get ",
            "sudo ", "psql ", "pg_dump ", "sqlite3 ", "export ", "git ", "ruff ", "jq ")  # fmt: skip
SHARED_WORDS = 12  # a run of this many words in two guides is a paragraph repeated


class Block(NamedTuple):
    language: str
    text: str
    needs: str | None  # what it needs, when it is not run
    line: int


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, in order."""
    found, lines, at = [], path.read_text(encoding="utf-8").splitlines(), 0
    while at < len(lines):
        opened = re.match(r"^```(\S*)\s*$", lines[at])
        if opened:
            end = next(i for i in range(at + 1, len(lines)) if lines[i].startswith("```"))
            marker = re.match(r"^<!-- needs: (.+) -->$", lines[at - 1]) if at else None
            found.append(Block(opened[1], "\n".join(lines[at + 1 : end]), marker[1] if marker else None, at + 1))
            at = end
        at += 1
    return found


def prose(path: Path) -> str:
    """The text of a Markdown file without its fenced blocks and HTML comments."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, no punctuation, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^]]*)\]\([^)]*\)", lambda m: m[1] or "", heading).strip().lower()
    return "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN").replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m[1]) for m in re.finditer(r"^#+ (.+)$", prose(path), flags=re.M)}


def links(path: Path) -> list[str]:
    """Every link and picture of a Markdown file that is not a web address."""
    text = prose(path)
    found = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'(?:src|href)="([^"]+)"', text)
    return [link for link in found if not re.match(r"^(https?|mailto):", link)]


@pytest.mark.parametrize("path", MARKDOWN, ids=name)
def test_every_relative_link_leads_to_a_file_and_heading_that_are_there(path):
    broken = []
    for link in links(path):
        target, _, anchor = link.partition("#")
        where = (path.parent / target).resolve() if target else path
        if link.startswith("/") or not where.exists() or ROOT not in where.parents and where != ROOT:
            broken.append(link)  # a site path, a file that is not there, or outside the repository
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(link)
    assert broken == []


@pytest.mark.parametrize("path", GUIDES, ids=name)
def test_each_picture_is_one_the_suite_draws(path):
    """A picture of the guides carries the digest tests/browser/test_readme_screens.py puts in
    the pictures it draws (a picture made by hand, or by an older test, does not)."""
    pictures = [link for link in links(path) if link.endswith(".png")]
    for picture in pictures:
        assert KEY in png_text((path.parent / picture).read_bytes()), picture


def test_every_picture_of_docs_is_shown():
    shown = {(path.parent / link).resolve() for path in GUIDES for link in links(path)}
    assert set((ROOT / "docs" / "img").glob("*.png")) <= shown


@pytest.mark.parametrize("path", GUIDES, ids=name)
def test_commands_are_in_blocks_that_say_their_language(path):
    unsaid = [block.line for block in blocks(path) if block.language not in LANGUAGES]
    assert unsaid == [], f"fences without one of {sorted(LANGUAGES)}"
    spans = re.findall(r"`([^`\n]+)`", prose(path))
    assert [span for span in spans if span.startswith(COMMANDS)] == [], "a command in the prose: put it in a sh block"
    for block in blocks(path):
        if block.language == "sh":
            checked = subprocess.run(["bash", "-n"], input=block.text, capture_output=True, text=True)
            assert checked.returncode == 0, (block.line, checked.stderr)


def words(path: Path) -> list[str]:
    text = re.sub(r"^\|.*\|$", "", prose(path), flags=re.M)  # tables: figures and names, not paragraphs
    text = re.sub(r"\]\([^)]*\)|<[^>]+>", " ", text)
    return re.findall(r"\w+", text.lower())


def runs(path: Path) -> set[tuple[str, ...]]:
    said = words(path)
    return {tuple(said[i : i + SHARED_WORDS]) for i in range(len(said) - SHARED_WORDS + 1)}


def test_no_guide_repeats_another_s_paragraph():
    """README.md, each guide, ARCHITECTURE.md, tests/README.md and bench/README.md: no run of 12
    words said in two of them (each question answered in one place, the others point to it)."""
    files = [*GUIDES, ROOT / "ARCHITECTURE.md", ROOT / "tests" / "README.md", ROOT / "bench" / "README.md"]
    said = {path: runs(path) for path in files}
    repeated = {
        (name(a), name(b)): sorted(" ".join(run) for run in said[a] & said[b])[:3]
        for i, a in enumerate(files)
        for b in files[i + 1 :]
        if said[a] & said[b]
    }
    assert repeated == {}


def test_the_readme_is_read_in_five_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150
