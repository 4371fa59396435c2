"""Small inline SVG charts for the HTML report (no plotting library needed).

Three kinds: ``histogram`` (bars over fixed bins), ``proportions`` (one dot per row with
the acceptance band) and ``lines`` (series over a logarithmic x axis with an optional
reference line). Output is a self-contained ``<svg>`` element; all text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")


def _frame(width: int, height: int, title: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">'
        f'<text x="{width / 2:.0f}" y="14" text-anchor="middle" font-size="12" '
        f'font-family="sans-serif">{escape(title)}</text>' + "".join(body) + "</svg>"
    )


def histogram(counts: Sequence[int], title: str, width: int = 220, height: int = 140) -> str:
    """Bars for bins of [0, 1) (the NIST ten p-value bins), with the uniform level dashed."""
    left, right, top, bottom = 28, 6, 22, 20
    pw, ph = width - left - right, height - top - bottom
    peak = max(max(counts, default=0), 1)
    total = sum(counts)
    body = [
        f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#444"/>',
        f'<text x="{left - 3}" y="{top + 8}" text-anchor="end" font-size="9">{peak}</text>',
        f'<text x="{left}" y="{height - 6}" font-size="9">0</text>',
        f'<text x="{left + pw}" y="{height - 6}" text-anchor="end" font-size="9">1</text>',
    ]
    bw = pw / max(len(counts), 1)
    for i, c in enumerate(counts):
        h = ph * c / peak
        body.append(
            f'<rect x="{left + i * bw + 1:.1f}" y="{top + ph - h:.1f}" width="{bw - 2:.1f}" '
            f'height="{h:.1f}" fill="{PALETTE[0]}"><title>{c}</title></rect>'
        )
    if counts and total:
        level = top + ph - ph * (total / len(counts)) / peak
        body.append(
            f'<line x1="{left}" y1="{level:.1f}" x2="{left + pw}" y2="{level:.1f}" '
            'stroke="#888" stroke-dasharray="3,3"/>'
        )
    return _frame(width, height, title, body)


def proportions(
    points: Sequence[tuple[str, float | None, bool]],
    low: float,
    high: float,
    title: str,
    width: int = 900,
    height: int = 220,
) -> str:
    """One dot per row (label, proportion, ok) against the band [low, high]."""
    left, right, top, bottom = 44, 10, 22, 24
    pw, ph = width - left - right, height - top - bottom
    vals = [p for _, p, _ in points if p is not None]
    y_min = min([low, *vals]) - 0.005 if vals else low - 0.01
    y_max = 1.0

    def y(v: float) -> float:
        return top + ph * (y_max - v) / max(y_max - y_min, 1e-9)

    body = [
        f'<rect x="{left}" y="{y(high):.1f}" width="{pw}" height="{y(low) - y(high):.1f}" '
        'fill="#e8f4e8"/>',
        f'<line x1="{left}" y1="{y(low):.1f}" x2="{left + pw}" y2="{y(low):.1f}" '
        'stroke="#2ca02c" stroke-dasharray="4,3"/>',
        f'<text x="{left - 3}" y="{y(low) + 3:.1f}" text-anchor="end" font-size="9">'
        f"{low:.4f}</text>",
        f'<text x="{left - 3}" y="{y(y_max) + 8:.1f}" text-anchor="end" font-size="9">1</text>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#444"/>',
    ]
    step = pw / max(len(points), 1)
    for i, (label, p, ok) in enumerate(points):
        if p is None:
            continue
        colour = PALETTE[0] if ok else PALETTE[1]
        body.append(
            f'<circle cx="{left + (i + 0.5) * step:.1f}" cy="{y(p):.1f}" r="2.2" fill="{colour}">'
            f"<title>{escape(label)}: {p:.4f}</title></circle>"
        )
    body.append(
        f'<text x="{left + pw / 2:.0f}" y="{height - 6}" text-anchor="middle" font-size="9">'
        f"{len(points)} test variants, in the NIST order</text>"
    )
    return _frame(width, height, title, body)


def lines(
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    reference: float | None,
    title: str,
    width: int = 440,
    height: int = 220,
) -> str:
    """Series of (x, y) points on a log10 x axis, with a dashed horizontal reference."""
    left, right, top, bottom = 52, 10, 22, 34
    pw, ph = width - left - right, height - top - bottom
    xs = [x for _, pts in series for x, _ in pts if x > 0]
    ys = [v for _, pts in series for _, v in pts] + ([reference] if reference is not None else [])
    if not xs or not ys:
        return _frame(width, height, title, [])
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = min(ys), max(ys)
    pad = (y1 - y0) * 0.1 or 0.01
    y0, y1 = y0 - pad, y1 + pad

    def px(x: float) -> float:
        return left + pw * (math.log10(x) - x0) / max(x1 - x0, 1e-9)

    def py(v: float) -> float:
        return top + ph * (y1 - v) / (y1 - y0)

    body = [
        f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#444"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#444"/>',
        f'<text x="{left - 3}" y="{top + 8}" text-anchor="end" font-size="9">{y1:.4f}</text>',
        f'<text x="{left - 3}" y="{top + ph}" text-anchor="end" font-size="9">{y0:.4f}</text>',
        f'<text x="{left}" y="{top + ph + 12}" font-size="9">{min(xs):,.0f}</text>',
        f'<text x="{left + pw}" y="{top + ph + 12}" text-anchor="end" font-size="9">'
        f"{max(xs):,.0f} rounds</text>",
    ]
    if reference is not None:
        body.append(
            f'<line x1="{left}" y1="{py(reference):.1f}" x2="{left + pw}" '
            f'y2="{py(reference):.1f}" stroke="#888" stroke-dasharray="4,3"/>'
        )
    for k, (name, pts) in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        path = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in pts if x > 0)
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        body.append(
            f'<text x="{left + 4 + 90 * k}" y="{height - 6}" font-size="9" fill="{colour}">'
            f"{escape(name)}</text>"
        )
    return _frame(width, height, title, body)
