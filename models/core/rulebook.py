"""The rule-page files: load and validate ``models/core/variants/rules/*.toml``.

One rules file per variant (same id) holds the written sections in French and English, in page
order. A section either carries text, or stands for a part generated from the variant data
(``generated = "cards" | "scoring" | "finish" | "end" | "options"``, with an optional intro).
Every interpretation of the variant (``Variant.interpretations``) is placed in exactly one
section (``interpretations = ["deck"]``); a section may add its own (``interpretation``), and
the page shows both as interpretations of the source, named in words (``source``; the seed file's
name, ``seed``, stays in the file for the maintainers and is never shown). The files are checked
by the one validator of rules documents (``rules.FieldReader``).

What a page shows is ``models/core/rulepage.py``; the comparison ``models/core/comparison.py``; the search
``models/core/rulesearch.py``. Pure: no Flask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .problems import VariantFileError
from .rules import VARIANTS_DIR, FieldReader, read_toml
from .rules import catalog as default_catalog
from .variant import LANGUAGES, Catalog, Variant

RULES_DIR = VARIANTS_DIR / "rules"
GENERATED = ("cards", "scoring", "finish", "end", "options")
REQUIRED_GENERATED = ("cards", "scoring", "finish", "end")
SECTION_FIELDS = {"id", "title", "fr", "en", "generated", "interpretations", "interpretation"}
SECTION_ID = re.compile(r"^[a-z][a-z0-9-]*$")


# --- the files ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One section of a rule page: ``blocks[lang]`` is a tuple of ("p", text) and ("ul", items)."""

    id: str
    title: dict
    blocks: MappingProxyType  # lang -> tuple of blocks
    generated: str | None = None
    interpretations: tuple = ()  # the variant's interpretations shown here ({"about", "fr", "en"})
    interpretation: dict | None = None  # this file's own interpretation, {"fr", "en"}

    def text(self, lang: str) -> str:
        """The section's text as one string (paragraphs and list items on their own lines)."""
        lines = []
        for kind, content in self.blocks.get(lang, ()):
            lines.extend(content if kind == "ul" else [content])
        return "\n".join(lines)

    def notes(self) -> tuple:
        """Every interpretation shown in this section, as ``{"fr", "en"}`` texts."""
        own = (self.interpretation,) if self.interpretation else ()
        return tuple(self.interpretations) + own


@dataclass(frozen=True)
class VariantRules:
    variant_id: str
    seed: str  # the seed file the facts come from (kept for the maintainers; never shown)
    sections: tuple  # of Section, in page order
    path: str = ""
    source: dict = field(default_factory=dict)  # the source named in words, {"fr", "en"}

    def generated(self, kind: str) -> Section | None:
        return next((s for s in self.sections if s.generated == kind), None)


@dataclass(frozen=True)
class Rulebook:
    variants: MappingProxyType  # variant id -> VariantRules

    def of(self, variant_id: str) -> VariantRules:
        return self.variants[variant_id]


def parse_blocks(text: str) -> tuple:
    """Paragraphs (separated by blank lines) and lists (lines starting with "- ")."""
    blocks, paragraph, items = [], [], []

    def flush():
        if paragraph:
            blocks.append(("p", " ".join(paragraph)))
            paragraph.clear()
        if items:
            blocks.append(("ul", tuple(items)))
            items.clear()

    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("- "):
            if paragraph:
                blocks.append(("p", " ".join(paragraph)))
                paragraph.clear()
            items.append(line[2:].strip())
        elif items and raw.startswith("  "):
            items[-1] += " " + line  # a list item continued on the next line
        else:
            if items:
                blocks.append(("ul", tuple(items)))
                items.clear()
            paragraph.append(line)
    flush()
    return tuple(blocks)


