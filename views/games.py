"""Web pages of a game: new game, scoreboard, manche entry and edit.

Plain forms that POST and redirect (303); htmx and app.js only improve them. Each view parses
the request, calls one service function and renders one template. Every number shown comes
from the service's ``GameView`` (``views/present.py`` shapes it for the screen). A write view
reads the game once, checks the form against it and hands it to the service.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from functools import wraps

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext

from models.core import scoring
from models.core.cards import parse_card
from models.core.errors import (
    N_,
    AlreadyRecorded,
    Conflict,
    DomainError,
    EditCollision,
    EntryMoved,
    GameFinished,
    NotFound,
)
from models.core.variant import MAX_MANCHES, MODES
from models.services.access import Level
from models.services.games import MancheEntry
from models.services.stored import TYPED, read_sent

from . import links, live, present
from .errors import error_page
from .groups import group_choice, played_in
from .keypad import read_keypad
from .kit import fragment_or_page, games, is_htmx, lang, registry
from .limiting import new_game_limit
from .new_game_form import NewGameForm, new_game_errors, read_new_game
from .numbers import number_or_text, page_number, whole_number
from .pagecache import cached_page
from .present import forbidden_cards, game_context
from .rights import (
    can_edit,
    game_page_state,
    phone_id,
    remember_opened,
    remember_token,
    removed_from_group,
    session_token,
    writes_game,
)
from .texts import MODE_LABELS, error_message

bp = Blueprint("games", __name__)

DEFAULT_WINS_TARGET = 5


# --- new game ------------------------------------------------------------------------------------


def new_game_context(form: NewGameForm, errors: dict | None = None) -> dict:
    variant = form.variant
    tables = []
    if variant.table_choice:
        tables = [t for t in registry().tables.values() if t.has_joker() or not variant.jokers_per_deck]
    return {
        "form": form,
        "variant": variant,
        "variants": registry().all(),
        "tables": tables,
        "modes": [(m, gettext(MODE_LABELS[m][0]), gettext(MODE_LABELS[m][1])) for m in MODES],
        **group_choice(request.values.get("group")),  # the groups offered, the names suggested
        "errors": errors or {},
        "wins_target": DEFAULT_WINS_TARGET,
        "is_htmx": is_htmx(),
    }


def render_new_game(form: NewGameForm, errors: dict | None = None, status: int = 200):
    context = new_game_context(form, errors)
    return fragment_or_page("games/_new_settings.html", "games/new.html", **context), status


@bp.get("/games/new")
def new_game():
    return render_new_game(read_new_game(request.args))


@bp.post("/games/new")
def new_game_reload():
    """The form again for the variant now chosen (the "Continue" button; htmx swaps the settings)."""
    return render_new_game(read_new_game(request.form))


@bp.post("/games")
@new_game_limit
def create_game():
    form = read_new_game(request.form)
    if request.form.get("shown_variant") != form.variant.id:
        notice = gettext("You changed the variant: check its settings, then create the game.")
        return render_new_game(form, {"form": notice}, 422)
    players, positions = form.players()
    try:
        game, token = games().create_game(
            form.variant.id,
            players,
            options=form.options,
            table=form.table if form.variant.table_choice else None,
            mode=form.mode,
            target=number_or_text(form.target) if form.end == "target" else None,
            rounds=number_or_text(form.rounds) if form.end == "rounds" else None,
            first_dealer=form.dealer_seat(positions),
            group=played_in(request.form.get("group")),
        )
    except DomainError as error:
        return render_new_game(form, new_game_errors(error, form), 422)
    remember_token(game.id, token)
    return redirect(url_for("games.game_page", game_id=game.id), 303)


# --- the game ------------------------------------------------------------------------------------


SEAT_NOTICES = ("joined", "left", "unjoined", "back", "keeper")  # a player joined or left, that undone; an invite taken


def notice_of(args, last: int) -> tuple[str, int] | None:
    """("saved" | "edited" | "deleted" | "undone", manche number) from the redirect after a write:
    a manche saved or edited is one of 1 … ``last`` (the numbers are a sequence), a deleted one
    was the last (``last`` + 1), an undone one either; or one of ``SEAT_NOTICES`` and a seat.
    Anything else in the query string is no notice."""
    for kind in ("saved", "edited", "deleted", "undone", *SEAT_NOTICES):
        number = whole_number(args.get(kind, ""))
        if number is None:
            continue
        if kind in SEAT_NOTICES:  # a seat: the page checks it is one
            return (kind, number) if number < 100 else None
        if kind == "undone" and 1 <= number <= last + 1:
            return kind, number
        if (number == last + 1) if kind == "deleted" else (1 <= number <= last):
            return kind, number
    return None


@bp.get("/games/<game_id>")
def game_page(game_id):
    """The game, from the page cache: its key holds what the page depends on — the revision, this
    browser's rights, the notice (for a browser that writes), whether the share panel is open,
    the language chosen, the public address — and nothing else of the request."""
    state = game_page_state(game_id)  # one statement: the revision, the last manche, the rights
    if state is None:
        games().get(game_id)  # the 404
    revision, last, level = state
    editable, owner = level >= Level.SCOREKEEPER, level == Level.OWNER
    asked = request.args if request.query_string else {}
    notice = notice_of(asked, last) if editable and asked else None
    shown = whole_number(asked.get("shown", ""), 1, last - 1) if notice and notice[0] == "saved" else None
    share_open = bool(asked.get("share"))
    remember_opened(game_id)  # the session only: no query
    live.back_from_entry(game_id)  # one statement, only after this phone entered a manche

    here_args = {**({notice[0]: notice[1]} if notice else {}), **({"share": 1} if share_open else {})}
    here_args |= {"shown": shown} if shown else {}

    def render():
        game = games().get(game_id)
        here = url_for("games.game_page", game_id=game_id, **here_args)  # the language switch comes back here
        live_url = url_for("live.live_part", game_id=game_id)
        context = game_context(
            game, notice=notice, shown=shown, share_open=share_open, read_only=not editable, here=here,
            live_url=live_url,
        )  # fmt: skip
        return render_template("games/game.html", **context)

    key = ("game", game_id, revision, editable, owner, notice, shown, share_open, lang(), links.public_base())
    return cached_page(key, render)


@bp.get("/games/<game_id>/rounds")
def rounds(game_id):
    """A game's history, ``HISTORY_ROWS`` manches a page, newest page first (the game page lists
    the last ones only, whatever the game's length). Cached like the game page."""
    page = page_number(request.args)
    state = game_page_state(game_id)
    if state is None:
        games().get(game_id)  # the 404
    editable, owner = state[2] >= Level.SCOREKEEPER, state[2] == Level.OWNER
    remember_opened(game_id)

    def render():
        game = games().get(game_id)
        here = url_for("games.rounds", game_id=game_id, page=page if page > 1 else None)
        events_url = url_for("live.game_events", game_id=game_id, since=game.revision)
        context = game_context(game, history_page=page, read_only=not editable, here=here, events_url=events_url)
        if context["history"] is None or not game.manches:
            raise NotFound(N_("No such page."), field="page")
        back = url_for("games.game_page", game_id=game_id, _anchor="history")
        return render_template("parts/rounds.html", back=back, **context)

    key = ("rounds", game_id, state[0], editable, owner, page, lang(), links.public_base())
    return cached_page(key, render)


