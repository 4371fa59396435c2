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
:meth:`CrapsGame.carry` is that state (``games.craps.new_game(previous=...)``, or
``carry=``, the same data as logged).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.core.betting import VerifyCan, seat_of
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, Ratio, commission, format_cents, pay
from games.core.records import (
    Action,
    BetPlaced,
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
from games.craps.bets import (
    LAY_ODDS,
    ODDS_OF,
    WORKING_DEFAULTS,
    BetKey,
    Kind,
    all_bet_names,
    parse_bet,
    working_type,
)
from games.craps.paytable import CrapsPaytable
from games.craps.report import Resolution, RollReport
from games.craps.resolve import Result, RollContext, assigns_point, resolve
from games.craps.rules import CrapsRules

_FLAT_OF_ODDS = ODDS_OF
_ODDS_OF_FLAT = {flat: odds for odds, flat in ODDS_OF.items()}
_NEEDS_TABLE_POINT_TO_START = frozenset({Kind.PLACE_WIN, Kind.BUY, Kind.HARD})
_TITLE = {
    Kind.PASS: "pass line",
    Kind.DONT_PASS: "don't pass",
    Kind.PASS_ODDS: "pass line odds",
    Kind.DONT_PASS_ODDS: "don't pass odds",
    Kind.COME: "come",
    Kind.DONT_COME: "don't come",
    Kind.COME_ODDS: "come odds",
    Kind.DONT_COME_ODDS: "don't come odds",
    Kind.PLACE_WIN: "place to win",
    Kind.PLACE_LOSE: "place to lose",
    Kind.BUY: "buy",
    Kind.LAY: "lay",
    Kind.HARD: "hardway",
    Kind.BIG: "big 6/8",
}


class Phase(StrEnum):
    BETTING = "betting"
    ROLLING = "rolling"  # the Roll button was pressed: waiting for the dice
    OVER = "over"


def title(key: BetKey) -> str:
    """A bet spot as people say it: ``place to win 6``, ``come odds 4``, ``horn``."""
    base = _TITLE.get(key.kind, key.kind.value)
    return base if key.number is None else f"{base} {key.number}"


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


class CrapsGame(VerifyCan):
    """One crap game at one table (any number of seats sharing the table point)."""

    def __init__(
        self,
        variant: Variant,
        seats: int = 1,
        working: Mapping[int, Mapping[str, bool]] | None = None,
    ) -> None:
        if not isinstance(variant.rules, CrapsRules):
            raise TypeError(f"{variant.id} is not a craps variant")
        if seats < 1:
            raise ValueError("a craps table needs at least one seat")
        self.variant = variant
        self._t: CrapsPaytable = variant.rules.paytable
        self._seats = seats
        self._bets: dict[tuple[int, BetKey], int] = {}
        self._point: int | None = None
        self._phase = Phase.BETTING
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
    def phase(self) -> Phase:
        return self._phase

    @property
    def history(self) -> tuple[RollReport, ...]:
        """Every roll of this game, oldest first."""
        return tuple(self._history)

    @property
    def last_roll(self) -> RollReport | None:
        """The "What just happened?" report of the last roll."""
        return self._history[-1] if self._history else None

    def bets(self, seat: int) -> dict[str, int]:
        """The seat's bets on the table, by spot name, in cents."""
        return {str(k): v for (s, k), v in self._bets.items() if s == seat}

    def on_table(self) -> int:
        return sum(self._bets.values())

    def working(self, seat: int) -> dict[str, bool]:
        """The seat's come-out options: bet type -> working ("On") on the come-out."""
        return {k.value: v for k, v in self._working[seat].items()}

    def game_result(self, seat: int) -> int:
        """Net won (lost) so far in this game: the history report's "Game Result"."""
        return self._net[seat]

    def bet_amount(self, seat: int) -> int:
        """Stakes of the bets resolved so far (the page's "Crap Bet Amount")."""
        return self._resolved_stake[seat]

    def placeable(self, seat: int) -> tuple[str, ...]:
        """Bet spots the seat may add the minimum chip to now."""
        if self._phase is not Phase.BETTING:
            return ()
        out = []
        for name in all_bet_names():
            key = parse_bet(name)
            step = self.variant.limits[name].increment
            if self._place_reason(seat, key, max(step, self.variant.limits[name].minimum)) is None:
                out.append(name)
        return tuple(out)

    def removable(self, seat: int) -> tuple[str, ...]:
        """Bet spots the seat may take down now."""
        if self._phase is not Phase.BETTING:
            return ()
        return tuple(
            str(k) for (s, k) in self._bets if s == seat and self._remove_reason(s, k, 0) is None
        )

    # --- the Engine protocol ---------------------------------------------------

    def needs(self) -> Need | None:
        return Need(kind=NeedKind.DICE, count=2) if self._phase is Phase.ROLLING else None

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self._phase is not Phase.BETTING or not 0 <= seat < self._seats:
            return frozenset()
        out = {"come-out-on", "come-out-off"}
        if self.placeable(seat):
            out.add("place-bet")
        if self.removable(seat):
            out.add("remove-bet")
        if self._bets:
            out.add("roll")
        return frozenset(out)

    def verify(self, action: Action) -> None:
        if self._phase is Phase.OVER:
            raise IllegalAction("this crap game is over (no bets remain); start the next game")
        if isinstance(action, RollDice):
            self._verify_roll(action)
            return
        seat = seat_of(action, self._seats)
        if self._phase is Phase.ROLLING:
            raise IllegalAction("the dice are rolling; wait for the result")
        if isinstance(action, PlaceBet):
            reason = self._place_reason(seat, parse_bet(action.bet), action.amount)
            if reason:
                raise BetRefused(reason)
        elif isinstance(action, RemoveBet):
            reason = self._remove_reason(seat, parse_bet(action.bet), action.amount)
            if reason:
                raise BetRefused(reason)
        elif isinstance(action, Decide):
            self._verify_decide(action)
        else:
            raise IllegalAction(f"craps does not take {action.kind!r} actions")

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, RollDice):
            return self._roll((action.faces[0], action.faces[1]))
        seat = seat_of(action, self._seats)
        if isinstance(action, PlaceBet):
            key = parse_bet(action.bet)
            self._bets[(seat, key)] = self._bets.get((seat, key), 0) + action.amount
            return (BetPlaced(seat=seat, bet=str(key), amount=action.amount),)
        if isinstance(action, RemoveBet):
            return self._remove(seat, parse_bet(action.bet), action.amount)
        assert isinstance(action, Decide)
        if action.decision == "roll":
            self._phase = Phase.ROLLING
            return (Message(text=f"seat {seat} rolls the dice"),)
        on = action.decision == "come-out-on"
        self._working[seat][Kind(action.arg)] = on
        state = "On (working)" if on else "Off (not working)"
        return (Message(text=f"seat {seat}: {action.arg} bets are {state} on the come-out"),)

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and not 0 <= seat < self._seats:
            raise IllegalAction(f"no seat {seat!r} at this table ({self._seats} seats)")
        last = self.last_roll
        out: dict[str, Any] = {
            "game": "craps",
            "variant": self.variant.id,
            "phase": self._phase.value,
            "table_point": self._point,
            "puck": "ON" if self._point is not None else "OFF",
            "come_out": self._point is None,
            "rolls": self._rolls,
            "what_just_happened": None if last is None else last.to_json(seat),
        }
        if seat is None:
            out["bets"] = {str(s): self.bets(s) for s in range(self._seats)}
        else:
            out.update(
                bets=self.bets(seat),
                working=self.working(seat),
                game_result=self._net[seat],
                bet_amount=self._resolved_stake[seat],
                legal=sorted(self.legal_actions(seat)),
            )
        return out

    def carry(self) -> CrapsCarry:
        """The seats' come-out options, for the table's next game (this one must be over)."""
        if self._phase is not Phase.OVER:
            raise IllegalAction("this crap game is still running: bets remain on the table")
        return CrapsCarry({s: self.working(s) for s in range(self._seats)})

    def next_game(self) -> CrapsGame:
        """The next crap game: a clean table, point off, the same come-out options."""
        if self._phase is not Phase.OVER:
            raise IllegalAction("this crap game is still running: bets remain on the table")
        return CrapsGame(
            self.variant,
            self._seats,
            {s: self.working(s) for s in range(self._seats)},
        )

    # --- verification ----------------------------------------------------------

    def _verify_roll(self, action: RollDice) -> None:
        if self._phase is not Phase.ROLLING:
            raise IllegalAction("no roll is expected: press Roll first")
        if action.seat is not None:
            raise IllegalAction("dice come from the dice source, not a seat")
        faces = action.faces
        if len(faces) != 2 or any(
            isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6 for f in faces
        ):
            raise IllegalAction(f"craps needs two dice showing 1-6, got {list(faces)!r}")

    def _verify_decide(self, action: Decide) -> None:
        if action.decision == "roll":
            if not self._bets:
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

    def _place_reason(self, seat: int, key: BetKey, amount: int) -> str | None:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            return "a bet must be a positive whole number of cents"
        kind, n, point = key.kind, key.number, self._point
        name = title(key)
        current = self._bets.get((seat, key), 0)
        if kind in (Kind.PASS, Kind.DONT_PASS):
            if point is not None:
                return f"{name} bets are available only when there is no table point"
        elif kind in (Kind.COME, Kind.DONT_COME):
            if n is not None:
                return f"{name} bets go in the {kind.value} box; they travel to a number on a roll"
            if point is None:
                return f"{name} bets are available only when there is a table point"
        elif kind in ODDS_OF:
            flat = BetKey(_FLAT_OF_ODDS[kind], n)
            if not self._bets.get((seat, flat)):
                return f"{name} needs a {title(flat)} bet on the table"
            if kind in (Kind.PASS_ODDS, Kind.DONT_PASS_ODDS) and point is None:
                return f"{name} is available only when there is a table point"
        elif kind in _NEEDS_TABLE_POINT_TO_START and current == 0:
            if point is None:
                return f"new {name} bets are available only when there is a table point"
            if kind is not Kind.HARD and n == point:
                return f"new {name} bets cannot be placed on the table point {point}"
        limit = self.variant.limits[str(key)]
        total = current + amount
        if amount % limit.increment:
            return f"{name} must be in increments of {format_cents(limit.increment)}"
        if total < limit.minimum:
            return f"{name} minimum is {format_cents(limit.minimum)}"
        if kind in ODDS_OF:
            flat_key = BetKey(_FLAT_OF_ODDS[kind], n)
            on = n if n is not None else point
            assert on is not None
            mult = self._t.max_odds_multiple(lay=kind in LAY_ODDS, point=on)
            top = mult * self._bets[(seat, flat_key)]
            if total > top:
                return f"{name} may be at most {mult}x the flat bet ({format_cents(top)})"
        elif total > limit.maximum:
            return f"{format_cents(limit.maximum)} maximum on {name} (now {format_cents(current)})"
        return None

    def _remove_reason(self, seat: int, key: BetKey, amount: int) -> str | None:
        current = self._bets.get((seat, key), 0)
        name = title(key)
        if not current:
            return f"no {name} bet to remove"
        if key.kind is Kind.PASS and self._point is not None:
            return (
                "a pass line bet cannot be removed once the table point is set; "
                "it is resolved by the point or a 7"
            )
        if key.kind is Kind.COME and key.number is not None:
            return f"a come bet on {key.number} is resolved only by its come point or a 7"
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            return "the amount to remove must be 0 (all) or a positive number of cents"
        if amount > current:
            return (
                f"cannot remove {format_cents(amount)}: the {name} bet is {format_cents(current)}"
            )
        if 0 < amount < current:
            limit = self.variant.limits[str(key)]
            rest = current - amount
            if amount % limit.increment:
                return f"{name} must be reduced in steps of {format_cents(limit.increment)}"
            if rest < limit.minimum:
                return f"{name} would fall below the {format_cents(limit.minimum)} minimum"
            odds_kind = _ODDS_OF_FLAT.get(key.kind)
            if odds_kind is not None:
                odds = self._bets.get((seat, BetKey(odds_kind, key.number)), 0)
                on = key.number if key.number is not None else self._point
                if odds and on is not None:
                    mult = self._t.max_odds_multiple(lay=odds_kind in LAY_ODDS, point=on)
                    if odds > mult * rest:
                        return f"reduce the odds first: they may be at most {mult}x the {name} bet"
        return None

    # --- moving chips ------------------------------------------------------------

    def _remove(self, seat: int, key: BetKey, amount: int) -> tuple[Event, ...]:
        current = self._bets[(seat, key)]
        take = current if amount == 0 else amount
        events: list[Event] = [BetReturned(seat=seat, bet=str(key), amount=take)]
        if take == current:
            del self._bets[(seat, key)]
            odds_kind = _ODDS_OF_FLAT.get(key.kind)
            odds_key = BetKey(odds_kind, key.number) if odds_kind else None
            if odds_key is not None and (seat, odds_key) in self._bets:
                odds = self._bets.pop((seat, odds_key))
                events.append(BetReturned(seat=seat, bet=str(odds_key), amount=odds))
        else:
            self._bets[(seat, key)] = current - take
        self._end_if_clean(events)
        return tuple(events)

    def _end_if_clean(self, events: list[Event]) -> None:
        if not self._bets and self._rolls > 0:
            self._phase = Phase.OVER
            self._point = None
            summary = ", ".join(
                f"seat {s}: {format_cents(self._net[s])}" for s in range(self._seats)
            )
            events.append(RoundOver(summary=f"crap game over after {self._rolls} rolls; {summary}"))

    def _roll(self, dice: tuple[int, int]) -> tuple[Event, ...]:
        total = dice[0] + dice[1]
        point = self._point
        line = any(k.kind in (Kind.PASS, Kind.DONT_PASS) for (_, k) in self._bets)
        new_point = assigns_point(total, point, line)
        self._rolls += 1
        events: list[Event] = [
            Message(
                text=f"roll {self._rolls}: {dice[0]}+{dice[1]} = {total}"
                + (" (come-out)" if point is None else f" (point {point})")
            )
        ]
        resolved: list[Resolution] = []
        remaining: dict[tuple[int, BetKey], int] = {}
        for (seat, key), stake in self._bets.items():
            wtype = working_type(key.kind)
            working = True if wtype is None else self._working[seat][wtype]
            ctx = RollContext(table_point=point, new_point=new_point, working=working)
            out = resolve(key, dice, ctx, self._t)
            bet = str(key)
            if out.result is Result.STAY:
                remaining[(seat, key)] = remaining.get((seat, key), 0) + stake
                continue
            if out.result is Result.MOVE:
                dest = BetKey(key.kind, out.to)
                remaining[(seat, dest)] = remaining.get((seat, dest), 0) + stake
                resolved.append(
                    Resolution(
                        seat=seat,
                        bet=bet,
                        stake=stake,
                        result="moved",
                        moved_to=str(dest),
                        why=out.why,
                    )
                )
                events.append(Message(text=f"seat {seat}: {out.why}"))
                continue
            if out.result is Result.RETURN:
                events.append(BetReturned(seat=seat, bet=bet, amount=stake))
                resolved.append(
                    Resolution(seat=seat, bet=bet, stake=stake, result="returned", why=out.why)
                )
                continue
            settled = self._settle(seat, key, stake, out.result, out.ratio, out.why)
            events.append(settled)
            net = settled.net
            self._net[seat] += net
            self._resolved_stake[seat] += stake
            resolved.append(
                Resolution(
                    seat=seat,
                    bet=bet,
                    stake=stake,
                    result=settled.result,
                    win=net,
                    commission=settled.commission,
                    why=out.why,
                )
            )
        self._bets = remaining
        if new_point:
            self._point = total
            events.append(Message(text=f"the table point is {total}"))
        elif point is not None and total in (7, point):
            self._point = None
            events.append(Message(text="the table point is off"))
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
        self._phase = Phase.BETTING
        self._end_if_clean(events)
        return tuple(events)

    def _settle(
        self, seat: int, key: BetKey, stake: int, result: Result, ratio: Ratio | None, why: str
    ) -> BetSettled:
        bet = str(key)
        if result is Result.LOSE:
            return BetSettled(seat=seat, bet=bet, stake=stake, returned=0, result="lose", note=why)
        if result is Result.PUSH:
            return BetSettled(
                seat=seat, bet=bet, stake=stake, returned=stake, result="push", note=why
            )
        assert ratio is not None
        win = pay(Cents(stake), ratio, self._t.rounding)
        fee = 0
        if key.kind is Kind.BUY:
            fee = commission(Cents(stake), self._t.buy_bp_of_stake, self._t.rounding)
        elif key.kind is Kind.LAY:
            fee = commission(win, self._t.lay_bp_of_win, self._t.rounding)
        note = f"{why}; pays {ratio}" + (f", commission {format_cents(fee)}" if fee else "")
        return BetSettled(
            seat=seat,
            bet=bet,
            stake=stake,
            returned=stake + win,
            commission=fee,
            result="win",
            note=note,
        )


__all__ = ["CrapsGame", "Phase", "title"]
