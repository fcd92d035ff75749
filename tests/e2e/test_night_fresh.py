"""The next turn's seating « avoiding opponents met already », on the night's page and in the API."""

from __future__ import annotations

from tests.e2e.test_groups import page
from tests.e2e.test_night_end import played  # noqa: F401 (the fixture: turn 1 sat Ana–Bob and Chloé–Dan)
from tests.e2e.test_nights import seating_form, tables_of

# Turn 1 sat Ana with Bob and Chloé with Dan. At two tables of two, only Ana–Chloé / Bob–Dan and
# Ana–Dan / Bob–Chloé seat nobody with the player they met.
APART = (
    {frozenset({"Ana", "Chloé"}), frozenset({"Bob", "Dan"})},
    {frozenset({"Ana", "Dan"}), frozenset({"Bob", "Chloé"})},
)


def test_the_fresh_seating_seats_nobody_with_an_opponent_met(played):  # noqa: F811
    ana, client, bearer, night_id = played
    night = client.get(f"/api/v1/nights/{night_id}?method=fresh&tables=2", headers=bearer).get_json()
    assert night["proposal"]["method"] == "fresh"
    assert {frozenset(table) for table in night["proposal"]["seating"]} in APART
    text = page(ana, f"/nights/{night_id}?method=fresh&tables=2")
    assert 'value="fresh" checked' in text and "avoiding opponents met already" in text
    assert {frozenset(names) for names in tables_of(seating_form(text)).values()} in APART
