"""What recording a manche answers (issue 29: the answer is the plan's, the view of the game with
the manche is built only when asked) is what a fresh read of the game shows, in every variant,
mode, number of players, team game, blocked manche and typed total, to the end of the game; and
the next write, which reads that manche back, goes on from the same game as a fresh read."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.core.cards import format_cards
from models.core.errors import GameFinished
from models.core.rules import catalog
from models.services.db import Database
from models.services.games import GameService, MancheEntry
from models.services.house import HouseService
from models.services.registry import Registry

NAMES = ["Ana", "Bob", "Chloé", "Dan", "Émile"]
CATALOG = catalog()


@pytest.fixture
def services(database_url):
    """Two game services on one database, as two gunicorn workers."""
    made = []
    for _ in range(2):
        database = Database(database_url)
        made.append(GameService(database, Registry(CATALOG, HouseService(database, CATALOG))))
    yield made
    for service in made:
        service.db.dispose()


@st.composite
def tables(draw):
    """A game's settings: a variant, its mode, its players; a low target or a few manches, so
    that games end within the manches drawn."""
    variant = draw(st.sampled_from(sorted(CATALOG.variants)))
    ruleset = CATALOG.resolve(variant)
    high = min(ruleset.variant.max_players, len(NAMES))
    players = NAMES[: draw(st.integers(ruleset.variant.min_players, high))]
    mode = draw(st.sampled_from(["penalty", "winner", "wins"]))
    end = draw(st.sampled_from(["target", "rounds"]))
    limit = {"target": draw(st.sampled_from([1, 30, 80]))} if end == "target" else {"rounds": draw(st.integers(1, 6))}
    return variant, players, mode, limit


@st.composite
def manches(draw, variant: str, players: list[str]):
    """One manche: somebody goes out (or nobody, blocked, where the variant has it) and every
    other player shows cards dealt from one shuffled deck, or types a total."""
    ruleset = CATALOG.resolve(variant)
    blocked = ruleset.variant.blocked and draw(st.booleans())
    winner = None if blocked else draw(st.sampled_from(players))
    deck = draw(st.permutations(ruleset.deck.cards()))
    hands, typed = {}, {}
    for player in players:
        if player == winner:
            continue
        if draw(st.booleans()):
            size = draw(st.integers(0, 4))
            hands[player], deck = format_cards(deck[:size]).split(), deck[size:]
        else:
            typed[player] = draw(st.integers(0, 60))
    return MancheEntry(winner, hands, typed=typed, blocked=blocked)


@pytest.mark.slow
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_each_answer_is_what_a_fresh_read_shows(services, data):
    first, second = services
    variant, players, mode, limit = data.draw(tables())
    game, _ = first.create_game(variant, players, mode=mode, first_dealer=0, **limit)
    for _ in range(8):
        writer = data.draw(st.sampled_from(services))  # now one worker, now the other
        entry = data.draw(manches(variant, players))
        try:
            recorded = writer.record_manche(game.id, entry)
        except GameFinished:
            assert first.get(game.id).standing.finished
            break
        fresh = second.get(game.id) if writer is first else first.get(game.id)
        assert recorded.number == len(fresh.manches)
        assert recorded.points == fresh.manches[-1].points
        assert recorded.totals == fresh.totals
        assert recorded.standing == fresh.standing
    for service in services:  # what each worker kept, read back with what the other added
        kept = service.latest.current(service.db, game.id)
        assert kept is None or kept == first.get(game.id)


def test_the_game_answered_is_built_when_asked_and_kept(services):
    """Classique (SPEC §2): a 3 counts 3, a King 10. The view with the manche is built once, when
    asked, and kept for the next write — unless a later one was kept meanwhile."""
    service = services[0]
    game, _ = service.create_game("classique", ["Ana", "Bob", "Chloé"], rounds=10, first_dealer=0)
    one = service.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]}))
    two = service.record_manche(game.id, MancheEntry("Ana", {"Bob": ["3C"], "Chloé": ["KD"]}))
    assert two.totals == {"Ana": 0, "Bob": 6, "Chloé": 20}
    kept = service.latest.views.get(game.id)
    assert kept.revision < two.game.revision  # the second manche's view was not built until asked
    assert service.latest.views.get(game.id) is two.game  # built: kept
    assert one.game.totals == {"Ana": 0, "Bob": 3, "Chloé": 10}  # an older view, asked later…
    assert service.latest.views.get(game.id) is two.game  # …is not kept over the newer one
    assert two.game == service.get(game.id)
