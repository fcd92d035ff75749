"""The new-game form: what it holds as typed, read from a request, and where an error goes."""

from __future__ import annotations

from dataclasses import dataclass, field

from models.core.errors import DomainError

from .kit import registry
from .numbers import whole_number
from .texts import error_message

DEFAULT_ROUNDS = 10


@dataclass
class NewGameForm:
    """What the new-game form holds, as entered (kept as text so that a re-render shows it again)."""

    variant: object
    names: list = field(default_factory=list)
    options: dict = field(default_factory=dict)
    mode: str = ""
    end: str = "target"
    target: str = ""
    rounds: str = ""
    table: str = ""
    first_dealer: str = "random"
    chosen: bool = False  # the variant was picked (the list of variants folds away)

    def players(self) -> tuple[list[str], list[int]]:
        """The names entered (empty inputs ignored) and the input index of each."""
        kept = [(i, n.strip()) for i, n in enumerate(self.names) if n.strip()]
        return [n for _, n in kept], [i for i, _ in kept]

    def dealer_seat(self, positions: list[int]):
        """The first dealer as a seat among the names kept (the form numbers its inputs); None for
        "random"; anything else as typed, for the service to refuse."""
        if self.first_dealer in ("", "random"):
            return None
        index = whole_number(self.first_dealer)
        if index is None:
            return self.first_dealer
        return positions.index(index) if index in positions else self.first_dealer

    def name_inputs(self) -> list[str]:
        """One input per possible player (more if more names were typed), names in place."""
        names = list(self.names)
        count = max(self.variant.max_players, len([n for n in names if n.strip()]))
        if len(names) > count:
            names = [n for n in names if n.strip()]
        return names + [""] * (count - len(names))


def default_form(variant) -> NewGameForm:
    return NewGameForm(
        variant=variant,
        options={o.id: o.default for o in variant.options},
        mode=variant.mode,
        target=str(variant.target),
        rounds=str(variant.rounds or DEFAULT_ROUNDS),
        end="rounds" if variant.rounds else "target",
        table=variant.table.id,
    )


def read_new_game(data) -> NewGameForm:
    """The form from the request; the variant's defaults where the variant was just changed."""
    builtins = registry().builtins.variants
    variant = registry().find(data.get("variant") or "") or next(iter(builtins.values()))
    form = default_form(variant)
    form.chosen = variant.id == data.get("variant")
    form.names = [" ".join(n.split()) for n in data.getlist("players")]
    form.first_dealer = data.get("first_dealer", "random")
    if data.get("shown_variant") == variant.id:
        form.options = {
            o.id: (f"opt-{o.id}" in data) if o.kind == "bool" else data.get(f"opt-{o.id}", str(o.default))
            for o in variant.options
        }
        form.mode = data.get("mode", form.mode)
        form.end = "rounds" if data.get("end") == "rounds" else "target"
        form.target = data.get("target", form.target).strip()
        form.rounds = data.get("rounds", form.rounds).strip()
        form.table = data.get("table", form.table)
    return form


def new_game_errors(error: DomainError, form: NewGameForm) -> dict:
    """The message under the field it is about: ``players.2`` is the third name actually typed."""
    message = error_message(error)
    where = error.field or "form"
    index = whole_number(where[8:]) if where.startswith("players.") else None
    if index is not None:
        _, positions = form.players()
        where = f"players.{positions[index]}" if index < len(positions) else "players"
    known = {"players", "mode", "target", "rounds", "table", "first_dealer", "variant"}
    known |= {f"options.{o.id}" for o in form.variant.options}
    if not (where in known or where.startswith("players.")):
        where = "form"
    return {where: message}
