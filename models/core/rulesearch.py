"""Search the rules as you type: French or English, any accents or case, synonyms and stems.

Looks through every written section of the rule pages and their generated parts (one entry per
special card, the points, finishing, the end of the game, one per house option). Pure: no Flask;
the caller gives ``say``, which words a message in the reader's language.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass, field

from .rulebook import Rulebook, Section, rules_of
from .rulepage import (
    MODE_NAMES,
    card_entries,
    end_message,
    finish_message,
    not_on_message,
    option_value_label,
    points_rows,
)
from .text import N_, Message
from .variant import LANGUAGES, Ruleset, Variant, localized, resolve

# --- search -------------------------------------------------------------------------------------------

STOPWORDS = {
    "fr": set(
        "a au aux avec c ca ce ces cet cette comment d dans de des du elle en est et faire fais fait faut il ils je "
        "l la le les leur lui m ma mais me mes mon n ne nous on ou par pas peut peux pour pourquoi qu quand que quel "
        "quelle quelles quels qui quoi sa se ses si son sur t ta te tes ton tu un une vos votre vous y".split()
    ),
    "en": set(
        "a an and are as at be by can do does for from how i if in is it its may me my of on or should that the "
        "their them then there this to what when where which who why will with you your".split()
    ),
}

SYNONYMS = (
    ("as", "ace"),
    ("2", "deux", "two"),
    ("3", "trois", "three"),
    ("4", "quatre", "four"),
    ("5", "cinq", "five"),
    ("6", "six"),
    ("7", "sept", "seven"),
    ("8", "huit", "eight"),
    ("9", "neuf", "nine"),
    ("10", "dix", "ten"),
    ("valet", "jack"),
    ("dame", "queen"),
    ("roi", "king"),
    ("joker", "jk"),
    ("pique", "spade"),
    ("coeur", "heart"),
    ("carreau", "diamond"),
    ("trefle", "club"),
    ("pioche", "piocher", "talon", "stock", "draw", "drawn", "prend", "prendre", "take", "tire"),
    ("vide", "epuise", "epuisee", "empty", "exhausted", "runs", "reshuffle", "rebat", "melange", "shuffle"),
    ("finir", "fini", "finit", "finis", "terminer", "termine", "sortir", "sort", "finish", "finishing", "going"),
    ("derniere", "dernier", "last"),
    (
        "compter", "compte", "comptage", "decompte", "point", "points", "bareme", "score", "scoring",
        "count", "counting", "vaut", "valent", "valeur", "worth", "value",
    ),
    ("distribue", "distribuer", "donne", "donner", "donneur", "deal", "dealt", "dealer", "dealing"),
    ("joueur", "joueurs", "player", "players"),
    ("sens", "inverse", "inverser", "reverse", "direction"),
    ("saute", "sauter", "skip", "skipped", "passe", "passer"),
    ("couleur", "suit", "annonce", "named", "name"),
    ("empiler", "empilement", "cumul", "stack", "stacking", "chain", "chaine", "enchaine"),
    ("penalite", "penalty", "sanction"),
    ("equipe", "partenaire", "team", "partner", "partners", "teams"),
    ("bloque", "bloquee", "blocked", "stuck"),
    ("gagne", "gagner", "gagnant", "vainqueur", "win", "wins", "winner", "won"),
    ("commence", "commencer", "start", "starts", "opens", "ouvre"),
    ("retourne", "retournee", "bergere", "turned", "turn", "depart"),
    ("rejouer", "rejoue", "again"),
    ("contre", "counter"),
    ("hors", "out"),
    ("carte", "card"),
    ("manche", "round", "coup"),
    ("jeu", "pack", "paquet", "deck"),
    ("option", "maison", "house"),
    ("objectif", "target", "cible"),
)  # fmt: skip

PHRASES = (
    (("combien", "cartes"), ("distribue", "deal")),
    (("how", "many", "cards"), ("distribue", "deal")),
    (("pioche", "vide"), ("vide",)),
    (("plus", "pioche"), ("vide",)),
    (("plus", "cartes", "pioche"), ("vide",)),
    (("runs", "out"), ("vide",)),
    (("fin", "partie"), ("objectif",)),
    (("end", "game"), ("objectif",)),
    (("derniere", "carte"), ("finir",)),  # the last card is the one a player goes out on
    (("last", "card"), ("finir",)),
)

SYMBOL_WORDS = {"♠": " pique spade ", "♥": " coeur heart ", "♦": " carreau diamond ", "♣": " trefle club "}
LIGATURES = {"œ": "oe", "æ": "ae", "’": "'", "ß": "ss"}
TOKEN = re.compile(r"[a-z0-9]+")
KEEP = {"counter"}  # words whose stem would meet another word ("count")
SUFFIXES = ("ement", "ation", "ages", "age", "ees", "ee", "ent", "ing", "er", "ez", "ed", "es", "e")


def stem(token: str) -> str:
    """A light stem shared by French and English: plural s/x, then one common ending."""
    if token.isdigit() or len(token) <= 3 or token in KEEP:
        return token
    if token[-1] in "sx" and not token.endswith("ss"):
        token = token[:-1]
    for suffix in SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def fold(text: str) -> tuple[str, list[int]]:
    """Lower-case, accent-free text, and for each of its characters the index of the original one."""
    out, index = [], []
    for i, ch in enumerate(text):
        rep = SYMBOL_WORDS.get(ch) or LIGATURES.get(ch.lower())
        if rep is None:
            rep = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)).casefold()
        out.append(rep)
        index.extend([i] * len(rep))
    return "".join(out), index


@functools.lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[tuple[str, int, int], ...]:
    """(stem, start, end) of every word of ``text``, positions in the original text (cached: the
    rule texts are the same from one keystroke to the next)."""
    folded, index = fold(text)
    return tuple((stem(m.group()), index[m.start()], index[m.end() - 1] + 1) for m in TOKEN.finditer(folded))


_GROUPS: dict[str, set] = {}


def _groups() -> dict:
    if not _GROUPS:
        for group in SYNONYMS:
            stems = {stem(fold(word)[0]) for word in group}
            for s in stems:
                _GROUPS.setdefault(s, set()).update(stems)
    return _GROUPS


def query_concepts(query: str, lang: str) -> list[frozenset]:
    """The query's meaningful words, each as the set of stems that answer it (synonyms included)."""
    stop = STOPWORDS.get(lang, STOPWORDS["fr"])
    folded = fold(query)[0]
    words = TOKEN.findall(folded)
    groups = _groups()
    concepts = []
    for word in words:
        if word in stop:
            continue
        s = stem(word)
        concepts.append(frozenset(x for x in groups.get(s, {s}) | {s} if x not in stop))
    for phrase, extra in PHRASES:
        if all(w in words for w in phrase):
            stems = {stem(w) for w in extra}
            concepts.append(frozenset(x for s in stems for x in groups.get(s, {s}) | {s}))
    return list(dict.fromkeys(c for c in concepts if c))


