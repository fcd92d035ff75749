"""Scoring (SPEC §2): hand values, a manche's points in every mode, totals, end of the game.

Pure functions over a ``Ruleset`` (see ``rules.resolve``). A *side* is what scores: a player, or
a team of partners. Points and totals are keyed by side name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import JOKER, SUITS, Card, check_deck, format_card, parse_card, parse_cards
from .errors import (
    N_,
    AmbiguousCard,
    DomainError,
    FinishForbidden,
    InvalidCard,
    MissingHand,
    UnknownPlayer,
    ValidationError,
)
from .names import InvalidName, clean_name, normalize_name
from .seating import (  # noqa: F401 (who sits where: re-exported, the game's numbers are asked here)
    DEFAULT_START,
    SEAT,
    START_CHOICES,
    Seat,
    check_roster_change,
    next_seated,
    ring,
    seated,
    start_total,
    starter,
)
from .text import DataText
from .variant import MODES, Ruleset, ScoringTable

MAX_TEAM_NAME = 60


# --- hands -------------------------------------------------------------------------------------


def card_points(card: Card, table: ScoringTable) -> int:
    """The points a card left in hand is worth under ``table``.

    A rank alone is refused (``ambiguous_card``) when the table gives that rank different values
    by suit, e.g. the 2 under ``54-cartes`` (2♠ 25, other 2s 15).
    """
    if card.is_joker:
        if not table.has_joker():
            raise InvalidCard(N_("This scoring table gives jokers no value."), token=JOKER)
        return table.ranks[JOKER]
    if card.suit is None:
        if table.distinguishes_suits(card.rank):
            raise AmbiguousCard(
                N_("“%(token)s”: say which suit (%(choices)s), the points depend on it."),
                token=card.rank,
                choices=", ".join(card.rank + s for s in SUITS),
            )
        return table.ranks[card.rank]
    return table.cards.get(format_card(card), table.ranks[card.rank])


def hand_breakdown(cards, table: ScoringTable) -> list[tuple[Card, int]]:
    """Each card of a hand with its points."""
    return [(card, card_points(card, table)) for card in cards]


def hand_value(cards, table: ScoringTable) -> int:
    """The value of a hand: the sum of its cards' points (order does not matter)."""
    return sum(points for _, points in hand_breakdown(cards, table))


def max_hand_value(ruleset: Ruleset) -> int:
    """The most a hand could be worth: every card of the deck in one hand (worked out once per
    deck and table: every manche entered asks)."""
    table = ruleset.table
    key = (ruleset.deck, tuple(table.ranks.items()), tuple(table.cards.items()))
    most = _MOST.get(key)
    if most is None:
        if len(_MOST) >= MOST_KEPT:  # house rules may bring many tables: start again
            _MOST.clear()
        most = _MOST[key] = hand_value(ruleset.deck.cards(), table)
    return most


MOST_KEPT = 256
_MOST: dict = {}  # (deck, table's points) -> the most a hand is worth


@dataclass(frozen=True)
class Key:
    """One key of the card keypad: a token, its points, how many the deck holds."""

    token: str
    rank: str
    suit: str | None
    points: int
    limit: int


def keypad(ruleset: Ruleset) -> list[Key]:
    """The keys to enter a hand: a rank alone where the suit changes nothing for the table,
    one key per suit where it does, and the joker where the deck has jokers; none for a rank taken
    out of the deck."""
    deck = ruleset.deck
    keys = []
    for rank in deck.ranks:
        if ruleset.table.distinguishes_suits(rank):
            for suit in SUITS:
                card = Card(rank, suit)
                keys.append(Key(format_card(card), rank, suit, card_points(card, ruleset.table), deck.copies_of_card()))
        else:
            keys.append(Key(rank, rank, None, ruleset.table.ranks[rank], deck.copies_of_rank()))
    if deck.jokers:
        keys.append(Key(JOKER, JOKER, None, ruleset.table.ranks[JOKER], deck.jokers))
    return keys


# --- sides -------------------------------------------------------------------------------------


def default_teams(players: list[str]) -> dict[str, list[str]]:
    """Partners sit opposite: seats 1 + 3 against 2 + 4, each team named "Ana & Chloé"."""
    first, second = [players[0], players[2]], [players[1], players[3]]
    return {" & ".join(first): first, " & ".join(second): second}


