"""The regulator's and lab's commands, run through the real `croupier` entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk_ui.cli import main


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli") / "store"
    argv = ["table", "autoplay", "--game", "baccarat-pinnacle", "--rounds", "12",
            "--store", str(d), "--seed", "4", "--quiet", "--sync", "NORMAL"]  # fmt: skip
    assert main(argv) == 0
    return d


def test_autoplay_resumes_to_the_requested_rounds(store: Path, capsys) -> None:
    argv = ["table", "autoplay", "--game", "baccarat-pinnacle", "--rounds", "15",
            "--store", str(store), "--seed", "5", "--quiet", "--sync", "NORMAL"]  # fmt: skip
    assert main(argv) == 0
    assert "15 rounds" in capsys.readouterr().out


def test_audit_verify_export_recall(store: Path, tmp_path: Path, capsys) -> None:
    assert main(["ledger", "audit", "--store", str(store)]) == 0
    assert "AUDIT OK" in capsys.readouterr().out
    assert main(["log", "pubkey", "--store", str(store)]) == 0
    pem = capsys.readouterr().out
    assert pem.startswith("-----BEGIN PUBLIC KEY-----")
    key = tmp_path / "key.pem"
    key.write_text(pem)
    assert main(["log", "verify", "--store", str(store), "--pubkey", str(key)]) == 0
    assert capsys.readouterr().out.startswith("OK:")
    export = tmp_path / "log.jsonl"
    assert main(["log", "export", "--store", str(store), "--out", str(export)]) == 0
    assert main(["log", "verify", str(export), "--pubkey", str(key)]) == 0
    capsys.readouterr()
    # Tamper with one exported record: verify names it and exits non-zero.
    lines = export.read_bytes().splitlines()
    rec = json.loads(lines[40])
    rec["ts"] += 1
    lines[40] = json.dumps(rec, sort_keys=True, separators=(",", ":")).encode()
    export.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["log", "verify", str(export), "--pubkey", str(key)]) == 1
    assert "record 41 altered" in capsys.readouterr().out
    assert main(["log", "recall", "autoplay-baccarat-pinnacle-000003", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game autoplay-baccarat-pinnacle-000003")
    assert "Result seat 0" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ledger", "audit", "--store", "/nonexistent/store"], "no Croupier store"),
        (
            ["log", "verify", "--store", "/nonexistent/x", "--pubkey", "00" * 32],
            "no Croupier store",
        ),
        (["log", "verify", "/nonexistent.jsonl", "--pubkey", "zz"], "cannot read"),
        (
            ["table", "autoplay", "--game", "nope", "--rounds", "1", "--store", "/tmp/x"],
            "unknown game",
        ),
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], message: str, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert err.count("\n") == 1


def test_a_missing_command_module_is_one_clear_line(monkeypatch, capsys) -> None:
    from kiosk_ui import cli

    monkeypatch.setitem(cli.COMMANDS, "nothing", ("kiosk_ui.no_such_cli", "a broken install"))
    assert main(["ledger", "audit", "--store", "/nonexistent/store"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("croupier: error: command 'nothing' is not available")
    assert "kiosk_ui.no_such_cli" in err and err.count("\n") == 1
