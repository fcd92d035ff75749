"""JSON API v1 (SPEC §4)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request, url_for
from werkzeug.exceptions import UnsupportedMediaType

from models.core import referee, scoring
from models.core.cards import check_deck, format_card, parse_cards
from models.core.errors import N_, DomainError, ValidationError
from models.core.variant import localized, resolve
from models.services import house as house_module
from models.services.game_json import game_fields
from models.services.games import MancheEntry
from models.services.stored import read_sent

from . import api_groups, links
from .jsontext import may_hold_surrogate, refuse_unencodable
from .kit import games, groups, house, lang, registry
from .limiting import new_game_limit, new_house_rules_limit
from .links import public_base
from .openapi import DOCUMENT
from .rights import owns_house, reads_game, writes_game
from .texts import verdict_json

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.get("/openapi.json")
def openapi():
    return jsonify(DOCUMENT)


@bp.before_request
def json_only():
    """A write takes JSON only (415 otherwise): a page on another site can post a plain HTML form
    (text/plain, no preflight) under its visitors' addresses, never application/json."""
    if request.method in ("POST", "PUT", "PATCH") and not request.is_json:
        raise UnsupportedMediaType()


def json_body() -> dict:
    """The request's JSON object, or a validation_error that says what is wrong with it."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if not isinstance(data, dict):
        raise ValidationError(N_("The body must be a JSON object."))
    if may_hold_surrogate(request.get_data()):  # the body get_json read, kept
        refuse_unencodable(data)
    return data


def variant_summary(variant, language: str) -> dict:
    ruleset = resolve(registry().tables, variant)
    return {
        "id": variant.id,
        "house": variant.house,
        **({"base": variant.base} if variant.house else {}),
        "name": localized(variant.name, language),
        "source": variant.source,
        "players": {"min": variant.min_players, "max": variant.max_players},
        "decks": ruleset.decks,
        "jokers": ruleset.jokers,
        "without": list(ruleset.deck.without),
        "penalty": {
            "draw": variant.penalty.draw,
            "take_back": variant.penalty.take_back,
            "turn_lost": variant.penalty.turn_lost,
            "applies_to": variant.penalty.applies_to,
        },
        "deal": variant.deal.as_dict(),
        "deal_more_allowed": variant.deal.more_allowed,
        "mode": variant.mode,
        "table": variant.table.id,
        "table_choice": variant.table_choice,
        "target": None if variant.rounds else variant.target,
        "rounds": variant.rounds,
        "blocked_manche": variant.blocked,
        "partners": {"players": variant.partners_players} if variant.partners_players else None,
        "finish_forbidden": list(ruleset.finish_forbidden),
        "options": variant.default_options(),
    }


def variant_detail(variant, language: str) -> dict:
    out = variant_summary(variant, language)
    out.update(
        points=variant.table.as_dict(),
        summary=localized(variant.summary, language),
        finish_rule=localized(variant.finish_rule, language) or None,
        interpretations=[{"about": i["about"], "text": i[language]} for i in variant.interpretations],
        option_choices={o.id: list(o.choices) if o.kind == "choice" else [False, True] for o in variant.options},
    )
    return out


@bp.get("/variants")
def list_variants():
    return jsonify([variant_summary(v, lang()) for v in registry().all()])


def house_detail(entry, language: str) -> dict:
    return variant_detail(entry.variant, language)


@bp.get("/variants/<variant_id>")
def get_variant(variant_id):
    try:
        variant = registry().get(variant_id)
    except DomainError as e:
        e.status = 404
        raise
    return jsonify(variant_detail(variant, lang()))


@bp.post("/variants")
@new_house_rules_limit
def create_variant():
    """House rules from a document (the fields of a variant file, ``base``, ``name``)."""
    entry, token = house().create(json_body())
    return jsonify(id=entry.id, edit_token=token, variant=house_detail(entry, lang())), 201


@bp.put("/variants/<variant_id>")
@owns_house
def update_variant(variant_id):
    entry = house().update(variant_id, json_body())
    return jsonify(house_detail(entry, lang()))


@bp.delete("/variants/<variant_id>")
@owns_house
def delete_variant(variant_id):
    house().delete(variant_id)
    return "", 204


@bp.get("/variants/<variant_id>/export")
def export_variant(variant_id):
    return jsonify(house_module.export_document(house().get(variant_id)))


@bp.post("/variants/import")
@new_house_rules_limit
def import_variant():
    entry, token = house().create(house_module.read_export(json_body()))
    return jsonify(id=entry.id, edit_token=token, variant=house_detail(entry, lang())), 201


@bp.post("/score")
def score():
    """The value of one hand under a variant's table, card by card."""
    data = json_body()
    ruleset = registry().resolve(data.get("variant"), options=data.get("options"), table=data.get("table"))
    raw = data.get("cards")
    if not isinstance(raw, (list, str)):
        raise ValidationError(N_("“cards” must be a list of cards."), field="cards")
    try:
        cards = parse_cards(raw)
        check_deck([cards], ruleset.deck)
        breakdown = scoring.hand_breakdown(cards, ruleset.table)
    except DomainError as e:
        e.field = e.field or "cards"
        raise
    return jsonify(
        points=sum(p for _, p in breakdown),
        cards=[{"card": format_card(c), "points": p} for c, p in breakdown],
    )


