"""Pieces every game shares: money, cards, records (actions and events), the engine interface."""

from games.core.cards import JOKER, Card, Rank, Suit, deck, parse_cards
from games.core.engine import BetLimit, Engine, Need, NeedKind, Variant
from games.core.errors import (
    BetRefused,
    FoulHand,
    GameError,
    IllegalAction,
    PaytableError,
    UnknownGame,
)
from games.core.money import Cents, Ratio, Rounding, commission, format_cents, pay, split
from games.core.records import (
    Action,
    BetPlaced,
    BetReturned,
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    JackpotContribution,
    JackpotWin,
    Message,
    PlaceBet,
    Record,
    RemoveBet,
    RollDice,
    RoundOver,
    SpinResult,
    decode,
)

__all__ = [
    "JOKER",
    "Action",
    "BetLimit",
    "BetPlaced",
    "BetRefused",
    "BetReturned",
    "BetSettled",
    "Card",
    "CardShown",
    "Cents",
    "Deal",
    "DealCard",
    "Decide",
    "Engine",
    "Event",
    "FoulHand",
    "GameError",
    "IllegalAction",
    "JackpotContribution",
    "JackpotWin",
    "Message",
    "Need",
    "NeedKind",
    "PaytableError",
    "PlaceBet",
    "Rank",
    "Ratio",
    "Record",
    "RemoveBet",
    "RollDice",
    "RoundOver",
    "Rounding",
    "SpinResult",
    "Suit",
    "UnknownGame",
    "Variant",
    "commission",
    "deck",
    "decode",
    "format_cents",
    "parse_cards",
    "pay",
    "split",
]

# Shared bet bookkeeping (games/core/betting.py), appended so existing imports stay put.
from games.core.betting import BetBook, VerifyCan, Wording, seat_of

__all__ += ["BetBook", "VerifyCan", "Wording", "seat_of"]