def team_layout(ruleset: Ruleset, players: list[str], teams: dict | None) -> dict[str, list[str]] | None:
    """The teams of a game: those given, the default pairing where partners apply, else None.

    Team names go through the one rule for names (``names.clean_name``); two that are the same
    once normalised, case aside ("T" and "t "), are refused: totals are keyed by team name."""
    if teams:
        if not ruleset.variant.partners_players or not ruleset.partners:
            raise ValidationError(N_("This variant is not played in teams."), field="teams")
        if not isinstance(teams, dict) or len(teams) != 2:
            raise ValidationError(N_("Give exactly two teams."), field="teams")
        layout: dict[str, list[str]] = {}
        for name, members in teams.items():
            team = _team_name(name, members, layout)
            layout[team] = _team_members(members, players)
        if sorted(m for names in layout.values() for m in names) != sorted(players):
            raise ValidationError(N_("Every player belongs to exactly one team."), field="teams")
        return layout
    if ruleset.teams_apply(len(players)):
        return default_teams(players)
    return None


def _team_name(name, members, layout: dict) -> str:
    """A given team's name, cleaned: refused when its members are not two, or when it is the name
    of a team already in ``layout`` (case aside)."""
    if not isinstance(members, list) or len(members) != 2:
        raise ValidationError(N_("Each team has a name and two players."), field="teams")
    try:
        team = clean_name(name, MAX_TEAM_NAME, field="teams")
    except InvalidName as e:
        if e.reason in ("empty", "not_text"):
            raise ValidationError(N_("Each team has a name and two players."), field="teams") from None
        raise
    if any(team.casefold() == other.casefold() for other in layout):
        raise ValidationError(N_("Two teams are called “%(name)s”: tell them apart."), field="teams", name=team)
    return team


def _team_members(members: list, players: list[str]) -> list:
    """A given team's two members, normalised; each must be a player of the game."""
    names = [normalize_name(m) if isinstance(m, str) else m for m in members]
    for member in names:
        if member not in players:
            raise UnknownPlayer(N_("“%(player)s” is not a player of this game."), field="teams", player=str(member))
    return names


def sides_of(players: list[str], teams: dict | None) -> dict[str, str]:
    """Player name -> side name (the player's own name when nobody plays in teams)."""
    if not teams:
        return {p: p for p in players}
    return {member: name for name, members in teams.items() for member in members}


def side_names(players: list[str], teams: dict | None) -> list[str]:
    return list(teams) if teams else list(players)


# --- a manche ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MancheScore:
    """The outcome of one manche: each counted hand's value and each side's points."""

    winner: str | None
    blocked: bool
    hands: dict  # player -> list of cards (entered as cards)
    typed: dict  # player -> typed total
    values: dict  # player -> hand value (cards or typed)
    points: dict  # side -> points
    last_card: Card | None = None
    winning_side: str | None = None


def side_values(values: dict, side_of: dict) -> dict:
    out: dict = {}
    for player, value in values.items():
        out[side_of[player]] = out.get(side_of[player], 0) + value
    return out


def manche_points(mode: str, sides: list[str], values: dict, winning_side: str | None) -> dict:
    """Points of each side for a manche, from each side's counted hand value, as the mode's
    numbers say (``variant.MODES``; the same numbers drive the phone's offline scorer).

    - penalty: every side but the winner's adds its own value; the winner adds 0.
    - winner (winner collects): the winner's side adds every opponent side's value.
    - wins: the winner's side adds 1.
    - blocked (``winning_side`` None; source 004: « Le gagnant est celui qui a le moins de
      points. Il marque la différence… »): the side with the lowest value wins the manche. In
      ``winner`` mode it scores the sum over the others of (their value − its own), in ``wins``
      mode 1; in ``penalty`` mode it adds 0 like any winner and the others add their own values
      (interpretation). A tie for the lowest scores nothing (interpretation): in ``penalty``
      mode the tied sides add 0 and the others their values, otherwise nobody scores.
    """
    rule = MODES[mode]
    winners, base = [winning_side], 0
    if winning_side is None:
        base = min(values[s] for s in sides)
        winners = [s for s in sides if values[s] == base]
        if len(winners) > 1 and rule.tie == "void":
            return {side: 0 for side in sides}
    collected = sum(values.get(s, 0) - base for s in sides if s not in winners)
    return {
        side: rule.collects * collected + rule.bonus if side in winners else rule.pays * values.get(side, 0)
        for side in sides
    }


def side_points(ruleset: Ruleset, players: list[str], teams: dict | None, winner: str | None, values: dict) -> dict:
    """Each side's points for a manche from the hand values entered (the winner's side's own
    hands do not count when someone went out; every hand counts in a blocked manche)."""
    side_of = sides_of(players, teams)
    winning_side = side_of[winner] if winner else None
    counted = {p: v for p, v in values.items() if winning_side is None or side_of[p] != winning_side}
    return manche_points(ruleset.mode, side_names(players, teams), side_values(counted, side_of), winning_side)


