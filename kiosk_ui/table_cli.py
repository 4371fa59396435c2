"""``croupier table autoplay``: scripted rounds through the real runtime (wallet, ledger, log).

Labs use it for in-situ RTP checks and soak tests. Re-run on the same store after
a crash, it first recovers (resumes or voids the interrupted game, per the rule
in kiosk_ui.table.table) and then plays until the table has ``--rounds``
finished games.
"""

from __future__ import annotations

import argparse
from pathlib import Path

AUTOPLAYER = "autoplay"
BANKROLL = 100_000_000  # cents credited to the scripted player whenever it runs low


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="table_command", metavar="ACTION", required=True)
    a = sub.add_parser("autoplay", help="play N rounds with the documented scripted player")
    a.add_argument("--game", required=True, help="variant id or family (croupier games list)")
    a.add_argument("--rounds", type=int, required=True, help="finished games wanted at the table")
    a.add_argument("--store", type=Path, required=True, help="store directory (created if new)")
    a.add_argument("--url", help="the store's database: postgresql://... (default: SQLite)")
    a.add_argument("--seed", type=int, help="seeded simulator source (test mode, not for play)")
    a.add_argument("--source", choices=("os", "sim"), default="os", help="entropy source")
    a.add_argument(
        "--sync",
        choices=("FULL", "NORMAL"),
        default="FULL",
        help="SQLite durability: FULL survives power loss, NORMAL a process crash",
    )
    a.add_argument(
        "--seats",
        type=int,
        default=1,
        help="scripted players seated at seats 0..N-1 (each its own player)",
    )
    a.add_argument(
        "--bank",
        type=int,
        metavar="CENTS",
        help="seat 0 takes the California player/dealer position with this bank whenever "
        "it is offered (needs --seats 2 or more on a player/dealer table)",
    )
    a.add_argument("--quiet", action="store_true", help="print only the summary")
    a.set_defaults(handler=_autoplay)
    h = sub.add_parser(
        "hands",
        help="a poker room's hands as PokerStars-style text hand histories, one file a session",
    )
    h.add_argument("--store", type=Path, required=True, help="store directory (read only)")
    h.add_argument("--table", required=True, help="the poker room table's id")
    h.add_argument("--out", type=Path, required=True, help="directory for the session files")
    h.add_argument("--player", help="a player id: only their hands, with their hole cards")
    h.set_defaults(handler=_hands)


def _autoplay(args: argparse.Namespace) -> int:
    from games import catalog
    from games.core.money import format_cents
    from kiosk_ui.table.autoplay import play_room_hand, play_round, play_seats
    from kiosk_ui.table.outcomes import RngOutcomes
    from kiosk_ui.table.room import Room
    from kiosk_ui.table.runtime import Runtime
    from rng import RngConfig, open_rng

    if args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    if args.bank is not None and (args.seats < 2 or args.bank < 1):
        raise ValueError("--bank needs --seats 2 or more and a bank of at least 1 cent")
    variant = catalog.get_variant(args.game)
    if args.seed is not None:
        config = RngConfig(source="sim", sim_seed=args.seed, test_mode=True)
    else:
        config = RngConfig(source=args.source, test_mode=args.source == "sim")
    stack = open_rng(config, real_money=False)
    # a lab tool: --store may be new
    rt = Runtime(args.store, synchronous=args.sync, create=True, url=args.url)
    try:
        table_id = f"autoplay-{variant.id}"
        table = rt.open_table(table_id, variant.id, RngOutcomes(stack.rng, f"rng:{config.source}"))
        players = [AUTOPLAYER] + [f"{AUTOPLAYER}-{s}" for s in range(1, args.seats)]
        for n, player in enumerate(players):
            rt.create_player(f"Scripted player {n}" if n else "Scripted player", player)
        for rec in rt.recover():
            print(f"recovered {rec.game}: {rec.outcome} ({rec.reason})")
        room = table if isinstance(table, Room) else None
        if room is not None and args.seats < 2:
            raise ValueError("a poker room plays player against player: --seats 2 or more")
        if room is not None:
            room.hand_pause = 0.0  # the scripted players are ready at once
        elif args.seats > 1:
            for seat, player in enumerate(players):
                table.sit(seat, player)
        else:
            for seat in range(max(variant.seats, 1) if variant.family == "baccarat" else 1):
                table.sit(seat, AUTOPLAYER)
        done = rt.finished_games(table_id)
        while done < args.rounds:
            for player in players:
                if rt.balance(player) < BANKROLL // 10:
                    rt.cash_in(player, BANKROLL, operator="autoplay")
            if room is not None:
                game = play_room_hand(room, dict(enumerate(players)))
            elif args.seats > 1:
                game = play_seats(table, args.seats, args.bank)
            else:
                game = play_round(table, 0)
            done += 1
            if not args.quiet and done % 100 == 0:
                print(f"{done} rounds ({game})", flush=True)
        stats = rt.seat_totals(table_id)
        rtp = stats["returned"] / stats["staked"] if stats["staked"] else 0.0
        print(
            f"{variant.id}: {done} rounds at table {table_id}; staked "
            f"{format_cents(stats['staked'])}, net {format_cents(stats['net'])}, "
            f"return to player {rtp:.4%}"
        )
        audit = rt.audit()
        print(f"ledger balances over {audit['transactions']} transactions")
    finally:
        rt.close()
        stack.close()
    return 0


def _hands(args: argparse.Namespace) -> int:
    """Write ``<table>-session-<n>.txt`` for each session of the table that dealt hands."""
    from kiosk_ui.store.reader import open_reader
    from kiosk_ui.table.hand_history import hands_text, iter_lines, session_games, session_players

    reader = open_reader(args.store)
    try:
        records = iter_lines(line for chunk in reader.chunks() for line in chunk)
        sessions = session_games(records, args.table)
        if not sessions:
            raise ValueError(f"table {args.table!r} was never opened in the log of {args.store}")
        names = {p: reader.player_name(p) or p for p in session_players(sessions)}
    finally:
        reader.close()
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for n, games in enumerate(sessions, 1):
        text = hands_text(games, names, args.player)
        if text:
            (args.out / f"{args.table}-session-{n}.txt").write_text(text, encoding="utf-8")
            written += 1
    hands = sum(len(g) for g in sessions)
    print(f"{args.table}: {written} session file(s) in {args.out} ({hands} hands in the log)")
    return 0
