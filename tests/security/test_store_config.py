"""Issue 12, point 14: configuration is typed, and every start-up error is one line.

Attack: ``[demo] enabled = "false"`` (a string) was read as true, so a real-money
appliance handed every new player $1,000; ``all_variants = "yes"`` and
``session_minutes = -10`` were accepted. Now each value is checked by type and
range and an unknown key is refused, the error naming the key and the value; and
whatever stops ``croupier serve`` from starting (bad variant, bad RNG URL, short
operator password, corrupt store, refused simulator, unreadable config, port in
use) is one line ``croupier: error: ...`` with exit status 2, never a traceback.
"""

from __future__ import annotations

import copy
import socket
from pathlib import Path
from typing import Any

import pytest

from .conftest import croupier, real_money_settings, write_config
from .test_store_missing import assert_one_line_refusal, serve_outcome


def _set(data: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    table, key = dotted.split(".")
    out.setdefault(table, {})[key] = value
    return out


# (key, value as written in the TOML, words the one-line error must hold)
TYPED = [
    ("demo.enabled", "false", ('[demo] enabled = "false"', "true or false")),
    ("lobby.all_variants", "yes", ('[lobby] all_variants = "yes"', "true or false")),
    ("operator.session_minutes", -10, ("[operator] session_minutes = -10", "at least 1")),
    ("operator.session_minutes", "30", ('[operator] session_minutes = "30"', "whole number")),
    ("demo.credit", 1.5, ("[demo] credit = 1.5", "whole number")),
    ("demo.credit", -100, ("[demo] credit = -100", "at least 0")),
    ("store.synchronous", "OFF", ('[store] synchronous = "OFF"', "FULL")),
    ("store.dir", "", ('[store] dir = ""', "empty")),
    ("operator.user", "", ('[operator] user = ""', "empty")),
    ("demo.enable", True, ("[demo] enable", "unknown key", "enabled")),
    ("serve.stop_seconds", 0, ("[serve] stop_seconds = 0", "at least 1")),
    ("serve.stop_seconds", "soon", ('[serve] stop_seconds = "soon"', "number")),
    ("rng.source", "dice", ("rng.source = 'dice'", "expected one of")),
    ("rng.prediction_resistance", "true", ("prediction_resistance", "bool")),
]


@pytest.mark.parametrize(("key", "value", "words"), TYPED, ids=[f"{k}={v!r}" for k, v, _ in TYPED])
def test_a_mistyped_value_is_refused_naming_key_and_value(
    tmp_path: Path, key: str, value: Any, words: tuple[str, ...]
) -> None:
    config = write_config(tmp_path, _set(real_money_settings(tmp_path / "store"), key, value))
    assert_one_line_refusal(serve_outcome(config), str(config), *words)
    init = croupier("store", "init", "--config", str(config))
    assert_one_line_refusal((init.returncode, init.stderr), *words)
    assert not (tmp_path / "store").exists()  # refused before anything was made


def test_the_attack_string_false_does_not_hand_out_demo_credit(tmp_path: Path) -> None:
    """The reviewed attack itself: a quoted "false" never turns demo credit on."""
    from kiosk_ui.settings import SettingsError, parse

    data = _set(real_money_settings(tmp_path / "store"), "demo.enabled", "false")
    with pytest.raises(SettingsError, match=r'\[demo\] enabled = "false"'):
        parse(data)
    assert parse(_set(data, "demo.enabled", False)).demo is False


def _initialised(tmp_path: Path, data: dict[str, Any]) -> Path:
    good = write_config(tmp_path, real_money_settings(Path(data["store"]["dir"])), "init.toml")
    made = croupier("store", "init", "--config", str(good))
    assert made.returncode == 0, made.stderr
    return write_config(tmp_path, data)


@pytest.mark.slow
def test_start_up_errors_are_one_line(tmp_path: Path) -> None:
    store = tmp_path / "store"
    base = real_money_settings(store)

    bad_variant = copy.deepcopy(base)
    bad_variant["tables"] = [{"id": "bac", "variant": "no-such-game"}]
    assert_one_line_refusal(serve_outcome(_initialised(tmp_path, bad_variant)), "no-such-game")

    bad_url = _set(base, "rng.source", "hw")
    bad_url["rng"]["url"] = "nosuch://trng"
    assert_one_line_refusal(serve_outcome(write_config(tmp_path, bad_url)), "nosuch")

    short = _set(base, "operator.password", "short")
    line = assert_one_line_refusal(serve_outcome(write_config(tmp_path, short)), "password", "8")
    assert "short" not in line.split("password", 1)[1]  # the password itself is not echoed

    simulator = _set(base, "rng.source", "sim")
    assert_one_line_refusal(serve_outcome(write_config(tmp_path, simulator)), "sim")

    unreadable = tmp_path / "missing.toml"
    assert_one_line_refusal(serve_outcome(unreadable), "cannot read config", str(unreadable))
    not_toml = tmp_path / "broken.toml"
    not_toml.write_text("[demo\nenabled = true\n")
    assert_one_line_refusal(serve_outcome(not_toml), "not valid TOML", str(not_toml))

    config = write_config(tmp_path, base)
    (store / "croupier.db").write_bytes(b"this is not a SQLite database" * 100)
    for name in ("croupier.db-wal", "croupier.db-shm"):
        (store / name).unlink(missing_ok=True)
    assert_one_line_refusal(serve_outcome(config), "cannot open store", str(store))


def test_port_in_use_is_one_line(tmp_path: Path) -> None:
    config = _initialised(tmp_path, real_money_settings(tmp_path / "store"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, err = serve_outcome(config, "--port", str(port))
    assert_one_line_refusal((status, err), f"cannot listen on 127.0.0.1:{port}")