def _validate_section(book: FieldReader, index: int, data, variant: Variant) -> Section:
    where = f"sections[{index}]"
    if not isinstance(data, dict):
        book.fail(where, "expected_table")
    r = FieldReader(book.path, data, f"{where}.")
    r.check_known(SECTION_FIELDS)
    section_id = r.get("id", str, check=SECTION_ID.match)
    title = r.bilingual("title")
    generated = r.get("generated", str, None, check=lambda kind: kind in GENERATED)
    has_text = any(lang in data for lang in LANGUAGES)
    if generated is None or has_text:
        text = FieldReader(book.path, {where: {lang: data.get(lang) for lang in LANGUAGES}}).bilingual(where)
        blocks = {lang: parse_blocks(text[lang]) for lang in LANGUAGES}
    else:
        blocks = {lang: () for lang in LANGUAGES}
    known = {i["about"]: i for i in variant.interpretations}
    placed = r.get("interpretations", list, [], check=lambda names: all(isinstance(a, str) for a in names))
    for about in placed:
        if about not in known:
            r.fail("interpretations", "unknown_interpretation", about=about)
    return Section(
        id=section_id,
        title=title,
        blocks=MappingProxyType(blocks),
        generated=generated,
        interpretations=tuple(known[a] for a in placed),
        interpretation=r.bilingual("interpretation", required=False),
    )


def validate_rules(data: dict, path: str, variant: Variant) -> VariantRules:
    """The rules of one variant from its parsed file, or VariantFileError naming file and field."""
    r = FieldReader(path, data)
    r.check_known({"variant", "seed", "source", "sections"})
    r.get("variant", str, check=lambda name: name == variant.id)
    seed = r.get("seed", str, check=lambda name: name.startswith(f"{variant.source}_") and name.endswith(".txt"))
    raw = r.get("sections", list, check=bool)
    sections = tuple(_validate_section(r, i, s, variant) for i, s in enumerate(raw))
    ids = [s.id for s in sections]
    for section_id in ids:
        if ids.count(section_id) > 1:
            r.fail("sections", "duplicate_section", section=section_id)
    kinds = [s.generated for s in sections if s.generated]
    required = REQUIRED_GENERATED + (("options",) if variant.options else ())
    for kind in GENERATED:
        if kinds.count(kind) > 1:
            r.fail("sections", "generated_twice", part=kind)
        if kind in required and kind not in kinds:
            r.fail("sections", "generated_missing", part=kind)
        if kind == "options" and kind in kinds and not variant.options:
            r.fail("sections", "options_without_option")
    placed = [i["about"] for s in sections for i in s.interpretations]
    for interpretation in variant.interpretations:
        if placed.count(interpretation["about"]) != 1:
            r.fail("sections", "interpretation_placement", about=interpretation["about"])
    source = r.bilingual("source")
    return VariantRules(variant.id, seed, sections, path, source)


def load_rulebook(cat: Catalog, directory: Path = RULES_DIR) -> Rulebook:
    """Read and validate every rules file; one per variant of the catalog, no other."""
    found = {}
    for path in sorted(directory.glob("*.toml")):
        if path.stem not in cat.variants:
            raise VariantFileError(str(path), "variant", "wrong_variant", stem=path.stem)
        data = read_toml(path)
        found[path.stem] = validate_rules(data, str(path), cat.variants[path.stem])
    for variant_id in cat.variants:
        if variant_id not in found:
            raise VariantFileError(str(directory / f"{variant_id}.toml"), "(file)", "rules_file_missing")
    return Rulebook(MappingProxyType({v: found[v] for v in cat.variants}))


_rulebook: Rulebook | None = None


def rulebook() -> Rulebook:
    """The built-in rule texts, loaded and validated once (at start-up, or at first use)."""
    global _rulebook
    if _rulebook is None:
        _rulebook = load_rulebook(default_catalog())
    return _rulebook


def rules_of(book: Rulebook, variant: Variant) -> VariantRules:
    """A variant's rule texts; house rules get the generated parts of their base's page (every fact
    comes from their own data; the base's prose would not describe them)."""
    if variant.id in book.variants or variant.base not in book.variants:
        return book.of(variant.id)
    base = book.of(variant.base)
    return VariantRules(variant.id, base.seed, tuple(s for s in base.sections if s.generated), base.path, base.source)