# --- games --------------------------------------------------------------------------------------


def game_json(game) -> dict:
    """The game as the API answers it (SPEC §4): its one JSON shape (``game_json.game_fields``) and
    what only this server knows: its id, its revision and where it is shared."""
    base = public_base()[0]
    return {
        "id": game.id,
        **game_fields(game),
        "revision": game.revision,
        "share_url": f"{base}/s/{game.share_id}",
        "share_qr_url": f"{base}/s/{game.share_id}/qr.svg",
    }


def manche_entry(data: dict) -> MancheEntry:
    hands = data.get("hands", {})
    typed = data.get("points", {})
    if not isinstance(hands, dict) or not all(isinstance(v, (list, str)) for v in hands.values()):
        raise ValidationError(N_("“hands” maps each player to a list of cards."), field="hands")
    if not isinstance(typed, dict):
        raise ValidationError(N_("“points” maps players to a typed total."), field="points")
    blocked = data.get("blocked", False)
    if not isinstance(blocked, bool):
        raise ValidationError(N_("“blocked” is true or false."), field="blocked")
    winner = data.get("winner")
    if winner is not None and not isinstance(winner, str):
        raise ValidationError(N_("“winner” is a player's name or null."), field="winner")
    last_card = data.get("last_card")
    if last_card is not None and not isinstance(last_card, str):
        raise ValidationError(N_("“last_card” is one card, such as 9H."), field="last_card")
    return MancheEntry(winner=winner, hands=hands, typed=typed, blocked=blocked, last_card=last_card)


@bp.post("/games")
@new_game_limit
def create_game():
    data = json_body()
    game, token = games().create_game(
        data.get("variant"),
        data.get("players"),
        teams=data.get("teams"),
        options=data.get("options"),
        table=data.get("table"),
        mode=data.get("mode"),
        target=data.get("target"),
        rounds=data.get("rounds"),
        first_dealer=data.get("first_dealer", 0),
    )
    body = game_json(game)
    body["edit_token"] = token
    return jsonify(body), 201, {"Location": f"/api/v1/games/{game.id}"}


@bp.get("/games/<game_id>")
@reads_game
def get_game(game_id):
    return jsonify(game_json(games().get(game_id)))


@bp.get("/games/<game_id>/export")
@reads_game
def export_game(game_id):
    """The whole game as a versioned document (``"format": "carte-game/2"``: ``game_file``)."""
    document = games().export_game(game_id)
    response = jsonify(document)
    response.headers["Content-Disposition"] = f'attachment; filename="carte-{game_id}.json"'
    return response


# A group's archive and score sheet (export, export.csv, import): views/group_files.py, one answer
# for the page and the API.
@bp.get("/groups/<group_id>")
def get_group(group_id):
    """A group, its games and merges: for a member (its bearer token), else 404."""
    return jsonify(api_groups.group_document(group_id))


@bp.post("/groups/<group_id>/members")
def join_group(group_id):
    """A client joins by an invite (``{"invite": token, "name"?}``): 201 and its own member token,
    its bearer token for the group from now on (shown once)."""
    data = json_body()
    token = groups().join(group_id, data.get("invite"), data.get("name"))
    return jsonify({"group": group_id, "member_token": token}), 201


@bp.get("/groups/<group_id>/members")
def get_group_members(group_id):
    """The group's phones for a member; its join links and their uses for the owner (else null)."""
    return jsonify(api_groups.members_document(group_id))


