"""What a player leaves at a seat goes with them, family by family: Ann sets something at
a seat that is hers and no stake (a craps come-out option, her place in the pai gow bank
rotation, baccarat's Player as Dealer), leaves, and Bo sits down there, in the same open
game or in the next one that another seat opens while the chair is empty: Bo inherits
none of it (Table._free: StandingOrders.withdraw_orders, logged; the next game's
``new_players`` names the seat Ann left). A stake Ann left on the layout (a craps pass
line after the point) stays hers: the seat is hers until it settles, to her wallet. Every
store passes the audit derived from the log, and the log verifies.

Caribbean Stud's queued jackpot chips and always-contribute button in an open game:
test_new_players.py. Roulette, sic bo, blackjack, war, three card, let it ride, UTH and
the banked pai gow tables hold nothing of a player's at a seat but stakes: the last test
checks those settle to the player who left.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.records import Deal, Decide, PlaceBet
from games.craps.bets import WORKING_DEFAULTS
from games.craps.engine import CrapsGame
from games.pai_gow.engine import PaiGowRound
from kiosk_ui.errors import SeatError
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.table import Table

from .conftest import seeded_outcomes
from .test_carry import play, start_body
from .test_floor import verify_floor

CASH = 500_000
DEFAULTS = {k.value: v for k, v in WORKING_DEFAULTS.items()}


def table_of(tmp_path: Path, variant: str, seed: int = 7) -> tuple[Runtime, Table]:
    """A table of ``variant`` on a new store; Ann, Bo, Cy and Dee funded ($5,000 each)."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    for name in ("Ann", "Bo", "Cy", "Dee"):
        rt.create_player(name, name.lower())
        rt.cash_in(name.lower(), CASH, operator="cage")
    return rt, rt.open_table("t", variant, seeded_outcomes(seed))


def closed_and_verified(rt: Runtime, tmp_path: Path) -> None:
    """The audit (live and derived from the log alone) and log verify pass."""
    rt.audit()
    rt.close()
    verify_floor(tmp_path / "store")


def replays(rt: Runtime, game: str) -> None:
    rep = rt.replay(game)
    assert rep is not None and rep.matches, rep and rep.mismatch


def actions_of(rt: Runtime, game: str, source: str) -> list[dict[str, object]]:
    return [
        r["body"] for r in rt._game_records(game) if r["type"] == "action" and r["source"] == source
    ]


# --- craps: the come-out options ---------------------------------------------------


def roll_until(table: Table, seat: int, done: object) -> None:
    """``seat`` presses Roll until ``done(engine)`` (the seeded dice decide how long)."""
    for _ in range(200):
        engine = table.engine  # the game just over stays until the next one is asked for
        if engine is not None and done(engine):  # type: ignore[operator]
            return
        table.act(Decide(seat=seat, decision="roll"))
    raise AssertionError("the dice never got there")


def test_craps_options_set_in_an_open_game_leave_with_their_player(tmp_path: Path) -> None:
    """A shared craps table (one seat: a dice device's; an RNG one is per-player) where
    Ann sets her come-out options, which opens the game, and leaves with no bet down: Bo,
    sitting down in that game, has the page's defaults, and so does his next game."""
    rt, table = table_of(tmp_path, "craps-pinnacle")
    table.sit(0, "ann")
    table.act(Decide(seat=0, decision="come-out-on", arg="hard"))
    table.act(Decide(seat=0, decision="come-out-off", arg="big"))
    game = table.game
    assert game is not None and table.view(0)["state"]["working"] != DEFAULTS
    assert rt.leave("t", 0, "ann") == "now"  # an option is no stake: she goes at once
    assert rt.balance("ann") == CASH

    table.sit(0, "bo")
    assert table.game == game and table.view(0)["state"]["working"] == DEFAULTS
    runtime = actions_of(rt, game, "runtime")  # taken back by logged actions
    assert [(a["decision"], a["arg"]) for a in runtime] == [
        ("come-out-off", "hard"),
        ("come-out-on", "big"),
    ]
    table.act(PlaceBet(seat=0, bet="pass", amount=500))
    roll_until(table, 0, lambda engine: engine.is_over)  # Bo's game plays out
    assert table.current_engine().view(0)["working"] == DEFAULTS  # nor carried to the next
    assert rt.balance("ann") == CASH
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


