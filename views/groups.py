"""A group's pages (« une tablée »): made from the home page or a game, its page (games,
standings, members, invites), joining by a link, the owner's writes, and the read-only watch page.

A group says nothing to a phone that is not a member: every page and write of it is a 404 then
(the watch link opens its read-only page, which shows no invite and no member's token). The
member tokens live in the phone's signed session (``group_tokens``); ``models/services/groups.py``
answers who is a member, ``models/core/standings.py`` the numbers.
"""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, date, datetime, time, timedelta
from urllib.parse import urlencode

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core import championship, standings
from models.core.errors import N_, Forbidden, NotFound, ValidationError
from models.services import group_games, history
from models.services import groups as group_service
from models.services.group_links import MAX_LINK_USES, REMOVED_FROM_GROUP
from models.services.groups import Membership

from . import links
from .group_charts import season_chart
from .kit import database, fragment_or_page, games, groups, lang, nights, now, registry, summaries
from .live import phone_name
from .numbers import whole_number
from .pagecache import cached_page
from .rights import is_owner, known_games, member_tokens, phone_id, remember_token, stored_tokens
from .season_table import SEASON_ASKED, championship_of

bp = Blueprint("groups", __name__)

GAMES_SHOWN = 20
STILL_SECONDS = 1  # how often an open group page asks whether its phone is still a member


def private(response):
    """A group's page is one phone's: kept by no cache (it may carry an invite)."""
    response.headers["Cache-Control"] = "private, no-store"
    return response


def member(group_id: str) -> Membership:
    """This phone's membership of the group, or not found; a write from a phone the owner removed
    is refused and told so."""
    found = groups().membership(group_id, member_tokens())
    if found is not None:
        return found
    if request.method == "POST" and groups().removed(group_id, member_tokens()):
        raise Forbidden(REMOVED_FROM_GROUP)
    raise NotFound(N_("No group with this id."), field="id")


def owner(group_id: str) -> Membership:
    found = member(group_id)
    if not found.owner:
        raise Forbidden(N_("Only the group's owner can do this."))
    return found


def my_groups() -> list:
    """The groups this phone is a member of, by name."""
    return groups().groups_of(member_tokens())


def suggested_names(group: str | None) -> list[str]:
    """The names the new-game form suggests, most used first: the group's players when the game is
    played in a group this phone is a member of (the usual table first), else this browser's own."""
    if group and groups().membership(group, member_tokens()):
        return groups().people(group, history.SUGGESTED_NAMES)
    return history.player_names(database(), history.Scope(ids=known_games()))


def group_choice(group: str | None) -> dict:
    """The new-game form's groups (this phone's) and the names it suggests."""
    return {"groups": my_groups(), "suggestions": suggested_names(group)}


def played_in(group: str) -> str | None:
    """The group a new game is played in: none, or one this phone is a member of (else not found)."""
    if not group:
        return None
    member(group)
    return group


