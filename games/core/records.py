"""Actions and events as data: frozen dataclasses with a stable ``kind`` and a JSON codec.

Every action a player or the card/dice source takes, and every event an engine
emits, is a :class:`Record`. Records encode to plain JSON-able dicts (cards as
``"Ah"``, tuples as lists, integers only: no floats) so the game log can store
them and replay them through the engine exactly.

>>> from games.core.records import DealCard, decode
>>> from games.core.cards import Card
>>> r = DealCard(card=Card.parse("Ah"))
>>> r.encode()
{'kind': 'deal-card', 'seat': None, 'card': 'Ah'}
>>> decode(r.encode()) == r
True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any, ClassVar, Self, Union, get_args, get_origin

from games.core.cards import Card

JSON = dict[str, Any]

_REGISTRY: dict[str, type[Record]] = {}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Record:
    """Base of actions and events. Subclasses set ``kind`` (unique, kebab-case)."""

    kind: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if kind:
            other = _REGISTRY.get(kind)
            if other is not None and other.__qualname__ != cls.__qualname__:
                raise TypeError(f"record kind {kind!r} used twice ({other} and {cls})")
            _REGISTRY[kind] = cls

    def encode(self) -> JSON:
        out: JSON = {"kind": self.kind}
        for name in _field_names(type(self)):
            out[name] = _encode_value(getattr(self, name))
        return out

    @classmethod
    def decode_fields(cls, data: JSON) -> Self:
        hints = typing.get_type_hints(cls)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names - {"kind"}
        if unknown:
            raise ValueError(f"{cls.kind}: unknown fields {sorted(unknown)}")
        kwargs = {n: _decode_value(hints[n], data[n]) for n in names if n in data}
        return cls(**kwargs)


def decode(data: JSON) -> Record:
    """Rebuild a record from :meth:`Record.encode` output; raise ValueError on bad data."""
    kind = data.get("kind")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown record kind: {kind!r}")
    try:
        return cls.decode_fields(data)
    except (TypeError, KeyError) as exc:
        raise ValueError(f"{kind}: {exc}") from None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A record class's field names in order (looked up once per class, not per encode)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _encode_value(v: Any) -> Any:
    if isinstance(v, Card):
        return str(v)
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, Record):
        return v.encode()
    if isinstance(v, tuple | list):
        return [_encode_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _encode_value(x) for k, x in v.items()}
    if isinstance(v, float):
        raise TypeError("floats are not allowed in records")
    return v


def _decode_value(tp: Any, v: Any) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return v
    if origin in (Union, types.UnionType):
        if v is None and type(None) in get_args(tp):
            return None
        for arg in get_args(tp):
            if arg is type(None):
                continue
            try:
                return _decode_value(arg, v)
            except (TypeError, ValueError):
                continue
        raise ValueError(f"cannot decode {v!r} as {tp}")
    if tp is Card:
        if not isinstance(v, str):
            raise ValueError(f"not a card: {v!r}")
        return Card.parse(v)
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(v, list | tuple):
            raise ValueError(f"expected a list, got {v!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode_value(args[0], x) for x in v)
        return tuple(_decode_value(a, x) for a, x in zip(args, v, strict=True))
    if origin is dict:
        kt, vt = get_args(tp)
        if not isinstance(v, dict):
            raise ValueError(f"expected an object, got {v!r}")
        return {_decode_value(kt, k): _decode_value(vt, x) for k, x in v.items()}
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(v)
    if isinstance(tp, type) and issubclass(tp, Record):
        if not isinstance(v, dict):
            raise ValueError(f"expected a record, got {v!r}")
        return decode(v)
    if tp is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"expected an integer, got {v!r}")
        return v
    if tp is bool or tp is str:
        if not isinstance(v, tp):
            raise ValueError(f"expected {tp.__name__}, got {v!r}")
        return v
    return v


# --- actions common to every engine -----------------------------------------


@dataclasses.dataclass(frozen=True, kw_only=True)
class Action(Record):
    """Something done to a game: by a seat (``seat`` set) or by the source (``seat`` None)."""

    seat: int | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class PlaceBet(Action):
    kind: ClassVar[str] = "place-bet"
    bet: str
    amount: int  # cents


@dataclasses.dataclass(frozen=True, kw_only=True)
class RemoveBet(Action):
    """Take a bet down (or reduce it by ``amount``; 0 means the whole bet)."""

    kind: ClassVar[str] = "remove-bet"
    bet: str
    amount: int = 0


@dataclasses.dataclass(frozen=True, kw_only=True)
class Deal(Action):
    """Bets are in: start the round."""

    kind: ClassVar[str] = "deal"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Decide(Action):
    """A player decision named by the engine (``hit``, ``stand``, ``fold``, ``call``, ...).

    ``arg`` carries the decision's parameter where one exists (a raise multiple, the
    discard positions, a pai gow setting as card strings), encoded as text.
    """

    kind: ClassVar[str] = "decide"
    decision: str
    arg: str = ""
    hand: int = 0


@dataclasses.dataclass(frozen=True, kw_only=True)
class DealCard(Action):
    """The card source delivers the next card (from an rng shoe or a physical shoe)."""

    kind: ClassVar[str] = "deal-card"
    card: Card


@dataclasses.dataclass(frozen=True, kw_only=True)
class RollDice(Action):
    """The dice source delivers one roll."""

    kind: ClassVar[str] = "roll-dice"
    faces: tuple[int, ...]


@dataclasses.dataclass(frozen=True, kw_only=True)
class SpinResult(Action):
    """The wheel delivers one winning number ("0", "00", "1".."36")."""

    kind: ClassVar[str] = "spin-result"
    number: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class StartPosition(Action):
    """The source picks a table position, 1-based (where the land pai gow deal starts).

    Asked for by a ``NeedKind.POSITION`` need; the RNG answers it uniformly over the
    need's ``count`` positions, and the log keeps it so a replay deals the same way.

    >>> decode(StartPosition(position=4).encode())
    StartPosition(seat=None, position=4)
    """

    kind: ClassVar[str] = "start-position"
    position: int


# --- events common to every engine ------------------------------------------


@dataclasses.dataclass(frozen=True, kw_only=True)
class Event(Record):
    """Something that happened, emitted by ``apply``."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class SeatEvent(Event):
    """An event about one seat (its bet, its chips, its hand): ``seat`` names it.

    A base for the shape, not a record itself (it has no ``kind``); its fields come
    first in every subclass's encoding, as they did when each class declared them.
    """

    seat: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class SeatAmount(SeatEvent):
    """``amount`` cents move for ``seat``: the shape of every plain chip movement (a fee
    charged or returned, chips into a pot, an uncalled bet back)."""

    amount: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class BetPlaced(SeatEvent):
    """Money moves from the wallet to the table: the runtime debits on this event."""

    kind: ClassVar[str] = "bet-placed"
    bet: str
    amount: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class BetReturned(SeatEvent):
    """A bet taken down before resolution: the runtime credits ``amount`` back."""

    kind: ClassVar[str] = "bet-returned"
    bet: str
    amount: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class BetSettled(SeatEvent):
    """A bet resolved. The runtime credits ``returned - commission``.

    ``stake`` is the amount that was at risk; ``returned`` is everything paid back
    (stake + win on a win, the stake on a push, 0 on a loss), before commission.
    Net to the player = ``returned - commission - stake``.
    """

    kind: ClassVar[str] = "bet-settled"
    bet: str
    stake: int
    returned: int
    commission: int = 0
    result: str  # "win", "lose", "push"
    note: str = ""  # e.g. "banker 6 vs player 4", "pays 8:1"

    @property
    def net(self) -> int:
        return self.returned - self.commission - self.stake


