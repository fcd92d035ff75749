"""A join link's uses, counted by the write itself: a link for one phone lets one phone in even
when two tap « Rejoindre la tablée » at the same moment (the invite's row is locked inside the
write on PostgreSQL; SQLite's writes take turns), and a link a phone removed since had used lets
no one in."""

from __future__ import annotations

import threading

import pytest

from models.core.errors import Forbidden


def test_a_link_for_one_phone_lets_one_in_when_two_join_at_once(app):
    groups = app.extensions["groups"]
    group_id, owner = groups.create("Dimanche")
    invite = groups.create_invite(group_id, max_uses=1, by=groups.membership(group_id, [owner]).member_id)
    both = threading.Barrier(2)
    outcomes = []

    def tap(name):
        both.wait()
        try:
            groups.join(group_id, invite, name)
            outcomes.append("joined")
        except Forbidden:
            outcomes.append("refused")

    taps = [threading.Thread(target=tap, args=(name,)) for name in ("Bob", "Chloé")]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert sorted(outcomes) == ["joined", "refused"]
    assert len(groups.members(group_id)) == 2  # the owner and one phone
    [line] = groups.invites(group_id)
    assert (line.uses, line.removed, line.closed) == (1, 0, True)


def test_a_link_used_by_a_removed_phone_lets_no_one_in(app):
    groups = app.extensions["groups"]
    group_id, owner = groups.create("Dimanche")
    owner_id = groups.membership(group_id, [owner]).member_id
    invite = groups.create_invite(group_id, by=owner_id)
    groups.join(group_id, invite, "Bob")
    groups.join(group_id, invite, None)
    bob = next(m for m in groups.members(group_id) if m.name == "Bob")
    groups.remove(group_id, bob.id, by=owner_id)
    with pytest.raises(Forbidden):
        groups.join(group_id, invite, "Bob")
    [line] = groups.invites(group_id)
    assert (line.uses, line.removed, line.closed) == (2, 1, True)
    assert [m.number for m in groups.members(group_id)] == [1, 3]  # the owner, then the third to join