def data_uri(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode()


def watch_url(group) -> str:
    return links.absolute(url_for("groups.watch", watch_id=group.watch_id))


ASKED = ("period", "variant", "a", "b", "out", "back", *SEASON_ASKED)  # all a group's page depends on of the query


def asked(args) -> dict:
    """The standings a group's page is asked for (``?period=all|year|month&variant=…&a=…&b=…``),
    its championship (``scale``, ``own``, ``best``: ``season_table``) and the notice it shows (``out``: a game taken out, ``back``: put back), nothing else of the
    query: the page is kept under these."""
    return {name: args.get(name, "")[:60] for name in ASKED if args.get(name)}


def kept_page(key: tuple, render, endpoint: str, **values):
    """A group's page kept compressed per ``key`` (which holds the group's revision), the day, what
    was asked and the language (``views/pagecache.py``: private, revalidated by its ETag; it holds
    no invite link), its language links to the page as asked (``here``)."""
    wanted = asked(request.args)
    day = now().date()  # "this year", "this month" and the season's chart move with it
    return cached_page(
        (*key, day, tuple(wanted.items()), lang()), lambda: render(url_for(endpoint, **values, **wanted))
    )


def standings_context(apart, args, aliases=(), ended=()) -> dict:
    """The standings the page asks for (``?period=all|year|month&variant=…&a=…&b=…``) of the
    finished games ``apart`` (``GroupGames.finished``), each merged spelling (``aliases``) counted
    as the person it was merged into under every filter, each person named as the group last
    spelt them; points in one table per kind (``standings.kinds``); the championship of the ended
    nights ``ended`` (``NightService.season``) under the same period and variant."""
    merges = group_service.merges_of(aliases)
    finished = standings.merged(apart, merges)
    spelled = standings.spellings(apart)
    names = standings.spellings(finished)
    period = args.get("period") if args.get("period") in standings.PERIODS else "all"
    played = standings.variants(finished)
    variant = args.get("variant") if args.get("variant") in played else None
    today = now()
    picked = standings.chosen(finished, period, variant, today)
    lines = standings.table(picked, names)
    # everyone of the group, best first (the head-to-head's choices): the same table when every
    # game is picked, which the page's first look is (one pass over every manche, not two)
    everyone = lines if period == "all" and variant is None else standings.table(finished, names)
    persons = {line.person: line.name for line in everyone}
    first = standings.counted_as(merges, standings.person(args.get("a", "")))
    second = standings.counted_as(merges, standings.person(args.get("b", "")))
    versus = None
    if first in persons and second in persons and first != second:
        versus = standings.head_to_head(picked, first, second)
    season = standings.season(finished, today, names)
    kept = {name: args[name] for name in SEASON_ASKED if args.get(name)}  # the championship as asked
    return {
        "period": period,
        "period_links": {
            key: "?" + urlencode({"period": key, **({"variant": variant} if variant else {}), **kept})
            for key in standings.PERIODS
        },
        "season_asked": kept,
        "season_query": urlencode({"period": period, **({"variant": variant} if variant else {}), **kept}),
        "championship": championship_of(ended, args, names, variant, today),
        "scales": championship.SCALES,
        "variant": variant,
        "variants": [(v, registry().find(v)) for v in played],
        "lines": lines,
        "kinds": standings.kinds(lines),
        "persons": persons,
        "versus": versus,
        "season": season,
        "season_chart": season_chart(season),
        "merges": [(a.id, spelled.get(a.person, a.person), spelled.get(a.counted_as, a.counted_as)) for a in aliases],
    }


def group_context(group_id: str, membership: Membership, new_invite: str | None = None, addable=None) -> dict:
    group = groups().group(group_id)
    played = groups().games(summaries(), group_id, GAMES_SHOWN)
    own = group_service.addable(database(), stored_tokens()) if addable is None else addable
    members, removed = groups().roll(group_id)
    context = {
        "group": group,
        "me": membership,
        "mine": set(stored_tokens()),  # the games this phone made: it may take them out
        "notice": game_notice(group_id, request.args),
        "members": members,
        "invites": groups().invites(group_id) if membership.owner else [],
        "removed": removed if membership.owner else [],
        "new_invite": new_invite,
        "new_invite_qr": data_uri(links.qr_svg(new_invite)) if new_invite else None,
        "watch_url": watch_url(group),
        "today": now().date(),
        "games": played.newest,
        "game_count": played.count,
        "addable": summaries().of(own),
        "read_only": False,
        "still_every": STILL_SECONDS,
    }
    aliases = groups().aliases(group_id)
    ended = nights().season(summaries(), group_id, aliases)
    context.update(standings_context(played.finished, asked(request.args), aliases, ended))
    return context


@bp.post("/groups")
def create_group():
    """A new group, this phone its owner; ``game`` (a game this phone owns, « Continuer
    ensemble ») is played in it from now on."""
    game_id = request.form.get("game") or None
    if game_id is not None and not is_owner(game_id):
        raise NotFound(N_("No game with this id."), field="game")
    group_id, token = groups().create(request.form.get("name"), request.form.get("phone"), game_id)
    remember_token(group_id, token, "group_tokens")
    return private(redirect(url_for("groups.group_page", group_id=group_id), 303))


@bp.get("/groups/<group_id>")
def group_page(group_id):
    """A member's page of the group, kept per revision of the group (one lookup with the
    membership), the member, and the games this phone may still add (one more when it owns any)."""
    membership = groups().visited(group_id, member(group_id), now())
    addable = group_service.addable(database(), stored_tokens())

    def render(here):
        return render_template("groups/group.html", here=here, **group_context(group_id, membership, addable=addable))

    key = ("group", group_id, membership, tuple(addable), tuple(stored_tokens()))
    return kept_page(key, render, "groups.group_page", group_id=group_id)


@bp.get("/groups/<group_id>/still")
def still_member(group_id):
    """Whether this phone is still a member, asked by its open group page every ``STILL_SECONDS``
    with the group's revision it shows (``groups/_still.html``). A group page has no event stream
    (it is opened and left, not kept open through a game like a game's page); a removal moves the
    group's revision, so this question is answered from the process's memory of that revision
    (``GroupService.revision``: one statement per group every ``STILL_SECONDS`` / 2, never one per
    phone) while the group has not moved: 204, nothing to change. Moved: the membership (one
    statement); still a member, the same question with the new revision; removed, the page
    becomes the notice of its removal and stops asking (286); neither (its session lost), it stops
    asking and is told nothing of the group."""
    seen = whole_number(request.args.get("revision", ""))
    if seen is not None and groups().revision(group_id, STILL_SECONDS / 2) == seen:
        return private(make_response("", 204))
    found = groups().membership(group_id, member_tokens())
    if found is not None:
        return private(
            make_response(
                render_template("groups/_still.html", group_id=group_id, revision=found.revision, every=STILL_SECONDS)
            )
        )
    if not groups().removed(group_id, member_tokens()):
        return private(make_response("", 286))
    response = private(make_response(render_template("groups/_removed.html", said=gettext(REMOVED_FROM_GROUP)), 286))
    response.headers.update({"HX-Retarget": "#main", "HX-Reswap": "innerHTML"})
    return response


def link_limits(data) -> dict:
    """A join link's limits as a form or a JSON body sends them: ``uses`` (a number of phones, or
    "some" with that number in ``count``; "any" or absent: no limit) and ``until`` (an ISO date,
    its last day, which ends at midnight UTC; absent or empty: none)."""
    uses = data.get("count") if data.get("uses") == "some" else data.get("uses")
    max_uses = None
    if uses not in (None, "", "any"):
        # anything else than a number of phones: 0, which the service refuses in words
        max_uses = uses if type(uses) is int else whole_number(uses, 1, MAX_LINK_USES) or 0
    until, expires_at = data.get("until"), None
    if until not in (None, ""):
        try:
            last_day = date.fromisoformat(until) if isinstance(until, str) else None
        except ValueError:
            last_day = None
        if last_day is None:
            raise ValidationError(N_("A join link's last day is a date, such as 2026-12-31."), field="until")
        expires_at = datetime.combine(last_day + timedelta(days=1), time(), UTC)
    return {"max_uses": max_uses, "expires_at": expires_at}


@bp.post("/groups/<group_id>/invites")
def create_invite(group_id):
    """A new join link, shown now to the member who asked, and never again; for the phones and
    until the day the member chose (``link_limits``)."""
    membership = member(group_id)
    token = groups().create_invite(group_id, **link_limits(request.form), by=membership.member_id)
    url = links.absolute(url_for("groups.join", group_id=group_id, token=token))
    page = render_template("groups/group.html", **group_context(group_id, membership, new_invite=url))
    return private(make_response(page, 201))


@bp.post("/groups/<group_id>/invites/<invite_id>/revoke")
def revoke_invite(group_id, invite_id):
    groups().revoke_invite(group_id, invite_id, by=owner(group_id).member_id)
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="invites"), 303))


