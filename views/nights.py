"""A club night's pages (« une soirée de club »): a group's nights and a new one (the players
present, the number of tables, round 1's seating proposed and editable, all tables started in one
tap), the night's page (every table's totals, live; the ranking across tables; the next round's
seating, by ranking, strongest together or shuffled, started in one tap), and the read-only pages
the group's watch link opens.

A night says nothing to a phone that is not a member of its group: a 404, like the group. Every
member may start a night and its rounds (a member records the group's games); a watcher sees.
The numbers are the core's (``models/core/club_night.py``), the writes the service's
(``models/services/nights.py``); the stream is ``views/night_events.py``.
"""

from __future__ import annotations

import hashlib
import secrets
from decimal import Decimal
from typing import NamedTuple

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from flask_babel import format_date, format_decimal, get_locale, gettext, ngettext

from models.core import club_night
from models.core.errors import N_, Conflict, DomainError, Nn_, NotFound, ValidationError
from models.core.standings import person
from models.services.nights import NightState, table_results

from .groups import member, private
from .kit import groups, lang, nights, now, registry, summaries
from .live import conditional
from .numbers import whole_number
from .pagecache import cached_page
from .rights import remember_token
from .texts import error_message

bp = Blueprint("nights", __name__)

EXTRA_PLAYERS = 6  # the new night's inputs for players not yet in the group
EXTRA_SEATS = 2  # the next round's inputs for a player arriving
DEFAULT_TABLES = 2


# --- who sees a night ------------------------------------------------------------------------------


NO_NIGHT = N_("No club night with this id.")


def of_members(state: NightState, check) -> NightState:
    """The night once ``check`` (the page's or the API's) finds this phone a member of its group;
    for anyone else the night is not found, said of the night (its group is not named)."""
    try:
        check(state.night.group_id)
    except NotFound:
        raise NotFound(NO_NIGHT, field="id") from None
    return state


def members_night(night_id: str) -> NightState:
    """The night, for a member of its group; not found for anyone else."""
    return of_members(nights().state(night_id), member)


def watched_night(watch_id: str, night_id: str) -> tuple:
    """The group a watch link opens and one of its nights; not found otherwise."""
    group = groups().watched(watch_id)
    state = nights().state(night_id)
    if state.night.group_id != group.id:
        raise NotFound(NO_NIGHT, field="id")
    return group, state


# --- reading the forms -----------------------------------------------------------------------------


def read_seating(data, lenient: bool = False) -> list[list[str]]:
    """The seating as sent: ``players`` (names, in order) and ``table-<i>`` each one's table (0:
    not playing); blank names are skipped, tables kept in their numbers' order. A table that is
    not one is refused (``lenient``: read as table 1, to show the form again)."""
    tables: dict = {}
    for index, name in enumerate(data.getlist("players")):
        name = " ".join(name.split())
        if not name:
            continue
        table = whole_number(data.get(f"table-{index}", ""), 0, club_night.MAX_TABLES)
        if table is None and lenient:
            table = 1
        if table is None:
            raise ValidationError(N_("Choose a table for %(name)s."), field="players", name=name)
        if table:
            tables.setdefault(table, []).append(name)
    return [tables[number] for number in sorted(tables)]


def read_byes(data) -> list[str]:
    """The players the seating sends as sitting the turn out (their table ``0``)."""
    names = [" ".join(name.split()) for name in data.getlist("players")]
    return [name for index, name in enumerate(names) if name and data.get(f"table-{index}", "").strip() == "0"]


def night_settings(data) -> dict:
    """The new night's variant and how its games end (a target, or a number of manches)."""
    variant = registry().find(data.get("variant") or "") or next(iter(registry().builtins.variants.values()))
    end = "rounds" if data.get("end") == "rounds" else "target"
    raw = (data.get("rounds") if end == "rounds" else data.get("target")) or ""
    number = whole_number(raw)
    value = number if number is not None else (raw.strip() or None)
    return {
        "variant": variant,
        "end": end,
        "target": value if end == "target" else None,
        "rounds": value if end == "rounds" else None,
    }


def present_players(data) -> list[str]:
    """The players ticked or typed, each person once (``standings.person``: case, accents and
    spacing aside), in order."""
    names, seen = [], set()
    for raw in data.getlist("players"):
        name = " ".join(raw.split())
        if name and person(name) not in seen:
            seen.add(person(name))
            names.append(name)
    return names


