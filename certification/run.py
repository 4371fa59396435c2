"""``croupier certify run``: capture from the appliance's rng, run everything, write the report.

The run directory holds, as it goes::

    run.json               the options of the run (a resume must ask for the same)
    data.bin               captured DRBG output, one sequence after another (MSB first)
    sp800_22.jsonl         one line per completed sequence: its SP 800-22 p-values
    cluster.jsonl          with --dask: one line per session on a cluster (where, how many)
    report.json            everything, when the run completes
    finalAnalysisReport.txt, fips140-2.txt, games.txt, report.html

Each sequence is captured, appended to ``data.bin`` and flushed, then tested and its line
appended to ``sp800_22.jsonl`` and flushed: that line is the checkpoint. Interrupted and
started again with the same options, the run keeps every completed sequence, re-tests a
captured one without a line, and captures only what is missing.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from certification.errors import CheckpointError, ParameterError
from certification.external.dieharder import GOOD_TESTS
from certification.progress import Progress

if TYPE_CHECKING:
    from certification.cluster import TlsFiles
    from certification.external.battery import ExternalReport
    from certification.outcomes import GameReport
    from certification.stats.fips140_2 import Fips140Report
    from certification.stats.sp800_22.final_analysis import VariantSummary
    from rng import RngStack

CHECKPOINT_VERSION = 1
CLUSTER_FILE = "cluster.jsonl"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOptions:
    source: str
    out: Path
    url: str = ""
    sequences: int = 100
    length: int = 1_000_000
    rounds: int = 100_000
    samples: int = 20_000
    seed: int = 1
    jobs: int = 1
    dask: str | None = None  # SP 800-22 on a Dask cluster (certification.cluster)
    dask_tls: TlsFiles | None = None  # its tls:// scheduler's CA, client cert and key
    game: str | None = None
    raw_samples: int = 1_000_000  # raw 8-bit source samples for SP 800-90B (0: skip)
    dieharder: tuple[int, ...] = GOOD_TESTS  # dieharder tests (-d N) on the live stream
    dieharder_runs: int = 3  # runs of each, for the second level across runs
    dieharder_psamples: int = 0  # dieharder -p (0: the tool's own per test)

    def identity(self) -> dict[str, object]:
        """What must match for a resume: what the captured data and its checkpoint depend on."""
        d = asdict(self)
        d.pop("jobs")
        d.pop("dask")  # where the work runs does not change its results
        d.pop("dask_tls")
        for key in ("game", "rounds", "samples", "raw_samples", "dieharder", "dieharder_runs",
                    "dieharder_psamples"):  # fmt: skip
            d.pop(key)
        d["out"] = str(self.out)
        d["version"] = CHECKPOINT_VERSION
        return d


def _check_options(options: RunOptions) -> None:
    if options.length % 8:
        raise ParameterError(f"--length must be a multiple of 8 bits, got {options.length}")
    if options.source == "hw" and not options.url:
        raise ParameterError("--source hw needs --url (the hardware RNG's device URL)")
    if options.dask is not None:  # an address and TLS files that fit, before any capture
        from certification.cluster import check_spec

        check_spec(options.dask, options.dask_tls)
    if options.dieharder:  # before any capture: a missing tool is said at once
        from certification.external.tools import require

        for tool in ("dieharder", "rngtest", "ent"):
            require(tool)


def _open_dir(options: RunOptions) -> None:
    out = options.out
    if out.exists() and not out.is_dir():
        raise CheckpointError(f"{out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    meta = out / "run.json"
    want = options.identity()
    if meta.exists():
        try:
            have = json.loads(meta.read_text())
        except (OSError, ValueError) as exc:
            raise CheckpointError(f"{meta} is damaged: {exc}") from None
        if have != want:
            diff = sorted(k for k in set(have) | set(want) if have.get(k) != want.get(k))
            raise CheckpointError(
                f"{out} holds a run with different options ({', '.join(diff)}); "
                "use a new --out directory or the same options to resume"
            )
    else:
        meta.write_text(json.dumps(want, indent=1) + "\n")


def _load_checkpoint(path: Path) -> dict[int, list[Any]]:
    done: dict[int, list[Any]] = {}
    if not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            rec = json.loads(line)
            index, values = int(rec["index"]), rec["rows"]
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by an interruption: that sequence is re-tested
        done[index] = values
    return done


def _append_line(path: Path, text: str) -> None:
    with path.open("a") as fh:
        fh.write(text + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def _entropy_assessment(options: RunOptions, out: Path) -> dict[str, Any]:
    """Capture raw (unconditioned) source samples and assess them as NIST's ea_non_iid does.

    The capture is resumable like the DRBG data: ``raw.bin`` grows to ``raw_samples``
    bytes and is reused on a re-run. Writes ``sp800-90b.txt``; returns the JSON result.
    """
    from certification.sp800_90b.non_iid import assess_non_iid
    from certification.sp800_90b.report import non_iid_json, render_non_iid
    from certification.sp800_90b.samples import read_samples
    from firmware_bridge import ENTROPY_OPENER
    from rng import RngConfig
    from rng.factory import raw_source

    if options.raw_samples <= 0:
        return {}
    raw_path = out / "raw.bin"
    have = raw_path.stat().st_size if raw_path.exists() else 0
    if have > options.raw_samples:
        os.truncate(raw_path, options.raw_samples)
    elif have < options.raw_samples:
        config = RngConfig(
            source=options.source, url=options.url, test_mode=True, sim_seed=options.seed
        )
        source = raw_source(config, options.source, opener=ENTROPY_OPENER)
        try:
            with raw_path.open("ab") as fh:
                while have < options.raw_samples:
                    chunk = source.read(min(65536, options.raw_samples - have))
                    fh.write(chunk)
                    have += len(chunk)
                fh.flush()
                os.fsync(fh.fileno())
        finally:
            source.close()
    samples = read_samples(raw_path, 8)
    result = assess_non_iid(samples)
    (out / "sp800-90b.txt").write_text(render_non_iid(result, str(raw_path), verbose=2))
    doc = non_iid_json(result, str(raw_path))
    doc["h_assessed"] = result.h_assessed
    return doc


def certify_run(options: RunOptions) -> str:
    """Do (or resume) the run described by ``options``; return a short text summary."""
    from certification.outcomes import run_game_checks, source_rng
    from certification.report.nist_text import final_analysis_report
    from certification.stats.fips140_2 import fips140_2
    from certification.stats.sp800_22.final_analysis import final_analysis
    from certification.stats.sp800_22.result import PValue

    _check_options(options)
    out = options.out
    seq_bytes = options.length // 8
    data_path = out / "data.bin"
    ckpt_path = out / "sp800_22.jsonl"

    stack = _open_source(options)
    _open_dir(options)  # only once the source works: a failed start leaves nothing behind

    done = _resume_capture(options, stack, data_path, ckpt_path, seq_bytes)
    _test_sequences(options, done, data_path, ckpt_path, seq_bytes)

    per_sequence = [[PValue(t, v, p) for t, v, p in done[i]] for i in range(options.sequences)]
    summaries = final_analysis(per_sequence)
    nist_text = final_analysis_report(summaries, f"croupier rng ({options.source})")
    (out / "finalAnalysisReport.txt").write_text(nist_text)

    fips = fips140_2(data_path.read_bytes())
    (out / "fips140-2.txt").write_text(fips.rngtest_text())

    entropy = _entropy_assessment(options, out)
    external = _external_batteries(options, stack, data_path, fips)

    rng = source_rng(options.source, seed=options.seed, url=options.url)
    games = run_game_checks(
        rng, game=options.game, rounds=options.rounds, samples=options.samples, seed=options.seed
    )
    (out / "games.txt").write_text(games.text())

    _write_reports(options, summaries, nist_text, fips, entropy, games, external)
    return _summary(options, summaries, fips, entropy, games, external)


def _external_batteries(
    options: RunOptions, stack: RngStack, data_path: Path, fips: Fips140Report
) -> ExternalReport | None:
    """dieharder on the live DRBG stream, rngtest and ent on the captured data (external.txt).

    rngtest's counts are compared with the appliance's own FIPS 140-2 count of the same
    bytes; no dieharder tests asked for (``--dieharder none``) skips all three.
    """
    from certification.external.battery import run_external

    if not options.dieharder:
        return None
    counts = fips.as_dict()
    tests = counts.pop("tests")
    assert isinstance(tests, dict)
    external = run_external(
        stack.generator.generate,
        data_path.read_bytes(),
        tests=options.dieharder,
        runs=options.dieharder_runs,
        psamples=options.dieharder_psamples or None,
        fips_counts={**{k: int(str(v)) for k, v in counts.items()}, **tests},
    )
    (options.out / "external.txt").write_text(external.text())
    return external


def _open_source(options: RunOptions) -> RngStack:
    """Open the rng stack the DRBG data is captured from (test mode for the sim source).

    A source that cannot be opened is a :class:`~certification.errors.SourceError`.
    """
    from firmware_bridge import ENTROPY_OPENER
    from rng import RngConfig, RngError, open_rng

    try:
        return open_rng(
            RngConfig(
                source=options.source,
                url=options.url,
                test_mode=options.source == "sim",
                sim_seed=options.seed,
            ),
            real_money=False,
            opener=ENTROPY_OPENER,
        )
    except RngError as exc:
        from certification.errors import SourceError

        raise SourceError(f"cannot open the {options.source} source: {exc}") from exc


def _resume_capture(
    options: RunOptions, stack: RngStack, data_path: Path, ckpt_path: Path, seq_bytes: int
) -> dict[int, list[Any]]:
    """Keep the whole sequences already in ``data.bin``, capture the missing ones.

    A sequence cut short by an interruption is dropped; returns the checkpointed p-value
    rows of the kept sequences (by index), the ones still to test being absent.
    """
    captured = data_path.stat().st_size // seq_bytes if data_path.exists() else 0
    captured = min(captured, options.sequences)
    if data_path.exists() and data_path.stat().st_size != captured * seq_bytes:
        os.truncate(data_path, captured * seq_bytes)  # drop a sequence cut short
    done = _load_checkpoint(ckpt_path)
    done = {i: v for i, v in done.items() if i < captured}

    missing = options.sequences - captured
    if missing:
        with Progress(missing, "capture") as bar, data_path.open("ab") as out_fh:
            for _ in range(missing):
                for k in range(0, seq_bytes, 65536):
                    out_fh.write(stack.generator.generate(min(65536, seq_bytes - k)))
                out_fh.flush()
                os.fsync(out_fh.fileno())
                bar.advance()
    return done


def _test_sequences(
    options: RunOptions,
    done: dict[int, list[Any]],
    data_path: Path,
    ckpt_path: Path,
    seq_bytes: int,
) -> None:
    """Run the SP 800-22 battery on every sequence not in ``done``, checkpointing each.

    With ``jobs > 1`` the sequences go to a process pool with a bounded look-ahead; each
    result is recorded (in ``done`` and as a checkpoint line) in sequence order.
    """
    from certification.stats.sp800_22.result import PValue
    from certification.stats.sp800_22.suite import battery_rows, packed_battery_rows

    def packed(i: int) -> NDArray[np.uint8]:
        with data_path.open("rb") as fh:
            fh.seek(i * seq_bytes)
            return np.frombuffer(fh.read(seq_bytes), dtype=np.uint8)

    def load(i: int) -> NDArray[np.uint8]:
        return np.unpackbits(packed(i))

    def record(i: int, rows: list[PValue]) -> None:
        done[i] = [[r.test, r.variant, r.p_value] for r in rows]
        _append_line(ckpt_path, json.dumps({"index": i, "rows": done[i]}))

    todo = [i for i in range(options.sequences) if i not in done]
    with Progress(options.sequences, "SP 800-22") as bar:
        bar.advance(options.sequences - len(todo))
        if options.dask and todo:
            from certification.cluster import connect, run_tasks

            def finished(i: int, rows: list[PValue]) -> None:
                record(i, rows)  # checkpointed by index, in the order they finish
                bar.advance()

            with connect(options.dask, options.dask_tls) as conn:
                items = ((i, (packed(i), 8 * seq_bytes)) for i in todo)  # shipped packed
                before = len(done)
                try:
                    run_tasks(conn.dask, packed_battery_rows, items, finished,
                              name="run-sp800-22", window=16)  # fmt: skip
                finally:  # the report names every cluster that tested some of the sequences
                    where = {**conn.where.as_dict(), "sequences": len(done) - before}
                    _append_line(options.out / CLUSTER_FILE, json.dumps(where))
        elif options.jobs > 1 and len(todo) > 1:
            with ProcessPoolExecutor(max_workers=options.jobs) as pool:
                window = 2 * options.jobs  # bounded look-ahead keeps memory small
                pending = {i: pool.submit(battery_rows, load(i)) for i in todo[:window]}
                for pos, i in enumerate(todo):
                    nxt = pos + window
                    if nxt < len(todo):
                        pending[todo[nxt]] = pool.submit(battery_rows, load(todo[nxt]))
                    record(i, pending.pop(i).result())
                    bar.advance()
        else:
            for i in todo:
                record(i, battery_rows(load(i)))
                bar.advance()


def _rtp_figures(
    options: RunOptions, games: GameReport
) -> tuple[
    dict[str, list[tuple[int, dict[str, tuple[float, float]]]]], dict[str, dict[str, float]]
]:
    """The RTP convergence curve (one variant per family) and the exact RTP of every bet."""
    from certification.outcomes import rtp_convergence

    convergence: dict[str, list[tuple[int, dict[str, tuple[float, float]]]]] = {}
    exact: dict[str, dict[str, float]] = {}
    seen: set[str] = set()
    for check in games.rtp:
        family = check.variant.split("-")[0]
        if family in seen:
            continue
        seen.add(family)
        convergence[check.variant] = rtp_convergence(check.variant, options.rounds, options.seed)
    for check in games.rtp:
        exact.setdefault(check.variant, {})[check.bet] = check.expected_rtp
    return convergence, exact


def _write_reports(
    options: RunOptions,
    summaries: list[VariantSummary],
    nist_text: str,
    fips: Fips140Report,
    entropy: dict[str, Any],
    games: GameReport,
    external: ExternalReport | None,
) -> None:
    """Write ``report.json`` and ``report.html`` from the run's results."""
    from certification.collect.files import sha256_file
    from certification.install.manifest import build_manifest
    from certification.report.html import render
    from certification.report.json_report import sp800_22_document

    out = options.out
    convergence, exact = _rtp_figures(options, games)
    software = build_manifest()  # the build that produced this report, named by one hash
    data_files = {name: sha256_file(out / name) for name in ("data.bin", "raw.bin")
                  if (out / name).exists()}  # fmt: skip
    clusters = _clusters(out)
    doc: dict[str, Any] = {
        "run": options.identity(),
        "data_sha256": data_files,
        "software": {
            "manifest_sha256": software.digest(),
            "files": len(software.files),
            "version": software.version,
        },
        "sp800_22": sp800_22_document(summaries, options.sequences, options.length),
        "fips140_2": fips.as_dict(),
        "sp800_90b": entropy,
        "games": games.as_dict(),
        "external": external.as_dict() if external else None,
    }
    if clusters:  # only a run that used --dask says so: a local run's report is as before
        doc["sp800_22_clusters"] = clusters
    (out / "report.json").write_text(json.dumps(doc, indent=1, allow_nan=False) + "\n")
    html = render(
        title=f"Croupier certification run: {options.source} source",
        meta={
            "source": options.source,
            "software (manifest sha256)": f"{software.digest()} ({len(software.files)} files, "
            f"version {software.version})",
            "sequences x length": f"{options.sequences} x {options.length} bits",
            "RTP rounds per game": options.rounds,
            "shuffles / rolls / spins": options.samples,
            "seed (sim source and simulations)": options.seed,
            "SP 800-90B min-entropy (raw source, bits per 8-bit sample)": (
                f"{entropy['h_assessed']:.6f} over {options.raw_samples} samples"
                if entropy
                else "not assessed"
            ),
            **(
                {"SP 800-22 on Dask clusters": "; ".join(_cluster_text(c) for c in clusters)}
                if clusters
                else {}
            ),
        },
        summaries=summaries,
        nist_text=nist_text,
        fips=fips.as_dict(),
        games=games.as_dict(),
        convergence={
            k: [(n, {b: list(v) for b, v in m.items()}) for n, m in pts]
            for k, pts in convergence.items()
        },
        exact_rtp=exact,
        external=external.as_dict() if external else None,
    )
    (out / "report.html").write_text(html)


