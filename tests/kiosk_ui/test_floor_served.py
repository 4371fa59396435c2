"""Two ``croupier serve`` processes on one PostgreSQL store, one player betting on both.

Two appliances of a floor (each its own store directory, the floor's keys copied,
``[store] shared = true``) serve their own tables from one database. One player
(one wallet, one token: the token key is among the keys) plays rounds on both at
once: every answered round's net is in the shared wallet exactly once, the books
audit and the chain verifies. Then appliance A is SIGKILLed: B, standing by for A's
table, takes it over once A's lease expires and the player plays on there. Also
``serve --workers 2`` on SQLite: a worker SIGKILLed comes back and its table is dealt,
and a stop (SIGTERM, Ctrl-C) is orderly: no worker that is stopping takes the other's
tables over, every lease is given up, no traceback.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench._common import free_ports
from kiosk_ui.store import log_records
from kiosk_ui.store.audit import audit_store
from tests.kiosk_ui.pg_cluster import Cluster
from tests.kiosk_ui.served import (
    init_store,
    join_floor,
    listening,
    new_players,
    post,
    serve,
    serve_workers,
    start_supervisor,
    stop,
    until,
    write_config,
)

ROUNDS = 12


def config(tmp_path: Path, name: str, url: str, tables: list[str]) -> Path:
    store = f'dir = "{tmp_path / name}"\nurl = "{url}"\nshared = true\nlease_seconds = 2'
    sections = [f'[[tables]]\nid = "{t}"\nvariant = "baccarat-pinnacle"' for t in tables]
    return write_config(tmp_path / f"{name}.toml", store, "floor-test-password", sections)


def me(port: int, token: str) -> dict[str, object]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/api/me", headers={"x-player-token": token})
        return dict(json.loads(conn.getresponse().read()))
    finally:
        conn.close()


def rounds(port: int, table: str, token: str, nets: list[int], n: int) -> None:
    for _ in range(n):
        status, body = post(port, f"/api/tables/{table}/round", {"bets": {"banker": 500}}, token)
        assert status == 200, body
        nets.append(
            sum(
                e["returned"] - e["commission"] - e["stake"]
                for e in body["events"]
                if e["kind"] == "bet-settled"
            )
        )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_one_player_on_two_served_appliances_and_a_takeover(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    url = pg_cluster.fresh_url()
    cfg_a = config(tmp_path, "a", url, ["bac-a"])
    init_store(cfg_a)
    cfg_b = config(tmp_path, "b", url, ["bac-b", "bac-a"])  # stands by for bac-a
    join_floor(tmp_path / "a", tmp_path / "b", cfg_b)
    a, port_a = serve(cfg_a)
    b, port_b = serve(cfg_b)
    try:
        status, body = post(port_a, "/api/players", {"name": "Ann"})
        assert status == 201
        token = str(body["token"])
        start = int(me(port_a, token)["balance"])  # type: ignore[call-overload]
        nets: list[int] = []
        threads = [
            threading.Thread(target=rounds, args=(port, table, token, nets, ROUNDS))
            for port, table in ((port_a, "bac-a"), (port_b, "bac-b"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(nets) == 2 * ROUNDS
        balance = me(port_b, token)["balance"]
        assert balance == me(port_a, token)["balance"] == start + sum(nets)

        a.send_signal(signal.SIGKILL)  # appliance A dies; B takes bac-a over
        a.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status, body = post(port_b, "/api/tables/bac-a/round", {"bets": {"banker": 500}}, token)
            if status == 200:
                break
            time.sleep(0.2)
        assert status == 200, body
    finally:
        for proc in (a, b):
            stop(proc, timeout=20)
    report = audit_store(tmp_path / "b")
    assert report["games_settled"] == 2 * ROUNDS + 1
    assert report["open_games"] == 0


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (the supervisor's workers)."""
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(x) for x in text.split()]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_serve_workers_share_a_sqlite_store_and_a_killed_worker_comes_back(
    tmp_path: Path,
) -> None:
    """``serve --workers 2`` on the embedded store: each worker serves its share of the
    tables on its own port, one player plays on both, the books audit; a worker killed
    with a bet on the layout is started again by the supervisor, and its table (taken
    over by the other worker once its lease expired, or back with it) deals that game.
    While that bet is on worker 1's layout, her kiosk idling on worker 0 keeps the
    session (the store says she is in play), and once it is dealt no longer does."""
    store = f'dir = "{tmp_path / "store"}"\nlease_seconds = 2'
    tables = [f'[[tables]]\nid = "bac-{i}"\nvariant = "baccarat-pinnacle"' for i in range(4)]
    cfg = write_config(tmp_path / "kiosk.toml", store, "workers-test-password", tables)
    init_store(cfg)
    with serve_workers(cfg, 2) as (sup, base):
        status, body = post(base, "/api/players", {"name": "Ann"})
        assert status == 201
        token = str(body["token"])
        nets: list[int] = []
        for table, port in (("bac-0", base), ("bac-1", base + 1), ("bac-2", base)):
            rounds(port, table, token, nets, 2)
        status, _ = post(base, "/api/tables/bac-1/round", {"bets": {"banker": 500}}, token)
        assert status == 404  # bac-1 is worker 1's: worker 0 does not serve it
        # A bet on worker 1's table, then worker 1 dies before the deal.
        status, _ = post(
            base + 1,
            "/api/tables/bac-3/actions",
            {"kind": "place-bet", "bet": "banker", "amount": 700},
            token,
        )
        assert status == 200
        # her kiosk on worker 0 idles: the bet on worker 1's layout keeps her session
        idle = post(base, "/api/session/idle", {"kiosk": "k-0"}, token)
        assert idle == (200, {"voucher": None, "session_ended": False, "in_play": True})
        (victim,) = [c for c in children(sup.pid) if str(base + 1) in
                     Path(f"/proc/{c}/cmdline").read_text()]  # fmt: skip
        subprocess.run(["kill", "-KILL", str(victim)], check=True)
        listening(base + 1, after=victim)  # the supervisor started it again
        # Whoever has bac-3 now (worker 0 once the lease expired, or worker 1 back in
        # time) deals the game the dead worker left open, with its bet.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            answers = [
                post(port, "/api/tables/bac-3/actions", {"kind": "deal"}, token)
                for port in (base, base + 1)
            ]
            done = [body for status, body in answers if status == 200]
            if done:
                break
            time.sleep(0.3)
        assert len(done) == 1 and done[0]["over"], answers
        idle = post(base, "/api/session/idle", {"kiosk": "k-0"}, token)  # nothing in play now
        assert idle == (200, {"voucher": None, "session_ended": False, "in_play": False})
        # Both workers SIGKILLed at once, each with a bet on its table's layout: each
        # comes back on its own chain and deals the game it left open.
        bet = {"kind": "place-bet", "bet": "player", "amount": 300}
        for table in ("bac-0", "bac-1"):  # on whichever worker serves it now
            act_where_served(table, (base, base + 1), bet, token)
        victims = children(sup.pid)
        assert len(victims) == 2
        subprocess.run(["kill", "-KILL", *map(str, victims)], check=True)
        for victim in victims:
            listening(base, after=victim)
        listening(base + 1)
        for table in ("bac-0", "bac-1"):
            assert act_where_served(table, (base, base + 1), {"kind": "deal"}, token)["over"]
        balance = me(base, token)["balance"]
        assert balance == me(base + 1, token)["balance"]
    report = audit_store(tmp_path / "store")
    assert report["games_settled"] == 9
    assert report["open_games"] == 0
    # log verify covers both workers' chains (a recovered game crosses from the dead
    # worker's chain into the survivor's when it took the table over), and store init's
    # own (its log-start).
    out = log_verify(tmp_path / "store")
    assert out.startswith("OK: ") and "in 3 chains" in out, out
    assert "/worker-0: " in out and "/worker-1: " in out and "9 games' cards match" in out


