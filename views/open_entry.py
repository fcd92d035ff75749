"""The open entry on the web: the manche a table counts together, each phone its own hand.

The manche entry's JavaScript (``static/js/hands.js``) joins the game's open entry: it reads it
(``GET /games/<id>/entry``), sends each change of a hand or of the winner as JSON (one small
write each), and saves it once (``POST /games/<id>/entry/save``, with the page's nonce as its
idempotency key); the other phones hear each change on their stream (``entry`` events, worded
here). The JSON API has the same under ``/api/v1/games/<id>/entry`` (written with a bearer
token). Without JavaScript none of this is used: the entry stays the whole-manche form.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, jsonify, request, url_for

from models.core.errors import N_, DomainError, ValidationError
from models.core.variant import MAX_MANCHES
from models.services.open_entry import HandChange, entry_fields, phone_tag
from models.services.stored import read_sent

from .api import bp as api
from .api import json_body
from .kit import games, open_entries
from .live import phone_name
from .numbers import number_or_text, whole_number
from .rights import bearer_token, phone_id, writes_game
from .texts import error_json

bp = Blueprint("open_entry", __name__)


@bp.errorhandler(DomainError)
def refused(error: DomainError):
    """The page's script reads the refusal as the API's JSON error (SPEC §4)."""
    return jsonify({"error": error_json(error)}), error.status


# --- what a request says ---------------------------------------------------------------------------


def entry_number(data: dict) -> int:
    number = whole_number(str(data.get("number", "")), 1, MAX_MANCHES)
    if number is None:
        raise ValidationError(N_("Which round is being entered?"), field="number")
    return number


def hand_change(data: dict) -> HandChange:
    """A hand as sent: ``cards`` (a list of keypad tokens), or ``typed`` (a whole number; as text
    from the page, blank for none), and ``done`` (counted to the end). How much a typed total may
    be is the core's to say (``open_hands.open_hand_value``)."""
    cards, typed, done = data.get("cards", []), data.get("typed"), data.get("done", False)
    if isinstance(typed, str):
        typed = number_or_text(typed)
    if not isinstance(done, bool):
        raise ValidationError(N_("“done” is true or false."), field="done")
    return HandChange(cards, typed, done)


def chosen_winner(data: dict, players: list[str]) -> str | None:
    """Who went out, as the entry keeps it: a seat (sent as ``seat`` by the page, as the player's
    ``winner`` name by the API), ``blocked``, or None. A seat is a whole number in plain digits,
    as a number or as text, kept in one form (``"1"``); anything else is refused."""
    if data.get("blocked") is True or data.get("seat") == "blocked":
        return "blocked"
    if "seat" in data and data["seat"] not in (None, ""):
        sent = data["seat"]
        if isinstance(sent, int) and not isinstance(sent, bool):
            return str(sent)
        if not isinstance(sent, str) or sent != sent.strip() or whole_number(sent) is None:
            raise ValidationError(N_("“seat” is a seat's number, “blocked” or null."), field="seat")
        return str(whole_number(sent))
    winner = data.get("winner")
    if winner is None:
        return None
    if not isinstance(winner, str) or winner not in players:
        raise ValidationError(N_("“winner” is a player's name or null."), field="winner")
    return str(players.index(winner))


def api_phone() -> str:
    """Who writes through the API: a digest of its token, as a phone id (it has no name of its
    own: a session cookie it may carry is a browser's)."""
    return "api:" + hashlib.sha256((bearer_token() or "").encode()).hexdigest()[:16]


# --- the shared work of the page and the API ---------------------------------------------------------


def change_hand(game_id: str, seat: int, data: dict, phone: str, own_name: str | None):
    """A hand changed by ``phone``, shown to the others under the player it counts for (``me``),
    else ``own_name``, the name the phone gave itself."""
    game = games().current(game_id)
    me = data.get("me")
    name = me if isinstance(me, str) and me in game.players else own_name
    return game, open_entries().change_hand(game, entry_number(data), seat, hand_change(data), phone, name)


def choose_winner(game_id: str, data: dict):
    game = games().current(game_id)
    return game, open_entries().choose_winner(game, entry_number(data), chosen_winner(data, game.players))


def save(game_id: str, data: dict, key: str | None, saved_by: str | None = None):
    """Record the open entry as manche ``data["number"]``, with the parts ``data`` sends besides its
    hands (``stored.TYPED``: the form's own fields, read as the whole-manche form reads them) and
    the name of the phone that saved it."""
    game = games().current(game_id)
    last_card = data.get("last_card")
    if last_card is not None and not isinstance(last_card, str):
        raise ValidationError(N_("“last_card” is a card or null."), field="last_card")
    sent = {**read_sent(data), "saved_by": saved_by}
    recorded = open_entries().save(games(), game, entry_number(data), key, last_card, sent=sent)
    return {"number": recorded.number, "replayed": recorded.replayed, "totals": recorded.totals}


# --- the page's calls ----------------------------------------------------------------------------


def page_answer(game, state):
    return jsonify(entry_fields(state, game.players) | {"me": phone_tag(phone_id())})


@bp.get("/games/<game_id>/entry")
@writes_game
def read_entry(game_id):
    game = games().current(game_id)
    response = page_answer(game, open_entries().read(game))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/games/<game_id>/entry/hands/<int:seat>")
@writes_game
def put_hand(game_id, seat):
    return page_answer(*change_hand(game_id, seat, json_body(), phone_id(), phone_name()))


@bp.put("/games/<game_id>/entry/winner")
@writes_game
def put_winner(game_id):
    return page_answer(*choose_winner(game_id, json_body()))


@bp.post("/games/<game_id>/entry/save")
@writes_game
def save_entry(game_id):
    data = json_body()
    nonce = data.get("nonce")
    answer = save(game_id, data, f"form:{nonce}" if isinstance(nonce, str) and nonce else None, phone_name())
    answer["url"] = url_for("games.game_page", game_id=game_id, saved=answer["number"])
    return jsonify(answer)


# --- the JSON API ----------------------------------------------------------------------------------


@api.get("/games/<game_id>/entry")
@writes_game
def api_entry(game_id):
    game = games().current(game_id)
    return jsonify(entry_fields(open_entries().read(game), game.players))


@api.put("/games/<game_id>/entry/hands/<int:seat>")
@writes_game
def api_put_hand(game_id, seat):
    game, state = change_hand(game_id, seat, json_body(), api_phone(), None)
    return jsonify(entry_fields(state, game.players))


@api.put("/games/<game_id>/entry/winner")
@writes_game
def api_put_winner(game_id):
    game, state = choose_winner(game_id, json_body())
    return jsonify(entry_fields(state, game.players))


@api.post("/games/<game_id>/entry/save")
@writes_game
def api_save_entry(game_id):
    return jsonify(save(game_id, json_body(), request.headers.get("Idempotency-Key"))), 201