@bp.post("/games/<game_id>/replay")
@new_game_limit
@writes_game
def replay(game_id):
    """A new game with the same players (those still at the table) and settings; the next seat in
    turn deals first."""
    old = games().get(game_id)
    game, token = games().create_game(**old.settings(), first_dealer=old.seated.index(old.dealer_name))
    remember_token(game.id, token)
    return redirect(url_for("games.game_page", game_id=game.id), 303)


# --- a manche ------------------------------------------------------------------------------------


@dataclass
class MancheForm:
    """The manche form as entered: winner (a seat, or "blocked"), each seat's keypad counts or
    typed total, the last card, and the precondition and nonce of a new manche."""

    winner: str = ""
    last_card: str = ""
    counts: list = field(default_factory=list)  # per seat: {token: count}
    typed: list = field(default_factory=list)  # per seat: text
    number: str = ""
    nonce: str = ""
    selected: str = ""  # the seat whose hand the keypad enters (the form's ``selected``, or ``pick``)
    tapped: bool = False  # a key or a player's name pressed without JavaScript: show the form again
    sent: dict = field(default_factory=dict)  # the parts typed as they are (``stored.TYPED``), by JSON name

    def entry(self, game, number: int | None = None) -> MancheEntry:
        """The manche as the service takes it: the hands of those dealt in it (manche ``number``
        when editing, else the next one)."""
        players = game.players
        dealt = set(game.seated_at(number) if number else game.seated)
        blocked = self.winner == "blocked"
        winner = None
        winner_seat = whole_number(self.winner, 0, len(players) - 1)
        if winner_seat is not None:
            winner = players[winner_seat]
        elif self.winner and not blocked:
            winner = self.winner  # the service names what is wrong with it
        hands, typed = {}, {}
        for seat, name in enumerate(players):
            if name not in dealt:
                continue
            if self.typed[seat].strip():
                typed[name] = number_or_text(self.typed[seat].strip())
            elif any(self.counts[seat].values()):
                hands[name] = [t for t, n in self.counts[seat].items() for _ in range(n)]
        return MancheEntry(winner, hands, typed, blocked, self.last_card or None)


