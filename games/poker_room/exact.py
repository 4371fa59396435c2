"""The house's figures for a poker room: none of the pot, all of the collection.

Players play against each other, so no bet has a house edge: every chip a player loses
another wins. The house's whole take is the collection the table's data names
(:class:`~games.poker_room.rules.Collection`), which is stated here exactly as a rule,
not as an edge per unit wagered (that would depend on how players bet).

>>> from games.poker_room import VARIANTS
>>> collection_edge(VARIANTS[0]).note  # doctest: +ELLIPSIS
'... 10% of each pot in whole chips, at most $4.00 a hand, none when the hand ends before the flop'
"""

from __future__ import annotations

from fractions import Fraction

from games.core.engine import Variant
from games.core.figures import HouseEdge
from games.core.money import format_cents
from games.poker_room.rules import Collection, RoomRules


def describe_collection(c: Collection, stud: bool) -> str:
    """The collection in words."""
    if c.kind == "seat-fee":
        return f"a seat fee of {format_cents(c.amount)} per hand from every player dealt in"
    if c.kind == "rake":
        pct = Fraction(c.percent_bp, 100)
        pct_text = f"{pct.numerator}%" if pct.denominator == 1 else f"{float(pct):g}%"
        text = f"{pct_text} of each pot in whole chips, at most {format_cents(c.cap)} a hand"
        if c.min_pot:
            text += f", from pots of {format_cents(c.min_pot)} or more"
        if c.no_flop_no_drop:
            text += ", none when the hand ends " + (
                "on third street" if stud else "before the flop"
            )
        return text
    return "none"


def collection_edge(variant: Variant[RoomRules]) -> HouseEdge:
    """The figure ``croupier games house-edge`` prints: edge 0 (no pot is the house's),
    with the collection stated in the note."""
    rules = variant.rules
    words = describe_collection(rules.collection, rules.is_stud)
    return HouseEdge(
        edge=Fraction(0),
        exact=True,
        method="not applicable (player against player)",
        note=f"the house wins no pot; its take is the collection: {words}",
    )


__all__ = ["collection_edge", "describe_collection"]
