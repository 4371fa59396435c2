"""Simulation runs shipped with a family: figures too long to simulate on every call.

A figure that needs a player strategy and more than a count can give (the pai gow
main bet, Oasis Poker's draws, 21st Century Blackjack) is a simulation of at least
:data:`MIN_ROUNDS` rounds, made once by the command the entry names and shipped as
``games/<family>/data/simulated.json``::

    {"spec": 1, "runs": {"<key>": {"rules": {...}, "rounds": N, "seed": S,
                                   "edge": "p/q", "low": "p/q", "high": "p/q",
                                   "built_by": "python -m ..."}}}

``rules`` is what the figure depends on, as plain data: a family uses a run only
while its rules still give the same ``rules`` (else it simulates on the fly, fewer
rounds, and says so), and a test per family checks every shipped run is used and
has :data:`MIN_ROUNDS` behind it.

>>> from fractions import Fraction
>>> run = SimulationRun(rounds=10**7, seed=3, edge=Fraction(1, 50), low=Fraction(1, 60),
...                     high=Fraction(1, 40), built_by="make")
>>> from_entry(entry(run, {"a": 1}), {"a": 1}) == run, from_entry(entry(run, {"a": 1}), {})
(True, None)
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from games.core.figures import SimulationRun

#: the fewest rounds behind a shipped simulated figure
MIN_ROUNDS = 10_000_000
FILE = "simulated.json"


def read_runs(package: str) -> dict[str, dict[str, Any]]:
    """The entries of ``package``'s ``simulated.json`` by key ({} when it has none)."""
    path = resources.files(package).joinpath(FILE)
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    if data.get("spec") != 1:
        raise ValueError(f"{package}/{FILE}: spec must be 1")
    runs: dict[str, dict[str, Any]] = data["runs"]
    return runs


def from_entry(item: dict[str, Any] | None, rules: dict[str, Any]) -> SimulationRun | None:
    """The run of one entry if it was made under ``rules``, else None."""
    if item is None or item.get("rules") != rules:
        return None
    return SimulationRun(
        rounds=int(item["rounds"]),
        seed=int(item["seed"]),
        edge=Fraction(item["edge"]),
        low=Fraction(item["low"]),
        high=Fraction(item["high"]),
        built_by=str(item["built_by"]),
    )


def shipped_run(package: str, key: str, rules: dict[str, Any]) -> SimulationRun | None:
    """The shipped run ``key`` of ``package`` if it was made under ``rules``."""
    return from_entry(read_runs(package).get(key), rules)


def entry(run: SimulationRun, rules: dict[str, Any]) -> dict[str, Any]:
    """One ``simulated.json`` entry for ``run`` made under ``rules``."""
    return {
        "rules": rules,
        "rounds": run.rounds,
        "seed": run.seed,
        "edge": fraction_text(run.edge),
        "low": fraction_text(run.low),
        "high": fraction_text(run.high),
        "built_by": run.built_by,
    }


def fraction_text(x: Fraction) -> str:
    """``x`` as an exact decimal when it has one (``"0.0119"``), else ``"p/q"``.

    >>> [fraction_text(Fraction(*x)) for x in ((119, 10000), (-1, 8), (1, 3), (7, 1))]
    ['0.0119', '-0.125', '1/3', '7']
    """
    den, places = x.denominator, 0
    while den % 10 == 0 or den % 2 == 0 or den % 5 == 0:
        if den % 10 == 0:
            den //= 10
        elif den % 2 == 0:
            den //= 2
        else:
            den //= 5
        places += 1
    if den != 1:
        return f"{x.numerator}/{x.denominator}"
    scaled = abs(x.numerator) * 10**places // x.denominator
    whole, frac = divmod(scaled, 10**places)
    sign = "-" if x < 0 else ""
    return f"{sign}{whole}.{frac:0{places}d}".rstrip("0").rstrip(".") if places else f"{x}"


def write_runs(directory: Path, runs: dict[str, dict[str, Any]]) -> Path:
    """Write ``runs`` (merged over the entries already there) to ``directory``/simulated.json."""
    path = directory / FILE
    old: dict[str, dict[str, Any]] = {}
    if path.is_file():
        old = json.loads(path.read_text("utf-8"))["runs"]
    merged = {**old, **runs}
    text = json.dumps({"spec": 1, "runs": dict(sorted(merged.items()))}, indent=2)
    path.write_text(text + "\n", encoding="utf-8")
    return path


__all__ = [
    "FILE",
    "MIN_ROUNDS",
    "entry",
    "fraction_text",
    "from_entry",
    "read_runs",
    "shipped_run",
    "write_runs",
]
