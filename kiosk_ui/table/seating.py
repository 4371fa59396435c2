"""A table's seats: who sits where, the seat lifecycle, and per-player games.

The :class:`Seating` mixin holds what :class:`kiosk_ui.table.table.Table` knows of
its seats, kept apart from the game it drives (the rules are in
:mod:`kiosk_ui.table.seats`, issue 12 C11):

- a seat is taken by ``sit`` (an explicit sit, or a bet's) within the player's seat
  limits, and freed by ``release`` (leaving, the operator), by ``release_unused`` (a
  refused bet seats nobody), by ``release_all`` (a void) or by ``tend`` (its game ended
  after its player left, or it idled with nothing on the layout); a seat whose stakes
  are on the open game's layout is never freed mid-game, it sits out until that game ends;
- ``due`` gives the defaults whose action clock has run out, ``withdrawals`` the bets
  to take down when a timeout's deal is refused;
- at a per-player table, ``instance`` gives each player a game of their own (a
  ``Table`` with ``owner``/``parent`` set), ``drop``/``drop_idle`` forget it;
- the log names every money event's wallet: the ``game-start`` seats, then a
  ``seat-player`` record (``_log_seat``), read back by :func:`logged_seats`;
- a backline bet (where a rules page lets several players bet on the same hand) is held
  like a seat, at a *backline position*: a seat number past the table's seats
  that the engine names (:mod:`games.core.backline`). ``behind`` finds a player's position
  behind an occupied seat, ``sit_behind`` takes it; positions count against no seat limit,
  have no action clock and are freed as soon as nothing of theirs is on the layout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from games.core.backline import backline_positions
from games.core.engine import Engine, Variant
from games.core.errors import GameError
from games.core.records import Action, Deal, Event, RemoveBet, decode
from kiosk_ui.errors import SeatError
from kiosk_ui.store.protocol import Tx
from kiosk_ui.table.money import Outstanding
from kiosk_ui.table.seats import SeatRules, default_action

if TYPE_CHECKING:
    from games.catalog import Family
    from kiosk_ui.table.outcomes import OutcomeSource
    from kiosk_ui.table.runtime import Runtime
    from kiosk_ui.table.table import Table

SEAT_PLAYER = "seat-player"  # log record: who holds a seat from now on in this game


class Seating:
    """Seat state and lifecycle of a :class:`~kiosk_ui.table.table.Table` (its only user)."""

    # Set by Table.__init__; declared here for the methods below.
    rt: Runtime
    id: str
    variant: Variant[Any]
    family: Family
    source: OutcomeSource
    engine: Engine | None
    game: str | None
    lock: threading.RLock
    _suspended: str | None
    suspended: str | None  # Table's property: a store fault, or its own suspension
    if TYPE_CHECKING:

        def current_engine(self) -> Engine: ...  # Table's: the game the next action goes to

    def __init__(self) -> None:
        self.seats: dict[int, str] = {}
        self._logged_seats: dict[int, str] = {}  # who the log says holds each seat this game
        # Per-player tables (kiosk_ui.table.seats): this one only holds each player's own
        # game, made on first use; ``owner``/``parent`` are set on those games.
        self.per_player = False
        self.games_of: dict[str, Table] = {}
        self.owner: str | None = None
        self.parent: Table | None = None
        # Seat lifecycle of a shared table.
        self.sitting_out: set[int] = set()  # defaulted by the clock until their player acts
        self._leaving: set[int] = set()  # freed when the game holding their stakes ends
        self._active: dict[int, float] = {}  # seat -> when its player last sat or acted
        self._moves: dict[int, int] = {}  # seat -> its actions applied (the clock's key)
        self._moves_total = 0
        self._clock: dict[int, tuple[tuple[Any, ...], float]] = {}  # seat -> (key, since)

    # --- seats ---------------------------------------------------------------

    def sit(self, seat: int, player: str) -> None:
        """Seat ``player`` (an explicit sit, or a bet's): refused if taken or past the
        player's seat limits (one table, the whole floor)."""
        if not 0 <= seat < max(self.variant.seats, 1):
            raise SeatError(
                f"table {self.id} has seats 0..{max(self.variant.seats, 1) - 1}, not {seat}"
            )
        rules = self.rt.seat_rules
        with self.lock, self.rt.seat_lock:
            holder = self.seats.get(seat)
            if holder == player:
                self._returns(seat)
                return
            if holder is not None:
                raise SeatError(f"seat {seat} at table {self.id} is taken")
            if self.owner is None:
                here = self.held_by(player)
                if here >= rules.per_table:
                    raise SeatError(
                        f"you hold {here} seat(s) at table {self.id}: "
                        f"the limit is {rules.per_table} per table"
                    )
                held = self.rt.seats_held(player)
                if held >= rules.floor:
                    raise SeatError(
                        f"you hold {held} seat(s) on the floor: the limit is {rules.floor}; "
                        "leave a seat first"
                    )
            self.seats[seat] = player
            self._returns(seat)

    def held_by(self, player: str) -> int:
        """Seats ``player`` holds here (backline positions are no seat: they count for no
        seat limit)."""
        held = list(self.seats.items())
        return sum(1 for s, p in held if p == player and not self.is_backline(s))

    def is_backline(self, seat: int) -> bool:
        """Whether ``seat`` is a backline position (a number past the table's seats)."""
        return seat >= max(self.variant.seats, 1)

    def behind(self, seat: int, player: str, bet: str, *, placing: bool) -> int:
        """The backline position ``player`` bets ``bet`` from behind ``seat``'s hand: the one
        they hold there, else (``placing``) the first free one. Refused when the game takes
        no backline bet on ``bet`` (in its rules' words), when nobody else sits in ``seat``,
        or when every position behind it is taken."""
        if self.owner is not None or self.per_player:
            raise SeatError("a game of your own has no seated hand to bet behind")
        with self.lock:
            positions = backline_positions(self.current_engine(), seat, bet)
            mine = [p for p in positions if self.seats.get(p) == player]
            if mine:
                return mine[0]
            if not placing:
                raise SeatError(f"you have no backline bet behind seat {seat} at table {self.id}")
            holder = self.seats.get(seat)
            if holder is None:
                raise SeatError(f"nobody sits in seat {seat} at table {self.id} to bet behind")
            if holder == player:
                raise SeatError(f"seat {seat} is yours: bet on your own hand")
            free = [p for p in positions if p not in self.seats]
            if not free:
                raise SeatError(f"every backline position behind seat {seat} is taken")
            return free[0]

    def sit_behind(self, position: int, player: str) -> None:
        """Take a backline position (its bet's request): no seat limit applies to it."""
        with self.lock:
            holder = self.seats.get(position)
            if holder is not None and holder != player:
                raise SeatError(f"backline position {position} at table {self.id} is taken")
            self.seats[position] = player
            self._returns(position)

    def _returns(self, seat: int) -> None:
        """The seat's player is here: restart its idle time, it no longer sits out."""
        self._active[seat] = time.monotonic()
        self.sitting_out.discard(seat)

    def release(self, seat: int, player: str | None = None) -> str:
        """Free ``seat`` (``player``: only if it is theirs). Returns "now", or "after the
        game" when its stakes are on the open game's layout (it sits out until then)."""
        with self.lock:
            holder = self.seats.get(seat)
            if holder is None:
                raise SeatError(f"seat {seat} at table {self.id} is free")
            if player is not None and holder != player:
                raise SeatError(f"seat {seat} at table {self.id} is not yours")
            if self.in_game(seat):
                self._leaving.add(seat)
                self.sitting_out.add(seat)
                return "after the game"
            self._free(seat)
            return "now"

    def release_unused(self, seat: int, player: str) -> None:
        """Undo a sit made for a request that failed: a refused bet seats nobody."""
        with self.lock:
            if self.seats.get(seat) == player and not self.in_game(seat):
                self._free(seat)

    def release_all(self) -> None:
        """Free every seat (the table's game was voided: nothing of it is on the layout)."""
        with self.lock:
            for seat in list(self.seats):
                if self.owner is None:
                    self._free(seat)

    def in_game(self, seat: int) -> bool:
        """Whether ``seat`` has stakes on the layout of the open game."""
        with self.lock:
            if self.game is None or self.engine is None or self.engine.is_over:
                return False
            with self.rt.db.read() as tx:
                staked = tx.seats.staked(self.game, seat)
            return staked is not None and staked > 0

    def _free(self, seat: int) -> None:
        self.seats.pop(seat, None)
        for held in (self.sitting_out, self._leaving):
            held.discard(seat)
        self._active.pop(seat, None)
        self._clock.pop(seat, None)

    def _acted(self, seat: int, *, by: str | None) -> None:
        """Book an action applied for ``seat``: its player's own (back from sitting
        out) or ``by`` another source (the clock: it sits out); a seat left during the
        game that just ended is freed now."""
        self._moves[seat] = self._moves.get(seat, 0) + 1
        self._moves_total += 1
        if by is None:
            self._returns(seat)
        else:
            self.sitting_out.add(seat)
        if self._leaving and self.engine is not None and self.engine.is_over:
            self.tend(time.monotonic(), self.rt.seat_rules)

    def _free_unstaked(self) -> None:
        """Free the seats of a shared table with nothing on the open game's layout."""
        if self.owner is None:
            for seat in sorted(self.seats):
                if not self.in_game(seat):
                    self._free(seat)

    def tend(self, now: float, rules: SeatRules) -> list[int]:
        """Free the seats whose game ended after they left, and idle seats with nothing
        on the layout. Returns the seats freed."""
        freed: list[int] = []
        with self.lock:
            if self.owner is not None:
                return freed
            for seat in sorted(self.seats):
                since = now - self._active.setdefault(seat, now)
                # a backline position is held for its bet: freed once nothing is on the
                # layout (after an action clock's grace, so a bet on its way keeps it)
                backline = self.is_backline(seat) and since >= rules.action_seconds
                leaving = seat in self._leaving or backline
                idle = since >= rules.idle_seconds
                if (leaving or idle) and not self.in_game(seat):
                    self._free(seat)
                    freed.append(seat)
        return freed

    def due(self, now: float, rules: SeatRules) -> list[Action]:
        """The defaults whose action clock has run out: each decision the open game waits
        on gets ``rules.action_seconds`` from when its seat was first asked (none for a
        seat sitting out)."""
        with self.lock:
            engine, game = self.engine, self.game
            if self.suspended or engine is None or game is None or engine.is_over:
                self._clock.clear()
                return []
            out: list[Action] = []
            for seat in sorted(self.seats):
                if self.is_backline(seat):
                    continue  # the seated player decides: no clock behind the seat
                action = default_action(engine, seat, deals=self.in_game(seat))
                if action is None or (out and action.kind == "deal"):
                    self._clock.pop(seat, None)
                    continue
                dealing = self._moves_total if action.kind == "deal" else -1
                key = (game, self._moves.get(seat, 0), dealing, action.encode())
                since = self._clock.get(seat)
                if since is None or since[0] != key:
                    since = self._clock[seat] = (key, now)
                limit = 0.0 if seat in self.sitting_out else rules.action_seconds
                if now - since[1] >= limit:
                    out.append(action)
            return out

    def withdrawals(self) -> list[Action]:
        """When a timeout's deal is refused (bets that cannot be dealt as they stand, e.g.
        an ante without its blind): take down the bets of each seat whose own bets could
        not be dealt alone, so the others' round can be (the dealer's "no more bets")."""
        with self.lock:
            engine, game = self.engine, self.game
            if engine is None or game is None or engine.is_over:
                return []
            outstanding = Outstanding()
            for rec in self.rt._game_records(game):
                if rec["type"] == "event":
                    ev = decode(rec["body"])
                    if isinstance(ev, Event):
                        outstanding.apply(ev)
            bets: dict[int, list[str]] = {}
            for (seat, bet), amount in sorted(outstanding.stakes.items()):
                if amount > 0 and not self.is_backline(seat):  # a backline bet follows its seat
                    bets.setdefault(seat, []).append(bet)
            out: list[Action] = []
            for seat, mine in bets.items():
                replayed = self.rt.replay(game)  # the same game, to try the deal on
                if replayed is None or not replayed.matches:
                    return []
                alone = replayed.engine
                try:
                    for other, theirs in bets.items():
                        for bet in theirs if other != seat else ():
                            alone.apply(RemoveBet(seat=other, bet=bet))
                    alone.verify(Deal(seat=seat))
                except GameError:
                    out += [RemoveBet(seat=seat, bet=bet) for bet in reversed(mine)]
            return out

    # --- per-player games ----------------------------------------------------

    def instance(self, player: str) -> Table:
        """``player``'s own game at a per-player table (made on first use)."""
        with self.lock:
            mine = self.games_of.get(player)
            if mine is None:
                from kiosk_ui.table.table import Table  # table.py imports this module

                mine = Table(self.rt, self.id, self.variant, self.family, self.source)
                mine.parent, mine.owner = cast("Table", self), player  # only Table is Seating
                mine.seats[0] = player
                mine._suspended = self._suspended  # the table's own, not a store fault
                self.games_of[player] = mine
            mine._active[0] = time.monotonic()  # in use: not idle (drop_idle)
            return mine

    def drop(self, player: str) -> bool:
        """Forget ``player``'s own game if nothing of it is open (leave, void, idle)."""
        with self.lock:
            mine = self.games_of.get(player)
            if mine is None:
                return True
            with mine.lock:
                if mine.game is not None and mine.engine is not None and not mine.engine.is_over:
                    return False
                del self.games_of[player]
                return True

    def drop_idle(self, now: float, rules: SeatRules) -> None:
        """Forget the per-player games idle for ``rules.idle_seconds`` with nothing open."""
        with self.lock:
            idle = [
                p
                for p, t in self.games_of.items()
                if now - t._active.get(0, now) >= rules.idle_seconds
            ]
        for player in idle:
            self.drop(player)

    def idle(self) -> bool:
        """Nobody plays here now: no seat held, no game open, and at a per-player table
        no player's own game kept. Only such a table may move to another server (a seated
        player would lose the seat, a poker room's player the stack's place)."""
        with self.lock:
            if any(self.seats.values()) or self.games_of:
                return False
            return self.game is None or self.engine is None or self.engine.is_over

    def player_at(self, seat: int) -> str:
        """Who sits in ``seat`` (a SeatError if nobody)."""
        player = self.seats.get(seat)
        if player is None:
            raise SeatError(f"no player in seat {seat} at table {self.id}")
        return player

    # --- who the log says holds each seat -------------------------------------

    def _log_seat(self, conn: Tx, seat: int) -> None:
        """Log who holds ``seat`` now (a player who sat after the game-start record):
        every money event's wallet is named by the log (``game-start`` seats, then
        these records), so the audit can derive it from the log alone."""
        assert self.game is not None
        player = self.player_at(seat)
        body = {"table": self.id, "seat": seat, "player": player}
        self.rt.log.append(conn, "runtime", SEAT_PLAYER, body, self.game)
        self._logged_seats[seat] = player


def logged_seats(records: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Who the log says holds each seat of a game: its ``game-start`` seats, then each
    ``seat-player`` record."""
    seats: dict[int, str] = {}
    for rec in records:
        if rec["type"] == "game-start":
            seats = {int(k): str(v) for k, v in rec["body"].get("seats", {}).items()}
        elif rec["type"] == SEAT_PLAYER:
            seats[int(rec["body"]["seat"])] = str(rec["body"]["player"])
    return seats