@bp.get("/groups/<group_id>/join/<token>")
def join(group_id, token):
    """The scanned join link: the group's name, the phone's name (the one it gave this app
    already, if any), and a button to join (a GET changes nothing)."""
    if groups().membership(group_id, member_tokens()):
        return private(redirect(url_for("groups.group_page", group_id=group_id), 303))
    groups().open_invite(group_id, token)
    return join_page(group_id, token, secrets.token_urlsafe(16), phone_name())


def join_page(group_id: str, token: str, nonce: str, name: str | None, error: str | None = None):
    """The join form, its name prefilled (the name this phone gave this app, or the one it typed)."""
    page = render_template(
        "groups/join.html", group=groups().group(group_id), token=token, nonce=nonce, phone_name=name, error=error
    )
    return private(make_response(page, 422 if error else 200))


@bp.post("/groups/<group_id>/join/<token>")
def join_group(group_id, token):
    """This phone joins by the link; its requests of one double tap (a phone with no id yet takes
    one from the form's nonce: ``phone_id``) make one member, and both answers its token."""
    if not groups().membership(group_id, member_tokens()):
        name = group_service.phone_name(request.form.get("phone"))
        if name is None:  # the owner tells the phones apart by their names
            groups().open_invite(group_id, token)
            error = N_("Give this phone a name (at most 40 characters): the group's owner tells phones apart by it.")
            return join_page(group_id, token, request.form.get("nonce") or secrets.token_urlsafe(16), None, error)
        phone = "phone:" + phone_id(request.form.get("nonce"))
        member_token = groups().join(group_id, token, name, phone=phone, secret=current_app.secret_key.encode())
        remember_token(group_id, member_token, "group_tokens")
    return private(redirect(url_for("groups.group_page", group_id=group_id), 303))