def _whole_points(value, field_name: str, high: int) -> int:
    """A typed total: an int (bool excluded) from 0 to ``high``; a string, even of digits, is refused."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ValidationError(N_("A typed total is a whole number from 0 to %(high)s."), field=field_name, high=high)
    return value


def check_finish(ruleset: Ruleset, card: Card) -> None:
    """Refuse a manche won on a card the variant (or a house option) forbids as the last one."""
    if ruleset.is_finish_forbidden(card):
        raise FinishForbidden(
            N_("Nobody may go out on this card here (%(token)s). %(rule)s"),
            field="last_card",
            token=format_card(card, symbols=True),
            rule=DataText(ruleset.variant.finish_rule),
        )


def _check_names(side_of: dict, hands: dict, typed: dict) -> None:
    """Every name entered is a player's, each given cards or a typed total, not both."""
    for name in list(hands) + list(typed):
        if name not in side_of:
            where = "hands" if name in hands else "points"
            raise UnknownPlayer(
                N_("“%(player)s” is not a player of this game."), field=f"{where}.{name}", player=str(name)
            )
        if name in hands and name in typed:
            raise ValidationError(
                N_("%(player)s: give the cards or a typed total, not both."), field=f"points.{name}", player=name
            )


def _winner(ruleset: Ruleset, side_of: dict, winner, blocked: bool) -> str | None:
    """Who went out: a player, or nobody in a blocked manche (where the variant has them)."""
    if blocked:
        if not ruleset.variant.blocked:
            raise ValidationError(N_("This variant has no blocked round."), field="blocked")
        if winner not in (None, ""):
            raise ValidationError(N_("A blocked round has no winner."), field="winner")
        return None
    if winner in (None, ""):
        raise ValidationError(N_("Say who went out."), field="winner")
    if winner not in side_of:
        raise UnknownPlayer(N_("“%(player)s” is not a player of this game."), field="winner", player=str(winner))
    return winner


def _parsed_cards(ruleset: Ruleset, hands: dict, last_card, blocked: bool) -> tuple[dict, Card | None]:
    """The hands as cards and the winner's last card, checked together against the deck."""
    parsed: dict[str, list[Card]] = {}
    for name, cards in hands.items():
        try:
            parsed[name] = parse_cards(cards if cards is not None else [])
        except DomainError as e:
            e.field = f"hands.{name}"
            raise
    last = None
    if last_card not in (None, ""):
        if blocked:
            raise ValidationError(N_("A blocked round has no last card."), field="last_card")
        try:
            last = last_card if isinstance(last_card, Card) else parse_card(last_card)
        except DomainError as e:
            e.field = "last_card"
            raise
    try:
        check_deck(list(parsed.values()) + ([[last]] if last else []), ruleset.deck)
    except DomainError as e:
        e.field = e.field or _field_holding(parsed, e.params.get("token"))
        raise
    return parsed, last


def _hand_values(ruleset: Ruleset, players, teams, side_of, winner, blocked, parsed, typed) -> dict:
    """Each counted hand's value: its cards under the table, or its typed total (at most what one
    hand can be worth); every hand but the winner's (and their partner's) must be there."""
    high = max_hand_value(ruleset)
    winning_side = side_of[winner] if winner else None
    values: dict[str, int] = {}
    for name in players:
        if name in parsed:
            try:
                values[name] = hand_value(parsed[name], ruleset.table)
            except DomainError as e:
                e.field = f"hands.{name}"
                raise
        elif name in typed:
            values[name] = _whole_points(typed[name], f"points.{name}", high)
        elif name == winner or (not blocked and teams and side_of[name] == winning_side):
            continue
        else:
            raise MissingHand(N_("Enter the hand of %(player)s."), field=f"hands.{name}", player=name)
    if winner and values.get(winner, 0) != 0:
        raise ValidationError(N_("%(player)s went out: their hand is empty."), field=f"hands.{winner}", player=winner)
    if typed and sum(values.values()) > high:
        # Cards entered are checked against the deck; typed totals only against one hand's most.
        # Together, the hands of one manche cannot be worth more than the whole deck.
        raise ValidationError(
            N_("Together these hands are worth %(total)s points, more than the whole deck (%(high)s points)."),
            field="points",
            total=sum(values.values()),
            high=high,
        )
    return values


