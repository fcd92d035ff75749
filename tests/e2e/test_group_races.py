"""A group's own writes sent at once, from threads of the app's test clients (each request in its
own thread, the app's real pools and transactions): after each trial the group holds its
invariants — one owner, merges without a loop, one group per import key with every token it
answered working."""

from __future__ import annotations

import io
import json
import re
import threading
from functools import partial

import pytest
from sqlalchemy import event

from models.core.errors import Forbidden, ValidationError
from tests.e2e.test_group_files import counts, imported_id, played_group
from tests.e2e.test_group_merges import two_games
from tests.e2e.test_groups import join, join_link, make_group, page, phone

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
    other, cookie = app.test_client(), client.get_cookie("session")
    if cookie is not None:  # a phone that has no session yet has no cookie to share
        other.set_cookie("session", cookie.value)
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
    owner_id = next(m.id for m in groups.members(group_id) if m.owner)
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
        groups.unmerge(group_id, aliases[0].id, by=owner_id)
    groups.merge(group_id, "robert", "bob", by=owner_id)  # one after the other, the service's own check says it
    with pytest.raises(ValidationError, match="counts as another one already"):
        groups.merge(group_id, "bob", "robert", by=owner_id)


def test_an_owner_s_write_sent_with_a_hand_over_is_made_only_while_it_owns_the_group(app):
    """The owner hands the group to Bob and, at the same moment from another of its pages, removes
    Chloé: either the removal came first (Chloé out, then Bob owner) or it is refused (403, Chloé
    still in) — never a removal made by a phone that had already given the group away. And a write
    sent from a page drawn while the phone was the owner, arriving after the hand-over, is refused
    by the service itself, whatever the page said."""
    groups = app.extensions["groups"]
    for _trial in range(TRIALS):
        ana = phone(app)
        group_id = make_group(ana)
        for name in ("Bob", "Chloé"):
            join(phone(app), join_link(ana, group_id), name)
        bob, chloe = (next(m.id for m in groups.members(group_id) if m.name == n) for n in ("Bob", "Chloé"))
        hand_over, remove = at_once([
            partial(same_phone(app, ana).post, f"/groups/{group_id}/owner", data={"member": bob}),
            partial(same_phone(app, ana).post, f"/groups/{group_id}/members/{chloe}/remove"),
        ])  # fmt: skip
        assert hand_over.status_code == 303
        members = {m.id: m for m in groups.members(group_id)}
        assert [m for m in members if members[m].owner] == [bob]
        assert remove.status_code in (303, 403), remove.status_code
        assert (chloe not in members) == (remove.status_code == 303)
    ana_id = next(m.id for m in groups.members(group_id) if m.name == "Ana's phone")
    with pytest.raises(Forbidden, match="owner"):
        groups.remove(group_id, bob, by=ana_id)
    with pytest.raises(Forbidden, match="owner"):
        groups.merge(group_id, "ana", "bob", by=ana_id)


def test_an_owner_s_write_checked_before_a_hand_over_and_made_after_it_is_refused(app):
    """Ana's phone sends « Retirer » for Chloé; the page's request finds Ana the owner, and just
    then (between that read and the write) Ana's other page hands the group to Bob. The removal
    is refused (403) and Chloé stays: whether the phone owns the group is asked inside the write."""
    groups, reader = app.extensions["groups"], app.extensions["database"].reader
    ana = phone(app)
    group_id = make_group(ana)
    for name in ("Bob", "Chloé"):
        join(phone(app), join_link(ana, group_id), name)
    ana_id, bob, chloe = (
        next(m.id for m in groups.members(group_id) if m.name == n) for n in ("Ana's phone", "Bob", "Chloé")
    )
    handed = []

    def hand_over_meanwhile(_conn, _cursor, statement, *_args):
        if "group_member" in statement and not handed:
            handed.append(True)
            groups.hand_over(group_id, ana_id, bob)

    event.listen(reader, "after_cursor_execute", hand_over_meanwhile)
    try:
        answer = ana.post(f"/groups/{group_id}/members/{chloe}/remove")
    finally:
        event.remove(reader, "after_cursor_execute", hand_over_meanwhile)
    assert handed
    assert answer.status_code == 403, answer.status_code
    assert "Only the group&#39;s owner can do this." in answer.get_data(as_text=True)
    assert {m.name for m in groups.members(group_id)} == {"Ana's phone", "Bob", "Chloé"}


@pytest.fixture
def archive(app) -> dict:
    """A group's archive: ``played_group``'s three games and its merge."""
    ana, _bob, group_id, _ = played_group(app)
    return json.loads(ana.get(f"/groups/{group_id}/export.json").data)


def test_an_api_import_retried_at_once_makes_one_group_and_every_token_works(app, archive):
    """Four requests of one client with one key and file, at once: one group, and every member
    token they answered opens it."""
    for trial in range(10):
        before, clients = counts(app), [app.test_client() for _ in range(4)]
        headers = {"Idempotency-Key": f"retried-{trial}"}
        answers = at_once([partial(c.post, "/api/v1/groups/import", json=archive, headers=headers) for c in clients])
        assert sorted(a.status_code for a in answers) == [200, 200, 200, 201]
        assert len({a.get_json()["group"] for a in answers}) == 1
        assert counts(app)[0] == before[0] + 1
        group_id = answers[0].get_json()["group"]
        for answer in answers:
            bearer = {"Authorization": f"Bearer {answer.get_json()['member_token']}"}
            assert app.test_client().get(f"/api/v1/groups/{group_id}", headers=bearer).status_code == 200