def act_where_served(
    table: str, ports: tuple[int, int], body: dict[str, object], token: str
) -> dict[str, object]:
    """Post an action at ``table`` on whichever worker serves it now (its own, or the
    other once the lease expired): exactly one of them takes it."""
    deadline = time.monotonic() + 60
    answers: list[tuple[int, dict[str, object]]] = []
    while time.monotonic() < deadline:
        answers = [post(p, f"/api/tables/{table}/actions", body, token) for p in ports]
        done = [out for status, out in answers if status == 200]
        if done:
            assert len(done) == 1, answers
            return done[0]
        time.sleep(0.3)
    raise AssertionError(f"{table}: no worker took {body}: {answers}")


def log_verify(store: Path) -> str:
    """``croupier log verify`` of ``store``, trusting the key ``log pubkey`` exports."""
    cli = [sys.executable, "-m", "kiosk_ui.cli", "log"]
    pem = subprocess.run([*cli, "pubkey", "--store", str(store)], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    key = store.parent / "root.pem"
    key.write_text(pem)
    done = subprocess.run([*cli, "verify", "--store", str(store), "--pubkey", str(key)],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def workers_config(tmp_path: Path, extra: str = "") -> Path:
    """Four baccarat tables on a fresh SQLite store with 2 s leases, for ``serve --workers``."""
    cfg = tmp_path / "kiosk.toml"
    lines = [
        f'[store]\ndir = "{tmp_path / "store"}"\nlease_seconds = 2',
        '[rng]\nsource = "sim"\nsim_seed = 9\ntest_mode = true',
        '[operator]\nuser = "admin"\npassword = "workers-test-password"',
        "[lobby]\nall_variants = false",
        *([extra] if extra else []),
        *(f'[[tables]]\nid = "bac-{i}"\nvariant = "baccarat-pinnacle"' for i in range(4)),
    ]
    cfg.write_text("\n\n".join(lines) + "\n")
    init = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--config", str(cfg)]
    subprocess.run(init, check=True, capture_output=True)
    return cfg


def start_workers(cfg: Path, err: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``serve --workers 2`` in a process group of its own (Ctrl-C is a killpg), its
    stderr to ``err``; returns it and worker 0's port once both workers serve."""
    return start_supervisor(cfg, 2, stderr=err, new_session=True)


def worker_pids(sup: subprocess.Popen[bytes]) -> dict[int, int]:
    """Worker index -> pid of the supervisor's workers (their ``--worker I`` argument)."""
    argv = {c: Path(f"/proc/{c}/cmdline").read_bytes().split(b"\0") for c in children(sup.pid)}
    return {int(a[-2]): c for c, a in argv.items()}


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["SIGTERM to the supervisor", "Ctrl-C to the process group"])
def test_serve_workers_stop_in_order_taking_nothing_over(tmp_path: Path, how: str) -> None:
    """``serve --workers 2`` stopped while a console's stream holds worker 1 open (uvicorn
    drains it for up to 25 s): worker 0 stops first and gives its leases up, and worker
    1, stopping too, takes none of its tables over (it used to, logging ``table ...
    taken over``, or ``taking over table ... failed ... the connection is closed`` when
    its store closed under the takeover). Ctrl-C reaches the workers from the terminal
    and from the supervisor: one SIGINT and one SIGTERM, never uvicorn's second SIGINT,
    which skipped the app's shutdown (tracebacks, the store closed by cancellation)."""
    cfg = workers_config(tmp_path)
    err = tmp_path / "stderr.txt"
    sup, base = start_workers(cfg, err)
    stream: http.client.HTTPConnection | None = None
    started = 0
    try:
        worker_0 = worker_pids(sup)[0]
        status, body = post(base + 1, "/api/operator/login",
                            {"user": "admin", "password": "workers-test-password"})  # fmt: skip
        assert status == 200, body
        stream = http.client.HTTPConnection("127.0.0.1", base + 1, timeout=30)
        stream.request("GET", "/api/operator/floor/stream",
                       headers={"authorization": f"Bearer {body['token']}"})  # fmt: skip
        reply = stream.getresponse()
        assert reply.status == 200 and reply.readline() == b"retry: 1000\n"
        started = err.stat().st_size  # what the workers said before the stop
        if how.startswith("SIGTERM"):
            sup.send_signal(signal.SIGTERM)
        else:
            os.killpg(sup.pid, signal.SIGINT)
        deadline = time.monotonic() + 60
        while worker_0 in children(sup.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert worker_0 not in children(sup.pid), "worker 0 did not stop"
        time.sleep(2.0)  # three of worker 1's standby looks while it drains its stream
    finally:
        if stream is not None:
            stream.close()  # the stream ends: worker 1 stops in turn
        try:
            sup.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(sup.pid, signal.SIGKILL)
            sup.wait()
    text = err.read_text()
    said = text[started:]  # from the stop on
    assert sup.returncode == 0, text
    assert "taken over" not in said and "taking over" not in said, text
    assert "Traceback" not in said and "lease" not in said, text
    # both stopped cleanly: every lease given up, none left to expire
    assert held_leases(tmp_path / "store") == [], text
    assert audit_store(tmp_path / "store")["open_games"] == 0


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("first", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_worker_given_a_second_stop_signal_still_gives_its_leases_up(
    tmp_path: Path, first: signal.Signals, second: signal.Signals
) -> None:
    """The cause of the Ctrl-C stop's lost leases, shown in an order of our choosing: a
    worker of ``serve --workers`` (started here on its own, as the supervisor starts it)
    gets one stop signal, and a second one while it is still draining a console's
    stream. A SIGINT after the first signal is uvicorn's "quit now" (force_exit), which
    skips the app's shutdown, so the worker's leases stayed in the store for the other
    worker to wait out. Now a worker heeds its first signal only: it ends as that signal
    asks, with no traceback, every lease given up and no game left open."""
    cfg = workers_config(tmp_path)
    err = tmp_path / "stderr.txt"
    port = free_ports(1)
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", str(port),
           "--config", str(cfg), "--workers", "2", "--worker", "0"]  # fmt: skip
    with open(err, "a") as sink:
        worker = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=sink)
    stream: http.client.HTTPConnection | None = None
    try:
        listening(port, proc=worker)
        status, body = post(port, "/api/operator/login",
                            {"user": "admin", "password": "workers-test-password"})  # fmt: skip
        assert status == 200, body
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        stream.request("GET", "/api/operator/floor/stream",
                       headers={"authorization": f"Bearer {body['token']}"})  # fmt: skip
        reply = stream.getresponse()
        assert reply.status == 200 and reply.readline() == b"retry: 1000\n"
        assert held_leases(tmp_path / "store"), "the worker holds no lease to give up"
        worker.send_signal(first)
        time.sleep(1.0)  # uvicorn is draining the stream now
        assert worker.poll() is None, err.read_text()
        worker.send_signal(second)
        time.sleep(1.0)
    finally:
        if stream is not None:
            stream.close()  # the stream ends: the worker's shutdown goes on
        try:
            worker.wait(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    text = err.read_text()
    assert held_leases(tmp_path / "store") == [], text
    # it ends as its first signal asks: uvicorn raises a SIGTERM again once it has
    # stopped, and the command line answers a SIGINT "croupier: interrupted", status 130
    assert worker.returncode == {signal.SIGTERM: -signal.SIGTERM, signal.SIGINT: 130}[first]
    assert "Traceback" not in text, text
    assert audit_store(tmp_path / "store")["open_games"] == 0


def held_leases(store: Path) -> list[tuple[str, str]]:
    """The store's leases (table, holder) as they stand."""
    conn = log_records.open_readonly(store)
    try:
        return [(str(t), str(h)) for t, h in conn.execute("SELECT table_id, holder FROM leases")]
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_serve_workers_stop_ends_even_with_a_hung_worker(tmp_path: Path) -> None:
    """A worker that cannot stop (frozen here with SIGSTOP: a deadlock, a device read
    that never returns) must not hold the whole stop: ``[serve] stop_seconds`` after the
    SIGTERM the supervisor kills it, says which worker it killed, and exits with status
    1; the other worker stops in order (its leases given up) and the store still
    verifies. Before, the supervisor waited for it for ever."""
    cfg = workers_config(tmp_path, "[serve]\nstop_seconds = 3")
    err = tmp_path / "stderr.txt"
    sup, _ = start_workers(cfg, err)
    pids = worker_pids(sup)
    try:
        os.kill(pids[1], signal.SIGSTOP)
        sup.send_signal(signal.SIGTERM)
        sup.wait(timeout=45)
    finally:
        if sup.poll() is None:  # the bug: the stop never ends
            os.killpg(sup.pid, signal.SIGKILL)
            sup.wait()
    text = err.read_text()
    assert sup.returncode == 1, text
    assert f"worker 1 (pid {pids[1]}) did not stop within 3 s: killed" in text, text
    assert "Traceback" not in text, text
    assert not Path(f"/proc/{pids[0]}").exists() and not Path(f"/proc/{pids[1]}").exists()
    conn = log_records.open_readonly(tmp_path / "store")
    try:  # worker 0 gave its leases up; the killed worker's expire like a crash's
        holders = {h for (h,) in conn.execute("SELECT holder FROM leases")}
    finally:
        conn.close()
    assert holders and all(h.endswith("worker-1") for h in holders), holders
    log_verify(tmp_path / "store")  # exits 0: every chain, the killed worker's too


def lease_holders(store: Path) -> dict[str, str]:
    """Table -> the holder of its lease, as the store says now."""
    conn = log_records.open_readonly(store)
    try:
        return {str(t): str(h) for t, h in conn.execute("SELECT table_id, holder FROM leases")}
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_restarted_worker_gets_its_share_back_once_nobody_plays_there(tmp_path: Path) -> None:
    """Worker 1 SIGKILLed, its supervisor frozen: worker 0 takes its tables over once their
    2 s leases lapse. Started again, worker 1 gets them back: bac-3 once it serves again
    (nobody plays there), bac-1 only after Ann, seated there on worker 0, has left; so both
    workers deal again. Before, worker 0 kept every table for good and the appliance
    served on one core. The books audit and every chain verifies."""
    store = tmp_path / "store"
    # bac-1 a shared table of seven seats (Ann's seat is the table's), the others one
    # seat each, every player's own game
    variants = ["baccarat-pinnacle", "baccarat-ez", "baccarat-pinnacle", "baccarat-pinnacle"]
    tables = [f'[[tables]]\nid = "bac-{i}"\nvariant = "{v}"' for i, v in enumerate(variants)]
    cfg = write_config(tmp_path / "kiosk.toml", f'dir = "{store}"\nlease_seconds = 2',
                       "workers-test-password", tables)  # fmt: skip
    init_store(cfg)
    err = tmp_path / "stderr.txt"
    sup, base = start_workers(cfg, err)
    nets: list[int] = []
    try:
        victim = worker_pids(sup)[1]
        (token,) = new_players(base, ["Ann"])
        os.kill(sup.pid, signal.SIGSTOP)  # nobody starts worker 1 again meanwhile
        try:
            os.kill(victim, signal.SIGKILL)
            until("worker 0 holds every table", lambda: all(
                h.endswith("/worker-0") for h in lease_holders(store).values()
            ) and len(lease_holders(store)) == 4)  # fmt: skip
            # the lease is worker 0's before the table is open (its recovery: 409 opening)
            until("worker 0 seats Ann at bac-1", lambda: post(
                base, "/api/tables/bac-1/sit?seat=0", {}, token)[0] == 200)  # fmt: skip
            rounds(base, "bac-1", token, nets, 1)  # Ann plays on worker 0, and stays seated
        finally:
            os.kill(sup.pid, signal.SIGCONT)  # the supervisor starts worker 1 again
        listening(base + 1, after=victim)
        until("bac-3 back on worker 1", lambda: lease_holders(store).get("bac-3", "").endswith(
            "/worker-1"))  # fmt: skip
        time.sleep(4.0)  # six more of worker 0's looks (every 2/3 s): Ann still sits there
        assert lease_holders(store)["bac-1"].endswith("/worker-0")
        rounds(base, "bac-1", token, nets, 1)
        status, body = post(base, "/api/tables/bac-1/leave?seat=0", {}, token)
        assert status == 200, body
        until("bac-1 back on worker 1", lambda: lease_holders(store).get("bac-1", "").endswith(
            "/worker-1"))  # fmt: skip
        bet = {"bets": {"banker": 500}}  # worker 1 deals it again, once it is open there
        until("worker 1 deals bac-1", lambda: post(
            base + 1, "/api/tables/bac-1/round", bet, token)[0] == 200)  # fmt: skip
        status, _ = post(base, "/api/tables/bac-1/round", {"bets": {"banker": 500}}, token)
        assert status == 404  # and worker 0 no longer does
        assert me(base, token)["balance"] == me(base + 1, token)["balance"]  # one wallet
    finally:
        stop(sup, timeout=60)
    said = err.read_text()
    assert "table bac-3 handed back to" in said and "table bac-1 handed back to" in said, said
    assert "Traceback" not in said, said
    report = audit_store(store)
    assert report["open_games"] == 0 and report["games_settled"] == 3
    assert log_verify(store).startswith("OK: ")