@dataclass(frozen=True)
class Hit:
    """A rule matching a search: where it is, and a snippet with the matched words as ranges."""

    variant_id: str
    section_id: str
    anchor: str
    title: str
    snippet: str
    marks: tuple  # of (start, end) in snippet
    title_marks: tuple = ()
    score: float = 0.0

    def parts(self) -> list[tuple[str, bool]]:
        return split_marks(self.snippet, self.marks)

    def title_parts(self) -> list[tuple[str, bool]]:
        return split_marks(self.title, self.title_marks)


def split_marks(text: str, marks) -> list[tuple[str, bool]]:
    """The text cut into (piece, marked) pairs."""
    out, at = [], 0
    for start, end in marks:
        if start > at:
            out.append((text[at:start], False))
        out.append((text[start:end], True))
        at = end
    if at < len(text):
        out.append((text[at:], False))
    return out


@dataclass(frozen=True)
class Doc:
    variant_id: str
    section_id: str
    anchor: str
    title: str
    body: str
    title_tokens: tuple = field(default=(), compare=False)
    body_tokens: tuple = field(default=(), compare=False)


def _doc(variant_id, section_id, anchor, title, body) -> Doc:
    return Doc(variant_id, section_id, anchor, title, body, tokens(title), tokens(body))


def documents(
    variants: list[Variant], tables, book: Rulebook, lang: str, say, rulesets: dict | None = None
) -> list[Doc]:
    """What the search looks through: every written section, and the generated parts (one entry
    per special card, the points table, finishing, end of the game, one per house option).
    ``say`` renders a Message or a data text in ``lang``; ``rulesets`` replaces a variant's
    defaults (a game's choices)."""
    docs = []
    for variant in variants:
        variant_id = variant.id
        ruleset = (rulesets or {}).get(variant_id) or resolve(tables, variant)
        for section in rules_of(book, variant).sections:
            title = localized(section.title, lang)
            lines = [section.text(lang), *(localized(n, lang) for n in section.notes())]
            lines += _generated_lines(variant, ruleset, section, lang, say)
            body = "\n".join(line for line in lines if line)
            if body:
                docs.append(_doc(variant_id, section.id, section.id, title, body))
            docs.extend(_generated_docs(variant, ruleset, section, lang, say))
    return docs


def _generated_lines(variant: Variant, ruleset: Ruleset, section: Section, lang: str, say) -> list[str]:
    """The generated text of a part shown as one block (points, finishing, end of the game)."""
    kind = section.generated
    if kind == "scoring":
        rows = points_rows(ruleset.table, bool(ruleset.jokers))
        return [say(ruleset.table.name)] + [
            say(Message(N_("%(card)s: %(points)s points"), {"card": c, "points": p})) for c, p in rows
        ]
    if kind == "finish":
        lines = [say(finish_message(ruleset)), localized(variant.finish_rule, lang)]
        return lines + [localized(o.label, lang) for o in variant.options if o.finish_forbidden]
    if kind == "end":
        return [say(Message(MODE_NAMES[ruleset.mode])), say(end_message(ruleset))]
    return []