@dataclasses.dataclass(frozen=True, kw_only=True)
class JackpotContribution(SeatEvent):
    """Part of a settled progressive side bet goes to a meter (``amount`` cents).

    The side bet itself is placed and settled like any bet (its stake goes to the
    house on a loss); the runtime then moves ``amount`` from the house to the meter
    account ``jackpot:<meter>``.
    """

    kind: ClassVar[str] = "jackpot-contribution"
    meter: str
    amount: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class JackpotWin(SeatEvent):
    """A progressive award paid from a meter, not from the house.

    Engines are pure and do not know the meter, so the award is stated as a fixed
    amount (``fixed`` cents) and/or a share of the meter in basis points
    (``share_bp``: 1,000 = 10%, 10,000 = the whole meter). The runtime computes the
    amount from the meter's ledger balance, pays it, refills the meter to its reset
    value from the house, and logs the amount paid.
    """

    kind: ClassVar[str] = "jackpot-win"
    meter: str
    fixed: int = 0
    share_bp: int = 0
    hand: str = ""  # e.g. "royal flush", for the history and the screen


@dataclasses.dataclass(frozen=True, kw_only=True)
class CollectionCharged(SeatAmount):
    """The California collection (page 004, "paying the appropriate collection"): a fee
    the seat pays for the hand when it is dealt, win or lose (:mod:`games.core.collection`).

    The runtime moves ``amount`` from the seat's wallet to the ``collection`` account.

    >>> decode(CollectionCharged(seat=1, amount=200).encode())
    CollectionCharged(seat=1, amount=200)
    """

    kind: ClassVar[str] = "collection-charged"


@dataclasses.dataclass(frozen=True, kw_only=True)
class CardShown(Event):
    """A card became visible to ``to`` ("all" or a seat number as text)."""

    kind: ClassVar[str] = "card-shown"
    card: Card
    hand: str  # "player", "banker", "dealer", "seat1.0", "board", ...
    to: str = "all"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Message(Event):
    """A plain statement of what just happened, for the history and the screen."""

    kind: ClassVar[str] = "message"
    text: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class RoundOver(Event):
    kind: ClassVar[str] = "round-over"
    summary: str = ""