def test_a_double_tapped_import_makes_one_group_whether_or_not_the_phone_has_an_id(app, archive):
    """The import form sent four times at once (a double tap, and again): one group, and every
    request's phone a member of it — from a phone that had no id yet, and from one that had."""
    body = json.dumps(archive).encode()
    for trial in range(10):
        first = phone(app)
        if trial % 2:
            first.get(f"/groups/{make_group(first)}")  # a phone that has an id already
        form = page(first, "/groups/import")
        nonce = re.search(r'name="nonce" value="([^"]+)"', form).group(1)
        clients, before = [same_phone(app, first) for _ in range(4)], counts(app)
        data = [{"file": (io.BytesIO(body), "group.json"), "nonce": nonce} for _ in clients]
        answers = at_once([partial(c.post, "/groups/import", data=d) for c, d in zip(clients, data, strict=True)])
        assert sorted(a.status_code for a in answers) == [200, 200, 200, 303], [a.status_code for a in answers]
        assert counts(app)[0] == before[0] + 1
        made = imported_id(next(a for a in answers if a.status_code == 303))
        for client in clients:
            assert client.get(f"/groups/{made}").status_code == 200


def invariants(app, group_id: str) -> None:
    """One live owner; no merge whose target is merged (no loop, no chain through a loop); one
    live member per phone token."""
    groups = app.extensions["groups"]
    members = groups.members(group_id)
    assert sum(m.owner for m in members) == 1, members
    merges = {alias.person: alias.counted_as for alias in groups.aliases(group_id)}
    assert all(standings_root(merges, who) not in merges for who in merges), merges


def standings_root(merges: dict, who: str) -> str:
    seen = {who}
    while who in merges and merges[who] not in seen:
        who = merges[who]
        seen.add(who)
    return who


def twice(app, client, method: str, url: str, **kwargs) -> list[int]:
    """The same request sent twice at once by one phone (a double tap): the two statuses, sorted."""
    phones = [same_phone(app, client) for _ in range(2)]
    statuses = sorted(a.status_code for a in at_once([partial(p.open, url, method=method, **kwargs) for p in phones]))
    kept = phones[0].get_cookie("session")  # the phone keeps one of the two answers' cookies
    if kept is not None:
        client.set_cookie("session", kept.value)
    return statuses


def test_every_group_write_sent_twice_at_once_keeps_the_group_whole(app):
    """Each write of a group's pages tapped twice at once: one is made, the other answered with a
    4xx or as done, and the group keeps one owner, merges without loops and one member per phone."""
    groups, ana = app.extensions["groups"], phone(app)
    group_id = make_group(ana)
    two_games(ana, group_id)
    for _trial in range(5):
        link = join_link(ana, group_id)
        bob = phone(app)
        nonce = re.search(r'name="nonce" value="([^"]+)"', page(bob, link)).group(1)
        assert twice(app, bob, "POST", link, data={"phone": "Bob", "nonce": nonce}) == [303, 303]
        assert [m.name for m in groups.members(group_id)].count("Bob") == 1
        invariants(app, group_id)
        bob_id = next(m.id for m in groups.members(group_id) if m.name == "Bob")
        invite_id = groups.invites(group_id)[-1].id
        assert twice(app, ana, "POST", f"/groups/{group_id}/invites/{invite_id}/revoke") == [303, 404]
        assert twice(app, ana, "POST", f"/groups/{group_id}/merges", data={"a": "Bob", "b": "Robert"}) == [303, 422]
        invariants(app, group_id)
        alias_id = groups.aliases(group_id)[0].id
        assert twice(app, ana, "POST", f"/groups/{group_id}/merges/{alias_id}/undo") == [303, 404]
        assert twice(app, ana, "POST", f"/groups/{group_id}/owner", data={"member": bob_id}) == [303, 403]
        invariants(app, group_id)
        ana_id = next(m.id for m in groups.members(group_id) if not m.owner and m.name != "Bob" and m.id != bob_id)
        assert twice(app, bob, "POST", f"/groups/{group_id}/owner", data={"member": ana_id}) == [303, 403]
        assert twice(app, ana, "POST", f"/groups/{group_id}/members/{bob_id}/remove") == [303, 404]
        invariants(app, group_id)
    # A phone removed, joining by the same link again: told so, not a member again.
    link, dan = join_link(ana, group_id), phone(app)
    join(dan, link, "Dan")
    dan_id = next(m.id for m in groups.members(group_id) if m.name == "Dan")
    assert ana.post(f"/groups/{group_id}/members/{dan_id}/remove").status_code == 303
    again = dan.post(link, data={"phone": "Dan"})
    # the link a removed phone joined through opens for nobody now (a new one is needed)
    assert again.status_code == 403 and "removed" in again.get_data(as_text=True)
    assert "Dan" not in [m.name for m in groups.members(group_id)]
