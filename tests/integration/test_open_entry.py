"""The open entry (issue 45) on the real database: the manche a table counts together, each phone
its own hand. Two apps on one database are two processes: a hand changed through one is heard
by the other's feed; the later of two changes of one hand wins and keeps what it replaced; a save
counts once, however many phones tap and with whatever keys. Listeners wait for events (a queue
with a timeout): nothing here sleeps.

Classique (SPEC §2, tables.toml): K 10, 7 7, 8 50, 3 3, 9 9; in penalty mode the others add
their hands, the winner scores 0.
"""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import event

from app import create_app
from models.core.errors import AlreadyRecorded, Conflict, MissingHand, ValidationError
from models.core.scoring import MancheEntry
from models.services.feed import Change, EntryChange
from models.services.open_entry import LAPSE_SECONDS, HandChange, entry_fields
from tests.e2e.test_sql_counts import StatementCounter

THREE = ["Ana", "Bob", "Chloé"]
ANA, BOB, CHLOE = 0, 1, 2
WAIT = 5.0


def next_entry(listener, version: int) -> EntryChange:
    """The first entry event of at least ``version``."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        event = listener.get(timeout=max(deadline - time.monotonic(), 0.01))
        if isinstance(event, EntryChange) and event.state.version >= version:
            return event
    raise AssertionError(f"no entry version {version} within {WAIT} s")


def next_recorded(listener, number: int) -> None:
    """Waits for the change that recorded manche ``number``."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        event = listener.get(timeout=max(deadline - time.monotonic(), 0.01))
        if isinstance(event, Change) and ("recorded", number) in event.facts:
            return
    raise AssertionError(f"manche {number} not heard within {WAIT} s")


@pytest.fixture
def entries(app):
    return app.extensions["open_entries"]


@pytest.fixture
def game(games):
    created, _ = games.create_game("classique", THREE, first_dealer=0)
    return created


@pytest.fixture
def other_app(app_config):
    """A second process on the same database."""
    other = create_app(app_config)
    yield other
    other.extensions["feed"].close()
    other.extensions["database"].dispose()


def test_hands_and_winner_are_kept_with_their_values_and_who_changed_them(entries, game):
    entries.choose_winner(game, 1, str(ANA))
    # K 10 + 7 7 = 17
    state = entries.change_hand(game, 1, BOB, HandChange(["K", "7"], None, True), "phone-b", "Bob")
    fields = entry_fields(state, THREE)
    assert (fields["winner"], fields["winner_seat"]) == ("Ana", ANA) and fields["expected"] == ["Bob", "Chloé"]
    assert fields["missing"] == ["Chloé"] and fields["progress"] == {"done": 1, "of": 2}
    (bob,) = fields["hands"]
    assert (bob["player"], bob["cards"], bob["value"], bob["done"], bob["by"]["name"]) == (
        "Bob",
        ["K", "7"],
        17,
        True,
        "Bob",
    )
    assert bob["by"]["phone"] != "phone-b"  # a digest: the other phones never see a phone's id
    assert entries.read(game).version == state.version == 2
    assert game.revision == 0  # the game's revision did not move: no page is built again


def test_the_winner_is_said_by_name_and_by_seat_and_a_blocked_manche_by_neither(games, entries):
    """Les huit has blocked manches: Chloé (seat 2) going out, then nobody (blocked)."""
    game, _token = games.create_game("les-huit", THREE, first_dealer=0)
    fields = entry_fields(entries.choose_winner(game, 1, str(CHLOE)), THREE)
    assert (fields["winner"], fields["winner_seat"], fields["blocked"]) == ("Chloé", CHLOE, False)
    fields = entry_fields(entries.choose_winner(game, 1, "blocked"), THREE)
    assert (fields["winner"], fields["winner_seat"], fields["blocked"]) == (None, None, True)


def test_a_typed_total_counts_instead_of_cards_and_is_checked(entries, game):
    state = entries.change_hand(game, 1, CHLOE, HandChange([], 23, True), "phone-c", None)
    assert state.hand(CHLOE).value == 23
    with pytest.raises(ValidationError):
        entries.change_hand(game, 1, CHLOE, HandChange([], -1, True), "phone-c", None)
    with pytest.raises(ValidationError):
        entries.change_hand(game, 1, 7, HandChange([], 3, True), "phone-c", None)


