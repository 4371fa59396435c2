"""Fixed-limit betting: the chips of a hand and one betting round at a time.

Page 001: every bet and raise is the round's limit; four bets a round (bet, raise,
re-raise, cap; before the flop the big blind is the first); no cap once the hand is
heads-up (two players left in it). In stud the first round is opened by the bring-in,
which the player may complete to the lower limit; on 4th street an open pair lets any
player bet either limit, and once the higher limit is bet all raises are at the higher.

What the page leaves open, the room's ``short_all_in = "full-bet"`` rule (the standard
the peer engine pokerkit also plays): a player all-in for less than a full bet or
raise does not reopen the betting for players who already acted, and the next raise is
a full bet above the all-in; every bet, raise or completion counts toward the cap,
short or full. A player may fold only when facing a bet (checking costs nothing).

>>> t = Chips({0: 1000, 1: 1000, 2: 1000})
>>> r = Street(t, order=(0, 1, 2), increment=200)
>>> [o.name for o in r.options(0)]
['check', 'bet']
>>> r.act(0, "bet", 200), r.act(1, "raise", 400), r.act(2, "call", 400)
(200, 400, 400)
>>> r.to_act, t.bet
(0, {0: 200, 1: 400, 2: 400})
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.core.errors import IllegalAction


class Chips:
    """Every seat's stack, its bet this round, its chips committed this hand, and who folded."""

    def __init__(self, stacks: Mapping[int, int]) -> None:
        self.seats = tuple(sorted(stacks))
        self.stack = dict(stacks)
        self.bet = dict.fromkeys(self.seats, 0)  # this round
        self.total = dict.fromkeys(self.seats, 0)  # this hand (net of uncalled returns)
        self.folded: set[int] = set()
        self._live = list(self.seats)
        self.top = 0  # the largest bet this round

    def fold(self, seat: int) -> None:
        """The seat is out of the hand."""
        self.folded.add(seat)
        self._live.remove(seat)

    def put(self, seat: int, amount: int) -> int:
        """Move ``amount`` (at most the stack) from the seat's stack into its bet."""
        amount = min(amount, self.stack[seat])
        self.stack[seat] -= amount
        self.bet[seat] += amount
        self.total[seat] += amount
        if self.bet[seat] > self.top:
            self.top = self.bet[seat]
        return amount

    def put_dead(self, seat: int, amount: int) -> int:
        """A dead post (a missed small blind): into the pot, not the seat's bet."""
        amount = min(amount, self.stack[seat])
        self.stack[seat] -= amount
        self.total[seat] += amount
        return amount

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), in seat order (do not change it)."""
        return self._live

    def uncalled(self) -> tuple[int, int] | None:
        """(seat, amount) of the part of this round's top bet nobody matched, taken back."""
        ranked = sorted(self.seats, key=lambda s: self.bet[s], reverse=True)
        if len(ranked) < 2 or self.bet[ranked[0]] <= self.bet[ranked[1]]:
            return None
        seat, extra = ranked[0], self.bet[ranked[0]] - self.bet[ranked[1]]
        self.bet[seat] -= extra
        self.top = self.bet[seat]
        self.total[seat] -= extra
        self.stack[seat] += extra
        return seat, extra

    def end_round(self) -> None:
        """The round's bets go into the pot."""
        self.bet = dict.fromkeys(self.seats, 0)
        self.top = 0


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action: ``add`` cents from the stack now, making the seat's bet ``to``."""

    name: str  # fold, check, call, bet, raise, complete, bring-in
    add: int
    to: int


