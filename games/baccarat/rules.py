"""Baccarat's rules: a table's typed rules (from its pay table), and the fixed rules of play.

:class:`BaccaratRules` is what a pay table (``paytables/*.toml``, read by
:mod:`games.baccarat.paytable`) sets for one table. The rest has no choice in it:
card points, hand scores, the third-card tableau, the outcome.
Baccarat's hands are played out by rule. The
player's hand draws on 0-5 and stands on 6-7; the banker's hand follows the
standard tableau (rules README gap 1, the chart page 000 lost). Naturals (8 or 9
on either two-card hand) stop all drawing.

The page's own score examples (000, "Third Card Rules"):

>>> from games.core.cards import parse_cards
>>> score(parse_cards("8c 4d"))
2
>>> score(parse_cards("Kh 3s"))
3
>>> score(parse_cards("7c 8d"))
5
>>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(6, None)
(False, True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from games.core.cards import Card, Rank
from games.core.money import Ratio, Rounding

MAIN_BETS = ("player", "banker", "tie")
SIDE_BETS = ("dragon7", "panda8")
BANK_BET = "bank"
KNOWN_BETS = (*MAIN_BETS, *SIDE_BETS, BANK_BET)


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratRules:
    """One baccarat table's rules, as loaded from its pay table."""

    decks: int
    new_shoe_each_game: bool
    banker_commission_bp: int
    commission_rounding: Rounding
    banker_three_card_seven_pushes: bool
    player_banked: bool
    bank_rotation_hands: int
    positions: int
    pays: Mapping[str, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    declared_rtp_bp: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def bets(self) -> tuple[str, ...]:
        return tuple(b for b in KNOWN_BETS if b in self.pays)


def _rank_point(rank: Rank) -> int:
    if rank is Rank.ACE:
        return 1
    return 0 if rank >= Rank.TEN else int(rank)


#: baccarat value by rank number (a table: scores are taken many times a round)
_POINTS: tuple[int, ...] = (0, 0, *(_rank_point(Rank(r)) for r in range(2, 15)))


def point(card: Card) -> int:
    """A card's baccarat value: ace 1, 2-9 face value, tens and faces 0.

    >>> point(Card.parse("Ah")), point(Card.parse("9c")), point(Card.parse("Kd"))
    (1, 9, 0)
    """
    if card.rank is Rank.JOKER:
        raise ValueError("there is no joker in baccarat")
    return _POINTS[card.rank]


def score(cards: Sequence[Card]) -> int:
    """The hand score: the rightmost digit of the total of the card points."""
    return sum(map(point, cards)) % 10


def is_natural(two_card_score: int) -> bool:
    return two_card_score >= 8


def player_draws(player_score: int) -> bool:
    """The player's hand draws a third card on 0-5 (when neither hand is a natural)."""
    return player_score <= 5


#: The banker's hand draws when the player drew a third card worth ``p`` (0-9), by
#: banker score 0-7 (gap 1): 0-2 always; 3 unless 8; 4 on 2-7; 5 on 4-7; 6 on 6-7; 7 never.
BANKER_DRAWS_AFTER_PLAYER_THIRD: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def banker_draws(banker_score: int, player_third: int | None) -> bool:
    """Whether the banker's hand draws (neither hand a natural).

    ``player_third`` is the point value of the player's third card, or None if the
    player stood; a player who stood leaves the banker to draw on 0-5.
    """
    if not 0 <= banker_score <= 7:
        return False
    if player_third is None:
        return banker_score <= 5
    return player_third in BANKER_DRAWS_AFTER_PLAYER_THIRD[banker_score]


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """The finished coup: both hands, their scores, and who won."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    @property
    def player_score(self) -> int:
        return score(self.player)

    @property
    def banker_score(self) -> int:
        return score(self.banker)

    @property
    def winner(self) -> Winner:
        p, b = self.player_score, self.banker_score
        if p > b:
            return Winner.PLAYER
        if b > p:
            return Winner.BANKER
        return Winner.TIE

    @property
    def dragon_seven(self) -> bool:
        """The banker wins with a three-card 7 (EZ: banker pushes, Dragon 7 pays)."""
        return self.winner is Winner.BANKER and len(self.banker) == 3 and self.banker_score == 7

    @property
    def panda_eight(self) -> bool:
        """The player wins with a three-card 8 (Panda 8 pays)."""
        return self.winner is Winner.PLAYER and len(self.player) == 3 and self.player_score == 8

    def describe(self) -> str:
        p = " ".join(map(str, self.player))
        b = " ".join(map(str, self.banker))
        return f"player {self.player_score} ({p}) vs banker {self.banker_score} ({b}): " + (
            "tie" if self.winner is Winner.TIE else f"{self.winner} wins"
        )


def next_target(player: Sequence[Card], banker: Sequence[Card]) -> str | None:
    """Which hand receives the next card, or None when the coup is complete.

    Dealing order: player, banker, player, banker; then the player's third card
    if the player draws; then the banker's third card if the banker draws.
    """
    np_, nb = len(player), len(banker)
    if np_ + nb < 4:
        return "player" if np_ == nb else "banker"
    p2, b2 = score(player[:2]), score(banker[:2])
    if is_natural(p2) or is_natural(b2):
        return None
    if np_ == 2 and nb == 2 and player_draws(p2):
        return "player"
    if nb == 2:
        third = point(player[2]) if np_ == 3 else None
        if banker_draws(b2, third):
            return "banker"
    return None


def play_out(cards: Sequence[Card]) -> tuple[Outcome, int]:
    """Play a coup from cards in dealing order; return the outcome and cards used.

    >>> from games.core.cards import parse_cards
    >>> outcome, used = play_out(parse_cards("2c 3d 3h 4s 9c Kd"))
    >>> outcome.player_score, outcome.banker_score, used
    (4, 7, 5)
    """
    player: list[Card] = []
    banker: list[Card] = []
    it = iter(cards)
    while (target := next_target(player, banker)) is not None:
        try:
            card = next(it)
        except StopIteration:
            raise ValueError("not enough cards to finish the coup") from None
        (player if target == "player" else banker).append(card)
    return Outcome(player=tuple(player), banker=tuple(banker)), len(player) + len(banker)
