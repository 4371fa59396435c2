"""One self-contained HTML page for a certification run: tables plus inline SVG plots.

Sections: SP 800-22 final analysis (p-value histograms per test, the proportion chart,
the NIST table), FIPS 140-2 counts, game-outcome tests, return to player with
convergence plots, and the external batteries (dieharder, rngtest, ent). A lab attaches
this page (with report.json and the NIST text) to a submission; nothing is loaded from
the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from certification.report import svg
from certification.report.external_html import render_external
from certification.stats.sp800_22.battery import TEST_ORDER
from certification.stats.sp800_22.final_analysis import VariantSummary, pass_bounds

STYLE = """
body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;margin-top:32px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}
td,th{border:1px solid #ddd;padding:3px 6px;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}
.fail{color:#b00;font-weight:bold}.ok{color:#070}
.grid{display:flex;flex-wrap:wrap;gap:6px}
pre{background:#f8f8f8;padding:8px;font-size:11px;overflow-x:auto}
"""


def _status(ok: bool) -> str:
    return '<span class="ok">pass</span>' if ok else '<span class="fail">FAIL</span>'


def _histograms(summaries: Sequence[VariantSummary]) -> str:
    charts = []
    for test in TEST_ORDER:
        rows = [s for s in summaries if s.test == test]
        if not rows:
            continue
        bins = [sum(s.histogram[i] for s in rows) for i in range(10)]
        label = test if len(rows) == 1 else f"{test} ({len(rows)} variants)"
        charts.append(svg.histogram(bins, label))
    return '<div class="grid">' + "".join(charts) + "</div>"


def _proportion_chart(summaries: Sequence[VariantSummary]) -> str:
    general = [s for s in summaries if s.sample_size]
    if not general:
        return "<p>No proportions (no applicable sequences).</p>"
    size = max(s.sample_size for s in general)
    low, high = pass_bounds(size)
    points = [
        (f"{s.test} {s.variant or ''}".strip(), s.proportion, s.proportion_ok) for s in summaries
    ]
    return svg.proportions(
        points, low / size, min(high / size, 1.0), f"Proportion passing (m = {size})"
    )


def _nist_table(summaries: Sequence[VariantSummary]) -> str:
    head = (
        "<tr>" + "".join(f"<th>C{i}</th>" for i in range(1, 11)) + "<th>P-value (uniformity)</th>"
        '<th>proportion</th><th class="l">test</th><th class="l">variant</th></tr>'
    )
    body = []
    for s in summaries:
        uni = "----" if s.uniformity_p is None else f"{s.uniformity_p:.6f}"
        uni_cls = "" if s.uniformity_ok else ' class="fail"'
        prop = "------" if not s.sample_size else f"{s.passed}/{s.sample_size}"
        prop_cls = "" if s.proportion_ok or not s.sample_size else ' class="fail"'
        body.append(
            "<tr>"
            + "".join(f"<td>{c}</td>" for c in s.histogram)
            + f"<td{uni_cls}>{uni}</td><td{prop_cls}>{prop}</td>"
            f'<td class="l">{escape(s.test)}</td><td class="l">{escape(s.variant or "")}</td></tr>'
        )
    return "<table>" + head + "".join(body) + "</table>"


def _fips_table(fips: Mapping[str, object]) -> str:
    tests = fips.get("tests", {})
    assert isinstance(tests, dict)
    rows = "".join(f'<tr><td class="l">{escape(k)}</td><td>{v}</td></tr>' for k, v in tests.items())
    return (
        f"<p>bits received: {fips.get('bits_received')}; blocks passed: "
        f"{fips.get('successes')}; blocks failed: {fips.get('failures')}</p>"
        f'<table><tr><th class="l">test</th><th>failed blocks</th></tr>{rows}</table>'
    )


def _games_table(games: Mapping[str, object]) -> str:
    checks = games.get("distribution_tests", [])
    assert isinstance(checks, list)
    rows = "".join(
        f'<tr><td class="l">{escape(str(c["name"]))}</td><td class="l">'
        f"{escape(str(c['description']))}</td><td>{c['samples']}</td>"
        f"<td>{float(c['statistic']):.3f}</td><td>{c['dof']}</td>"
        f"<td>{float(c['p_value']):.6f}</td><td>{_status(bool(c['passed']))}</td></tr>"
        for c in checks
    )
    return (
        '<table><tr><th class="l">test</th><th class="l">what</th><th>samples</th>'
        f"<th>statistic</th><th>dof</th><th>P-value</th><th>result</th></tr>{rows}</table>"
    )


def _rtp_table(games: Mapping[str, object]) -> str:
    rtp = games.get("rtp", [])
    assert isinstance(rtp, list)
    rows = "".join(
        f'<tr><td class="l">{escape(str(r["variant"]))}</td><td class="l">{escape(str(r["bet"]))}'
        f"</td><td>{r['rounds']}</td><td>{float(r['expected_rtp']):.5%}</td>"
        f"<td>{float(r['simulated_rtp']):.5%}</td><td>{float(r['deviation_se']):.2f}</td>"
        f"<td>{_status(bool(r['passed']))}</td></tr>"
        for r in rtp
    )
    return (
        '<table><tr><th class="l">variant</th><th class="l">bet</th><th>rounds</th>'
        "<th>exact RTP</th><th>simulated RTP</th><th>deviation (SE)</th><th>result</th></tr>"
        f"{rows}</table>"
    )


def _convergence(
    curves: Mapping[str, Sequence[tuple[int, Mapping[str, Sequence[float]]]]],
    exact: Mapping[str, Mapping[str, float]],
) -> str:
    """Per game: simulated minus exact RTP of up to four bets against rounds (0 = exact)."""
    charts = []
    for game, points in curves.items():
        known = exact.get(game, {})
        bets = [b for b in (points[-1][1] if points else {}) if b in known][:4]
        series = [
            (bet, [(float(n), float(v[bet][0]) - known[bet]) for n, v in points if bet in v])
            for bet in bets
        ]
        charts.append(svg.lines(series, 0.0, f"{game}: simulated - exact RTP"))
    return '<div class="grid">' + "".join(charts) + "</div>"


def render(
    *,
    title: str,
    meta: Mapping[str, object],
    summaries: Sequence[VariantSummary],
    nist_text: str,
    fips: Mapping[str, object] | None,
    games: Mapping[str, object] | None,
    convergence: Mapping[str, Sequence[tuple[int, Mapping[str, Sequence[float]]]]] | None = None,
    exact_rtp: Mapping[str, Mapping[str, float]] | None = None,
    external: Mapping[str, Any] | None = None,
) -> str:
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1><table>",
    ]
    parts += [f'<tr><th class="l">{escape(k)}</th><td class="l">{escape(str(v))}</td></tr>'
              for k, v in meta.items()]  # fmt: skip
    parts.append("</table>")
    parts.append("<h2>NIST SP 800-22 Rev 1a</h2>")
    parts.append("<h3>P-value histograms (10 bins, all variants of a test together)</h3>")
    parts.append(_histograms(summaries))
    parts.append("<h3>Proportion of passing sequences</h3>" + _proportion_chart(summaries))
    parts.append("<h3>Final analysis</h3>" + _nist_table(summaries))
    parts.append(f"<details><summary>finalAnalysisReport.txt</summary><pre>{escape(nist_text)}"
                 "</pre></details>")  # fmt: skip
    if fips is not None:
        parts.append("<h2>FIPS 140-2 (rngtest counting)</h2>" + _fips_table(fips))
    if games is not None:
        parts.append("<h2>Game-outcome tests</h2>" + _games_table(games))
        parts.append("<h2>Return to player</h2>")
        if convergence:
            parts.append(_convergence(convergence, exact_rtp or {}))
        parts.append(_rtp_table(games))
    if external is not None:
        parts.append(render_external(external))
    parts.append("</body></html>\n")
    return "".join(parts)
