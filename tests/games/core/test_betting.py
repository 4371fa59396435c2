"""BetBook, seat_of and Round.can: the bet bookkeeping the table families share."""

from __future__ import annotations

import pytest

from games.core.betting import BetBook, Wording, seat_of
from games.core.engine import BetLimit, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.records import BetPlaced, BetReturned, Deal, Event, PlaceBet
from games.core.round import Phase, Round

LIMITS = {
    "main": BetLimit(minimum=500, maximum=10_000, increment=100),
    "red": BetLimit(minimum=100, maximum=50_000, increment=100),
}


def limit_book() -> BetBook:
    return BetBook(LIMITS)


def spot_book() -> BetBook:
    return BetBook(LIMITS, Wording.SPOT)


def test_place_adds_to_the_stake_and_returns_the_event() -> None:
    book = limit_book()
    assert book.place(1, "main", 500) == BetPlaced(seat=1, bet="main", amount=500)
    assert book.place(1, "main", 300) == BetPlaced(seat=1, bet="main", amount=300)
    assert book.stake(1, "main") == 800
    assert book.of(1) == {"main": 800}
    assert book.of(0) == {}
    assert (1, "main") in book and (0, "main") not in book
    assert book.total() == 800 and book.has(1) and not book.has(0)


def test_items_keep_the_order_first_placed_across_seats() -> None:
    book = spot_book()
    book.place(1, "red", 100)
    book.place(0, "main", 500)
    book.place(1, "main", 500)
    book.place(1, "red", 100)  # adding to a bet keeps its place
    assert list(book.items()) == [(1, "red", 200), (0, "main", 500), (1, "main", 500)]
    assert book.of(1) == {"red": 200, "main": 500}
    assert list(book.of(1)) == ["red", "main"]
    assert book.by_seat(3) == {0: {"main": 500}, 1: {"red": 200, "main": 500}, 2: {}}


def test_of_is_a_copy() -> None:
    book = limit_book()
    book.place(0, "main", 500)
    book.of(0)["main"] = 1
    assert book.stake(0, "main") == 500


def test_remove_part_or_all() -> None:
    book = limit_book()
    book.place(0, "main", 1000)
    assert book.remove(0, "main", 300) == BetReturned(seat=0, bet="main", amount=300)
    assert book.stake(0, "main") == 700
    assert book.remove(0, "main", 0) == BetReturned(seat=0, bet="main", amount=700)
    assert (0, "main") not in book and not book


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "a bet must be a positive amount"),
        (-100, "a bet must be a positive amount"),
        (400, r"main bet of \$4\.00 refused: the minimum bet is \$5\.00"),
        (10_100, r"main bet of \$101\.00 refused: the maximum bet is \$100\.00"),
        (550, r"main bet of \$5\.50 refused: bets go in steps of \$1\.00"),
    ],
)
def test_limit_wording_place_refusals(amount: int, message: str) -> None:
    book = limit_book()
    with pytest.raises(BetRefused, match=message):
        book.place(0, "main", amount)
    assert not book


def test_limit_wording_checks_the_total() -> None:
    book = limit_book()
    book.place(0, "main", 9_500)
    with pytest.raises(BetRefused, match=r"bet of \$100\.50 refused"):
        book.check_place(0, "main", 550)
    book.check_place(0, "main", 500)  # exactly the maximum


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (100, "seat 0 has no 'red' bet to remove"),
        (-1, r"cannot remove -\$0\.01 from a bet of \$10\.00"),
        (1100, r"cannot remove \$11\.00 from a bet of \$10\.00"),
        (600, r"main bet would be left at \$4\.00: the minimum bet is \$5\.00"),
        (50, r"main bet would be left at \$9\.50: bets go in steps of \$1\.00"),
    ],
)
def test_limit_wording_remove_refusals(amount: int, message: str) -> None:
    book = limit_book()
    book.place(0, "main", 1000)
    bet = "red" if "red" in message else "main"
    with pytest.raises(BetRefused, match=message):
        book.remove(0, bet, amount)
    assert book.of(0) == {"main": 1000}


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "a bet must be a positive whole number of cents"),
        (True, "a bet must be a positive whole number of cents"),
        (150, r"red bet of \$1\.50 refused: bets go in steps of \$1\.00"),
        (50_100, r"red bet of \$501\.00 refused: the maximum bet is \$500\.00"),
    ],
)
def test_spot_wording_place_refusals(amount: int, message: str) -> None:
    book = spot_book()
    with pytest.raises(BetRefused, match=message):
        book.place(0, "red", amount)
    assert not book


