"""``croupier games``: list the games, their exact house edges, and simulations.

::

    croupier games list [--json]
    croupier games house-edge GAME [--bet NAME] [--json]
    croupier games simulate GAME --rounds N [--seed S] [--check-exact] [--json]

GAME is a variant id (``baccarat-ez``) or a family name (its first variant), as
:func:`games.catalog.get_variant` resolves it. A house edge is the casino's
expected gain per unit of the initial wager (positive favours the house); with
``--json`` it is an exact fraction ``"p/q"`` plus a decimal string. ``house-edge``
says of every figure whether it is exact (a count), simulated or an approximate
analysis, the player strategy it assumes, and for each figure not exact the
simulation behind it or checking it: rounds, seed, 99.9% interval of the edge and
the command that made it. Only the standard library is imported here; the
families load inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any

SIGNIFICANT_DIGITS = 15


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``games`` sub-commands to ``parser``."""
    sub = parser.add_subparsers(dest="games_command", metavar="SUBCOMMAND")
    parser.set_defaults(handler=_help(parser))

    p = sub.add_parser("list", help="every game family and variant with its limits")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("house-edge", help="exact house edge of each bet of a game")
    p.add_argument("game", metavar="GAME", help="variant id or family name")
    p.add_argument("--bet", metavar="NAME", help="only this bet")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_house_edge)

    p = sub.add_parser("simulate", help="simulate a game's bets (vectorised)")
    p.add_argument("game", metavar="GAME", help="variant id or family name")
    p.add_argument("--rounds", type=int, required=True, metavar="N", help="rounds to simulate")
    p.add_argument("--seed", type=int, metavar="S", help="seed (default: drawn and reported)")
    p.add_argument(
        "--check-exact",
        action="store_true",
        help="also compute the exact edge and say whether it lies in the interval",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_simulate)