def test_a_hand_changed_in_one_process_is_heard_by_the_other(app, other_app, entries, game):
    listener = other_app.extensions["feed"].listen(game.id)
    state = entries.change_hand(game, 1, BOB, HandChange(["8"], None, False), "phone-b", "Bob")
    heard = next_entry(listener, state.version)
    assert heard.state.hand(BOB).value == 50  # 8: 50
    assert heard.players == tuple(THREE) and heard.next_number == 1
    listener.close()


def test_a_new_listener_hears_the_entry_of_the_next_manche_once_a_form_recorded_this_one(app, entries, games, game):
    """Bob's phone counts into the open entry of manche 1; another phone records manche 1 with its
    whole-manche form (the entry is left as it was). A page opening now hears the entry as manche
    2's, empty — not manche 1's winner and hands."""
    feed = app.extensions["feed"]
    first = feed.listen(game.id)
    entries.choose_winner(game, 1, str(ANA))
    state = entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-b", "Bob")
    next_entry(first, state.version)
    games.record_manche(game, MancheEntry("Ana", {"Bob": ["8"], "Chloé": ["3"]}), number=1)
    next_recorded(first, 1)
    later = feed.listen(game.id)
    told = next_entry(later, state.version)
    fields = entry_fields(told.now(), list(told.players))
    assert (fields["number"], fields["winner"], fields["winner_seat"], fields["hands"]) == (2, None, None, [])
    # No winner chosen yet for manche 2: every seated player's hand counts, Ana's too (manche 1's
    # winner, whose hand did not count then).
    assert fields["expected"] == THREE and fields["progress"] == {"done": 0, "of": 3}
    first.close()
    later.close()


def test_the_later_change_of_a_hand_wins_and_keeps_the_version_it_replaced(entries, game):
    entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-b", "Bob")
    state = entries.change_hand(game, 1, BOB, HandChange(["K", "K"], None, True), "phone-a", "Ana")
    fields = entry_fields(state, THREE)["hands"][0]
    assert fields["value"] == 20 and fields["by"]["name"] == "Ana"  # K + K: 20
    assert fields["replaced"]["cards"] == ["K"] and fields["replaced"]["value"] == 10
    assert fields["replaced"]["by"]["name"] == "Bob"
    # Bob puts his back: now Ana's is the one replaced, and she is told
    state = entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-b", "Bob")
    fields = entry_fields(state, THREE)["hands"][0]
    assert fields["value"] == 10 and fields["replaced"]["by"]["name"] == "Ana"
    # Ana lets it be and counts it again herself: nothing replaced of hers is kept any more
    state = entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-a", "Ana")
    assert state.hand(BOB).replaced_json is None


def test_saving_records_one_manche_with_every_hand_and_closes_the_entry(app, entries, games, game):
    entries.choose_winner(game, 1, str(ANA))
    entries.change_hand(game, 1, BOB, HandChange(["K", "7"], None, True), "phone-a", "Ana")
    with pytest.raises(MissingHand):
        entries.save(games, game, 1, "form:one")
    entries.change_hand(game, 1, CHLOE, HandChange(["3", "9"], None, True), "phone-c", "Chloé")
    with StatementCounter(app.extensions["database"]) as counter:
        recorded = entries.save(games, game, 1, "form:one")
    # the entry is read once to build the manche and once more inside its write, under its lock
    # (unchanged since, every hand in), each time its row and its hands together
    reads = [s for s in counter.run if s.lstrip().upper().startswith("SELECT") and "FROM open_" in s]
    assert len(reads) == 2 and all("JOIN open_hand" in read for read in reads)
    # Penalty mode: Ana went out, 0; Bob K + 7 = 17; Chloé 3 + 9 = 12.
    assert recorded.number == 1 and recorded.totals == {"Ana": 0, "Bob": 17, "Chloé": 12}
    after = games.get(game.id)
    assert entries.read(after).number == 2 and entries.read(after).hands == ()
    # nobody has gone out in manche 2 yet: every hand is expected again, Ana's too
    assert entries.read(after).missing() == [ANA, BOB, CHLOE]
    # the same tap again (a retry), with the game as the phone had it: the same manche
    again = entries.save(games, game, 1, "form:one")
    assert again.number == 1 and again.replayed
    assert len(games.get(game.id).manches) == 1


