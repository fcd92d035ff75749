"""One user action, one transaction (the unit of work, ``models/services/unit_of_work.py``): what a
request writes besides its action — an invite's last use noted, the phone that saved no longer
entering, the open entry moved on, the old idempotency keys let go — is written inside that
action's own transaction, never in one of its own. Counted through SQLAlchemy's own events on the
write engine (``begin``, ``commit``), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from models.services import keys
from tests.e2e.test_share import invite_url, other_client
from tests.e2e.test_web_games import manche_form, new_game


class Transactions:
    """The transactions begun and committed on the app's write engine while in the block."""

    def __init__(self, app):
        self.engine = app.extensions["database"].writer
        self.begun, self.committed = 0, 0

    def _begin(self, _connection):
        self.begun += 1

    def _commit(self, _connection):
        self.committed += 1

    def __enter__(self):
        event.listen(self.engine, "begin", self._begin)
        event.listen(self.engine, "commit", self._commit)
        return self

    def __exit__(self, *_exc):
        event.remove(self.engine, "begin", self._begin)
        event.remove(self.engine, "commit", self._commit)


@pytest.fixture
def owner(app):
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


def scorekeeper_of(app, owner, game_id):
    """A second phone that scanned the owner's invite."""
    keeper = other_client(app)
    url = invite_url(owner.post(f"/games/{game_id}/invites"))
    assert keeper.get(re.sub(r"^https?://[^/]+", "", url)).status_code == 303
    return keeper


def test_a_scorekeepers_manche_is_one_transaction_with_its_use_noted_and_its_presence_gone(app, owner):
    game_id = new_game(owner)
    keeper = scorekeeper_of(app, owner, game_id)
    app.extensions["games"].purge = keys.Purge(every=0)  # the old keys let go by this very write
    form = manche_form(keeper, game_id)
    assert keeper.post(f"/games/{game_id}/presence", data={"number": "1"}).status_code == 204  # it is entering
    with Transactions(app) as counted:
        saved = keeper.post(f"/games/{game_id}/manches", data={**form, "winner": "0", "p1-typed": "5", "p2-typed": "7"})
    assert saved.status_code == 303
    assert (counted.begun, counted.committed) == (1, 1)
    invite = app.extensions["games"].invites(game_id)[0]
    assert invite.last_used_at is not None  # noted, inside the manche's transaction
    assert app.extensions["presence"].of_games([game_id])[game_id] == ()  # no longer entering


def test_a_refused_save_writes_nothing_at_all(app, owner):
    game_id = new_game(owner)
    keeper = scorekeeper_of(app, owner, game_id)
    form = manche_form(keeper, game_id)
    with Transactions(app) as counted:
        refused = keeper.post(f"/games/{game_id}/manches", data={**form, "winner": "0", "p1-typed": "5"})
    assert refused.status_code == 422  # Chloé's hand is missing
    assert counted.committed == 0
    assert app.extensions["games"].invites(game_id)[0].last_used_at is None  # its use rode along, and fell with it


def test_saving_the_open_entry_is_one_transaction(app, owner):
    game_id = new_game(owner)
    entry = f"/games/{game_id}/entry"
    owner.put(entry + "/winner", json={"number": 1, "seat": "0"})
    owner.put(entry + "/hands/1", json={"number": 1, "cards": ["K"], "done": True})
    owner.put(entry + "/hands/2", json={"number": 1, "cards": ["3"], "done": True})
    with Transactions(app) as counted:
        saved = owner.post(entry + "/save", json={"number": 1, "nonce": "n1"})
    assert saved.status_code == 200, saved.get_json()
    assert (counted.begun, counted.committed) == (1, 1)
    assert app.extensions["open_entries"].stored(game_id).number == 2  # closed in it


def test_a_player_joining_is_one_transaction(app, owner):
    game_id = new_game(owner)
    keeper = scorekeeper_of(app, owner, game_id)
    with Transactions(app) as counted:
        joined = keeper.post(f"/games/{game_id}/players", data={"name": "Dan", "start": "zero"})
    assert joined.status_code == 303
    assert (counted.begun, counted.committed) == (1, 1)
    assert app.extensions["games"].invites(game_id)[0].last_used_at is not None