def seed_of(data) -> int:
    return whole_number(data.get("seed", ""), 0, 10**9) or secrets.randbelow(10**9) + 1


# --- a group's nights and a new one ------------------------------------------------------------------


def new_night_context(group_id: str, data, errors: dict | None = None) -> dict:
    group = groups().group(group_id)
    today = format_date(now(), "d MMMM")
    return {
        "group": group,
        "nights": nights().nights(group_id),
        "known": groups().people(group_id, limit=60),
        "chosen": set(present_players(data)),
        "variants": registry().all(),
        "settings": night_settings(data),
        "name": data.get("name") or gettext("Club night, %(date)s", date=today),
        "tables": data.get("tables") or str(DEFAULT_TABLES),
        "extra": EXTRA_PLAYERS,
        "errors": errors or {},
    }


@bp.get("/groups/<group_id>/nights")
def group_nights(group_id):
    member(group_id)
    return private(make_response(render_template("nights/list.html", **new_night_context(group_id, request.args))))


def first_seating(data) -> tuple[list, list, int]:
    """Round 1's seating for the players present, shuffled, who sits it out when the tables are
    full (the last of the shuffled order), and its seed."""
    settings = night_settings(data)
    players = present_players(data)
    low, high = settings["variant"].min_players, settings["variant"].max_players
    count = club_night.checked_tables(whole_number(data.get("tables", "")), len(players), low, high, byes=True)
    seed = seed_of(data)
    order = club_night.shuffled(players, 1, seed)[0]
    seating, out = club_night.turn_seating("together", order, count, high)
    return seating, out, seed


@bp.get("/groups/<group_id>/nights/new")
def new_night(group_id):
    """Round 1's seating proposed (shuffled) for the players present, editable, then started."""
    member(group_id)
    try:
        seating, out, seed = first_seating(request.args)
    except DomainError as error:
        context = new_night_context(group_id, request.args, {error.field or "form": error_message(error)})
        return private(make_response(render_template("nights/list.html", **context), 422))
    return private(
        make_response(
            render_template("nights/new.html", **seating_context(group_id, request.args, seating, seed, out=out))
        )
    )


def seating_context(group_id: str, data, seating: list, seed: int, error: str | None = None, out=()) -> dict:
    settings = night_settings(data)
    return {
        "group": groups().group(group_id),
        "name": data.get("name", ""),
        "settings": settings,
        "seating": seating,
        "out": list(out),
        "seed": seed,
        "nonce": data.get("nonce") or secrets.token_urlsafe(16),
        "error": error,
        "extra_seats": EXTRA_SEATS,
    }


@bp.post("/groups/<group_id>/nights")
def start_night(group_id):
    """The night and its first round's games, in one transaction; a retry makes nothing twice."""
    member(group_id)
    settings = night_settings(request.form)
    try:
        seating = read_seating(request.form)
        night_id, started = nights().start(
            group_id, request.form.get("name"), settings["variant"].id, settings["target"], settings["rounds"],
            seating, request.form.get("nonce"), read_byes(request.form),
        )  # fmt: skip
    except DomainError as error:
        kept = read_seating(request.form, lenient=True)  # as sent, to be seated again
        out = read_byes(request.form)
        context = seating_context(group_id, request.form, kept, seed_of(request.form), error_message(error), out)
        return private(make_response(render_template("nights/new.html", **context), 422))
    for game_id, token in started:
        remember_token(game_id, token)
    return private(redirect(url_for("nights.night_page", night_id=night_id), 303))


# --- the night --------------------------------------------------------------------------------------


class Numbers(NamedTuple):
    """What a night's pages and its API answer show: its games summed up (by id), whether its
    points count against, and its ranking (the group's merges applied)."""

    summaries: dict
    lower_is_better: bool
    ranking: list
    met: frozenset  # the pairs of persons who shared a table (the « fresh » seating avoids them)


def night_numbers(state: NightState) -> Numbers:
    summed = nights().summaries(summaries(), state)
    low = nights().lower_is_better(state.night)
    aliases = groups().aliases(state.night.group_id)
    ranking = nights().ranking(state, summed, aliases, low)
    return Numbers(summed, low, ranking, club_night.met(table_results(state, summed, aliases)))