def read_manche(data, game, keys) -> MancheForm:
    """The form from the request; a − / + key or a player's name (``pick``) pressed without
    JavaScript is applied here: the form comes back with that player's hand on the keypad."""
    form = MancheForm(
        winner=data.get("winner", ""),
        last_card=data.get("last_card", ""),
        number=data.get("number", ""),
        nonce=data.get("nonce", ""),
        selected=data.get("selected", ""),
        sent={part.json: data.get(part.json, "") for part in TYPED},
    )
    pick = whole_number(data.get("pick", ""), 0, len(game.players) - 1)
    if pick is not None:
        form.selected, form.tapped = str(pick), True
    for seat in range(len(game.players)):
        prefix = f"p{seat}-"
        counts, tapped = read_keypad(data, keys, prefix)
        if tapped:
            form.selected, form.tapped = str(seat), True
        form.counts.append(counts)
        form.typed.append(data.get(f"{prefix}typed", ""))
    return form


def stored_manche(game, manche, keys) -> MancheForm:
    """The form prefilled from a recorded manche."""
    form = MancheForm(
        winner="blocked" if manche.blocked else str(game.players.index(manche.winner)) if manche.winner else "",
        last_card=parse_card(manche.last_card).rank if manche.last_card else "",
        sent={part.json: getattr(manche.stored, part.name) or "" for part in TYPED},
    )
    for name in game.players:
        hand = manche.hands.get(name)
        form.counts.append(present.counts_from_cards(hand.cards, keys) if hand and hand.cards is not None else {})
        form.typed.append(str(hand.typed) if hand and hand.typed is not None else "")
    return form


def manche_errors(error: DomainError, game) -> dict:
    """Where a refusal is shown: a player's fieldset (``hand-<seat>``), the winner, the last card."""
    message = error_message(error)
    where = error.field or ""
    kind, _, name = where.partition(".")
    if kind in ("hands", "points") and name in game.players:
        return {f"hand-{game.players.index(name)}": message}
    if where in ("winner", "blocked"):
        return {"winner": message}
    if where == "last_card" and game.ruleset.finish_forbidden:
        return {"last_card": message}
    return {"form": message}


