"""The craps engine: one Pinnacle "crap game", from a clean table until no bets remain.

Actions it takes (all verified first; a refused action changes nothing):

* ``PlaceBet(seat, bet, amount)``: add ``amount`` cents to a bet spot (see
  :mod:`games.craps.bets` for names). What may be placed when follows the page:
  pass/don't pass only with no table point; come, don't come, hardways and new
  place/buy bets only with a table point (never a new place/buy on the table point);
  odds only behind their flat bet, at most 3-4-5x (take) or 6x (lay) of it.
* ``RemoveBet(seat, bet, amount=0)``: take a bet down (0) or reduce it. A pass line
  bet cannot come down once the table point is set, nor a come bet once it is on its
  come point; don't pass / don't come may be reduced or removed (removing the flat
  bet takes its odds down with it).
* ``Decide(seat, "come-out-on"|"come-out-off", arg=TYPE)``: the "Come Out Options"
  panel; TYPE is one of come-odds, dont-come-odds, place-win, place-lose, buy, lay,
  hard, big (defaults as on the page).
* ``Decide(seat, "roll")``: the Roll button (active whenever bets are on the table).
  The engine then needs two dice: ``needs()`` returns ``Need(kind=DICE, count=2)``.
* ``RollDice(faces=(a, b))`` from the dice source resolves every bet.

The table point is assigned only when a come-out roll of 4-10 finds a new line bet
(pass or don't pass) on the table; until then every roll is a come-out roll and
the come-out rules (On/Off) apply. The game is over once a roll has been made and no
bets remain; :meth:`CrapsGame.next_game` starts the next game from a clean table
(point off), carrying the seats' come-out options.

What carries between games (Pinnacle page, Game History Report: a crap game "starts
with a clean table ... and ends when all of your bets have been resolved"): no bet,
no point and no come bet on a number can outlive a game, since a game is over only
when none remain; the come-out options are a seat's settings and do carry.
:meth:`CrapsGame.carry` is that state (``games.craps.new_game(context=GameContext(
previous=...))``, or ``carry=``, the same data as logged).

The game is a :class:`~games.core.round.Round`: the stakes are the round's bet book (by
spot name; :mod:`games.craps.placing` holds the craps checks over it), every settled bet
goes through :meth:`~games.core.round.Round.settle`, and each action kind has its
``verify_<kind>`` / ``apply_<kind>`` pair. It has the :class:`~games.core.capabilities.Spots`
(``placeable`` / ``removable``), :class:`~games.core.capabilities.CarriesOver`
(``carry``) and :class:`~games.core.capabilities.StandingOrders` (``withdraw_orders``: a
leaving seat's come-out options back to the defaults) capabilities. No decision is
passive: a seat that does not act never rolls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NotRequired, TypedDict

from games.core.betting import Wording
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, Ratio, commission, format_cents, pay
from games.core.records import (
    Action,
    BetReturned,
    BetSettled,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RollDice,
    RoundOver,
)
from games.core.round import Round
from games.craps.bets import (
    SPOTS,
    WORKING_DEFAULTS,
    BetKey,
    Kind,
    key_of,
    parse_bet,
    working_type,
)
from games.craps.placing import ODDS_OF_FLAT, PlacingRules
from games.craps.report import Resolution, RollReport
from games.craps.resolve import Outcome, Result, RollContext, assigns_point, resolve
from games.craps.rules import CrapsRules

_LINE = (Kind.PASS, Kind.DONT_PASS)
_STILL_RUNNING = "this crap game is still running: bets remain on the table"


class Phase(StrEnum):
    BETTING = "betting"
    ROLLING = "rolling"  # the Roll button was pressed: waiting for the dice
    OVER = "over"


class CrapsView(TypedDict):
    """What a seat (or, with no seat, the table) sees of a crap game; JSON-able."""

    game: str
    variant: str
    phase: str
    table_point: int | None
    puck: str  # "ON" / "OFF"
    come_out: bool
    rolls: int
    what_just_happened: dict[str, Any] | None  # the last roll's report (the seat's rows)
    bets: dict[str, int] | dict[str, dict[str, int]]  # the seat's; public: by seat number
    working: NotRequired[dict[str, bool]]  # the seat's view only, like the rest
    game_result: NotRequired[int]
    bet_amount: NotRequired[int]
    legal: NotRequired[list[str]]


@dataclass(frozen=True, slots=True)
class CrapsCarry:
    """What one crap game hands to the table's next: each seat's come-out options."""

    working: Mapping[int, Mapping[str, bool]]

    def encode(self) -> dict[str, Any]:
        return {"working": {str(s): dict(opts) for s, opts in sorted(self.working.items())}}

    @classmethod
    def decode(cls, data: Mapping[str, Any], seats: int) -> CrapsCarry:
        """Rebuild from :meth:`encode` output; ValueError naming what is wrong."""
        if not isinstance(data, Mapping) or set(data) != {"working"}:
            raise ValueError("craps carry: expected {'working': {seat: {type: on}}}")
        raw = data["working"]
        if not isinstance(raw, Mapping):
            raise ValueError("craps carry: working must map seats to options")
        out: dict[int, dict[str, bool]] = {}
        names = {k.value for k in WORKING_DEFAULTS}
        for key, opts in raw.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < seats):
                raise ValueError(f"craps carry: {key!r} is not a seat 0..{seats - 1}")
            if not isinstance(opts, Mapping) or not all(
                k in names and isinstance(v, bool) for k, v in opts.items()
            ):
                raise ValueError(f"craps carry: seat {key}'s options must be {sorted(names)}")
            out[int(key)] = dict(opts)
        return cls(out)


class CrapsGame(Round[CrapsRules]):
    """One crap game at one table (any number of seats sharing the table point)."""

    GAME = "craps"
    OVER = Phase.OVER.value

    def __init__(
        self,
        variant: Variant[CrapsRules],
        seats: int = 1,
        working: Mapping[int, Mapping[str, bool]] | None = None,
    ) -> None:
        if seats < 1:
            raise ValueError("a craps table needs at least one seat")
        super().__init__(variant, seats, phase=Phase.BETTING, wording=Wording.SPOT)
        self._t = self.rules.paytable
        self._placing = PlacingRules(self.book, variant.limits, self._t)
        self._point: int | None = None
        self._rolls = 0
        self._history: list[RollReport] = []
        self._net = [0] * seats
        self._resolved_stake = [0] * seats
        self._working: list[dict[Kind, bool]] = [dict(WORKING_DEFAULTS) for _ in range(seats)]
        for seat, options in (working or {}).items():
            for name, on in options.items():
                self._working[seat][Kind(name)] = on

    # --- what is on the table ------------------------------------------------

    @property
    def table_point(self) -> int | None:
        return self._point

    @property
    def history(self) -> tuple[RollReport, ...]:
        """Every roll of this game, oldest first."""
        return tuple(self._history)

    @property
    def last_roll(self) -> RollReport | None:
        """The "What just happened?" report of the last roll."""
        return self._history[-1] if self._history else None

    def on_table(self) -> int:
        """Cents on the table, all seats."""
        return self.book.total()

    def working(self, seat: int) -> dict[str, bool]:
        """The seat's come-out options: bet type -> working ("On") on the come-out."""
        return {k.value: v for k, v in self._working[seat].items()}

    def game_result(self, seat: int) -> int:
        """Net won (lost) so far in this game: the history report's "Game Result"."""
        return self._net[seat]

    def bet_amount(self, seat: int) -> int:
        """Stakes of the bets resolved so far (the page's "Crap Bet Amount")."""
        return self._resolved_stake[seat]

    # --- the Spots capability ------------------------------------------------------

    def placeable(self, seat: int) -> tuple[str, ...]:
        """Bet spots the seat may add the minimum chip to now."""
        if self.phase is not Phase.BETTING:
            return ()
        out = []
        for name, key in SPOTS:
            limit = self.variant.limits[name]
            chip = max(limit.increment, limit.minimum)
            if self._placing.place_reason(seat, key, chip, point=self._point) is None:
                out.append(name)
        return tuple(out)

    def removable(self, seat: int) -> tuple[str, ...]:
        """Bet spots the seat may take down now."""
        if self.phase is not Phase.BETTING:
            return ()
        return tuple(
            bet
            for bet in self.book.of(seat)
            if self._placing.remove_reason(seat, key_of(bet), 0, point=self._point) is None
        )

    # --- the Engine protocol ---------------------------------------------------

    def needs(self) -> Need | None:
        return Need(kind=NeedKind.DICE, count=2) if self.phase is Phase.ROLLING else None

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self.phase is not Phase.BETTING or not 0 <= seat < self.seats:
            return frozenset()
        out = {"come-out-on", "come-out-off"}
        if self.placeable(seat):
            out.add("place-bet")
        if self.removable(seat):
            out.add("remove-bet")
        if self.book:
            out.add("roll")
        return frozenset(out)

    def view(self, seat: int | None) -> CrapsView:
        if seat is not None and not 0 <= seat < self.seats:
            raise IllegalAction(f"no seat {seat!r} at this table ({self.seats} seats)")
        last = self.last_roll
        out = CrapsView(
            game="craps",
            variant=self.variant.id,
            phase=self.phase.value,
            table_point=self._point,
            puck="ON" if self._point is not None else "OFF",
            come_out=self._point is None,
            rolls=self._rolls,
            what_just_happened=None if last is None else last.to_json(seat),
            bets={str(s): self.book.of(s) for s in range(self.seats)}
            if seat is None
            else self.book.of(seat),
        )
        if seat is not None:
            out["working"] = self.working(seat)
            out["game_result"] = self._net[seat]
            out["bet_amount"] = self._resolved_stake[seat]
            out["legal"] = sorted(self.legal_actions(seat))
        return out

    # --- the CarriesOver capability ------------------------------------------------

    def carry(self) -> CrapsCarry:
        """The seats' come-out options, for the table's next game (this one must be over)."""
        if self.phase is not Phase.OVER:
            raise IllegalAction(_STILL_RUNNING)
        return CrapsCarry({s: self.working(s) for s in range(self.seats)})

    # --- the StandingOrders capability ---------------------------------------------

    def withdraw_orders(self, seat: int) -> tuple[Decide, ...]:
        """The decisions that put ``seat``'s come-out options back to the page's defaults
        (its player left): they are the player's settings, no stake, so the seat's next
        player in this game (and, carried, in the next) starts with the defaults. None
        while the dice roll (no seat acts then), once the game is over (the next game
        drops them: ``new_players``) or when they are the defaults already.

        >>> from games import craps
        >>> game = craps.new_game(craps.VARIANTS[0], 2)
        >>> _ = game.apply(Decide(seat=1, decision="come-out-on", arg="hard"))
        >>> [(a.decision, a.arg) for a in game.withdraw_orders(1)], game.withdraw_orders(0)
        ([('come-out-off', 'hard')], ())
        """
        if self.phase is not Phase.BETTING or not 0 <= seat < self.seats:
            return ()
        return tuple(
            Decide(seat=seat, decision="come-out-on" if on else "come-out-off", arg=kind.value)
            for kind, on in WORKING_DEFAULTS.items()
            if self._working[seat][kind] != on
        )

    def next_game(self) -> CrapsGame:
        """The next crap game: a clean table, point off, the same come-out options."""
        return CrapsGame(self.variant, self.seats, self.carry().working)

    # --- verification ----------------------------------------------------------

    def verify_any(self, action: Action) -> None:
        """An over game takes nothing; while the dice roll, no seat acts."""
        if self.phase is Phase.OVER:
            raise IllegalAction("this crap game is over (no bets remain); start the next game")
        if isinstance(action, RollDice):
            return
        self.seat_of(action)
        if self.phase is Phase.ROLLING:
            raise IllegalAction("the dice are rolling; wait for the result")

    def unknown_action_text(self, action: Action) -> str:
        return f"craps does not take {action.kind!r} actions"

    def verify_place_bet(self, action: PlaceBet) -> None:
        key = parse_bet(action.bet)
        reason = self._placing.place_reason(
            self.seat_of(action), key, action.amount, point=self._point
        )
        if reason:
            raise BetRefused(reason)

    def verify_remove_bet(self, action: RemoveBet) -> None:
        key = parse_bet(action.bet)
        reason = self._placing.remove_reason(
            self.seat_of(action), key, action.amount, point=self._point
        )
        if reason:
            raise BetRefused(reason)

    def verify_decide(self, action: Decide) -> None:
        if action.decision == "roll":
            if not self.book:
                raise IllegalAction("the Roll button is active only when bets are on the table")
            return
        if action.decision in ("come-out-on", "come-out-off"):
            names = sorted(k.value for k in WORKING_DEFAULTS)
            if action.arg not in names:
                raise IllegalAction(
                    f"no come-out option {action.arg!r}; options: {', '.join(names)}"
                )
            return
        raise IllegalAction(f"craps has no decision {action.decision!r}")

    def verify_roll_dice(self, action: RollDice) -> None:
        if self.phase is not Phase.ROLLING:
            raise IllegalAction("no roll is expected: press Roll first")
        if action.seat is not None:
            raise IllegalAction("dice come from the dice source, not a seat")
        faces = action.faces
        if len(faces) != 2 or any(
            isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6 for f in faces
        ):
            raise IllegalAction(f"craps needs two dice showing 1-6, got {list(faces)!r}")

    # --- moving chips ------------------------------------------------------------

    def apply_place_bet(self, action: PlaceBet) -> list[Event]:
        # verify_place_bet has checked the table's limits (in craps words) and the page's
        # rules; the book only takes the chips
        bet = str(parse_bet(action.bet))
        return [self.book.add_by_rule(self.seat_of(action), bet, action.amount)]

    def apply_remove_bet(self, action: RemoveBet) -> list[Event]:
        """Take the bet down (or reduce it); a flat bet taken down takes its odds with it."""
        seat, key = self.seat_of(action), parse_bet(action.bet)
        bet = str(key)
        events: list[Event] = [self.book.remove(seat, bet, action.amount)]
        odds_kind = ODDS_OF_FLAT.get(key.kind)
        if odds_kind is not None and not self.book.stake(seat, bet):
            odds = str(BetKey(odds_kind, key.number))
            if self.book.stake(seat, odds):
                events.append(self.book.remove(seat, odds, 0))
        self._end_if_clean(events)
        return events

    def apply_decide(self, action: Decide) -> list[Event]:
        seat = self.seat_of(action)
        if action.decision == "roll":
            self.phase = Phase.ROLLING
            return [Message(text=f"seat {seat} rolls the dice")]
        on = action.decision == "come-out-on"
        self._working[seat][Kind(action.arg)] = on
        state = "On (working)" if on else "Off (not working)"
        return [Message(text=f"seat {seat}: {action.arg} bets are {state} on the come-out")]

    def apply_roll_dice(self, action: RollDice) -> list[Event]:
        """Resolve every bet on the roll, move the table point, end the game once clean."""
        dice = (action.faces[0], action.faces[1])
        total = dice[0] + dice[1]
        point = self._point
        line = any(key_of(bet).kind in _LINE for _seat, bet, _stake in self.book.items())
        new_point = assigns_point(total, point, line)
        self._rolls += 1
        where = " (come-out)" if point is None else f" (point {point})"
        events: list[Event] = [
            Message(text=f"roll {self._rolls}: {dice[0]}+{dice[1]} = {total}{where}")
        ]
        ctx_on = RollContext(table_point=point, new_point=new_point, working=True)
        ctx_off = RollContext(table_point=point, new_point=new_point, working=False)
        resolved: list[Resolution] = []
        remaining: dict[tuple[int, str], int] = {}
        for seat, bet, stake in list(self.book.items()):
            key = key_of(bet)
            wtype = working_type(key.kind)
            working = True if wtype is None else self._working[seat][wtype]
            out = resolve(key, dice, ctx_on if working else ctx_off, self._t)
            if out.result is Result.STAY:
                remaining[(seat, bet)] = remaining.get((seat, bet), 0) + stake
                continue
            if out.result is Result.MOVE:
                dest = str(BetKey(key.kind, out.to))
                remaining[(seat, dest)] = remaining.get((seat, dest), 0) + stake
            event, resolution = self._resolve_bet(seat, key, stake, out)
            events.append(event)
            resolved.append(resolution)
        if resolved:  # else every bet stayed as it was
            self.book.clear()
            for (seat, bet), stake in remaining.items():
                self.book.add_by_rule(seat, bet, stake)  # what stays, and come bets that moved
        self._move_point(total, point, new_point, events)
        self._history.append(
            RollReport(
                roll=self._rolls,
                dice=dice,
                come_out=point is None,
                point_before=point,
                point_after=self._point,
                resolved=tuple(resolved),
                bets_remaining=sum(remaining.values()),
            )
        )
        self.phase = Phase.BETTING
        self._end_if_clean(events)
        return events

    def _resolve_bet(
        self, seat: int, key: BetKey, stake: int, out: Outcome
    ) -> tuple[Event, Resolution]:
        """The event and the report row of one bet the roll touched (moved, back, settled)."""
        bet = str(key)
        if out.result is Result.MOVE:
            dest = str(BetKey(key.kind, out.to))
            return Message(text=f"seat {seat}: {out.why}"), Resolution(
                seat=seat, bet=bet, stake=stake, result="moved", moved_to=dest, why=out.why
            )
        if out.result is Result.RETURN:
            return BetReturned(seat=seat, bet=bet, amount=stake), Resolution(
                seat=seat, bet=bet, stake=stake, result="returned", why=out.why
            )
        settled = self._settle(seat, key, stake, out.result, out.ratio, out.why)
        self._net[seat] += settled.net
        self._resolved_stake[seat] += stake
        return settled, Resolution(
            seat=seat,
            bet=bet,
            stake=stake,
            result=settled.result,
            win=settled.net,
            commission=settled.commission,
            why=out.why,
        )

    def _settle(
        self, seat: int, key: BetKey, stake: int, result: Result, ratio: Ratio | None, why: str
    ) -> BetSettled:
        """Settle the seat's bet: lose, push, or win at ``ratio`` less any commission."""
        bet = str(key)
        if result is Result.LOSE:
            return self.settle(seat, bet, 0, why, result="lose")
        if result is Result.PUSH:
            return self.settle(seat, bet, stake, why, result="push")
        assert ratio is not None
        win = pay(Cents(stake), ratio, self._t.rounding)
        fee = 0
        if key.kind is Kind.BUY:
            fee = commission(Cents(stake), self._t.buy_bp_of_stake, self._t.rounding)
        elif key.kind is Kind.LAY:
            fee = commission(win, self._t.lay_bp_of_win, self._t.rounding)
        note = f"{why}; pays {ratio}" + (f", commission {format_cents(fee)}" if fee else "")
        return self.settle(seat, bet, stake + win, note, commission=fee, result="win")

    def _move_point(
        self, total: int, point: int | None, new_point: bool, events: list[Event]
    ) -> None:
        """Set the table point on a new line bet's point number; take it off on 7 or the point."""
        if new_point:
            self._point = total
            events.append(Message(text=f"the table point is {total}"))
        elif point is not None and total in (7, point):
            self._point = None
            events.append(Message(text="the table point is off"))

    def _end_if_clean(self, events: list[Event]) -> None:
        """Once a roll has been made and no bets remain, the crap game is over."""
        if not self.book and self._rolls > 0:
            self.phase = Phase.OVER
            self._point = None
            summary = ", ".join(
                f"seat {s}: {format_cents(self._net[s])}" for s in range(self.seats)
            )
            events.append(RoundOver(summary=f"crap game over after {self._rolls} rolls; {summary}"))


__all__ = ["CrapsCarry", "CrapsGame", "CrapsView", "Phase"]