def _help(parser: argparse.ArgumentParser) -> Any:
    def show(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return show


def _dollars(cents: int) -> str:
    dollars, rest = divmod(cents, 100)
    return f"${dollars:,}.{rest:02d}"


def cmd_list(args: argparse.Namespace) -> int:
    from games import catalog

    rows: list[dict[str, Any]] = []
    for fam_name, fam in catalog.families().items():
        for v in fam.VARIANTS:
            rows.append(
                {
                    "id": v.id,
                    "family": fam_name,
                    "title": v.title,
                    "source": v.source,
                    "limits": {
                        bet: {"min": lim.minimum, "max": lim.maximum, "increment": lim.increment}
                        for bet, lim in v.limits.items()
                    },
                }
            )
    if args.json:
        print(json.dumps({"games": rows}, indent=2))
        return 0
    if not rows:
        print("no game families are installed")
        return 0
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        print(f"{r['id']:<{width}}  {r['title']}")
        print(f"{'':<{width}}  source: {r['source']}")
        for bet, lim in r["limits"].items():
            span = f"{_dollars(lim['min'])} - {_dollars(lim['max'])}"
            print(f"{'':<{width}}    {bet:<18} {span} in {_dollars(lim['increment'])} steps")
    return 0


def decimal_text(value: Fraction, digits: int = SIGNIFICANT_DIGITS) -> str:
    """``value`` as a decimal string with ``digits`` significant digits (no float)."""
    ctx = Context(prec=digits)
    return str(ctx.divide(Decimal(value.numerator), Decimal(value.denominator)))


def percent_text(value: Fraction, places: int = 4) -> str:
    """``value`` as a percentage with ``places`` decimals: ``'1.0579%'``."""
    scaled = Decimal(value.numerator * 100) / Decimal(value.denominator)
    return f"{scaled.quantize(Decimal(1).scaleb(-places))}%"


def _edges(game: str, bet: str | None) -> tuple[str, dict[str, Any]]:
    from games import catalog
    from games.core.errors import UnknownGame

    variant = catalog.get_variant(game)
    edges = catalog.family_of(variant).house_edge(variant)
    if bet is not None:
        if bet not in edges:
            known = ", ".join(sorted(edges))
            raise UnknownGame(f"{variant.id} has no bet {bet!r}; bets: {known}")
        edges = {bet: edges[bet]}
    return variant.id, edges


def _run_json(run: Any) -> dict[str, Any] | None:
    if run is None:
        return None
    return {
        "rounds": run.rounds,
        "seed": run.seed,
        "house_edge": f"{run.edge.numerator}/{run.edge.denominator}",
        "interval_999": [decimal_text(run.low), decimal_text(run.high)],
        "built_by": run.built_by,
    }


def _edge_json(e: Any) -> dict[str, Any]:
    return {
        "house_edge": f"{e.edge.numerator}/{e.edge.denominator}",
        "house_edge_decimal": decimal_text(e.edge),
        "exact": e.exact,
        "kind": e.kind,
        "method": e.method,
        "note": e.note,
        "strategy": e.strategy,
        "simulation": _run_json(e.simulation),
    }


def _run_text(run: Any, kind: str) -> str:
    what = "simulated" if kind == "simulated" else "checked by simulation"
    if run is None:
        return f"{what}: no run attached"
    text = (
        f"{what}: {run.rounds:,} rounds, seed {run.seed}, 99.9% interval "
        f"{percent_text(run.low)} to {percent_text(run.high)}"
    )
    return text + (f" (made by: {run.built_by})" if run.built_by else " (run on the fly)")


def _collection_json(game: str, edges: dict[str, Any]) -> dict[str, Any]:
    """A California table's collection and each bet's cost per hand (issue 14 point 12)."""
    from games import catalog
    from games.core.collection import cost_per_hand

    variant = catalog.get_variant(game)
    schedule = variant.collection
    if schedule is None:
        return {}
    costs: dict[str, Any] = {}
    for bet, e in edges.items():
        limit = variant.limits.get(bet)
        if limit is None:
            continue
        cost = cost_per_hand(schedule, e.edge, limit.minimum)
        costs[bet] = {
            "wager": limit.minimum,
            "edge_cost": decimal_text(e.edge * limit.minimum),
            "collection": schedule.fee(limit.minimum),
            "cost_per_hand": f"{cost.numerator}/{cost.denominator}",
            "cost_per_hand_decimal": decimal_text(cost),
            "cost_per_unit": decimal_text(cost / limit.minimum),
        }
    return {
        "collection": {
            "tiers": [list(t) for t in schedule.tiers],
            "above": schedule.above,
            "source": schedule.source,
            "wager": "the bet alone at its table minimum",
        },
        "cost_per_hand": costs,
    }


def _collection_lines(game: str, edges: dict[str, Any]) -> list[str]:
    """The same as text: the schedule, then each bet's edge and cost at the table minimum."""
    info = _collection_json(game, edges)
    if not info:
        return []
    c = info["collection"]
    tiers = ", ".join(f"{_dollars(fee)} to {_dollars(up)}" for up, fee in c["tiers"])
    lines = [
        f"  collection per seat per hand (charged at the deal, win or lose): {tiers}, "
        f"{_dollars(c['above'])} above",
        "  the player's cost of a hand with the bet alone at its table minimum:",
    ]
    for bet, row in info["cost_per_hand"].items():
        cost = Decimal(row["cost_per_hand_decimal"]) / 100
        edge = Decimal(row["edge_cost"]) / 100
        lines.append(
            f"    {bet}: {_dollars(row['wager'])} wager, edge ${edge:.4f} + collection "
            f"{_dollars(row['collection'])} = ${cost:.4f} "
            f"({Decimal(row['cost_per_unit']) * 100:.2f}% of the wager)"
        )
    return lines


def cmd_house_edge(args: argparse.Namespace) -> int:
    variant_id, edges = _edges(args.game, args.bet)
    if args.json:
        out = {
            "game": variant_id,
            "bets": {bet: _edge_json(e) for bet, e in edges.items()},
            **_collection_json(variant_id, edges),
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"{variant_id}: house edge per unit of the initial wager (positive favours the house)")
    width = max([len(b) for b in edges] + [3])
    print(f"  {'bet':<{width}}  {'edge':>10}  {'':<9}  method")
    pad = " " * (width + 27)
    for bet, e in edges.items():
        note = f" ({e.note})" if e.note else ""
        print(f"  {bet:<{width}}  {percent_text(e.edge):>10}  {e.kind:<9}  {e.method}{note}")
        if e.strategy:
            print(f"{pad}strategy: {e.strategy}")
        if not e.exact:
            print(f"{pad}{_run_text(e.simulation, e.kind)}")
    for line in _collection_lines(variant_id, edges):
        print(line)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from games import catalog

    if args.rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {args.rounds}")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    if seed < 0:
        raise ValueError(f"--seed must not be negative, got {seed}")
    variant = catalog.get_variant(args.game)
    family = catalog.family_of(variant)
    result = family.simulate(variant, args.rounds, seed)
    exact = family.house_edge(variant) if args.check_exact else {}
    bets: dict[str, dict[str, Any]] = {}
    for bet, s in result.bets.items():
        row: dict[str, Any] = {
            "rounds": s.rounds,
            "mean_return": s.mean,
            "std_error": s.std_error,
            "ci_low": s.ci_low,
            "ci_high": s.ci_high,
            "confidence": "99.9%",
        }
        if bet in exact:
            ret = -exact[bet].edge
            row["exact_return"] = decimal_text(ret)
            row["exact_in_interval"] = Fraction(s.ci_low) <= ret <= Fraction(s.ci_high)
        bets[bet] = row
    if args.json:
        out = {"game": result.variant, "rounds": result.rounds, "seed": result.seed, "bets": bets}
        print(json.dumps(out, indent=2))
        return 0
    print(f"{result.variant}: {result.rounds:,} rounds, seed {result.seed}")
    print("  return per unit of the initial wager, with its 99.9% confidence interval")
    width = max([len(b) for b in bets] + [3])
    for bet, row in bets.items():
        line = (
            f"  {bet:<{width}}  {row['mean_return'] * 100:+9.4f}%"
            f"  [{row['ci_low'] * 100:+.4f}%, {row['ci_high'] * 100:+.4f}%]"
        )
        if "exact_return" in row:
            ok = "inside" if row["exact_in_interval"] else "OUTSIDE"
            line += f"  exact {Decimal(row['exact_return']) * 100:+.4f}% ({ok})"
        print(line)
    failed = [b for b, row in bets.items() if row.get("exact_in_interval") is False]
    if failed:
        print(f"exact return outside the interval for: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