def test_two_phones_saving_at_once_record_one_manche(app, other_app, entries, games, game):
    entries.choose_winner(game, 1, str(BOB))
    entries.change_hand(game, 1, ANA, HandChange(["8"], None, True), "phone-a", "Ana")
    entries.change_hand(game, 1, CHLOE, HandChange([], 12, True), "phone-c", "Chloé")
    services = [(entries, games), (other_app.extensions["open_entries"], other_app.extensions["games"])]
    barrier, answers = threading.Barrier(2), []

    def tap(index):
        service, game_service = services[index]
        barrier.wait()
        try:
            answers.append(service.save(game_service, game, 1, f"form:phone-{index}").number)
        except Conflict:
            answers.append("conflict")

    threads = [threading.Thread(target=tap, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers, key=str) == [1, "conflict"]
    stored = games.get(game.id)
    assert len(stored.manches) == 1
    assert stored.totals == {"Ana": 50, "Bob": 0, "Chloé": 12}  # 8: 50; Chloé typed 12


def test_a_save_overtaken_while_it_reads_the_entry_is_told_so(app, other_app, entries, games, game):
    """Chloé's phone taps « Enregistrer »; while it reads the entry, Ana's save (another process)
    records manche 1 and closes the entry. Chloé's phone is told the manche was saved meanwhile (its read is of one
    moment: the entry with its hands, or the next one), never that hands are still being counted.
    Penalty mode: Bob went out, 0; Ana 8: 50; Chloé typed 12."""
    entries.choose_winner(game, 1, str(BOB))
    entries.change_hand(game, 1, ANA, HandChange(["8"], None, True), "phone-a", "Ana")
    entries.change_hand(game, 1, CHLOE, HandChange([], 12, True), "phone-c", "Chloé")
    reader, overtaken = app.extensions["database"].reader, []

    def ana_saves(_conn, _cursor, statement, *_args):
        if "FROM open_entry" in statement and not overtaken:
            other = other_app.extensions
            overtaken.append(other["open_entries"].save(other["games"], game, 1, "form:ana").number)

    event.listen(reader, "after_cursor_execute", ana_saves)
    try:
        with pytest.raises(Conflict):
            entries.save(games, game, 1, "form:chloe")
    finally:
        event.remove(reader, "after_cursor_execute", ana_saves)
    assert overtaken == [1]
    assert games.get(game.id).totals == {"Ana": 50, "Bob": 0, "Chloé": 12}


def test_a_save_reaching_the_next_entry_is_told_whose_phone_saved_it(entries, games, game):
    """Chloé's phone reads the game, then Ana's save records manche 1 and closes the entry before
    Chloé's save reads it: Chloé's finds the next manche's entry, empty. It is told manche 1 was
    saved (the hands were the same, shared), never that nobody went out in an empty manche 2 — her
    page then leaves for the game page (seen under a loaded CI: a 422 left her phone on the entry).
    Penalty mode: Bob went out, 0; Ana 8: 50; Chloé typed 12."""
    entries.choose_winner(game, 1, str(BOB))
    entries.change_hand(game, 1, ANA, HandChange(["8"], None, True), "phone-a", "Ana")
    entries.change_hand(game, 1, CHLOE, HandChange([], 12, True), "phone-c", "Chloé")
    assert entries.save(games, games.get(game.id), 1, "form:ana").number == 1
    with pytest.raises(AlreadyRecorded) as told:
        entries.save(games, game, 1, "form:chloe")  # the game as Chloé's request read it
    assert told.value.params["number"] == 1
    assert games.get(game.id).totals == {"Ana": 50, "Bob": 0, "Chloé": 12}


def test_an_entry_unused_for_hours_reads_as_empty(app, game):
    clock = [1000.0]
    from models.services.open_entry import OpenEntries

    entries = OpenEntries(app.extensions["database"], clock=lambda: clock[0])
    entries.change_hand(game, 1, BOB, HandChange(["K"], None, True), "phone-b", "Bob")
    clock[0] += LAPSE_SECONDS + 1
    assert entries.read(game).hands == ()
    state = entries.change_hand(game, 1, CHLOE, HandChange(["3"], None, True), "phone-c", "Chloé")
    assert [hand.seat for hand in state.hands] == [CHLOE]
