"""``/api/operator/certify``: certification runs started from the operator console.

``POST`` starts :func:`certification.run.certify_run` on the appliance's own RNG source
in a background thread (technician role; logged); ``GET`` lists the runs in
``<store>/certification/`` and ``GET .../{run}/{file}`` serves a finished run's reports.
:class:`CertRuns` is the job manager (one per app, in ``app.state``).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from kiosk_ui.appliance import Appliance
from kiosk_ui.errors import TableError
from kiosk_ui.web.routes.deps import ApplianceDep, OperatorDep

router = APIRouter(prefix="/api", tags=["operator"])


class CertifyIn(BaseModel):
    """A certification run of the appliance's own RNG source, sized for the console."""

    model_config = ConfigDict(extra="forbid", strict=True)  # counts are JSON integers

    sequences: int = Field(default=10, ge=1, le=100, description="SP 800-22 sequences")
    length: int = Field(
        default=100_000, ge=100_000, le=1_000_000, multiple_of=8, description="bits per sequence"
    )
    rounds: int = Field(default=2_000, ge=100, le=1_000_000, description="RTP rounds per game")
    samples: int = Field(default=1_000, ge=100, le=100_000, description="shuffles/rolls/spins")
    game: str | None = Field(
        default=None, min_length=1, max_length=40, description="one family or variant (all: null)"
    )


class CertifyRunOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    state: str  # "running", "done", "failed", "incomplete" (interrupted by a restart)
    message: str
    files: list[str]


class CertRuns:
    """Runs started from the console: one background thread each, reports in the store."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = threading.Lock()
        self.live: dict[str, tuple[str, str]] = {}  # run id -> (state, message)

    def start(self, app: Appliance, body: CertifyIn, by: str) -> str:
        from certification.run import RunOptions

        rng = app.settings.rng
        source = str(rng.get("source", "sim"))
        with self.lock:
            run_id = time.strftime("run-%Y%m%d-%H%M%S", time.gmtime())
            n = 1
            while (self.root / run_id).exists() or run_id in self.live:
                n += 1
                run_id = time.strftime("run-%Y%m%d-%H%M%S", time.gmtime()) + f"-{n}"
            self.live[run_id] = ("running", f"started by {by}")
        options = RunOptions(
            source=source,
            url=str(rng.get("url", "")),
            out=self.root / run_id,
            sequences=body.sequences,
            length=body.length,
            rounds=body.rounds,
            samples=body.samples,
            seed=int(rng.get("sim_seed", 1)),
            game=body.game,
            dieharder=(0, 2),  # a quick look: the console's runs are samples, not submissions
            dieharder_runs=2,
            dieharder_psamples=10,
        )
        with app.runtime.log.transaction() as conn:
            app.runtime.log.append(
                conn, f"operator:{by}", "certify-run", {"run": run_id, **body.model_dump()}
            )
        threading.Thread(
            target=self._run, args=(run_id, options), name=f"certify-{run_id}", daemon=True
        ).start()
        return run_id

    def _run(self, run_id: str, options: Any) -> None:
        from certification.run import certify_run

        try:
            summary = certify_run(options)
        except Exception as exc:  # any failure of the run is its result, shown to the operator
            with self.lock:
                self.live[run_id] = ("failed", str(exc).splitlines()[0] if str(exc) else repr(exc))
            return
        with self.lock:
            self.live[run_id] = ("done", summary.strip().splitlines()[-1])

    def all(self) -> list[CertifyRunOut]:
        names = set(self.live)
        if self.root.is_dir():
            names |= {p.name for p in self.root.iterdir() if p.is_dir()}
        out = []
        for name in sorted(names, reverse=True):
            with self.lock:
                state, message = self.live.get(name, ("", ""))
            if not state:
                done = (self.root / name / "report.html").exists()
                state, message = ("done", "") if done else ("incomplete", "interrupted")
            out.append(CertifyRunOut(id=name, state=state, message=message, files=self.files(name)))
        return out

    def files(self, run_id: str) -> list[str]:
        d = self.root / run_id
        if state_of(self, run_id) == "running" or not d.is_dir():
            return []
        return sorted(p.name for p in d.iterdir() if p.is_file() and p.suffix in REPORT_TYPES)


REPORT_TYPES = {".html": "text/html", ".json": "application/json", ".txt": "text/plain"}


def state_of(runs: CertRuns, run_id: str) -> str:
    with runs.lock:
        return runs.live.get(run_id, ("", ""))[0]


def cert_runs(request: Request) -> CertRuns:
    runs: CertRuns | None = getattr(request.app.state, "cert_runs", None)
    if runs is None:
        app: Appliance = request.app.state.appliance
        runs = CertRuns(Path(app.settings.store) / "certification")
        request.app.state.cert_runs = runs
    return runs


CertRunsDep = Annotated[CertRuns, Depends(cert_runs)]


@router.post("/operator/certify", status_code=202)
def start_certification(
    body: CertifyIn, app: ApplianceDep, session: OperatorDep, runs: CertRunsDep
) -> CertifyRunOut:
    """Start a certification run (SP 800-22, FIPS 140-2, game outcomes) in the background."""
    app.operators.session(session.token, "technician")
    run_id = runs.start(app, body, session.user)
    return CertifyRunOut(id=run_id, state="running", message="started", files=[])


@router.get("/operator/certify")
def list_certifications(session: OperatorDep, runs: CertRunsDep) -> list[CertifyRunOut]:
    """Every run in the store, newest first, with its state and report files."""
    return runs.all()


@router.get(
    "/operator/certify/{run_id}/{name}",
    response_class=Response,
    responses={
        200: {
            "description": "a report file of a finished run",
            "content": {t: {"schema": {"type": "string"}} for t in REPORT_TYPES.values()},
        }
    },
)
def certification_file(run_id: str, name: str, session: OperatorDep, runs: CertRunsDep) -> Response:
    """One report file of a finished run (HTML report, JSON, NIST-style text)."""
    if name not in runs.files(run_id):
        raise TableError(f"no report {name!r} in certification run {run_id!r}")
    path = runs.root / run_id / name
    return Response(path.read_bytes(), media_type=REPORT_TYPES[path.suffix])
