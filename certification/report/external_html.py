"""The report page's section for dieharder, rngtest and ent (from ``ExternalReport.as_dict``)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any


def _ok(passed: object) -> str:
    return '<span class="ok">pass</span>' if passed else '<span class="fail">FAIL</span>'


def _p(value: object) -> str:
    return "-" if value is None else f"{float(str(value)):.6f}"


def _dieharder(d: Mapping[str, Any]) -> str:
    rows = "".join(
        f'<tr><td class="l">{escape(str(r["test"]))}</td><td>{r["number"]}</td>'
        f"<td>{r['ntup']}</td><td>{' '.join(_p(p) for p in r['p_values'])}</td>"
        f"<td class='l'>{escape(' '.join(r['assessments']))}</td>"
        f"<td>{_p(r['uniformity_p'])}</td><td>{_ok(r['passed'])}</td></tr>"
        for r in d["rows"]
    )
    return (
        f"<p>{escape(str(d['generator']))}; {d['runs']} run(s); {d['bytes_read']:,} bytes read; "
        f"rewinds: {d['rewinds']}</p>"
        '<table><tr><th class="l">test</th><th>-d</th><th>ntup</th><th>p-values (per run)</th>'
        '<th class="l">dieharder says</th><th>uniformity across runs</th><th>result</th></tr>'
        f"{rows}</table>"
    )


def _rngtest(r: Mapping[str, Any] | None) -> str:
    if r is None:
        return "<p>not run</p>"
    keys = ("bits_received", "successes", "failures", "monobit", "poker", "runs", "long_run",
            "continuous_run")  # fmt: skip
    cells = "".join(f'<tr><td class="l">{k}</td><td>{r.get(k)}</td></tr>' for k in keys)
    agrees = r.get("agrees_with_appliance_fips140_2")
    return (
        f"<p>{_ok(r['passed'])}; the same counts as the appliance's own FIPS 140-2: "
        f"{'-' if agrees is None else _ok(agrees)}</p><table>{cells}</table>"
    )


def _ent(e: Mapping[str, Any]) -> str:
    whole = e.get("whole")
    if not whole:
        return "<p>not run</p>"
    heads = ("bytes", "entropy", "chi_square", "chi_square_p", "mean", "monte_carlo_pi",
             "serial_correlation")  # fmt: skip
    rows = [("whole", whole)] + [(f"part {i + 1}", p) for i, p in enumerate(e.get("parts", []))]
    body = "".join(
        f'<tr><td class="l">{name}</td>' + "".join(f"<td>{row[h]}</td>" for h in heads) + "</tr>"
        for name, row in rows
    )
    head = "".join(f"<th>{h}</th>" for h in heads)
    return (
        f'<table><tr><th class="l">block</th>{head}</tr>{body}</table>'
        "<p>chi-square p-values across parts, uniformity: "
        f"{_p(e.get('chi_square_uniformity_p'))}</p>"
    )


def render_external(external: Mapping[str, Any]) -> str:
    """The HTML of the external batteries' section."""
    failing = external.get("failing") or []
    verdict = (
        '<p class="ok">every external battery passed</p>'
        if not failing
        else '<p class="fail">FAILED: ' + escape("; ".join(failing)) + "</p>"
    )
    return (
        "<h2>dieharder, rngtest and ent (Debian's tools on the appliance's stream)</h2>"
        + verdict
        + "<h3>dieharder</h3>"
        + _dieharder(external["dieharder"])
        + "<h3>rngtest (FIPS 140-2)</h3>"
        + _rngtest(external.get("rngtest"))
        + "<h3>ent</h3>"
        + _ent(external["ent"])
    )