def test_a_craps_pass_line_left_after_the_point_settles_to_its_player(tmp_path: Path) -> None:
    """Ann leaves with her pass line bet working on a point: the seat is hers until it
    settles (Bo cannot take it; no decision is passive, so nobody rolls for her), she
    comes back and rolls it out, it settles to her wallet, the seat is freed then, as she
    asked, and Bo sits there with nothing of hers (nor her options)."""
    rt, table = table_of(tmp_path, "craps-pinnacle", seed=11)
    table.sit(0, "ann")
    table.act(Decide(seat=0, decision="come-out-on", arg="hard"))
    for _ in range(20):  # a line bet until the table point is set with it on
        table.act(PlaceBet(seat=0, bet="pass", amount=500))
        roll_until(table, 0, lambda engine: engine.is_over or engine.table_point is not None)
        if table.engine is not None and not table.engine.is_over:
            break
    game = table.game
    engine = table.engine
    assert game is not None and isinstance(engine, CrapsGame) and engine.table_point is not None
    before = rt.balance("ann")
    assert rt.leave("t", 0, "ann") == "after the game"
    with pytest.raises(SeatError, match="taken"):
        table.sit(0, "bo")
    table.sit(0, "ann")  # back to roll
    roll_until(table, 0, lambda engine: engine.is_over)
    settled = sum(
        r["body"]["returned"] - r["body"]["commission"]
        for r in rt._game_records(game)
        if r["type"] == "event" and r["body"]["kind"] == "bet-settled"
    )
    assert rt.balance("ann") == before + settled  # her bet settled to her own wallet
    assert 0 not in table.seats  # freed when it settled
    table.sit(0, "bo")
    assert table.current_engine().view(0)["working"] == DEFAULTS
    assert rt.balance("bo") == CASH
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


# --- pai gow: the page 002 bank rotation ------------------------------------------------


def pai_gow_after_a_dealer_bank(tmp_path: Path, seats: dict[int, str]) -> tuple[Runtime, Table]:
    """A land table where ``seats`` played a game the dealer banked: each is queued for
    the bank in seat order, with its main bet as its last wager against the house."""
    rt, table = table_of(tmp_path, "pai-gow-land", seed=5)
    for seat, player in seats.items():
        table.sit(seat, player)
    play(table, sorted(seats))
    engine = table.current_engine()
    assert isinstance(engine, PaiGowRound) and engine.offered == min(seats)
    return rt, table


def rotation(table: Table) -> tuple[list[int], int | None, dict[int, int]]:
    engine = table.current_engine()
    assert isinstance(engine, PaiGowRound)
    carried = engine.carried_in
    return engine._offers, carried.last_banker, dict(carried.house_wagers)


def test_a_place_in_the_bank_queue_leaves_with_its_player_in_the_open_game(
    tmp_path: Path,
) -> None:
    """Cy declines the bank (the game is open), Dee has it offered now, Ann is queued
    next; Ann leaves: her place and her last wager go with her, so Bo, sitting in her
    chair, is never offered the bank in this game. Dee leaves too: the runtime declines
    for her (logged) and the dealer banks. No money moves for either."""
    rt, table = pai_gow_after_a_dealer_bank(tmp_path, {0: "cy", 1: "dee", 2: "ann"})
    wallets = {p: rt.balance(p) for p in ("ann", "dee")}
    table.act(Decide(seat=0, decision="decline-bank"))
    game = table.game
    assert game is not None and rotation(table)[0] == [1, 2]
    assert rt.leave("t", 2, "ann") == "now"
    offers, _, wagers = rotation(table)
    assert offers == [1] and 2 not in wagers
    table.sit(2, "bo")
    assert rt.leave("t", 1, "dee") == "now"
    assert table.view(2)["state"]["banker"] == "dealer"
    assert "bank" not in table.view(2)["legal"]
    assert [(a["seat"], a["decision"]) for a in actions_of(rt, game, "runtime")] == [
        (2, "leave-bank-rotation"),
        (1, "decline-bank"),  # the offer passes on, then her last wager goes with her
        (1, "leave-bank-rotation"),
    ]
    assert {p: rt.balance(p) for p in wallets} == wallets
    assert play(table, [0, 2]) == game
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


