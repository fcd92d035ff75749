"""A group's own writes sent at once, from threads of the app's test clients (each request in its
own thread, the app's real pools and transactions): after each trial the group holds its
invariants — one owner, merges without a loop, one group per import key with every token it
answered working."""

from __future__ import annotations

import threading
from functools import partial

import pytest

from models.core.errors import ValidationError
from tests.e2e.test_group_merges import two_games
from tests.e2e.test_groups import join, join_link, make_group, phone

TRIALS = 20
REFUSED_MERGE = ("Choose two different players of the group.", "This player is merged already.",
                 "This player counts as another one already: merge into that one.")  # fmt: skip


def at_once(calls) -> list:
    """Each of ``calls`` run in its own thread, all released together: their answers, in order."""
    start, answers = threading.Barrier(len(calls)), [None] * len(calls)

    def run(index, call):
        start.wait()
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    return answers


def same_phone(app, client):
    """Another test client holding ``client``'s session (its cookie): the same phone, its own thread."""
    other = app.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    other.set_cookie("lang", "en")
    return other


def test_three_hand_overs_at_once_leave_one_owner(app):
    """The owner hands the group to three members at once: one hand-over is made, the other two
    are refused (the phone no longer owns the group), and the group has one owner."""
    groups = app.extensions["groups"]
    for _trial in range(TRIALS):
        ana = phone(app)
        group_id = make_group(ana)
        for name in ("Bob", "Chloé", "Dan"):
            join(phone(app), join_link(ana, group_id), name)
        others = [m.id for m in groups.members(group_id) if not m.owner]
        url = f"/groups/{group_id}/owner"
        answers = at_once([partial(same_phone(app, ana).post, url, data={"member": m}) for m in others])
        statuses = sorted(answer.status_code for answer in answers)
        owners = [m.id for m in groups.members(group_id) if m.owner]
        assert len(owners) == 1 and owners[0] in others, owners
        assert statuses == [303, 403, 403], statuses


def test_two_merges_of_one_pair_at_once_store_one(app):
    """« Robert counts as Bob » and « Bob counts as Robert » sent at once: one is stored, the other
    refused with words (422), never a loop of two merges."""
    groups, ana = app.extensions["groups"], phone(app)
    group_id = make_group(ana)
    two_games(ana, group_id)
    url = f"/groups/{group_id}/merges"
    for _trial in range(TRIALS):
        clients = [same_phone(app, ana) for _ in range(2)]
        answers = at_once([partial(clients[0].post, url, data={"a": "Bob", "b": "Robert"}),
                           partial(clients[1].post, url, data={"a": "Robert", "b": "Bob"})])  # fmt: skip
        assert sorted(answer.status_code for answer in answers) == [303, 422]
        refused = next(answer for answer in answers if answer.status_code == 422).get_data(as_text=True)
        assert any(words in refused for words in REFUSED_MERGE), refused  # the view's check, or the service's
        aliases = groups.aliases(group_id)
        assert len(aliases) == 1, aliases
        groups.unmerge(group_id, aliases[0].id)
    groups.merge(group_id, "robert", "bob")  # one after the other, the service's own check says it
    with pytest.raises(ValidationError, match="counts as another one already"):
        groups.merge(group_id, "bob", "robert")