def _clusters(out: Path) -> list[dict[str, Any]]:
    """The Dask sessions that tested sequences of this run (``cluster.jsonl``), if any."""
    path = out / CLUSTER_FILE
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:  # a line cut short by an interruption
            continue
    return [c for c in found if isinstance(c, dict)]


def _cluster_text(c: dict[str, Any]) -> str:
    return (
        f"{c.get('sequences')} sequences on {c.get('scheduler')} ({c.get('transport')}, "
        f"{c.get('workers')} workers at the start, croupier {c.get('version')}, manifest "
        f"sha256 {c.get('manifest_sha256')})"
    )


def _summary(
    options: RunOptions,
    summaries: list[VariantSummary],
    fips: Fips140Report,
    entropy: dict[str, Any],
    games: GameReport,
    external: ExternalReport | None,
) -> str:
    """The few lines ``croupier certify run`` prints: what was written, and each verdict."""
    out = options.out
    failing = [s for s in summaries if s.sample_size and not (s.proportion_ok and s.uniformity_ok)]
    lines = [
        f"wrote {out}/report.html, report.json, finalAnalysisReport.txt, fips140-2.txt, games.txt"
        + (", external.txt" if external else ""),
        f"SP 800-22: {len(summaries)} rows, {len(failing)} outside the NIST acceptance limits",
        f"FIPS 140-2: {fips.successes} blocks passed, {fips.failures} failed",
        "SP 800-90B: "
        + (
            f"min-entropy {entropy['h_assessed']:.6f} bits per 8-bit raw sample"
            if entropy
            else "skipped (--raw-samples 0)"
        ),
        f"games: {'passed' if games.passed else 'FAILED'} "
        f"({len(games.checks)} distribution tests, {len(games.rtp)} RTP checks)",
        "dieharder, rngtest, ent: "
        + (
            "skipped (--dieharder none)"
            if external is None
            else "passed"
            if external.passed
            else "FAILED: " + "; ".join(external.failing)
        ),
    ]
    lines += [f"SP 800-22 on Dask: {_cluster_text(c)}" for c in _clusters(out)]
    return "\n".join(lines) + "\n"