class Street:
    """One betting round of fixed-limit poker over :class:`Chips`.

    ``order``: every seat dealt in, starting with the first to act; ``increment``: the
    round's limit; ``either``: stud's open pair on 4th street (a bet of either limit,
    ``higher``); ``bring_in``: stud's 3rd street opens with a bring-in of that many
    cents, then a completion; ``count``: bets already made (the big blind: 1); ``cap``:
    bets a round (None: no cap).
    """

    def __init__(
        self,
        chips: Chips,
        *,
        order: Iterable[int],
        increment: int,
        cap: int | None = 4,
        count: int = 0,
        either: int = 0,
        bring_in: int = 0,
    ) -> None:
        self.chips = chips
        self.order = tuple(order)
        self.increment = increment
        self.cap = cap
        self.count = count
        self.either = either  # the higher limit a bet may also be (0: no open pair)
        self.bring_in = bring_in  # the bring-in not yet posted (0: none due)
        self.completion = bring_in > 0  # the first full bet completes the bring-in
        self.full = 0  # the largest full bet or raise increment so far
        self.short: list[int] = []  # consecutive short all-in increments
        self.acted: set[int] = set()
        self.aggressor: int | None = None
        self._options: tuple[int, list[Option]] | None = None  # the acting seat's, cached
        totals = sorted(chips.bet[s] + chips.stack[s] for s in chips.live)
        second = totals[-2] if len(totals) > 1 else 0
        self.actors = deque(
            s
            for s in self.order
            if s not in chips.folded and chips.stack[s] and second - chips.bet[s] > 0
        )
        lone = len(self.actors) == 1 and chips.bet[self.actors[0]] >= chips.top
        if lone or len(chips.live) <= 1:
            self.actors.clear()

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None once the round is over."""
        return self.actors[0] if self.actors else None

    @property
    def over(self) -> bool:
        return not self.actors

    def _call_amount(self, seat: int) -> int:
        c = self.chips
        return min(c.stack[seat], c.top - c.bet[seat])

    def _may_raise(self, seat: int) -> bool:
        c = self.chips
        call = self._call_amount(seat)
        if call < self.full or call >= c.stack[seat]:
            return False
        heads_up = len(c.live) == 2
        if self.cap is not None and not heads_up and self.count >= self.cap:
            return False
        if self.short and sum(self.short) < self.full and seat in self.acted:
            return False
        return any(s != seat and c.stack[s] + c.bet[s] > c.top for s in c.live)

    def _raise_tos(self, seat: int) -> list[int]:
        c = self.chips
        steps = [self.increment] if not self.either else [self.increment, self.either]
        base = 0 if self.completion else c.top
        tos = sorted({base + max(self.full, step) for step in steps})
        most = c.stack[seat] + c.bet[seat]
        return sorted({min(most, to) for to in tos})

    def options(self, seat: int) -> list[Option]:
        """Everything ``seat`` may do now, with its amounts (empty when not its turn)."""
        if self.to_act != seat:
            return []
        cached = self._options
        if cached is not None and cached[0] == seat:
            return cached[1]
        out = self._list(seat)
        self._options = (seat, out)
        return out

    def _list(self, seat: int) -> list[Option]:
        c = self.chips
        bet = c.bet[seat]
        if self.bring_in:
            add = min(c.stack[seat], self.bring_in)
            out = [Option("bring-in", add, bet + add)]
        else:
            call = self._call_amount(seat)
            out = [Option("fold", 0, bet), Option("call", call, bet + call)] if call else []
            out = out or [Option("check", 0, bet)]
        if self._may_raise(seat):
            name = "complete" if self.completion else "raise" if c.top else "bet"
            out += [Option(name, to - bet, to) for to in self._raise_tos(seat)]
        return out

    def act(self, seat: int, name: str, to: int | None = None) -> int:
        """Play ``name`` for ``seat`` (``to``: the amount, where several are legal);
        returns the cents it put in. :class:`IllegalAction` (no change) if not legal."""
        legal = [o for o in self.options(seat) if o.name == name and (to is None or o.to == to)]
        if not legal:
            raise IllegalAction(self.refusal(seat, name, to))
        if to is None and len(legal) > 1:
            amounts = ", ".join(str(o.to) for o in legal)
            raise IllegalAction(f"{name}: say the amount ({amounts} cents)")
        option = legal[0]
        self._options = None
        self.actors.popleft()
        self.acted.add(seat)
        if name == "fold":
            self.chips.fold(seat)
        elif name in ("check", "call", "bring-in"):
            self.chips.put(seat, option.add)
            self.bring_in = 0
        else:
            self._raise(seat, option)
        if len(self.chips.live) <= 1:
            self.actors.clear()
        return option.add

    def _raise(self, seat: int, option: Option) -> None:
        c = self.chips
        inc = option.to - c.top
        c.put(seat, option.add)
        self.bring_in = 0
        self.completion = False
        at = self.order.index(seat)
        after = self.order[at + 1 :] + self.order[:at]
        self.actors = deque(s for s in after if s not in c.folded and c.stack[s])
        if inc >= self.full:
            self.acted = {seat}
        self.full = max(self.full, inc)
        if self.either and inc >= self.either:
            self.increment, self.either = self.either, 0  # the higher limit was bet
        self.count += 1
        self.aggressor = seat
        if c.stack[seat]:
            self.short.clear()
        else:
            self.short.append(inc)
        if sum(self.short) >= self.full:
            self.short.clear()

    def refusal(self, seat: int, name: str, to: int | None) -> str:
        """Why ``name`` is not open to ``seat`` now (the words a player reads)."""
        if self.to_act is None:
            return "no betting now"
        if self.to_act != seat:
            return f"it is seat {self.to_act}'s turn, not seat {seat}'s"
        legal = self.options(seat)
        names = ", ".join(f"{o.name} {o.to}" if o.add else o.name for o in legal)
        if any(o.name == name for o in legal):
            return f"{name} to {to} is not a legal amount; legal: {names}"
        return f"{name} is not open to seat {seat} now; legal: {names}"


__all__ = ["Chips", "Option", "Street"]