def test_the_bank_offered_to_a_player_who_leaves_before_anyone_acts_passes_on(
    tmp_path: Path,
) -> None:
    """Ann has the bank offered in a game nobody has acted in yet (not in the log); she
    leaves: that game is made again for the table as it is, and Bo, sitting in her chair,
    is neither offered the bank nor handed her last wager; it goes to Cy."""
    rt, table = pai_gow_after_a_dealer_bank(tmp_path, {0: "ann", 1: "cy"})
    assert rt.leave("t", 0, "ann") == "now"
    table.sit(0, "bo")
    offers, last, wagers = rotation(table)
    assert offers == [1] and last is None and 0 not in wagers
    assert table.view(0)["legal"] == [] and table.view(1)["state"]["bank_offered_to"] == 1
    table.act(Decide(seat=1, decision="decline-bank"))
    game = table.game
    assert game is not None and start_body(rt, game)["new_players"] == [0]
    assert play(table, [0, 1]) == game
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


def test_a_bank_rotation_carried_for_a_seat_left_empty_is_not_handed_to_its_next_player(
    tmp_path: Path,
) -> None:
    """Ann leaves after the game the dealer banked; Cy opens the next one while Ann's
    chair is empty (its start record names the seat a new player's), Bo sits down in it
    in that game: nothing of Ann's place, her last wager or her turn is Bo's."""
    rt, table = pai_gow_after_a_dealer_bank(tmp_path, {0: "cy", 1: "ann"})
    assert rt.leave("t", 1, "ann") == "now"
    table.act(Decide(seat=0, decision="decline-bank"))  # Cy opens the next game
    game = table.game
    assert game is not None and start_body(rt, game)["new_players"] == [1]
    table.sit(1, "bo")
    offers, last, wagers = rotation(table)
    assert offers == [] and last is None and 1 not in wagers
    assert table.view(1)["state"]["banker"] == "dealer"
    assert play(table, [0, 1]) == game
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


# --- baccarat: Player as Dealer ---------------------------------------------------------


def test_the_shoe_a_baccarat_player_took_is_not_handed_to_the_next_player(
    tmp_path: Path,
) -> None:
    """Ann chooses to deal the cards herself (page 000, Player as Dealer) in a coup not
    dealt yet, then leaves: Bo, sitting in her chair, bets and deals, and the banker deals
    the coup out (Bo is not asked to click the shoe for each card)."""
    rt, table = table_of(tmp_path, "baccarat-pinnacle")
    table.sit(0, "ann")
    table.act(Decide(seat=0, decision="dealer", arg="player"))
    table.act(Decide(seat=0, decision="position", arg="5"))
    game = table.game
    assert game is not None and table.view(0)["state"]["dealer"] == "player"
    assert rt.leave("t", 0, "ann") == "now"
    table.sit(0, "bo")
    state = table.view(0)["state"]
    assert state["dealer"] == "banker" and state["dealing_seat"] is None and state["position"] == 1
    table.act(PlaceBet(seat=0, bet="banker", amount=500))
    result = table.act(Deal(seat=0))
    assert result.over and result.game == game  # dealt by the banker, at once
    assert rt.balance("ann") == CASH
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


def test_a_baccarat_player_dealing_the_cards_who_leaves_hands_the_shoe_to_the_banker(
    tmp_path: Path,
) -> None:
    """Ann deals the cards herself (no stake of hers: Bo bet and dealt), and leaves while
    the coup waits on her next card: the shoe goes back to the banker (logged), who deals
    the rest at once, so Bo's bet settles to his wallet and the coup waits on nobody, and
    Cy, sitting in Ann's chair, is not handed the shoe."""
    rt, table = table_of(tmp_path, "baccarat-ez", seed=3)
    table.sit(0, "ann")
    table.sit(1, "bo")
    table.act(Decide(seat=0, decision="dealer", arg="player"))
    table.act(PlaceBet(seat=1, bet="banker", amount=500))
    assert not table.act(Deal(seat=1)).over and table.view(0)["legal"] == ["deal-card"]
    game = table.game
    assert game is not None
    assert rt.leave("t", 0, "ann") == "now"
    engine = table.engine
    assert engine is not None and engine.is_over  # dealt out by the banker
    assert [(a["decision"], a["arg"]) for a in actions_of(rt, game, "runtime")] == [
        ("dealer", "banker")
    ]
    ends = [r["body"] for r in rt._game_records(game) if r["type"] == "game-end"]
    assert rt.balance("bo") == CASH + ends[0]["net"]["1"] and rt.balance("ann") == CASH
    table.sit(0, "cy")
    assert "deal-card" not in table.view(0)["legal"]
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


