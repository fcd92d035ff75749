"""Every user-visible string has its French translation, and the compiled catalog is current."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "N_": None, "Nn_": (1, 2)}
METHODS = [("**/templates/**.html", "jinja2"), ("**.py", "python")]
SKIP = (".venv", "tests", "test-artifacts", "migrations", "node_modules", "bench")


def source_messages() -> set:
    found = set()
    for filename, _lineno, message, _comments, _context in extract_from_dir(
        str(ROOT),
        METHODS,
        keywords=KEYWORDS,
        callback=None,
        strip_comment_tags=True,
        directory_filter=lambda d: not Path(d).name.startswith(SKIP),
    ):
        if filename.startswith(SKIP):
            continue
        found.add(message if isinstance(message, str) else tuple(message))
    return found


@pytest.fixture(scope="module")
def french():
    with open(ROOT / "translations/fr/LC_MESSAGES/messages.po", "rb") as f:
        return read_po(f, locale="fr")


def test_every_string_has_a_french_translation(french):
    missing = []
    for message in source_messages():
        msgid = message[0] if isinstance(message, tuple) else message
        entry = french.get(msgid)
        if entry is None or entry.fuzzy or not all(entry.string if isinstance(entry.string, tuple) else [entry.string]):
            missing.append(msgid)
    assert not missing, f"untranslated into French: {sorted(missing)}"


def test_translations_keep_the_placeholders(french):
    problems = [(m.id, errors) for m, errors in french.check() if errors]
    assert not problems


def test_compiled_catalog_is_current(french):
    compiled = io.BytesIO()
    write_mo(compiled, french)
    committed = (ROOT / "translations/fr/LC_MESSAGES/messages.mo").read_bytes()
    assert compiled.getvalue() == committed, "run: flask --app app translations"


def test_translations_use_every_placeholder(french):
    """A French text keeps every %(name)s of its English original (a lost one hides a number or a
    name), but a plural's singular, which may say its count in words."""
    import re

    placeholder = re.compile(r"%\((\w+)\)[sd]")
    wrong = []
    for message in french:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(placeholder.findall(ids[-1]))
        for index, text in enumerate(strings):
            # a plural's singular may say its one in words (« L'unique manche a été jouée. »)
            allowed = (wanted, wanted - {"num"}) if len(ids) > 1 and index == 0 else (wanted,)
            if text and set(placeholder.findall(text)) not in allowed:
                wrong.append((ids[0], text))
    assert not wrong, wrong


def test_french_typography(french):
    """French puts a no-break space before : ; ? and ! (a plain space lets the sign wrap alone to
    the next line on a narrow phone), and the catalogue keeps one apostrophe, the straight one."""
    import re

    wrong = []
    for message in french:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            if re.search(r"[ \u202f][:;?!]|\w[;?!](\s|$)|\u2019", text):
                wrong.append(text)
    assert wrong == []