def render_manche(game, form: MancheForm, manche_number: int | None = None, errors=None, status: int = 200, **said):
    """The manche entry (``manche_number``: a correction), with what the page says besides:
    ``saved`` (the manche this phone just saw saved), ``absent`` (``absent_said``)."""
    keys = scoring.keypad(game.ruleset)
    side_of = scoring.sides_of(game.players, game.teams)
    dealt = game.seated_at(manche_number) if manche_number else game.seated
    seats = [game.players.index(name) for name in dealt]  # those dealt in this manche, around the table
    sides = [side_of[game.players[seat]] for seat in seats]
    winner = whole_number(form.winner, 0, len(game.players) - 1)
    filled = [bool(form.typed[seat].strip() or any(form.counts[seat].values())) for seat in seats]
    refused = [seat for seat in seats if f"hand-{seat}" in (errors or {})]
    chosen = whole_number(str(refused[0]) if refused else form.selected, 0, len(game.players) - 1)
    position = present.hand_to_enter(
        str(seats.index(chosen)) if chosen in seats else "",
        seats.index(winner) if winner in seats else None,
        sides,
        filled,
    )
    selected = seats[position]
    hands = [
        {
            "seat": seat,
            "name": game.players[seat],
            "side": side_of[game.players[seat]],
            "counts": form.counts[seat],
            "typed": form.typed[seat],
            "subtotal": present.keypad_subtotal(keys, form.counts[seat]),
            "error": (errors or {}).get(f"hand-{seat}"),
            "winner": seat == winner,
            "partner": winner is not None
            and seat != winner
            and side_of[game.players[seat]] == side_of[game.players[winner]],
            "filled": filled[index],
            "selected": seat == selected,
        }
        for index, seat in enumerate(seats)
    ]
    selected_hand = next(hand for hand in hands if hand["selected"])
    phone_id()  # this phone's id made now: its event stream and its sign of life would race to make two
    return (
        render_template(
            "games/manche.html",
            phone_name=live.phone_name(),
            version=game.rows.manche_version(manche_number) if manche_number else None,
            game=game,
            form=form,
            keys=keys,
            hands=hands,
            selected=selected_hand,
            editing=manche_number,
            last_card_ranks=present.last_card_ranks(game.ruleset),
            forbidden=forbidden_cards(game),
            errors=errors or {},
            **said,
        ),
        status,
    )


def absent_said(game, seats) -> dict | None:
    """The way out of a save refused while phones are away: their seats (the button's value) and
    their names (« Enregistrer sans la main de Chloé (0 pour l'instant) »)."""
    if not seats:
        return None
    return {"seats": ",".join(str(seat) for seat in seats), "names": [game.players[seat] for seat in seats]}


def render_conflict(game_id: str, error: DomainError):
    game = games().get(game_id)  # as it stands now, after the other phone's write
    headers = {"HX-Retarget": "#main", "HX-Reswap": "outerHTML", "HX-Reselect": "#main"} if is_htmx() else {}
    page = render_template("games/conflict.html", message=error_message(error), **game_context(game))
    return page, error.status, headers


@bp.post("/games/<game_id>/undo")
@writes_game
def undo(game_id):
    """Undo the last save, edit or deletion of a manche, or the last player who joined or left (the
    notice's "Undo"): the form says which (``kind``, ``number``: a manche, or a seat) and the
    revision the page showed; another write since is a 409, the same form posted twice undoes once."""
    data = request.form
    kind = data.get("kind", "")
    number = whole_number(data.get("number", ""))
    revision = whole_number(data.get("revision", ""))
    try:
        games().undo(game_id, kind, number, revision)
    except (Conflict, GameFinished) as error:
        return render_conflict(game_id, error)
    said = {"joined": "unjoined", "left": "back"}.get(kind, "undone")
    return redirect(url_for("games.game_page", game_id=game_id, **{said: number}), 303)


@bp.get("/games/<game_id>/manches/new")
@writes_game
def new_manche(game_id):
    game = games().get(game_id)
    if game.standing.finished:
        return render_conflict(game_id, GameFinished(N_("The game is over: no more rounds can be added.")))
    form = MancheForm(
        counts=[{} for _ in game.players],
        typed=["" for _ in game.players],
        number=str(game.next_number),
        nonce=secrets.token_urlsafe(16),
    )
    # a phone on the shared entry of the manche another phone just saved, moved on to this one
    saved = whole_number(request.args.get("saved", ""), 1, len(game.manches))
    return render_manche(game, form, saved=saved)