@bp.post("/groups/<group_id>/members/<member_id>/remove")
def remove_member(group_id, member_id):
    groups().remove(group_id, member_id, by=owner(group_id).member_id)
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="members"), 303))


@bp.post("/groups/<group_id>/members/<member_id>/name")
def rename_member(group_id, member_id):
    """The owner names a phone of the group."""
    groups().rename(group_id, member_id, request.form.get("name"), by=owner(group_id).member_id)
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="members"), 303))


@bp.post("/groups/<group_id>/owner")
def hand_over(group_id):
    me = owner(group_id)
    groups().hand_over(group_id, me.member_id, request.form.get("member", ""))
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="members"), 303))


@bp.post("/groups/<group_id>/games")
def add_game(group_id):
    """A game made before joins the group: its owner (this phone) says so."""
    member(group_id)
    game_id = request.form.get("game", "")
    if not is_owner(game_id):
        raise NotFound(N_("No game with this id."), field="game")
    groups().add_game(group_id, game_id)
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="games"), 303))


def game_notice(group_id: str, args) -> tuple | None:
    """The notice after a game was taken out (``("out", its summary)`` while it may still be put
    back) or put back (``("back", None)``), or None."""
    if args.get("out"):
        row = group_games.taken_out(database(), group_id, args["out"])
        return None if row is None else ("out", summaries().of([row])[0])
    return ("back", None) if args.get("back") else None


def out_rights(group_id: str, game_id: str) -> tuple[str | None, bool]:
    """The member id of the group's owner when this request is it, and whether it made the game
    (holds its own rights): who may take a game out of the group, and put it back (the service
    asks the owner again inside its write). A phone that is neither a member nor the game's maker
    is answered as ``member`` answers it."""
    found = groups().membership(group_id, member_tokens())
    maker = is_owner(game_id)
    if found is None and not maker:
        member(group_id)
    return (found.member_id if found and found.owner else None), maker


@bp.post("/groups/<group_id>/games/<game_id>/out")
def take_out(group_id, game_id):
    """The group's owner, or the phone that made the game, takes it out of the group; the page
    that follows says so, with its undo."""
    group_games.take_out(database(), group_id, game_id, *out_rights(group_id, game_id))
    return private(redirect(url_for("groups.group_page", group_id=group_id, out=game_id, _anchor="games"), 303))