def test_spot_wording_minimum_is_on_the_total() -> None:
    book = spot_book()
    with pytest.raises(
        BetRefused, match=r"main bet of \$4\.00 refused: the minimum bet is \$5\.00"
    ):
        book.place(0, "main", 400)
    book.place(0, "main", 500)
    book.place(0, "main", 100)  # below the minimum alone, fine on top of a bet
    assert book.stake(0, "main") == 600


@pytest.mark.parametrize(
    ("bet", "amount", "message"),
    [
        ("red", 0, "no red bet to remove"),
        ("main", -5, "the amount to remove must be 0"),
        ("main", 2000, r"cannot remove \$20\.00 from \$10\.00"),
        ("main", 600, r"main may be reduced in steps of \$1\.00 down to the \$5\.00 minimum"),
        ("main", 150, "main may be reduced in steps"),
    ],
)
def test_spot_wording_remove_refusals(bet: str, amount: int, message: str) -> None:
    book = spot_book()
    book.place(0, "main", 1000)
    with pytest.raises(BetRefused, match=message):
        book.remove(0, bet, amount)
    assert book.of(0) == {"main": 1000}


def test_add_by_rule_skips_the_limits() -> None:
    book = limit_book()
    book.place(0, "main", 500)
    assert book.add_by_rule(0, "raise", 500) == BetPlaced(seat=0, bet="raise", amount=500)
    assert book.of(0) == {"main": 500, "raise": 500}


def test_clear() -> None:
    book = limit_book()
    book.place(0, "main", 500)
    book.clear()
    assert not book and book.total() == 0


def test_seat_of() -> None:
    assert seat_of(Deal(seat=0), 1) == 0
    for bad in (None, -1, 3):
        with pytest.raises(IllegalAction, match=rf"no seat {bad!r} at this table \(3 seats\)"):
            seat_of(Deal(seat=bad), 3)


class _OnlyDeals(Round[None]):
    """A round that takes only Deal (``can`` is Round's: ``verify`` not raising IllegalAction)."""

    def needs(self) -> None:
        return None

    def legal_actions(self, seat: int) -> frozenset[str]:
        return frozenset({"deal"})

    def view(self, seat: int | None) -> dict[str, str]:
        return {}

    def verify_deal(self, action: Deal) -> None:
        pass

    def apply_deal(self, action: Deal) -> list[Event]:
        return []


def _only_deals(cls: type[_OnlyDeals] = _OnlyDeals) -> _OnlyDeals:
    variant = Variant(id="t", family="t", title="t", source="", limits=LIMITS, rules=None)
    return cls(variant, 1, phase=Phase.BETTING)


def test_verify_can() -> None:
    table = _only_deals()
    assert table.can(Deal(seat=0))
    assert not table.can(PlaceBet(seat=0, bet="main", amount=500))


def test_verify_can_lets_other_errors_through() -> None:
    class Broken(_OnlyDeals):
        def verify_deal(self, action: Deal) -> None:
            raise RuntimeError("bug")

    with pytest.raises(RuntimeError):
        _only_deals(Broken).can(Deal(seat=0))


def test_betting_actions() -> None:
    book = limit_book()
    assert book.betting_actions(0, "deal") == {"place-bet"}
    book.place(1, "main", 500)
    assert book.betting_actions(0, "deal") == {"place-bet", "deal"}
    assert book.betting_actions(1, "spin") == {"place-bet", "remove-bet", "spin"}
