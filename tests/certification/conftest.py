"""Shared fixtures for the certification tests: the NIST sample data under tests/data."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "nist-sts"


@pytest.fixture(scope="session")
def nist_data() -> Path:
    return DATA
