"""The poker room's hand history export (issue 15): PokerStars-style text, one file a
table session, that tracking software can read. Read back the way such software reads it
(stacks, posts, bets, calls, raises "to", uncalled bets, pots collected), every player's
chips must come to the stack the log's hand-result says, for each game; the streets, the
button and the side pots are named as PokerStars names them; a hero's file shows their own
hole cards and nobody else's before the showdown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core.records import Decide
from kiosk_ui.cli import main as croupier
from kiosk_ui.table.hand_history import dollars, session_hands
from kiosk_ui.table.room import Room
from kiosk_ui.table.runtime import Runtime
from tests.kiosk_ui.conftest import seeded_outcomes

MONEY = r"\$([0-9]+(?:\.[0-9]{2})?)"
PLAYERS = ("ann", "bo", "cy")


def cents(text: str) -> int:
    whole, _, part = text.partition(".")
    return int(whole) * 100 + int(part or 0)


def _play(rt: Runtime, variant: str, hands: int, seed: int) -> Room:
    room = rt.open_table("room", variant, seeded_outcomes(seed))
    assert isinstance(room, Room)
    for seat, p in enumerate(PLAYERS):
        rt.create_player(p.title(), p)
        rt.cash_in(p, 100_000, "op")
        fresh = room.stack(p) == 0  # a second session: back with the chips left there
        room.buy_in(seat * 2, p, 2_000 + 2_000 * seat if fresh else 0)  # unequal: side pots
    for _ in range(hands):
        if len(room.ready()) < 2:
            break
        room.start_hand()
        n = 0
        while room.engine is not None and not room.engine.is_over:
            seat = room.engine.to_act  # type: ignore[attr-defined]
            options = room.engine.options(seat)  # type: ignore[attr-defined]
            names = [o.name for o in options]
            n += 1
            order = ("raise", "bet", "complete") if n % 3 else ("call", "check", "bring-in")
            pick = next(d for d in (*order, "call", "check", "bring-in") if d in names)
            amounts = [o.to for o in options if o.name == pick]
            arg = str(amounts[-1]) if len(amounts) > 1 else ""
            room.act(Decide(seat=seat, decision=pick, arg=arg))
    return room


def _reconcile(text: str) -> dict[str, int]:
    """Each player's chips at the end of the hand, read from the text alone."""
    stacks: dict[str, int] = {}
    street: dict[str, int] = {}
    for line in text.splitlines():
        if m := re.match(rf"Seat \d+: (.+) \({MONEY} in chips\)$", line):
            stacks[m[1]] = cents(m[2])
        elif line.startswith("*** ") and "HOLE CARDS" not in line and "3rd" not in line:
            street = {}
        elif m := re.match(rf"(.+): (?:pays the seat fee|posts the ante) {MONEY}$", line):
            stacks[m[1]] -= cents(m[2])
        elif m := re.match(
            rf"(.+): (?:posts (?:small|big) blind|brings in for|calls|bets) {MONEY}", line
        ):
            stacks[m[1]] -= cents(m[2])
            street[m[1]] = street.get(m[1], 0) + cents(m[2])
        elif m := re.match(rf"(.+): (?:raises {MONEY} to|completes it to) {MONEY}", line):
            to = cents(m[3])
            stacks[m[1]] -= to - street.get(m[1], 0)
            street[m[1]] = to
        elif m := re.match(rf"Uncalled bet \({MONEY}\) returned to (.+)$", line):
            stacks[m[2]] += cents(m[1])
        elif m := re.match(rf"(.+) collected {MONEY} from (?:main |side )?pot", line):
            stacks[m[1]] += cents(m[2])
        elif line == "*** SUMMARY ***":
            break
    return stacks


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("poker-room-holdem-2-4", 3), ("poker-room-omaha-2-4", 4), ("poker-room-stud-2-4", 5)],
)
def test_the_text_accounts_for_every_chip(tmp_path: Path, variant: str, seed: int) -> None:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        _play(rt, variant, hands=4, seed=seed)
        names = {p: p.title() for p in PLAYERS}
        text = session_hands(rt, "room")
        hands = text.split("\n\n\n")
        assert len(hands) >= 2
        games = [rt.game_id("room", n) for n in range(1, len(hands) + 1)]
        side_pots = 0
        for game, hand in zip(games, hands, strict=True):
            records = list(rt._game_records(game))
            result = next(r["body"] for r in records if r["body"].get("kind") == "hand-result")
            after = {names[PLAYERS[seat // 2]]: c for seat, c in result["after"]}
            assert _reconcile(hand) == after, hand
            quiet = [
                r["body"]["decision"]
                for r in records
                if r["type"] == "action" and r["body"].get("kind") == "decide"
            ]
            lines = [ln.rsplit(": ", 1)[-1] for ln in hand.splitlines()]
            assert lines.count("checks") == quiet.count("check"), hand  # each check a line
            assert lines.count("folds") == quiet.count("fold"), hand
            head = hand.splitlines()[0]
            assert re.match(
                r"PokerStars Hand #\d+:  (Hold'em|Omaha|7 Card Stud) Limit \(\$2/\$4 USD\) - ", head
            )
            side_pots += "Side pot" in hand
            if "stud" in variant:
                assert "*** 3rd STREET ***" in hand
                assert "brings in for $1" in hand or "completes it to $2" in hand
            else:
                assert "is the button" in hand and "*** HOLE CARDS ***" in hand
        assert side_pots or "stud" in variant  # unequal stacks all in: a side pot was named
    finally:
        rt.close()


def test_a_heros_file_shows_their_hole_cards_and_nobody_elses(tmp_path: Path) -> None:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        _play(rt, "poker-room-holdem-2-4", hands=2, seed=7)
        records = list(rt._game_records(rt.game_id("room", 1)))
        hole = {
            r["body"]["card"]: r["body"]["to"]
            for r in records
            if r["body"].get("to", "all") != "all"
        }
        shown = {
            c
            for r in records
            if r["body"].get("kind") == "hand-shown"
            for c in r["body"]["cards"].split()
        }
        mine = session_hands(rt, "room", hero="bo").split("\n\n\n")[0]
        bo = {c for c, to in hole.items() if to == "2"}
        assert f"Dealt to Bo [{' '.join(sorted(bo, key=list(hole).index))}]" in mine
        for card, to in hole.items():
            if to != "2" and card not in shown:
                assert card not in re.findall(r"[2-9TJQKA][cdhs]", mine)
        assert "Dealt to Ann" not in mine and "Dealt to Cy" not in mine
    finally:
        rt.close()


def test_the_cli_writes_one_file_a_table_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    for session in range(2):  # two runs of the server: two sessions of the table
        rt = Runtime(store, synchronous="NORMAL", create=True)
        try:
            _play(rt, "poker-room-holdem-2-4", hands=1, seed=session)
        finally:
            rt.close()
    out = tmp_path / "hands"
    assert (
        croupier(["table", "hands", "--store", str(store), "--table", "room", "--out", str(out)])
        == 0
    )
    files = sorted(p.name for p in out.iterdir())
    assert files == ["room-session-1.txt", "room-session-2.txt"]
    assert all((out / f).read_text().startswith("PokerStars Hand #") for f in files)
    assert (
        croupier(["table", "hands", "--store", str(store), "--table", "nope", "--out", str(out)])
        == 2
    )
    assert "never opened" in capsys.readouterr().err
    assert dollars(1_050) == "$10.50"