# --- caribbean stud: what the last game carries for a chair left empty -----------------


def test_stud_orders_carried_for_a_chair_left_empty_are_not_charged_to_its_next_player(
    tmp_path: Path,
) -> None:
    """Ann's queued jackpot chips and always-contribute button carry from her game to the
    next; she leaves between the two, Cy antes first (the next game opens with Ann's
    chair empty), then Bo sits down there and plays: he is charged none of Ann's chips."""
    rt, table = table_of(tmp_path, "caribbean-stud", seed=9)
    table.sit(0, "ann")
    for _ in range(3):
        table.act(Decide(seat=0, decision="jackpot-chip"))
    table.act(Decide(seat=0, decision="always-contribute", arg="on"))
    play(table, [0])
    assert rt.leave("t", 0, "ann") == "now"
    ann = rt.balance("ann")

    table.sit(1, "cy")
    opening = table.family.autoplay(table.current_engine(), 1)
    assert isinstance(opening, PlaceBet)
    table.act(opening)  # the next game, seat 0 empty
    game = table.game
    assert game is not None and start_body(rt, game)["new_players"] == [0, 1]  # Cy's too
    table.sit(0, "bo")
    state = table.view(0)["state"]
    assert state["jackpot_queue"] == {} and state["always_contribute"] == []
    assert play(table, [0, 1]) == game
    jackpot_seats = [
        r["body"]["seat"]
        for r in rt._game_records(game)
        if r["type"] == "event"
        and r["body"]["kind"] in ("bet-placed", "jackpot-contribution")
        and r["body"].get("bet") == "jackpot"
    ]
    assert 0 not in jackpot_seats
    assert rt.balance("ann") == ann
    replays(rt, game)
    closed_and_verified(rt, tmp_path)


# --- every round family: a stake left on the layout settles to its player -------------


@pytest.mark.parametrize(
    "variant",
    [
        "roulette-single-zero",
        "sicbo-macau",
        "blackjack-pinnacle",
        "war-standard",
        "three-card-poker",
        "lets-em-ride",
        "baccarat-ez",
        "caribbean-stud",
        "ultimate-texas-holdem",
        "pai-gow-pinnacle",
    ],
)
def test_bets_left_on_the_layout_settle_to_the_player_who_left(
    tmp_path: Path, variant: str
) -> None:
    """Ann puts her bets down and leaves before the deal: the seat stays hers ("after the
    game", Bo cannot take it), the action clock plays her hand by the rules' defaults (a
    spin or a roll is no default: she comes back for it), the game settles to her wallet,
    and only then is the seat free for Bo, who inherits no bet and pays nothing of hers."""
    rt, table = table_of(tmp_path, variant)
    table.sit(0, "ann")
    for _ in range(10):  # every bet of the scripted player's slip, not its deal
        action = table.family.autoplay(table.current_engine(), 0)
        if not isinstance(action, PlaceBet):
            break
        table.act(action)
    game = table.game
    assert game is not None and rt.balance("ann") < CASH
    assert rt.leave("t", 0, "ann") == "after the game"
    with pytest.raises(SeatError, match="taken"):
        table.sit(0, "bo")
    rules, now = rt.seat_rules, 0.0
    for _ in range(50):
        engine = table.engine
        assert engine is not None
        if engine.is_over:
            break
        now += rules.action_seconds + 1
        due = table.due(now, rules)
        if due:
            table.act_many(due, by="timeout")
            continue
        # no passive spin or roll (roulette, sic bo, like craps): the bet waits for Ann,
        # who comes back to play it out; the seat is still freed at the game's end
        table.sit(0, "ann")
        action = table.family.autoplay(engine, 0)
        assert action is not None, engine.view(None)
        table.act(action)
    ends = [r["body"] for r in rt._game_records(game) if r["type"] == "game-end"]
    assert rt.balance("ann") == CASH + ends[0]["net"]["0"]
    assert 0 not in table.seats  # freed at the game's end
    table.sit(0, "bo")
    assert not table.current_engine().book.of(0)  # type: ignore[attr-defined]
    assert rt.balance("bo") == CASH
    closed_and_verified(rt, tmp_path)