def _generated_docs(variant: Variant, ruleset: Ruleset, section: Section, lang: str, say) -> list[Doc]:
    """One entry per special card and per house option, each with its own anchor."""
    kind, sid, out = section.generated, section.id, []
    if kind == "cards":
        for entry in card_entries(ruleset):
            lines = [" ".join(map(say, entry.effects))]
            if entry.two_players:
                lines.append(" ".join(map(say, (Message(N_("With two players:")), *entry.two_players))))
            if entry.rule.play == "any" or entry.rule.out_of_turn:
                lines.append(say(entry.play))  # the generic "match the suit or the rank" says nothing here
            if entry.not_on:
                lines.append(say(not_on_message(entry)))
            title = f"{localized(section.title, lang)} · {say(Message('%(card)s', {'card': entry.card}))}"
            out.append(_doc(variant.id, sid, f"{sid}-{entry.slug}", title, "\n".join(lines)))
    elif kind == "options":
        for option in variant.options:
            values = [option_value_label(option, c) for c in option.choices] if option.kind == "choice" else []
            body = " / ".join(say(v) for v in values) or localized(section.title, lang)
            out.append(_doc(variant.id, sid, f"option-{option.id}", localized(option.label, lang), body))
    return out


SNIPPET = 200


def _matching(doc_tokens, concepts) -> tuple[set, list]:
    """The concepts a token list answers, and the spans of the matching tokens."""
    found, spans = set(), []
    for s, start, end in doc_tokens:
        for i, concept in enumerate(concepts):
            if s in concept or (len(s) >= 5 and any(len(c) >= 5 and s.startswith(c) for c in concept)):
                found.add(i)
                spans.append((start, end))
                break
    return found, spans


def _snippet(body: str, spans: list) -> tuple[str, tuple]:
    """The line of ``body`` with the most matches, cut around the first one to about SNIPPET chars."""
    lines, at = [], 0
    for line in body.split("\n"):
        lines.append((at, at + len(line)))
        at += len(line) + 1
    best = max(lines, key=lambda r: (sum(1 for s, _ in spans if r[0] <= s < r[1]), -r[0]))
    start, end = best
    inside = [(s, e) for s, e in spans if start <= s < end]
    if end - start > SNIPPET and inside:
        first = inside[0][0]
        cut_start = max(start, first - SNIPPET // 3)
        if cut_start > start:
            space = body.find(" ", cut_start, first)
            cut_start = space + 1 if space != -1 else cut_start
        cut_end = min(end, cut_start + SNIPPET)
        if cut_end < end:
            space = body.rfind(" ", cut_start, cut_end)
            cut_end = space if space > first else cut_end
        start, end = cut_start, cut_end
    text = body[start:end]
    prefix = "… " if start > best[0] else ""
    suffix = " …" if end < best[1] else ""
    marks = tuple((s - start + len(prefix), e - start + len(prefix)) for s, e in inside if e <= end)
    return prefix + text + suffix, marks


def search(
    query: str,
    lang: str,
    variants: list[Variant],
    tables,
    book: Rulebook,
    *,
    say,
    rulesets: dict | None = None,
    limit: int = 20,
) -> list[Hit]:
    """The rules answering ``query`` (French or English, any accents or case), best first.

    Words are matched by a light stem and a table of synonyms (card names in both languages,
    "pioche"/"stock"/"draw", "finir"/"go out", "compter"/"points"…). Hits are ranked by where the
    words are found: first by how many of the query's words the section answers (all of them in one
    section first), then by how many its heading answers (a heading before a paragraph), then by
    how rare those words are (a word in a heading counts double). ``variants``: where to look;
    ``say`` and ``rulesets`` as in ``documents``.
    """
    lang = lang if lang in LANGUAGES else "fr"
    concepts = query_concepts(query or "", lang)
    if not concepts:
        return []
    docs = documents(variants, tables, book, lang, say, rulesets)
    matched = []
    df = [0] * len(concepts)
    for doc in docs:
        in_title, title_spans = _matching(doc.title_tokens, concepts)
        in_body, body_spans = _matching(doc.body_tokens, concepts)
        found = in_title | in_body
        for i in found:
            df[i] += 1
        if found:
            matched.append((doc, in_title, in_body, title_spans, body_spans))
    hits = []
    idf = [math.log((len(docs) + 1) / (df[i] + 0.5)) for i in range(len(concepts))]
    for doc, in_title, in_body, title_spans, body_spans in matched:
        score = sum(idf[i] * (2 if i in in_title else 1) for i in in_title | in_body)
        coverage = len(in_title | in_body)
        if body_spans:
            snippet, marks = _snippet(doc.body, body_spans)
        else:
            snippet, marks = _snippet(doc.body, []) if doc.body else ("", ())
        hits.append(
            (
                (coverage, len(in_title), score),
                Hit(doc.variant_id, doc.section_id, doc.anchor, doc.title, snippet, marks, tuple(title_spans), score),
            )
        )
    hits.sort(key=lambda pair: pair[0], reverse=True)
    return [hit for _, hit in hits[:limit]]
