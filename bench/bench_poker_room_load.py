"""Load test of the poker rooms (issue 15): 9 players a table at 10 tables through the real server.

The server runs in its own process (``croupier serve --port 0`` on a tmp store, ten
``poker-room-holdem-2-4`` tables, simulated entropy, the dealer's pause between hands
``[seats] hand_pause_seconds = 0``); this process is the load: 90 players, each with its
own player session and its own keep-alive HTTP/1.1 connection, nine bought in at each
table. At a table one player acts at a time, as at a real one: the table's loop reads the
table (``GET /api/rooms/{id}``, as a page does when the WebSocket says it changed), and
the player whose turn it is reads its own view (its legal actions with their amounts) and
sends its decision (``POST /api/rooms/{id}/decide``: check if it can, else call). The
ten tables run at once. Measured over a fixed window after a warm-up: decisions per
second, and p50/p99 of an action's round trip (the decision's POST, answered once durable)
and of the view read before it.

Side by side in the same run, ``peer``: a bare uvicorn app answering the same three
requests of each action with a fixed JSON body and no work (same client, same keep-alive):
this machine's HTTP ceiling with this client. Hands per second are also counted; the seat
clock deals the next hand at its next tick (half a second at most here).

Run: python bench/bench_poker_room_load.py [--seconds 10] [--tables 10] [--players 9]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench._common import (  # noqa: E402
    CpuWindow,
    init_store,
    machine,
    peer_app,
    start_server,
    stop_server,
)
from bench.bench_kiosk import Conn, Quantiles  # noqa: E402

VARIANT = "poker-room-holdem-2-4"
BUY_IN = 10_000  # cents: the table's maximum

PEER_APP = peer_app(
    """
    VIEW = json.dumps({"over": False, "seat": 0, "state": {"to_act": 0, "options": [
        {"name": "check", "add": 0, "to": 0}]}}).encode()
    def respond(body):
        return VIEW
    """
)


@dataclass
class Stats:
    actions: int = 0
    hands: int = 0
    errors: int = 0
    act_ms: list[float] = field(default_factory=list)  # the decision's round trip
    view_ms: list[float] = field(default_factory=list)  # the actor's view read before it


def config(store: Path, tables: int, tick: float) -> Path:
    lines = [
        f'[store]\ndir = "{store}"\nsynchronous = "FULL"',
        '[rng]\nsource = "sim"\nsim_seed = 1\ntest_mode = true',
        "[demo]\nenabled = true\ncredit = 10000000",
        '[operator]\nuser = "admin"\npassword = "bench-password"',
        "[lobby]\nall_variants = false",
        # the clock ticks a quarter of its shortest period: action_seconds sets the deal's pace
        f"[seats]\nper_table = 1\nfloor = 4\nidle_seconds = 3600.0\n"
        f"action_seconds = {tick * 4}\nhand_pause_seconds = 0.0",
    ]
    for i in range(tables):
        lines.append(f'[[tables]]\nid = "room-{i}"\nvariant = "{VARIANT}"')
    path = store.parent / f"bench-poker-{tables}.toml"
    path.write_text("\n\n".join(lines) + "\n")
    return path


async def seat_players(
    host: str, port: int, table: str, players: int
) -> list[tuple[Conn, dict[str, str]]]:
    out = []
    for seat in range(players):
        conn = Conn(host, port)
        status, body = await conn.request("POST", "/api/players", {"name": f"p{seat}"})
        assert status == 201, body
        who = {"x-player-token": json.loads(body)["token"]}
        path = f"/api/rooms/{table}/buy-in"
        status, body = await conn.request("POST", path, {"seat": seat, "amount": BUY_IN}, who)
        assert status == 200, body
        out.append((conn, who))
    return out


async def table_loop(
    seated: list[tuple[Conn, dict[str, str]]],
    table: str,
    stats: Stats,
    window: tuple[float, float],
    peer: bool,
) -> None:
    """One table: read it, and let the player whose turn it is read its view and act."""
    start_at, stop = window
    watch, watcher = seated[0]
    last_game = None
    while (now := time.perf_counter()) < stop:
        status, body = await watch.request("GET", f"/api/rooms/{table}", None, watcher)
        view = json.loads(body)
        state = view.get("state")
        if status != 200 or not state or view.get("over") or state.get("to_act") is None:
            await asyncio.sleep(0.01)  # between hands: the seat clock deals the next
            continue
        if not peer and view.get("game") != last_game:
            last_game = view.get("game")
            stats.hands += now >= start_at
        conn, who = seated[int(state["to_act"]) % len(seated)]
        t0 = time.perf_counter()
        status, body = await conn.request("GET", f"/api/rooms/{table}", None, who)
        t1 = time.perf_counter()
        names = [o["name"] for o in json.loads(body)["state"]["options"]]
        choice = next((d for d in ("check", "call") if d in names), names[0] if names else "")
        decision = {"decision": choice}
        status, body = await conn.request("POST", f"/api/rooms/{table}/decide", decision, who)
        t2 = time.perf_counter()
        if t0 < start_at:
            continue  # warm-up
        if status == 200:
            stats.actions += 1
            stats.view_ms.append((t1 - t0) * 1000)
            stats.act_ms.append((t2 - t1) * 1000)
        else:
            stats.errors += 1


async def load(
    host: str, port: int, tables: int, players: int, seconds: float, peer: bool
) -> Stats:
    stats = Stats()
    if peer:
        seated = [[(Conn(host, port), {}) for _ in range(players)] for _ in range(tables)]
    else:
        seated = [await seat_players(host, port, f"room-{i}", players) for i in range(tables)]
    now = time.perf_counter()
    window = (now + 2.0, now + 2.0 + seconds)
    try:
        await asyncio.gather(
            *(table_loop(seated[i], f"room-{i}", stats, window, peer) for i in range(tables))
        )
    finally:
        for row in seated:
            for conn, _ in row:
                conn.close()
    return stats


@dataclass
class Row:
    kind: str
    actions_s: float
    hands_s: float
    act: Quantiles  # an action's latency
    view: Quantiles  # a table view's
    errors: int
    cpu_per_action_ms: float


def run(kind: str, args: argparse.Namespace, tmp: Path) -> Row:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    store = tmp / "store"
    if kind == "peer":
        script = tmp / "peer_app.py"
        script.write_text(PEER_APP)
        cmd = [sys.executable, str(script)]
    else:
        conf = str(config(store, args.tables, args.tick))
        cli = [sys.executable, "-m", "kiosk_ui.cli"]
        init_store(cli, conf, env)
        cmd = [*cli, "serve", "--port", "0", "--config", conf]
    os.sync()
    proc, host, port = start_server(cmd, env)
    try:
        setup = 0.0 if kind == "peer" else 3.0 + args.tables * args.players * 0.02
        cpu = CpuWindow(proc.pid, args.seconds, warmup=2.0 + setup)
        stats = asyncio.run(
            load(host, port, args.tables, args.players, args.seconds, kind == "peer")
        )
        cpu.join()
    finally:
        stop_server(proc, timeout=30)
        shutil.rmtree(store, ignore_errors=True)
    per_action = cpu.busy * 1000 / stats.actions if stats.actions else float("nan")
    return Row(
        kind=kind,
        actions_s=stats.actions / args.seconds,
        hands_s=stats.hands / args.seconds,
        act=Quantiles.of(stats.act_ms),
        view=Quantiles.of(stats.view_ms),
        errors=stats.errors,
        cpu_per_action_ms=per_action,
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0, help="measured window per run")
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--players", type=int, default=9, help="players at each table (2..9)")
    p.add_argument("--tick", type=float, default=0.5, help="the seat clock's tick (seconds)")
    p.add_argument("--out", type=Path, default=HERE / "results" / "poker_room_load.md")
    args = p.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-poker-") as d:
        for kind in ("peer", "croupier"):
            row = run(kind, args, Path(d))
            rows.append(row)
            print(
                f"{kind:9s} {row.actions_s:8.1f} actions/s  {row.hands_s:6.2f} hands/s  "
                f"action p50 {row.act.p50:6.1f} ms p99 {row.act.p99:6.1f} ms  "
                f"view p99 {row.view.p99:6.1f} ms  errors {row.errors}",
                flush=True,
            )
    write(rows, args)
    return 0


def write(rows: list[Row], args: argparse.Namespace) -> None:
    peer = next(r for r in rows if r.kind == "peer")
    out = [
        "## Poker rooms under load (bench/bench_poker_room_load.py)\n",
        f"Command: `python bench/bench_poker_room_load.py --seconds {args.seconds:g} "
        f"--tables {args.tables} --players {args.players} --tick {args.tick:g}`  ",
        f"{machine(load=True)}; server and load in separate processes on loopback.\n",
        f"{args.players} players at each of {args.tables} fixed-limit hold'em tables "
        f"({VARIANT}), each player its own session and keep-alive connection; at each table",
        "one player acts at a time (read the table, read its own view, send check or call); the",
        "tables run at once. An action's round trip is its decision's POST, answered once the",
        "log and ledger rows are durable (synchronous=FULL). `peer` is a bare uvicorn app",
        "answering the same requests with no work. Ratio = actions/s over the peer's.\n",
        "| server | actions/s | ratio to peer | hands/s | action p50 ms | action p99 ms "
        "| view p50 ms | view p99 ms | server CPU ms / action | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ratio = r.actions_s / peer.actions_s if peer.actions_s else 0.0
        out.append(
            f"| {r.kind} | {r.actions_s:.0f} | {ratio:.3f} | {r.hands_s:.2f} | "
            f"{r.act.p50:.1f} | {r.act.p99:.1f} | {r.view.p50:.1f} | {r.view.p99:.1f} | "
            f"{r.cpu_per_action_ms:.2f} | {r.errors} |"
        )
    out.append(
        "\nThe closed loop here has ten requests in flight at most (one a table): the p99 is"
        " an action's own cost under that load, not a queue. Hands are dealt by the seat"
        " clock at its next tick after the last hand ends."
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(out) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
