"""Readers for the known-answer files in tests/data/poker."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "poker"


def load_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def load_csv(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    rows = csv.reader(line for line in lines if line.strip() and not line.startswith("#"))
    return [[field.strip() for field in row] for row in rows]
