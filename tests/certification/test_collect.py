"""Issue 19, point 5: GLI-style collection through the production code path.

- ``certify collect outcomes`` makes the table runtime's own calls on the same rng
  stack: seeded alike, its first shoe is the shoe a real table dealt, as that table's
  signed log reveals it (``log outcomes``);
- every file is named by SHA-256 in ``collect.json``, and a changed file is refused;
- the chi-square tests at 99% pass the appliance's outcomes and fail biased ones (a
  die that never shows six, an ace of spades always on top);
- a revealed shoe that does not match its commitment is refused;
- ``collect raw`` writes the source's samples and the DRBG's bytes, reproducibly.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from certification.collect.files import check_manifest, write_lines, write_manifest
from certification.collect.from_log import outcomes_from_lines
from certification.collect.tests import test_directory as run_tests
from certification.errors import InputFormatError
from kiosk_ui.cli import main


def croupier(*args: str) -> int:
    return main(list(args))


def test_collected_shoe_is_the_shoe_a_table_dealt(tmp_path: Path) -> None:
    store, logged, collected = tmp_path / "store", tmp_path / "logged", tmp_path / "collected"
    assert croupier("table", "autoplay", "--game", "baccarat-pinnacle", "--rounds", "2",
                    "--store", str(store), "--seed", "3", "--quiet") == 0  # fmt: skip
    assert croupier("log", "outcomes", "--store", str(store), "--out", str(logged)) == 0
    assert croupier(
        "certify",
        "collect",
        "outcomes",
        "--source",
        "sim",
        "--seed",
        "3",
        "--out",
        str(collected),
        "--shoes",
        "1",
        "--decks",
        "6",
        "--rolls",
        "0",
        "--spins",
        "0",
        "--deals",
        "0",
    ) in (0, 1)  # one shoe is too few to test: files only
    table_shoe = (logged / "shoes.txt").read_text().splitlines()[0]
    assert table_shoe.startswith("6:") and len(table_shoe.split(",")) == 312
    assert (collected / "shoes.txt").read_text().splitlines()[0] == table_shoe


def test_log_outcomes_refuses_a_reveal_that_is_not_the_committed_shoe(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert croupier("table", "autoplay", "--game", "baccarat-pinnacle", "--rounds", "1",
                    "--store", str(store), "--seed", "5", "--quiet") == 0  # fmt: skip
    export = tmp_path / "log.jsonl"
    assert croupier("log", "export", "--store", str(store), "--out", str(export)) == 0
    lines = export.read_bytes().splitlines()
    assert len(outcomes_from_lines(lines).shoes) == 1
    swapped = []
    for line in lines:
        rec = orjson.loads(line)
        if rec["type"] == "game-end":
            cards = rec["body"]["shoe_reveal"]["cards"].split(",")
            cards[0], cards[1] = cards[1], cards[0] if cards[0] != cards[1] else cards[2]
            rec["body"]["shoe_reveal"]["cards"] = ",".join(cards)
        swapped.append(orjson.dumps(rec))
    with pytest.raises(InputFormatError, match="does not match its commitment"):
        outcomes_from_lines(swapped)


def test_collection_files_are_hashed_tested_and_a_changed_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c"
    assert croupier("certify", "collect", "outcomes", "--source", "sim", "--seed", "7", "--out",
                    str(out), "--shoes", "300", "--decks", "2", "--rolls", "3000", "--spins",
                    "3000", "--deals", "3000", "--json") == 0  # fmt: skip
    result = json.loads(capsys.readouterr().out)
    assert result["passed"] is True
    names = {t["name"] for t in result["tests"]}
    assert {"shoe2-positions", "video-poker-positions", "dice2-sums", "wheel-38"} <= names
    assert len([n for n in names if n.startswith("shoe2-position-")]) == 104
    manifest = json.loads((out / "collect.json").read_text())
    assert set(manifest["files"]) == {"shoes.txt", "dice.txt", "wheel.txt", "video_poker.txt"}
    again = tmp_path / "again"  # the same seed, the same files, the same hashes
    croupier("certify", "collect", "outcomes", "--source", "sim", "--seed", "7", "--out",
             str(again), "--shoes", "300", "--decks", "2", "--rolls", "3000", "--spins",
             "3000", "--deals", "3000")  # fmt: skip
    assert json.loads((again / "collect.json").read_text())["files"] == manifest["files"]

    wheel = (out / "wheel.txt").read_text().splitlines()
    wheel[0] = "38:00" if wheel[0] != "38:00" else "38:1"
    (out / "wheel.txt").write_text("\n".join(wheel) + "\n")
    with pytest.raises(InputFormatError, match="does not match its SHA-256"):
        check_manifest(out)


def test_biased_outcomes_fail_at_99_percent(tmp_path: Path) -> None:
    import random

    gen = random.Random(1)
    dice = [f"{gen.randint(1, 5)},{gen.randint(1, 6)}" for _ in range(3000)]  # die 1: no six
    shoes = []
    for _ in range(400):
        deck = list(range(51))
        gen.shuffle(deck)
        shoes.append("1:" + ",".join(map(str, [51, *deck])))  # ace of spades always first
    n = {"dice.txt": write_lines(tmp_path / "dice.txt", dice),
         "shoes.txt": write_lines(tmp_path / "shoes.txt", shoes)}  # fmt: skip
    write_manifest(tmp_path, {"collection": "test"}, n)
    result = run_tests(tmp_path)
    failed = {t["name"] for t in result["tests"] if not t["passed"]}
    assert result["passed"] is False
    assert {"dice2-die-1", "shoe1-position-1", "shoe1-positions"} <= failed
    assert "dice2-die-2" not in failed


def test_collect_raw_writes_the_source_and_the_drbg_before_scaling(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert croupier("certify", "collect", "raw", "--source", "sim", "--seed", "2", "--out",
                        str(out), "--raw-bytes", "50000", "--drbg-bytes", "80000") == 0  # fmt: skip
    files = check_manifest(a)["files"]
    assert isinstance(files, dict)
    assert files["raw.bin"]["bytes"] == 50_000 and files["drbg.bin"]["bytes"] == 80_000
    assert (a / "drbg.bin").read_bytes() == (b / "drbg.bin").read_bytes()  # seeded: reproducible
    assert (a / "raw.bin").read_bytes() != (a / "drbg.bin").read_bytes()[:50_000]
