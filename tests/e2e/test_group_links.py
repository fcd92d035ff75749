"""A group's join links and phones, as the owner keeps them: a link for one phone (the default on
the page), for a number of phones, or until a last day; a phone always named when it joins, which
the owner may rename; each phone's last visit shown to the owner; the same through the API."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from models.services.db import GroupInvite
from models.services.unit_of_work import unit_of_work
from tests.e2e.test_groups import join, join_link, make_group, phone


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.get_data(as_text=True)))


def default_link(client, group_id) -> str:
    """The link the page makes as it is shown, its fields as they are (the owner taps only the button)."""
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    checked = re.search(r'<input type="radio" id="invite-[a-z]+" name="uses" value="([a-z0-9]+)" checked>', page)
    return join_link(client, group_id, uses=checked.group(1), count="4", until="")


def test_the_page_s_link_is_for_one_phone_unless_the_owner_says_more(app):
    ana, bob, chloe = phone(app), phone(app), phone(app)
    group_id = make_group(ana)
    link = default_link(ana, group_id)
    join(bob, link, "Bob")
    refused = chloe.get(link)
    assert refused.status_code == 403
    assert "This link was for one phone, and it has joined" in text(refused)

    # four phones: the fifth is told every phone it was for has joined
    link = join_link(ana, group_id, uses="some", count="2")
    join(chloe, link, "Chloé")
    join(phone(app), link, "Dan")
    third = phone(app).get(link)
    assert third.status_code == 403
    assert "Every phone this link was for has joined: ask the group's owner for a new one." in text(third)
    page = text(ana.get(f"/groups/{group_id}"))
    assert "for 2 phones" not in page.split("used up", 1)[0].rsplit("Made on", 1)[1]  # the full one says used up
    assert page.count("used up") == 2


def test_a_link_opens_until_its_last_day_and_no_later(app):
    ana, bob = phone(app), phone(app)
    group_id = make_group(ana)
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    link = join_link(ana, group_id, uses="any", until=tomorrow.isoformat())
    page = text(ana.get(f"/groups/{group_id}"))
    assert "until " in page and "active" in page
    assert bob.get(link).status_code == 200  # opens today
    # the day after its last day (the moment it stops: midnight UTC after it)
    with unit_of_work(app.extensions["database"]) as session:
        session.execute(update(GroupInvite).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    late = bob.get(link)
    assert late.status_code == 403
    assert "This link's last day has passed: ask the group's owner for a new one." in text(late)
    assert bob.post(link, data={"phone": "Bob"}).status_code == 403


def test_bad_limits_are_refused_in_words(app):
    ana = phone(app)
    group_id = make_group(ana)
    for form, words in (
        ({"uses": "some", "count": "0"}, "A join link is for 1 to 50 phones, or for any number."),
        ({"uses": "some", "count": "many"}, "A join link is for 1 to 50 phones, or for any number."),
        ({"uses": "51"}, "A join link is for 1 to 50 phones, or for any number."),
        ({"until": "31/12/2026"}, "A join link's last day is a date, such as 2026-12-31."),
        ({"until": "2020-01-01"}, "A join link's last day cannot be in the past."),
    ):
        answer = ana.post(f"/groups/{group_id}/invites", data=form)
        assert answer.status_code == 422, form
        assert words in text(answer), form
    ana.set_cookie("lang", "fr")
    answer = ana.post(f"/groups/{group_id}/invites", data={"until": "2020-01-01"})
    assert "Le dernier jour d'un lien d'invitation ne peut pas être passé." in text(answer)


def test_a_phone_joins_with_a_name_the_owner_may_change(app):
    ana, bob = phone(app), phone(app)
    group_id = make_group(ana)
    link = join_link(ana, group_id)
    assert bob.get(link).status_code == 200
    nameless = bob.post(link, data={"phone": "  "})
    assert nameless.status_code == 422
    assert "Give this phone a name" in text(nameless)
    assert bob.get(f"/groups/{group_id}").status_code == 404  # not a member for all that
    join(bob, link, "Bob")
    members = app.extensions["groups"].members(group_id)
    bob_id = next(m.id for m in members if m.name == "Bob")
    assert bob.post(f"/groups/{group_id}/members/{bob_id}/name", data={"name": "Tablette"}).status_code == 403
    assert ana.post(f"/groups/{group_id}/members/{bob_id}/name", data={"name": ""}).status_code == 422
    assert ana.post(f"/groups/{group_id}/members/{bob_id}/name", data={"name": "Tablette du salon"}).status_code == 303
    page = text(ana.get(f"/groups/{group_id}"))
    assert "Tablette du salon" in page and "<strong>Bob</strong>" not in page


def test_the_owner_sees_each_phone_s_last_visit(app):
    ana, bob = phone(app), phone(app)
    group_id = make_group(ana)
    join(bob, join_link(ana, group_id), "Bob")
    groups = app.extensions["groups"]

    def bob_line():
        page = ana.get(f"/groups/{group_id}").get_data(as_text=True)
        return re.search(r"<strong>Bob</strong>(.*?)</li>", page, re.S).group(1)

    assert "no visit since joining" in bob_line()  # joined, the group's page not opened yet
    assert bob.get(f"/groups/{group_id}").status_code == 200
    assert "last visit:" in bob_line()  # the owner's page, kept per revision, drawn again
    seen = next(m.seen_at for m in groups.members(group_id) if m.name == "Bob")
    assert seen.date() == datetime.now(UTC).date()
    before = groups.group(group_id).revision
    bob.get(f"/groups/{group_id}")  # again the same day: nothing written
    assert groups.group(group_id).revision == before


def test_the_api_lists_phones_and_links_renames_and_makes_a_limited_link(app):
    ana, client = phone(app), app.test_client()
    group_id = make_group(ana)
    invite = join_link(ana, group_id).rsplit("/", 1)[1]
    answer = client.post(f"/api/v1/groups/{group_id}/members", json={"invite": invite, "name": "Tablet"})
    bearer = {"Authorization": f"Bearer {answer.get_json()['member_token']}"}
    listed = client.get(f"/api/v1/groups/{group_id}/members", headers=bearer).get_json()
    assert [(m["name"], m["owner"], m["number"]) for m in listed["members"]] == [
        ("Ana's phone", True, 1),
        ("Tablet", False, 2),
    ]
    assert listed["invites"] is None  # the links are the owner's
    made = client.post(f"/api/v1/groups/{group_id}/invites", json={"uses": 3, "until": "2099-12-31"}, headers=bearer)
    assert made.status_code == 201
    assert made.get_json()["link"].endswith(f"/groups/{group_id}/join/{made.get_json()['invite']}")
    refused = client.post(f"/api/v1/groups/{group_id}/invites", json={"uses": 0}, headers=bearer)
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "uses"
    assert client.post(f"/api/v1/groups/{group_id}/invites", json={"uses": True}, headers=bearer).status_code == 422
    tablet = listed["members"][1]["id"]
    assert (
        client.put(f"/api/v1/groups/{group_id}/members/{tablet}", json={"name": "X"}, headers=bearer).status_code == 403
    )
    assert client.post(f"/api/v1/groups/{group_id}/invites", json={}, headers={}).status_code == 404