def entry_kept(game, form: MancheForm) -> list[dict]:
    """What a phone had entered, to show it back when it could not be saved: each hand dealt,
    its cards (``counts``) or typed total, the winner marked."""
    winner = whole_number(form.winner, 0, len(game.players) - 1)
    kept = []
    for seat, name in enumerate(game.players):
        if name not in game.seated:
            continue
        cards = [(token, count) for token, count in form.counts[seat].items() if count]
        kept.append({"name": name, "cards": cards, "typed": form.typed[seat].strip(), "winner": seat == winner})
    return kept


def lands_when_revoked(view):
    """``writes_game``, except that a browser whose invite was revoked, or which was removed from
    the game's group, lands on the game as everyone sees it, told why, with what it had entered kept
    on screen (nothing typed is lost)."""
    guarded = writes_game(view)

    @wraps(view)
    def landing(**kwargs):
        game_id = kwargs["game_id"]
        if can_edit(game_id):
            return guarded(**kwargs)
        removed = session_token(game_id) is None and removed_from_group(game_id)
        if session_token(game_id) is None and not removed:
            return guarded(**kwargs)
        game = games().get(game_id)
        form = read_manche(request.form, game, scoring.keypad(game.ruleset))
        context = game_context(game, revoked_entry=entry_kept(game, form), removed=removed, read_only=True)
        return render_template("games/game.html", **context), 403

    return landing


def absent_seats(data, game) -> tuple[int, ...]:
    """The seats a phone saves without (« Enregistrer sans la main de Chloé »): a button's value,
    seats separated by commas; what is not a seat of the game is left out."""
    seats = (whole_number(seat.strip(), 0, len(game.players) - 1) for seat in data.get("absent", "").split(","))
    return tuple(sorted({seat for seat in seats if seat is not None}))


@bp.post("/games/<game_id>/manches")
@lands_when_revoked
def record_manche(game_id):
    """A manche saved: the form as it stands, for the manche it says (``number``: a manche another
    phone saved meanwhile is not recorded twice — this phone is told whose it is and, where its
    hands differ, offered them as a correction), or the next one when it was kept offline and
    sent back (``queued``). A phone that counted with the open entry says its version
    (``entry_version``) and the seats it saves without (``absent``)."""
    game = games().get(game_id)
    form = read_manche(request.form, game, scoring.keypad(game.ruleset))
    if form.tapped:
        return render_manche(game, form)
    number = whole_number(form.number, 1, MAX_MANCHES)
    queued = request.form.get("queued") == "1"
    absent = absent_seats(request.form, game)
    live.left_entry(game_id, with_the_write=True)
    try:
        recorded = games().record_manche(
            game,
            form.entry(game),
            number,
            key=f"form:{form.nonce}" if form.nonce else None,
            sent={**read_sent(request.form), "saved_by": live.phone_name()},
            as_next=queued,
            entry_version=whole_number(request.form.get("entry_version", ""), 0, 10**9),
            absent=absent,
        )
    except AlreadyRecorded as error:
        return render_recorded(game_id, form, error)
    except EntryMoved as error:
        return render_manche(game, form, errors={"form": error_message(error)}, status=409)
    except (Conflict, GameFinished) as error:
        return render_conflict(game_id, error)
    except DomainError as error:
        if error.status != 422:
            raise
        absent = absent_said(game, getattr(error, "seats", None))
        return render_manche(game, form, errors=manche_errors(error, game), status=422, absent=absent)
    moved = {"shown": number} if queued and number and number < recorded.number and not recorded.replayed else {}
    return redirect(url_for("games.game_page", game_id=game_id, saved=recorded.number, **moved), 303)