def night_context(state: NightState, read_only: bool, live_url: str) -> dict:
    """The night's tables (the round being played), its ranking, and what the page's parts need."""
    numbers = night_numbers(state)
    tables = [(table, numbers.summaries.get(table.game_id)) for table in state.current]
    return {
        # the turn being played is over: every one of its tables has finished its game (the next is offered)
        "turn_over": all(summary is not None and summary.finished for _table, summary in tables),
        "night": state.night,
        "stamp": state.stamp,
        "tables": [(table, summary) for table, summary in tables if summary is not None],
        "ranking": numbers.ranking,
        "met": numbers.met,
        "podium": club_night.podium(numbers.ranking) if state.night.ended_at else [],
        "rankings": club_night.RANKINGS,
        "uneven": any(line.byes or line.gone for line in numbers.ranking),
        "order": order_key(numbers.ranking),
        "lower_is_better": numbers.lower_is_better,
        "read_only": read_only,
        "live_url": live_url,
    }


def order_key(ranking) -> str:
    """The ranking's order as a short key: the next turn's proposal is drawn from it, and the page
    draws the proposal again when the live part shows a ranking with another key."""
    text = "\n".join(f"{line.name}{' gone' if line.gone else ''}" for line in ranking)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


class Asked(NamedTuple):
    """The next turn's seating as asked: its ``method``, number of ``tables`` and ``seed``."""

    method: str
    tables: int
    seed: int


def asked_seating(state: NightState, data) -> Asked:
    """What ``data`` asks (``method``, ``tables``, ``seed``): by default spread over the tables of
    the turn being played, a new seed drawn."""
    method = data.get("method") if data.get("method") in club_night.METHODS else "spread"
    count = whole_number(data.get("tables", ""), 1, club_night.MAX_TABLES) or len(state.current) or 1
    return Asked(method, count, seed_of(data))


class Proposed(NamedTuple):
    """The next turn's seating: its tables, who sits it out, and why the tables asked could not be."""

    seating: list
    out: list
    refused: DomainError | None


def proposed_seating(state: NightState, ranking, asked: Asked, met: frozenset = frozenset()) -> Proposed:
    """The next turn's seating drawn from the ranking as ``asked``, for the players present (not
    those who left), the ones over the tables' seats sitting out in turn; when the players are
    too few for the number of tables asked, the refusal and the seating at the tables of the turn
    being played."""
    order = [line.name for line in ranking if not line.gone]
    byes = {person(line.name): line.byes for line in ranking}
    played = {person(line.name): line.tables for line in ranking}
    low, high = nights().limits(state.night.variant)
    refused, count = None, asked.tables
    try:
        club_night.checked_tables(asked.tables, len(order), low, high, byes=True)
    except DomainError as error:
        refused, count = error, len(state.current) or 1
    seating, out = club_night.turn_seating(asked.method, order, count, high, asked.seed, met, byes, played)
    return Proposed(seating, out, refused)


def proposal_context(state: NightState, ranking, data, error: str | None = None, met: frozenset = frozenset()) -> dict:
    """The next round's seating the organiser asked for (``method``, ``tables``), from the ranking."""
    asked = asked_seating(state, data)
    seating, out, refused = proposed_seating(state, ranking, asked, met)
    if refused is not None:
        error = error or error_message(refused)  # said; the tables of the turn being played proposed
    return {
        "method": asked.method,
        "order": order_key(ranking),
        "methods": club_night.METHODS,
        "table_count": asked.tables,
        "seating": seating,
        "out": out,
        "seed": asked.seed,
        "next_round": state.night.round + 1,
        "error": error,
        "extra_seats": EXTRA_SEATS,
    }


def render_night(state: NightState, data, error: str | None = None, status: int = 200):
    context = night_context(state, False, url_for("nights.live_part", night_id=state.night.id))
    context.update(
        group=groups().group(state.night.group_id),
        proposal=None
        if state.night.ended_at
        else proposal_context(state, context["ranking"], data, error, context["met"]),
    )
    context["events_url"] = url_for(
        "night_events.member_events", night_id=state.night.id, since=state.stamp, turn=state.moment
    )
    return private(make_response(render_template("nights/night.html", **context), status))


@bp.get("/nights/<night_id>")
def night_page(night_id):
    return render_night(members_night(night_id), request.args)


