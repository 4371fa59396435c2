"""Poker room hands as a standard text hand history (the PokerStars text format).

Players' tracking software (PokerTracker, Hold'em Manager, ...) reads hand histories in
the text format PokerStars writes; this module writes each hand of a poker room's signed
log in that format, one file per table session (a session: from a ``table-open`` of the
table to the next). It reads only log records, so the export shows exactly what the log
holds: the seats and stacks of the ``hand-start`` action, the posts and bets of the
``chips-in`` events with the decisions that made them, the cards as ``card-shown``
events showed them, the showdown (``hand-shown``), the uncalled bets returned, the pots
awarded and the rake.

Whose cards it shows: ``hero`` (a player id) gets "Dealt to" with their own hole cards,
as a player's own history does; the cards of anyone else only where the table showed
them (up cards, the showdown). Without a hero (the operator's export) no hole card is
shown that the table did not show to everybody. Amounts are dollars (``$2``, ``$0.50``).
A seat fee (a room's collection per hand, taken from the stack before the deal) is a line
"X: pays the seat fee $1", which PokerStars never writes; the rake is the summary's.

>>> dollars(250), dollars(400), dollars(5)
('$2.50', '$4', '$0.05')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from certification.log.replay import replay_game
from games.poker_room.engine import PokerRoomRound
from kiosk_ui.errors import NoSuchTable
from kiosk_ui.table.room import Room
from kiosk_ui.table.seating import logged_seats

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime

#: the game line of each room game (PokerStars' words)
GAME_NAMES = {"holdem": "Hold'em Limit", "omaha": "Omaha Limit", "stud": "7 Card Stud Limit"}
BOARD_STREETS = ("HOLE CARDS", "FLOP", "TURN", "RIVER")
STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
#: a post's words, by the chips-in event's ``what``
POSTS = {
    "small-blind": "posts small blind",
    "big-blind": "posts big blind",
    "dead-blind": "posts small blind",
    "ante": "posts the ante",
    "bring-in": "brings in for",
}


def dollars(cents: int) -> str:
    """Cents as PokerStars writes dollars: no cents when whole."""
    whole, part = divmod(cents, 100)
    return f"${whole}" if part == 0 else f"${whole}.{part:02d}"


@dataclass
class _Hand:
    """What one hand's records say, gathered in order."""

    number: int
    when: str
    table: str
    game: str  # holdem, omaha, stud
    lower: int
    higher: int
    seats_max: int
    button: int | None
    names: dict[int, str]
    stacks: dict[int, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    seen: dict[int, list[str]] = field(default_factory=dict)  # seat -> its cards shown here
    dealt_at: dict[int, tuple[int, int]] = field(default_factory=dict)  # street, cards before
    shown: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (cards, hand)
    won: dict[int, int] = field(default_factory=dict)
    folded: dict[int, int] = field(default_factory=dict)  # seat -> street it folded on
    pots: dict[int, int] = field(default_factory=dict)
    rake: int = 0
    street: int = 0
    street_bet: dict[int, int] = field(default_factory=dict)
    high: int = 0
    dealt_since_action: bool = True
    known: set[str] = field(default_factory=set)  # every card dealt (a reveal is no deal)
    roles: dict[int, str] = field(default_factory=dict)  # small blind, big blind
    left: dict[int, int] = field(default_factory=dict)  # each stack as the hand goes


def format_hand(
    records: list[dict[str, Any]], names: Mapping[str, str], hero: str | None = None
) -> str | None:
    """One hand's records as PokerStars text (None if the records hold no room hand)."""
    hand = _start(records, names)
    if hand is None:
        return None
    hero_seats = {s for s, p in _players(records).items() if p == hero}
    for rec in records:
        body = rec["body"]
        if rec["type"] == "action" and body.get("kind") == "decide":
            hand.dealt_since_action = False
            if body.get("decision") in ("fold", "check"):
                _quiet(hand, body)  # no chips move: the decision is its own line
        elif rec["type"] == "event":
            _event(hand, body, hero_seats)
    return "\n".join(_header(hand) + hand.lines + _summary(hand)) + "\n"


def _players(records: list[dict[str, Any]]) -> dict[int, str]:
    return logged_seats(records)


def _start(records: list[dict[str, Any]], names: Mapping[str, str]) -> _Hand | None:
    start = next((r for r in records if r["type"] == "game-start"), None)
    begin = next(
        (r for r in records if r["type"] == "action" and r["body"].get("kind") == "hand-start"),
        None,
    )
    if start is None or begin is None:
        return None
    rep = replay_game(records)
    if rep is None or not isinstance(rep.engine, PokerRoomRound):
        return None
    engine, rules = rep.engine, rep.engine.rules
    seated = _players(records)
    shown_names = _unique({s: names.get(p, p) for s, p in seated.items()})
    when = datetime.fromtimestamp(int(start["ts"]) / 1e6, tz=UTC)
    hand = _Hand(
        number=int(start["seq"]),
        when=when.strftime("%Y/%m/%d %H:%M:%S UTC"),
        table=str(start["body"]["table"]),
        game=rules.game,
        lower=rules.lower_limit,
        higher=rules.higher_limit,
        seats_max=engine.variant.seats,
        button=engine.button,
        names=shown_names,
    )
    hand.stacks = {int(s): int(c) for s, c in begin["body"]["stacks"]}
    return hand


def _unique(names: dict[int, str]) -> dict[int, str]:
    """Names as a hand history needs them: unique, no colon (it ends a name)."""
    out: dict[int, str] = {}
    for seat, name in sorted(names.items()):
        clean = name.replace(":", " ").strip() or f"Seat {seat + 1}"
        if clean in out.values():
            clean = f"{clean} ({seat + 1})"
        out[seat] = clean
    return out


def _header(h: _Hand) -> list[str]:
    game = GAME_NAMES[h.game]
    stakes = f"{dollars(h.lower)}/{dollars(h.higher)} USD"
    head = [f"PokerStars Hand #{h.number}:  {game} ({stakes}) - {h.when}"]
    button = f" Seat #{h.button + 1} is the button" if h.button is not None else ""
    head.append(f"Table '{h.table}' {h.seats_max}-max{button}")
    for seat, stack in sorted(h.stacks.items()):
        head.append(f"Seat {seat + 1}: {h.names.get(seat, seat)} ({dollars(stack)} in chips)")
    return head


def _street_line(h: _Hand) -> str:
    if h.game == "stud":
        return f"*** {STUD_STREETS[min(h.street, 4)]} ***"
    name = BOARD_STREETS[min(h.street, 3)]
    if h.street == 0:
        return f"*** {name} ***"
    if h.street == 1:
        return f"*** {name} *** [{' '.join(h.board)}]"
    return f"*** {name} *** [{' '.join(h.board[:-1])}] [{h.board[-1]}]"


def _event(h: _Hand, ev: dict[str, Any], hero: set[int]) -> None:
    kind = ev.get("kind")
    if kind == "card-shown":
        _card(h, ev, hero)
    elif kind == "chips-in":
        _chips(h, ev)
    elif kind in ("uncalled-returned", "pot-awarded", "raked", "hand-shown", "pot-formed"):
        _result(h, ev)
    elif kind == "collection-charged":  # a seat fee, from the stack (no PokerStars line)
        seat = int(ev["seat"])
        h.left[seat] = h.left.get(seat, h.stacks.get(seat, 0)) - int(ev["amount"])
        h.lines.append(f"{h.names.get(seat, seat)}: pays the seat fee {dollars(int(ev['amount']))}")
    elif kind == "hand-void":
        h.lines.append(f"Hand void: {ev.get('reason', '')}")


def _quiet(h: _Hand, decision: dict[str, Any]) -> None:
    """A fold or a check: no chips move, the decision is the line."""
    seat = int(decision["seat"])
    if decision["decision"] == "fold":
        h.folded[seat] = h.street
        h.lines.append(f"{h.names.get(seat, seat)}: folds")
    else:
        h.lines.append(f"{h.names.get(seat, seat)}: checks")


def _card(h: _Hand, ev: dict[str, Any], hero: set[int]) -> None:
    """A card dealt: a new street's line once the betting moved on, then the card (a
    card shown again, at the showdown, is no deal: the hand-shown line says it)."""
    target, card, to = str(ev["hand"]), str(ev["card"]), str(ev.get("to", "all"))
    if card in h.known:
        return
    h.known.add(card)
    if not h.dealt_since_action:
        h.street += 1
        h.street_bet, h.high = {}, 0
        h.dealt_since_action = True
        if h.game == "stud":  # its line even when no card of it is the viewer's to see
            h.lines.append(_street_line(h))
    if target == "board":
        h.board.append(card)
        if len(h.board) >= 3:
            h.lines.append(_street_line(h))
        return
    seat = int(target[4:]) if target.startswith("seat") else -1
    if h.game != "stud" and h.street == 0 and "*** HOLE CARDS ***" not in h.lines:
        h.lines.append("*** HOLE CARDS ***")
    mine = seat in hero
    if not (mine or to == "all"):
        return  # a hole card of another seat: not shown until the showdown
    if h.game != "stud" and (not mine or h.street > 0):
        return  # hold'em, Omaha: only the hero's hole cards are dealt to a seat
    cards = h.seen.setdefault(seat, [])
    if h.dealt_at.get(seat, (-1, 0))[0] != h.street:
        h.dealt_at[seat] = (h.street, len(cards))  # what it had before this street
    cards.append(card)
    _dealt(h, seat)


def _dealt(h: _Hand, seat: int) -> None:
    """The "Dealt to" line of a seat, rewritten as its cards arrive this street: the
    cards it had before in one bracket, this street's in another (PokerStars' way)."""
    cards = h.seen[seat]
    marker = f"Dealt to {h.names.get(seat, seat)} "
    title = _street_line(h)
    if title not in h.lines:
        h.lines.append(title)
    at = len(h.lines) - 1 - h.lines[::-1].index(title)
    for i in range(at + 1, len(h.lines)):
        if h.lines[i].startswith(marker):
            del h.lines[i]
            break
    old = h.dealt_at[seat][1]
    if old:
        h.lines.append(f"{marker}[{' '.join(cards[:old])}] [{' '.join(cards[old:])}]")
    else:
        h.lines.append(f"{marker}[{' '.join(cards)}]")


def _chips(h: _Hand, ev: dict[str, Any]) -> None:
    seat, amount, what = int(ev["seat"]), int(ev["amount"]), str(ev["what"])
    name = h.names.get(seat, seat)
    left = h.left[seat] = h.left.get(seat, h.stacks.get(seat, 0)) - amount
    allin = " and is all-in" if left == 0 else ""
    if what in ("small-blind", "big-blind"):
        h.roles[seat] = what.replace("-", " ")
    live = h.street_bet.get(seat, 0)
    if what == "dead-blind" and live and h.lines[-1].startswith(f"{name}: posts big blind"):
        # back after missing the blinds: PokerStars' one line, the big live, the small dead
        h.lines[-1] = f"{name}: posts small & big blinds {dollars(live + amount)}{allin}"
        return
    if what in POSTS:
        if what != "ante" and what != "dead-blind":
            h.street_bet[seat] = live + amount
            h.high = max(h.high, h.street_bet[seat])
        h.lines.append(f"{name}: {POSTS[what]} {dollars(amount)}{allin}")
        return
    before = h.street_bet.get(seat, 0)
    total = h.street_bet[seat] = before + amount
    if what == "call":
        h.lines.append(f"{name}: calls {dollars(amount)}{allin}")
    elif what == "bet":
        h.lines.append(f"{name}: bets {dollars(amount)}{allin}")
    elif what == "complete":
        h.lines.append(f"{name}: completes it to {dollars(total)}{allin}")
    else:  # raise
        h.lines.append(f"{name}: raises {dollars(total - h.high)} to {dollars(total)}{allin}")
    h.high = max(h.high, total)


def _result(h: _Hand, ev: dict[str, Any]) -> None:
    kind = ev["kind"]
    if kind == "uncalled-returned":
        seat, amount = int(ev["seat"]), int(ev["amount"])
        h.lines.append(f"Uncalled bet ({dollars(amount)}) returned to {h.names.get(seat, seat)}")
    elif kind == "pot-formed":
        h.pots[int(ev["pot"])] = int(ev["amount"])
    elif kind == "raked":
        h.rake += int(ev["amount"])
    elif kind == "hand-shown":
        seat = int(ev["seat"])
        if "*** SHOW DOWN ***" not in h.lines:
            h.lines.append("*** SHOW DOWN ***")
        h.shown[seat] = (str(ev["cards"]), str(ev["hand"]))
        h.lines.append(f"{h.names.get(seat, seat)}: shows [{ev['cards']}] ({ev['hand']})")
    elif kind == "pot-awarded":
        seat, amount, pot = int(ev["seat"]), int(ev["amount"]), int(ev["pot"])
        h.won[seat] = h.won.get(seat, 0) + amount
        where = "pot" if len(h.pots) <= 1 else "main pot" if pot == 0 else _side(h, pot)
        h.lines.append(f"{h.names.get(seat, seat)} collected {dollars(amount)} from {where}")


def _side(h: _Hand, pot: int) -> str:
    return "side pot" if len(h.pots) == 2 else f"side pot-{pot}"


def _summary(h: _Hand) -> list[str]:
    total = sum(h.pots.values()) or sum(h.won.values()) + h.rake
    out = ["*** SUMMARY ***"]
    if len(h.pots) > 1:
        parts = [f"Main pot {dollars(h.pots.get(0, 0))}."]
        parts += [
            f"{_side(h, p).capitalize()} {dollars(a)}." for p, a in sorted(h.pots.items()) if p
        ]
        out.append(f"Total pot {dollars(total)} {' '.join(parts)} | Rake {dollars(h.rake)}")
    else:
        out.append(f"Total pot {dollars(total)} | Rake {dollars(h.rake)}")
    if h.board:
        out.append(f"Board [{' '.join(h.board)}]")
    streets = STUD_STREETS if h.game == "stud" else BOARD_STREETS
    for seat in sorted(h.stacks):
        name = h.names.get(seat, seat)
        role = "".join(f" ({r})" for r in (_button(h, seat), h.roles.get(seat)) if r)
        if seat in h.folded:
            at = h.folded[seat]
            when = "before Flop" if at == 0 and h.game != "stud" else f"on {_title(streets[at])}"
            out.append(f"Seat {seat + 1}: {name}{role} folded {when}")
        elif seat in h.shown:
            cards, what = h.shown[seat]
            won = h.won.get(seat, 0)
            res = f"won ({dollars(won)}) with {what}" if won else f"lost with {what}"
            out.append(f"Seat {seat + 1}: {name}{role} showed [{cards}] and {res}")
        elif seat in h.won:
            out.append(f"Seat {seat + 1}: {name}{role} collected ({dollars(h.won[seat])})")
        else:
            out.append(f"Seat {seat + 1}: {name}{role}")
    return out


def _button(h: _Hand, seat: int) -> str:
    return "button" if seat == h.button and h.game != "stud" else ""


def _title(street: str) -> str:
    return {"HOLE CARDS": "the Hole Cards", "RIVER": "the River"}.get(
        street, street if "STREET" in street else f"the {street.title()}"
    )


# --- sessions ---------------------------------------------------------------------------


def session_games(
    records: Iterable[dict[str, Any]], table: str
) -> list[list[list[dict[str, Any]]]]:
    """Every table session of ``table`` (from one ``table-open`` to the next) as its
    finished games' records, in log order (a hand open at a restart is of the session it
    ended in)."""
    sessions: list[list[list[dict[str, Any]]]] = []
    games: dict[str, list[dict[str, Any]]] = {}
    for rec in records:
        body = rec.get("body", {})
        if rec["type"] == "table-open" and body.get("table") == table:
            sessions.append([])  # a hand a restart resumed ends in (and is of) this session
            continue
        if not sessions:
            continue
        game = str(rec.get("game", ""))
        if rec["type"] == "game-start" and body.get("table") == table:
            games[game] = []
        if game in games:
            games[game].append(rec)
            if rec["type"] == "game-end":
                sessions[-1].append(games.pop(game))
    return sessions


def session_players(sessions: Iterable[Iterable[list[dict[str, Any]]]]) -> set[str]:
    """Every player seated in the sessions' hands (whose names a history needs)."""
    return {p for games in sessions for records in games for p in _players(records).values()}


def hands_text(
    games: Iterable[list[dict[str, Any]]], names: Mapping[str, str], hero: str | None = None
) -> str:
    """The hands of ``games`` (each a game's records) as one hand history file: each hand
    in the PokerStars text format, separated by blank lines (a hero's file: only the
    hands they were dealt into)."""
    out: list[str] = []
    for records in games:
        if hero is not None and hero not in _players(records).values():
            continue
        text = format_hand(records, names, hero)
        if text is not None:
            out.append(text)
    return "\n\n".join(out)


def session_hands(runtime: Runtime, table: str, hero: str | None = None) -> str:
    """The finished hands of ``table``'s current session (since it was opened)."""
    room = runtime.table(table)
    if not isinstance(room, Room):
        raise NoSuchTable(f"table {table!r} is no poker room")
    first = room.first_game
    games: list[list[dict[str, Any]]] = []
    names: dict[str, str] = {}
    with runtime.db.read() as tx:
        for number in range(first, tx.games.started(table) + 1):
            game = runtime.game_id(table, number)
            records = [json.loads(line) for line in tx.log.game_lines(game)]
            if any(r["type"] == "game-end" for r in records):
                games.append(records)
                for player in _players(records).values():
                    names.setdefault(player, tx.players.name_of(player) or player)
    return hands_text(games, names, hero)


def iter_lines(lines: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """Log lines (JSON) as records."""
    for line in lines:
        yield json.loads(line)