def score_manche(
    ruleset: Ruleset,
    players: list[str],
    teams: dict | None,
    winner: str | None,
    hands: dict | None = None,
    typed: dict | None = None,
    blocked: bool = False,
    last_card=None,
) -> MancheScore:
    """Check one manche's input and compute its points (SPEC §2 and §4).

    ``hands`` maps players to cards (text or tokens), ``typed`` to a total typed instead. Every
    player other than the winner must appear in one of them (the winner's partner may be left
    out); the winner's hand, if given, must be empty; in a blocked manche everybody appears.
    The hands are checked together against the deck; the winner's last card against the
    finishing restrictions.
    """
    hands = dict(hands or {})
    typed = dict(typed or {})
    side_of = sides_of(players, teams)
    _check_names(side_of, hands, typed)
    winner = _winner(ruleset, side_of, winner, blocked)
    parsed, last = _parsed_cards(ruleset, hands, last_card, blocked)
    values = _hand_values(ruleset, players, teams, side_of, winner, blocked, parsed, typed)
    if last:
        check_finish(ruleset, last)
    return MancheScore(
        winner=winner,
        blocked=blocked,
        hands=dict(parsed),
        typed={n: values[n] for n in typed},
        values=values,
        points=side_points(ruleset, players, teams, winner, values),
        last_card=last,
        winning_side=side_of[winner] if winner else None,
    )


@dataclass(frozen=True)
class MancheEntry:
    """One manche as entered: the winner (or blocked), each hand as cards or a typed total."""

    winner: str | None
    hands: dict
    typed: dict = field(default_factory=dict)
    blocked: bool = False
    last_card: str | None = None


def score_entry(ruleset: Ruleset, players: list[str], teams: dict | None, entry: MancheEntry) -> MancheScore:
    """``score_manche`` for a manche as entered (the web form, the API, a file)."""
    if not isinstance(entry.hands, dict) or not isinstance(entry.typed, dict):
        raise ValidationError(N_("Hands map each player to their cards."), field="hands")
    return score_manche(
        ruleset,
        players,
        teams,
        entry.winner,
        hands=entry.hands,
        typed=entry.typed,
        blocked=bool(entry.blocked),
        last_card=entry.last_card,
    )


def _field_holding(parsed: dict, token) -> str | None:
    """The hand that holds the card a deck error is about (the last one entered)."""
    if not token:
        return None
    card = parse_card(token) if token != JOKER else Card(JOKER)
    for name in reversed(list(parsed)):
        if any(c == card or (card.suit is None and c.rank == card.rank) for c in parsed[name]):
            return f"hands.{name}"
    return None


# --- the game ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    finished: bool
    winners: list
    ranking: list = field(default_factory=list)  # [(place, side, total)], best first


def lower_is_better(ruleset: Ruleset) -> bool:
    return MODES[ruleset.mode].low_wins


def standing(ruleset: Ruleset, game_totals: dict, manches_played: int, gone=()) -> Standing:
    """Where the game stands: over or not, the winners (ties shared), the ranking.

    With a target the game ends after the manche in which a total reaches it (≥); with a number
    of manches, after the last. The best total wins: the lowest in penalty mode, the highest
    otherwise. The sides in ``gone`` (players who left the table) keep their totals in the
    ranking, after those still playing, and cannot win (interpretation: a player who leaves
    gives up the game).
    """
    low_wins = lower_is_better(ruleset)

    def rank(items):
        return sorted(items, key=lambda kv: kv[1] if low_wins else -kv[1])

    ordered = rank(kv for kv in game_totals.items() if kv[0] not in gone)
    ordered += rank(kv for kv in game_totals.items() if kv[0] in gone)
    ranking, place = [], 0
    for index, (side, total) in enumerate(ordered):
        if index == 0 or total != ordered[index - 1][1] or side in gone:
            place = index + 1
        ranking.append((place, side, total))
    finished = is_over(ruleset, game_totals, manches_played)
    winners = [side for place, side, _ in ranking if place == 1 and side not in gone] if finished else []
    return Standing(finished, winners, ranking)


def is_over(ruleset: Ruleset, game_totals: dict, manches_played: int) -> bool:
    """Whether the game is over (``standing``'s first answer, without the ranking): with a target,
    once a total reaches it (≥) after a manche; with a number of manches, after the last."""
    if ruleset.rounds:
        return manches_played >= ruleset.rounds
    return manches_played > 0 and any(t >= ruleset.target for t in game_totals.values())


def manche_loser(players: list[str], values: dict, dealer: int = -1, order=None) -> int | None:
    """Seat of the player left with the highest hand: "the loser" who deals next when that house
    option is on (interpretation). On a tie, the first of them going left from the manche's
    ``dealer`` (the order of play, around the table: ``order``, the seats' table order)."""
    if not values:
        return None
    high = max(values.values())
    around = ring(len(players), order)
    start = around.index(dealer % len(players)) if dealer >= 0 else -1
    following = [around[(start + 1 + step) % len(around)] for step in range(len(around))]
    return next(seat for seat in following if values.get(players[seat]) == high)