@bp.post("/nights/<night_id>/rounds")
def start_round(night_id):
    """The next round's games, one a table, in one transaction; sent again, it starts nothing."""
    state = members_night(night_id)
    try:
        number = whole_number(request.form.get("round", ""), 1, 10_000)
        started = nights().next_round(state.night, number, read_seating(request.form), read_byes(request.form))
    except Conflict:
        raise  # the night ended meanwhile: said on its own page, which leads back to the night
    except DomainError as error:
        return render_night(state, request.form, error_message(error), 422)
    for game_id, token in started:
        remember_token(game_id, token)
    return private(redirect(url_for("nights.night_page", night_id=night_id), 303))


@bp.post("/nights/<night_id>/gone")
def mark_gone(night_id):
    """A player left the night (``gone`` 1), or came back (0): seated in no later turn, ranked
    with the tables they played. Someone who is not one of the night's players is a 422."""
    members_night(night_id)
    nights().leave(night_id, request.form.get("name"), request.form.get("gone", "1") != "0")
    return private(redirect(url_for("nights.night_page", night_id=night_id, _anchor="present"), 303))


@bp.post("/nights/<night_id>/ranking")
def rank_night(night_id):
    """How the night is ranked: by total, or per table played (``club_night.RANKINGS``)."""
    members_night(night_id)
    nights().rank_by(night_id, request.form.get("method"))
    return private(redirect(url_for("nights.night_page", night_id=night_id, _anchor="ranking-title"), 303))


@bp.app_template_filter("per_table")
def per_table(value) -> str:
    """A figure per table played (a fraction) as the language writes it, two decimals at most; a
    dash when no table was played."""
    return "–" if value is None else format_decimal(float(value), format="#,##0.##")


PER_TABLE_SAID = {
    "points_per_table": Nn_("%(figure)s point per table", "%(figure)s points per table"),
    "wins_per_table": Nn_("%(figure)s win per table", "%(figure)s wins per table"),
}


@bp.app_template_filter("per_table_said")
def per_table_said(value, method: str) -> str:
    """A figure per table played with its unit, singular or plural as the language says the
    figure shown (« 1,5 point par table », "1.5 points per table", "1 win per table")."""
    shown = Decimal(str(round(float(value or 0), 2)))
    shown = shown.to_integral_value() if shown == shown.to_integral_value() else shown.normalize()
    one = get_locale().plural_form(shown) == "one"
    singular, plural = PER_TABLE_SAID[method]
    return ngettext(singular, plural, 1 if one else 2, figure=per_table(value))


def live_answer(state: NightState, revision: int, read_only: bool, live_url: str):
    """The night's live part (its tables' totals and its ranking), kept per state like a page and
    per the group's ``revision`` (a merge of two spellings moves it, and the ranking with it)."""

    def render():
        return render_template("nights/_live.html", **night_context(state, read_only, live_url))

    key = ("night-live", state.night.id, state.stamp, revision, read_only, lang())
    answer = conditional(cached_page(key, render), f"night-{state.stamp}-{revision}-{int(read_only)}-{lang()}")
    answer.headers["Cache-Control"] = "private, no-cache"
    return answer


@bp.get("/nights/<night_id>/live")
def live_part(night_id):
    state = nights().state(night_id)
    revision = member(state.night.group_id).revision
    return live_answer(state, revision, False, url_for("nights.live_part", night_id=night_id))


# --- what a watcher sees ------------------------------------------------------------------------------


@bp.get("/w/<watch_id>/nights")
def watched_nights(watch_id):
    group = groups().watched(watch_id)
    context = {"group": group, "nights": nights().nights(group.id), "watch_id": watch_id}
    return private(make_response(render_template("nights/watch_list.html", **context)))


@bp.get("/w/<watch_id>/nights/<night_id>")
def watched_night_page(watch_id, night_id):
    group, state = watched_night(watch_id, night_id)
    context = night_context(state, True, url_for("nights.watched_live", watch_id=watch_id, night_id=night_id))
    context.update(group=group, proposal=None, watch_id=watch_id)
    context["events_url"] = url_for(
        "night_events.watched_events", watch_id=watch_id, night_id=night_id, since=state.stamp, turn=state.moment
    )
    return private(make_response(render_template("nights/night.html", **context)))


@bp.get("/w/<watch_id>/nights/<night_id>/live")
def watched_live(watch_id, night_id):
    group, state = watched_night(watch_id, night_id)
    return live_answer(
        state, group.revision, True, url_for("nights.watched_live", watch_id=watch_id, night_id=night_id)
    )