@bp.post("/groups/<group_id>/games/<game_id>/back")
def put_back(group_id, game_id):
    """The undo of a game taken out: it is in the group again."""
    group_games.put_back(database(), group_id, game_id, *out_rights(group_id, game_id))
    return private(redirect(url_for("groups.group_page", group_id=group_id, back=game_id, _anchor="games"), 303))


def merge_preview(group_id: str, args) -> standings.MergePreview:
    """What merging ``b`` into ``a`` (two persons of the group's standings, neither merged
    already) would do; anything else is a clear 422."""
    aliases = groups().aliases(group_id)
    apart = groups().games(summaries(), group_id, 0).finished
    finished = standings.merged(apart, group_service.merges_of(aliases))
    persons = {line.person for line in standings.table(finished)}
    first, second = standings.person(args.get("a", "")), standings.person(args.get("b", ""))
    if first not in persons or second not in persons or first == second:
        raise ValidationError(N_("Choose two different players of the group."), field="b")
    preview = standings.merge_preview(finished, first, second)
    if preview.together:
        raise ValidationError(N_("These two played in the same game: they are two people."), field="b")
    return preview


@bp.get("/groups/<group_id>/merge")
def merge_page(group_id):
    """The merge shown before it is done: the games of each spelling, with the names they bear."""
    owner(group_id)
    preview = merge_preview(group_id, request.args)
    page = render_template("groups/merge.html", group=groups().group(group_id), preview=preview)
    return private(make_response(page))


@bp.post("/groups/<group_id>/merges")
def merge(group_id):
    me = owner(group_id)
    preview = merge_preview(group_id, request.form)
    groups().merge(group_id, preview.second, preview.first, by=me.member_id)
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="merges"), 303))


@bp.post("/groups/<group_id>/merges/<alias_id>/undo")
def unmerge(group_id, alias_id):
    groups().unmerge(group_id, alias_id, by=owner(group_id).member_id)
    return private(redirect(url_for("groups.group_page", group_id=group_id, _anchor="merges"), 303))


def group_name_from(players) -> str:
    """A new group's name from a game's players ("Ana, Bob, Chloé"), as many as fit in a name."""
    name = ""
    for player in players:
        longer = f"{name}, {player}" if name else player
        if len(longer) > group_service.MAX_GROUP_NAME:
            break
        name = longer
    return name


@bp.get("/games/<game_id>/together")
def together(game_id):
    """« Continuer ensemble » from a game: a member of its group is offered the group (a new game
    in it, its page); the game's owner, a new group made from it (its name prefilled) or one of
    this phone's groups to add it to. Anyone else: not found."""
    game = games().get(game_id)
    group_id = groups().group_of_game(game_id)
    if group_id is not None and groups().membership(group_id, member_tokens()):
        context = {"game": game, "group": groups().group(group_id)}
    elif group_id is None and is_owner(game_id):
        context = {"game": game, "group": None, "my_groups": my_groups(), "name": group_name_from(game.players)}
    else:
        raise NotFound(N_("No game with this id."), field="id")
    return private(make_response(fragment_or_page("groups/_together.html", "groups/together.html", **context)))


@bp.get("/w/<watch_id>")
def watch(watch_id):
    """The read-only page of a group: its games and standings, nothing of its members or invites."""
    group = groups().watched(watch_id)

    def render(here):
        played = groups().games(summaries(), group.id, GAMES_SHOWN)
        context = {"group": group, "games": played.newest, "game_count": played.count, "watch_url": watch_url(group)}
        aliases = groups().aliases(group.id)
        ended = nights().season(summaries(), group.id, aliases)
        context.update(standings_context(played.finished, asked(request.args), aliases, ended))
        return render_template("groups/watch.html", read_only=True, here=here, **context)

    return kept_page(("group-watch", group.id, group.revision), render, "groups.watch", watch_id=watch_id)


@bp.get("/w/<watch_id>/qr.svg")
def watch_qr(watch_id):
    group = groups().watched(watch_id)
    response = make_response(links.qr_svg(watch_url(group)))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-cache"
    return response