@bp.put("/groups/<group_id>/members/<member_id>")
def rename_group_member(group_id, member_id):
    """The owner names a phone of the group (``{"name": …}``)."""
    return jsonify(api_groups.rename(group_id, member_id, json_body()))


@bp.post("/groups/<group_id>/invites")
def create_group_invite(group_id):
    """A member makes a join link (``{"uses"?: n, "until"?: "YYYY-MM-DD"}``; none: no limit):
    201, its token and address, shown once."""
    body = api_groups.new_invite(
        group_id, json_body(), lambda token: links.absolute(url_for("groups.join", group_id=group_id, token=token))
    )
    return jsonify(body), 201


@bp.get("/groups/<group_id>/standings")
def get_group_standings(group_id):
    """The group's standings (``?period=all|year|month&variant=…``): for a member, else 404."""
    return jsonify(api_groups.standings_document(group_id, request.args))


@bp.delete("/groups/<group_id>/games/<game_id>")
def take_out_game(group_id, game_id):
    """The group's owner, or the client holding the game's own token, takes the game out of the
    group: 200 and where to put it back (the undo)."""
    return jsonify(api_groups.take_out(group_id, game_id))


@bp.put("/groups/<group_id>/games/<game_id>")
def put_back_game(group_id, game_id):
    """The undo of a game taken out (``{}``): it is in the group again; 409 when it no longer
    is out of it."""
    json_body()
    return jsonify(api_groups.put_back(group_id, game_id))


@bp.post("/games/import")
@new_game_limit
def import_game():
    """A new game (new id, new edit token) from an export document."""
    game, token = games().import_game(json_body())
    body = game_json(game)
    body["edit_token"] = token
    return jsonify(body), 201, {"Location": f"/api/v1/games/{game.id}"}


@bp.post("/games/<game_id>/manches")
@writes_game
def record_manche(game_id):
    data = json_body()
    entry = manche_entry(data)
    key, sent = request.headers.get("Idempotency-Key"), read_sent(data)
    recorded = games().record_manche(game_id, entry, number=data.get("number"), key=key, sent=sent)
    return jsonify(
        number=recorded.number,
        points=recorded.points,
        totals=recorded.totals,
        status="finished" if recorded.standing.finished else "playing",
        winners=recorded.standing.winners,
    ), 201


@bp.put("/games/<game_id>/manches/<int:number>")
@writes_game
def edit_manche(game_id, number):
    data = json_body()
    game = games().edit_manche(game_id, number, manche_entry(data), sent=read_sent(data))
    return jsonify(game_json(game))


@bp.delete("/games/<game_id>/manches/<int:number>")
@writes_game
def delete_manche(game_id, number):
    return jsonify(game_json(games().delete_manche(game_id, number)))


@bp.post("/games/<game_id>/players")
@writes_game
def join_player(game_id):
    """A player joins mid-game: ``{"name": …, "start": "average" | "zero" | "highest", "after": a
    player at the table (the newcomer sits right after them; after the last by default)}``."""
    data = json_body()
    start = data.get("start", scoring.DEFAULT_START)
    if start not in scoring.START_CHOICES:
        raise ValidationError(N_("Choose the newcomer's starting total: 0, the highest or the average."), field="start")
    game = games().join_player(game_id, data.get("name"), start, data.get("after"))
    return jsonify(game_json(game)), 201


@bp.post("/games/<game_id>/players/leave")
@writes_game
def leave_player(game_id):
    """A player leaves the table: ``{"name": …}``; their history and total stay."""
    game = games().leave_player(game_id, json_body().get("name"))
    return jsonify(game_json(game))


# --- the referee --------------------------------------------------------------------------------


@bp.post("/referee/check")
def referee_check():
    """May this card be played here? (SPEC §3 and §4)"""
    data = json_body()
    ruleset = registry().resolve(data.get("variant"), options=data.get("options"))
    pending, last = data.get("pending", False), data.get("last_card", False)
    if not isinstance(pending, bool) or not isinstance(last, bool):
        raise ValidationError(N_("“pending” and “last_card” are true or false."), field="pending")
    verdict = referee.check(
        ruleset,
        data.get("top"),
        data.get("card"),
        players=data.get("players", 4),
        active_suit=data.get("active_suit"),
        pending=pending,
        last_card=last,
        covered=data.get("covered"),
        pending_draw=data.get("pending_draw"),
    )
    return jsonify(verdict_json(verdict))
