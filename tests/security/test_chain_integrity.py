"""Issue 12, B6/B7/B9: the signed log resists rollback, tampering at rest and key rotation.

Every attack runs against the real thing: ``croupier serve`` subprocesses on a SQLite
store in ``tmp_path``, edited between runs with ``sqlite3`` the way an insider with the
file would, and the real ``croupier log`` commands an auditor runs afterwards.
"""

from __future__ import annotations

import hashlib
import http.client
import itertools
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from certification.log.chain import JournalWriter
from certification.log.keys import SigningKey
from certification.log.merkle import leaf_hash
from kiosk_ui.store import log_records
from tests.security.conftest import (
    OPERATOR_PASSWORD,
    Process,
    croupier,
    demo_settings,
    start_serve,
    write_config,
)

pytestmark = pytest.mark.slow


class Client:
    """A tiny JSON client for one served appliance (cookies kept for the operator)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.host, port = url.removeprefix("http://").split(":")
        self.port = int(port)
        self.cookies: dict[str, str] = {}
        self.operator = False
        self.token = ""

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        hdrs = {"Content-Type": "application/json", "Origin": self.url, **headers}
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, json.dumps(body) if body is not None else None, hdrs)
        resp = conn.getresponse()
        data = resp.read()
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie":
                name_value = value.split(";", 1)[0]
                k, _, v = name_value.partition("=")
                self.cookies[k] = v
        conn.close()
        assert resp.status < 300, (method, path, resp.status, data)
        return json.loads(data) if data else None

    def play(self, rounds: int) -> None:
        if not self.token:
            self.token = self.call("POST", "/api/players", {"name": "attacker"})["token"]
            self.call("POST", "/api/tables/bac/sit?seat=0", None, **{"X-Player-Token": self.token})
        token = self.token
        for _ in range(rounds):
            self.call(
                "POST",
                "/api/tables/bac/round",
                {"seat": 0, "bets": {"banker": 100}},
                **{"X-Player-Token": token},
            )

    def rotate_key(self) -> str:
        if not self.operator:
            login = {"user": "admin", "password": OPERATOR_PASSWORD}
            self.call("POST", "/api/operator/login", login)
            self.operator = True
        return str(self.call("POST", "/api/operator/log/rotate-key")["key_id"])


def _config(tmp_path: Path, *, anchor: Path | None = None) -> tuple[Path, Path]:
    store = tmp_path / "store"
    data = demo_settings(store)
    data["store"]["synchronous"] = "FULL"
    if anchor is not None:
        data["store"]["anchor"] = str(anchor)
    return write_config(tmp_path, data), store


def _stop(proc: Process, *, kill: bool = False) -> None:
    if kill:
        proc.proc.kill()
        proc.proc.wait()
    proc.stop()
    for pipe in (proc.proc.stdout, proc.proc.stderr):
        if pipe is not None:
            pipe.close()


def _serve_and_play(config: Path, rounds: int, *, kill: bool = False) -> None:
    proc = start_serve(config)
    try:
        Client(proc.url).play(rounds)
    finally:
        _stop(proc, kill=kill)


def _refused(config: Path) -> str:
    """Start serve on a store it must refuse: one line on stderr, exit 2."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", "0", "--config", str(config)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"croupier serve served the store: {out.strip()}") from None
    assert proc.returncode == 2, (proc.returncode, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("croupier: error: "), err
    return lines[0]


def _root_key(tmp_path: Path, store: Path) -> Path:
    res = croupier("log", "pubkey", "--store", str(store))
    assert res.returncode == 0, res.stderr
    path = tmp_path / "root.pem"
    path.write_text(res.stdout)
    return path


def _verify(store: Path, key: Path, *extra: str) -> tuple[int, str]:
    res = croupier("log", "verify", "--store", str(store), "--pubkey", str(key), *extra)
    assert "Traceback" not in res.stderr, res.stderr
    return res.returncode, res.stdout + res.stderr


def _remove_last_game(store: Path) -> int:
    """The rollback an insider does: cut the log's tail and, to match, the last game's rows,
    its ledger transactions and the cached balances; return the new log head."""
    conn = sqlite3.connect(log_records.db_path(store))
    with conn:
        game = conn.execute("SELECT game FROM log WHERE game != '' ORDER BY seq DESC").fetchone()[0]
        first = conn.execute("SELECT MIN(seq) FROM log WHERE game = ?", (game,)).fetchone()[0]
        conn.execute("DELETE FROM log WHERE seq >= ?", (first,))
        txns = [r[0] for r in conn.execute("SELECT id FROM txns WHERE log_seq >= ?", (first,))]
        for t in txns:
            conn.execute("DELETE FROM postings WHERE txn = ?", (t,))
            conn.execute("DELETE FROM txns WHERE id = ?", (t,))
        conn.execute("DELETE FROM game_seats WHERE game = ?", (game,))
        conn.execute("DELETE FROM shoes WHERE game = ?", (game,))
        conn.execute("DELETE FROM games WHERE id = ?", (game,))
        conn.execute(
            "UPDATE accounts SET balance = (SELECT COALESCE(SUM(amount), 0) FROM postings "
            "WHERE postings.account = accounts.name)"
        )
        conn.execute("DELETE FROM log_verified")  # it would name a record now gone
    conn.close()
    return int(first) - 1


# --- B6: rollback ------------------------------------------------------------------


def test_rollback_of_the_tail_is_refused_at_start_and_by_verify_since(tmp_path: Path) -> None:
    anchor = tmp_path / "anchor" / "heads.jsonl"
    anchor.parent.mkdir()
    config, store = _config(tmp_path, anchor=anchor)
    _serve_and_play(config, 4)
    # The regulator's copy, taken with the CLI from the stopped store.
    regulator = tmp_path / "regulator-head.jsonl"
    res = croupier("log", "anchor", "--store", str(store), "--to", str(regulator))
    assert res.returncode == 0, res.stderr
    root = _root_key(tmp_path, store)
    assert _verify(store, root, "--since", str(regulator))[0] == 0
    anchored = json.loads(anchor.read_text().splitlines()[-1])["size"]

    head = _remove_last_game(store)
    assert head < anchored
    # The log alone still verifies: a consistent cut leaves no broken link.
    assert _verify(store, root)[0] == 0

    line = _refused(config)
    assert f"behind the signed tree head of size {anchored}" in line
    assert f"ends at record {head}" in line
    code, out = _verify(store, root, "--since", str(regulator))
    assert code == 1
    assert f"signed tree head of size {anchored}" in out and "rollback" in out


def test_a_fork_after_the_anchored_head_is_refused(tmp_path: Path) -> None:
    """Cut the tail and write new records in its place, re-signed with the store's own key
    (the insider holds the file and the key directory): the record at the anchored size
    is not the one the head signed."""
    anchor = tmp_path / "heads.jsonl"
    config, store = _config(tmp_path, anchor=anchor)
    _serve_and_play(config, 2)
    anchored = json.loads(anchor.read_text().splitlines()[-1])["size"]
    conn = sqlite3.connect(log_records.db_path(store))
    from certification.log.keys import KeyStore

    key = KeyStore(store).current()
    assert key is not None
    cut = conn.execute(
        "SELECT MAX(seq) FROM log WHERE type = 'checkpoint' AND seq < ?", (anchored,)
    ).fetchone()[0]
    rows = [bytes(d) for (d,) in conn.execute("SELECT data FROM log WHERE seq <= ?", (cut,))]
    writer = JournalWriter(
        key, head_seq=cut, head_hash=hashlib.sha256(rows[-1]).hexdigest(), checkpoint_every=1000
    )
    with conn:
        conn.execute("DELETE FROM log WHERE seq > ?", (cut,))
        conn.execute("DELETE FROM log_verified")
        clock = itertools.count(1_900_000_000_000_000)
        recs = []
        for i in range(anchored - cut + 2):
            recs += writer.append(next(clock), "engine", "note", {"i": i})
        recs.append(writer.checkpoint(next(clock)))
        log_records.insert(conn, recs)
    conn.close()
    line = _refused(config)
    assert f"record {anchored} differs from the signed tree head of size {anchored}" in line
    code, out = _verify(store, _root_key(tmp_path, store), "--since", str(anchor))
    assert code == 1 and f"does not extend the signed tree head of size {anchored}" in out


# --- B7: start-up integrity check --------------------------------------------------------


def test_an_altered_record_is_refused_at_start_and_named_by_verify(tmp_path: Path) -> None:
    config, store = _config(tmp_path)
    _serve_and_play(config, 3, kill=True)  # killed: no clean stop, its records are unchecked
    conn = sqlite3.connect(log_records.db_path(store))
    seq, data = conn.execute(
        "SELECT seq, data FROM log WHERE type = 'event' ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    rec = json.loads(data)
    rec["ts"] += 1  # any change to the payload; the record stays valid JSON
    with conn:
        conn.execute(
            "UPDATE log SET data = ? WHERE seq = ?",
            (json.dumps(rec, separators=(",", ":"), sort_keys=True).encode(), seq),
        )
    conn.close()

    line = _refused(config)
    assert f"record {seq} altered" in line
    # The auditor still opens the refused store, read-only.
    code, out = _verify(store, _root_key(tmp_path, store))
    assert code == 1 and f"record {seq} altered" in out
    game = rec["game"]
    recall = croupier("log", "recall", game, "--store", str(store))
    assert "Traceback" not in recall.stderr and game in recall.stdout


def test_a_forged_verified_position_is_refused(tmp_path: Path) -> None:
    """The check starts after the last verified checkpoint; moving that mark past an
    edited record needs the signing key."""
    config, store = _config(tmp_path)
    _serve_and_play(config, 2, kill=True)
    conn = sqlite3.connect(log_records.db_path(store))
    head, data = conn.execute("SELECT seq, data FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    with conn:
        conn.execute(
            "INSERT OR REPLACE INTO log_verified VALUES ('', ?, ?, ?, 'ffff', 'ab')",
            (head, hashlib.sha256(data).hexdigest(), json.dumps([head, []])),
        )
    conn.close()
    assert "forged" in _refused(config)


def test_an_old_v1_verified_row_gets_the_full_check_so_an_edit_below_it_is_found(
    tmp_path: Path,
) -> None:
    """A verified row of the v1 format (signed before rows named their chain, so one that
    could have been copied from any chain or a backup) is never trusted: start-up checks
    from record 1, and an edit below the row's checkpoint, which an incremental check
    starting from the row would not read, is refused with one line."""
    config, store = _config(tmp_path)
    _serve_and_play(config, 3)
    conn = sqlite3.connect(log_records.db_path(store))
    seq, hash_, tree, kid = conn.execute(
        "SELECT seq, hash, tree, key_id FROM log_verified WHERE chain = ''"
    ).fetchone()
    from certification.log.canonical import canonical
    from certification.log.keys import KeyStore

    body = {"seq": seq, "hash": hash_, "tree": json.loads(tree), "key_id": kid}
    v1 = KeyStore(store).load(kid).sign(b"croupier-log-verified-v1\n" + canonical(body))
    edited, data = conn.execute(
        "SELECT seq, data FROM log WHERE type = 'event' AND seq < ? ORDER BY seq LIMIT 1",
        (seq,),
    ).fetchone()
    rec = json.loads(data)
    rec["ts"] += 1
    with conn:
        conn.execute("UPDATE log_verified SET signature = ? WHERE chain = ''", (v1,))
        conn.execute("UPDATE log SET data = ? WHERE seq = ?", (canonical(rec), edited))
    conn.close()
    line = _refused(config)
    assert f"record {edited} altered" in line, line


def test_a_clean_stop_leaves_the_next_start_only_the_new_records_to_check(tmp_path: Path) -> None:
    config, store = _config(tmp_path)
    _serve_and_play(config, 2)
    conn = sqlite3.connect(log_records.db_path(store))
    verified = conn.execute("SELECT seq FROM log_verified").fetchone()[0]
    last_cp = conn.execute("SELECT MAX(seq) FROM log WHERE type = 'checkpoint'").fetchone()[0]
    conn.close()
    assert verified == last_cp
    _serve_and_play(config, 1)  # starts again on the verified store
    assert _verify(store, _root_key(tmp_path, store))[0] == 0


# --- B9: key rotation ----------------------------------------------------------------


def test_rotated_log_verifies_from_the_exported_root(tmp_path: Path) -> None:
    config, store = _config(tmp_path)
    proc = start_serve(config)
    try:
        client = Client(proc.url)
        client.play(2)
        k2 = client.rotate_key()
        client.play(1)
        k3 = client.rotate_key()
        client.play(1)
    finally:
        _stop(proc)
    root = _root_key(tmp_path, store)
    code, out = _verify(store, root)
    assert code == 0, out
    assert k2 in out and k3 in out
    history = tmp_path / "keys.jsonl"
    res = croupier("log", "pubkey", "--store", str(store), "--history")
    history.write_text(res.stdout)
    assert len(res.stdout.splitlines()) == 3
    assert _verify(store, history)[0] == 0
    # The current key alone is not a trust root: it vouches for nothing before it.
    current = tmp_path / "current.pem"
    current.write_text(croupier("log", "pubkey", "--store", str(store), "--current").stdout)
    assert _verify(store, current)[0] == 1
    # And the server starts again on the rotated store.
    _serve_and_play(config, 1)


def test_a_checkpoint_signed_by_an_unadmitted_key_fails(tmp_path: Path) -> None:
    config, store = _config(tmp_path)
    _serve_and_play(config, 2)
    conn = sqlite3.connect(log_records.db_path(store))
    rows = [bytes(d) for (d,) in conn.execute("SELECT data FROM log ORDER BY seq")]
    forger = SigningKey.generate()
    writer = JournalWriter(
        forger, head_seq=len(rows), head_hash=hashlib.sha256(rows[-1]).hexdigest()
    )
    clock = itertools.count(1_900_000_000_000_000)
    recs = writer.append(next(clock), "operator:admin", "cash-in", {"player": "x", "amount": 1})
    recs.append(writer.checkpoint(next(clock)))
    with conn:
        log_records.insert(conn, recs)
    conn.close()
    assert leaf_hash(recs[-1].data)  # the forged checkpoint is well formed
    seq = recs[-1].seq
    code, out = _verify(store, _root_key(tmp_path, store))
    assert code == 1
    assert f"record {seq}: checkpoint signed by key {forger.key_id}" in out
    line = _refused(config)
    assert f"record {seq}" in line and forger.key_id in line