@dataclass(frozen=True)
class Progress:
    """A game played through its manches, in order: each manche's points and dealer, whether it
    counts, the totals after each manche that counts, the standing and the next dealer."""

    points: list  # per manche: {side: points}
    dealers: list  # per manche: the dealer's seat
    counted: int  # the first ``counted`` manches count; any after them were played after the end
    progression: list  # totals after each manche that counts: [{side: total}, ...]
    totals: dict
    standing: Standing
    next_dealer: int
    loser: int | None = None  # where the loser deals: the seat that lost the last manche that counts (else None)


def _dealer(ruleset: Ruleset, table: tuple, first_dealer: int, number: int, previous, loser) -> int:
    """The seat that deals manche ``number``: the first dealer, then the next seated player on
    the left of the previous dealer, or the loser of the previous manche where "the loser
    deals" (or, gone, the next player on their left). ``table`` is (players, roster, order)."""
    players, roster, order = table
    if previous is None or (ruleset.loser_deals and loser is not None):
        seat = first_dealer % len(players) if previous is None else loser
        if roster.get(players[seat], SEAT).plays(number):
            return seat
        return next_seated(players, roster, number, seat, order)
    return next_seated(players, roster, number, previous, order)


def _sit_down(roster: dict, running: dict, number: int) -> dict:
    """The totals once the newcomers who sat down after manche ``number - 1`` have their start."""
    for name, seat in roster.items():
        if seat.joined == number - 1 and seat.joined > 0 and name in running:
            running = {**running, name: running[name] + seat.start}
    return running


def play_through(
    ruleset: Ruleset,
    players: list[str],
    teams: dict | None,
    first_dealer: int,
    results,
    roster: dict | None = None,
    since: Progress | None = None,
    order=None,
) -> Progress:
    """Every derived number of a game from its manches' results, ``[(winner or None, {player:
    hand value})]`` in order (SPEC §2): each manche's points (``side_points``, among the players
    dealt in it), running totals, the dealer of each manche and of the next, and where the game
    stands. A manche stored after the game had ended (an edit made by an older version could
    leave one) does not count: it is reported, never added.

    ``roster`` (player -> ``Seat``) says who sits at the table when players joined or left: a
    newcomer's total is their start from the moment they sit down, a leaver's stays as it was.
    The deal passes to the left (the next seat, the way play goes) each manche, skipping the
    seats nobody sits in (interpretation: the sources say who starts, not who deals next); see
    ``_dealer``. ``order`` is the table order (``seating``): the seats the way play goes.

    ``since`` is the progress through the manches before ``results``, to go on from instead of
    starting over (a manche just added to a long game: its cost is that manche's). Only for a game
    nobody joined or left: a newcomer's start is added as they sit down, which only a full pass
    places right."""
    sides = side_names(players, teams)
    roster = roster or {}
    if since is not None and roster:
        raise ValueError("play_through goes on from a progress only where nobody joined or left")
    since = since or Progress([], [], 0, [], {side: 0 for side in sides}, None, first_dealer, None)
    running, counted, loser = dict(since.totals), since.counted, since.loser
    points_of, dealers, progression = list(since.points), list(since.dealers), list(since.progression)
    previous = dealers[-1] if dealers else None
    table = (players, roster, order)
    for number, (winner, values) in enumerate(results, start=len(points_of) + 1):
        at_table = seated(players, roster, number)
        table_teams = teams if len(at_table) == len(players) else None
        points = side_points(ruleset, at_table, table_teams, winner, values)
        seat = previous = _dealer(ruleset, table, first_dealer, number, previous, loser)
        points_of.append(points)
        dealers.append(seat)
        if counted < number - 1 or (counted and is_over(ruleset, running, counted)):
            continue
        counted = number
        running = _sit_down(roster, running, number)
        if ruleset.loser_deals:  # who lost matters only where the loser deals
            loser = manche_loser(players, values, seat, order) if values else seat
        running = {side: running[side] + points.get(side, 0) for side in sides}
        progression.append(running)
    if not is_over(ruleset, running, counted):
        running = _sit_down(roster, running, counted + 1)  # a newcomer who joined after the last manche counts from now
    gone = {name for name, seat in roster.items() if seat.left is not None and seat.left <= counted}
    final = standing(ruleset, running, counted, gone)
    following = _dealer(ruleset, table, first_dealer, counted + 1, previous, loser)
    return Progress(points_of, dealers, counted, progression, dict(running), final, following, loser)