def render_recorded(game_id: str, form: MancheForm, error: AlreadyRecorded):
    """The manche this phone saves was saved meanwhile by another phone: said, with whose, and —
    only where this phone's hands differ — both versions and the choice to record its own as a
    correction (its fields sent to the correction of that manche, against the version seen)."""
    game = games().get(game_id)
    number, theirs = error.theirs.number, error.theirs
    try:
        mine = scoring.score_entry(game.ruleset, game.seated_at(number), game.teams, form.entry(game, number))
    except DomainError:
        mine = None
    values = {name: hand.value for name, hand in theirs.hands.items()}
    same = mine is not None and (mine.winner, mine.blocked, mine.values) == (theirs.winner, theirs.blocked, values)
    skip = ("number", "entry_version", "absent", "queued", "version")
    kept = [(name, value) for name, value in request.form.items(multi=True) if name not in skip]
    context = game_context(game, message=error_message(error), number=number, mine=mine, theirs=theirs,
                           theirs_values=values, fields=kept, version=error.version, same=same,
                           recorded=True)  # fmt: skip
    return render_template("games/collision.html", **context), 409


def find_manche(game, number: int):
    manche = next((m for m in game.manches if m.number == number), None)
    if manche is None:
        raise NotFound(N_("Round %(number)s does not exist."), field="number", number=number)
    return manche


@bp.get("/games/<game_id>/manches/<int:number>/edit")
@writes_game
def edit_manche_form(game_id, number):
    game = games().get(game_id)
    manche = find_manche(game, number)
    return render_manche(game, stored_manche(game, manche, scoring.keypad(game.ruleset)), manche_number=number)


@bp.post("/games/<game_id>/manches/<int:number>")
@lands_when_revoked
def edit_manche(game_id, number):
    game = games().get(game_id)
    find_manche(game, number)
    form = read_manche(request.form, game, scoring.keypad(game.ruleset))
    if form.tapped:
        return render_manche(game, form, manche_number=number)
    version = request.form.get("version") or None  # the manche as this phone's form read it
    key = f"form:{form.nonce}" if form.nonce else None  # a correction sent again (offline) counts once
    try:
        games().edit_manche(
            game, number, form.entry(game, number), version=version, key=key, sent=read_sent(request.form)
        )
    except EditCollision as collision:
        return render_collision(game, number, form, collision)
    except DomainError as error:
        if error.status != 422 and not isinstance(error, GameFinished):  # an edit that would end the game earlier
            raise
        return render_manche(game, form, manche_number=number, errors=manche_errors(error, game), status=error.status)
    return redirect(url_for("games.game_page", game_id=game_id, edited=number), 303)


def render_collision(game, number: int, form: MancheForm, collision: EditCollision):
    """Two phones corrected the same manche: both versions side by side, and the choice — save this
    phone's anyway (its fields sent again, against the manche as it now stands), or keep theirs."""
    try:
        mine = scoring.score_entry(game.ruleset, game.seated_at(number), game.teams, form.entry(game, number))
    except DomainError:
        mine = None
    kept = [(name, value) for name, value in request.form.items(multi=True) if name != "version"]
    theirs = collision.theirs
    values = {name: hand.value for name, hand in theirs.hands.items()}
    context = game_context(game, message=error_message(collision), number=number, mine=mine, theirs=theirs,
                           theirs_values=values, fields=kept, version=collision.version)  # fmt: skip
    return render_template("games/collision.html", **context), 409


@bp.post("/games/<game_id>/manches/<int:number>/delete")
@writes_game
def delete_manche(game_id, number):
    game = games().get(game_id)
    nonce = request.form.get("nonce", "")  # a deletion sent again (offline) is made once
    if not nonce:  # (with one, the service answers a retry of a deletion made as done)
        find_manche(game, number)  # a 404 for any number not recorded, however large
    if request.form.get("confirm") != "1":
        return error_page(422, gettext("Tick “Yes, delete it” to delete the round."))
    try:
        games().delete_manche(game, number, key=f"form:{nonce}" if nonce else None)
    except Conflict as error:
        return render_conflict(game_id, error)
    return redirect(url_for("games.game_page", game_id=game_id, deleted=number), 303)
