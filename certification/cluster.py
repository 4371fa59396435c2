"""Campaigns on a Dask cluster: ``--dask ADDRESS`` or ``--dask local[:N]``.

A lab's campaign (the SP 800-22 battery over thousands of sequences) is independent
work per sequence, which is what a Dask cluster schedules: each sequence is one task,
submitted with its index in its key, and the results are put back in sequence order,
so the report is the one a single process writes (every test is deterministic on its
sequence). The scheduler re-runs the tasks of a worker it loses on the others, so a
campaign that loses a worker still finishes. ``local[:N]`` starts a ``LocalCluster``
of N single-threaded worker processes on this machine (default: one per core) with no
dashboard; an address (``tls://scheduler:8786`` or ``tcp://...``) joins the lab's
running cluster.

Same code everywhere (:func:`check_workers`): before a campaign's first task every
worker of the cluster is asked for its Croupier version and the SHA-256 of its
software manifest (:func:`code_identity`: every file of the five packages, the hash the
certification report prints), and a cluster with a worker that differs is refused in
one line naming each such worker and how. A worker that joins later does not compute
results either: every task carries the client's identity and refuses to run where the
worker's differs (:func:`checked_task`), which stops the campaign with that worker's
name. The check finds a mis-installed worker, not a hostile one: anyone who can reach
the scheduler can run any code on its workers (Dask sends pickled functions), so a lab
network that is not private needs ``tls://`` with client certificates
(``--dask-tls-ca/-cert/-key``, a ``Security(require_encryption=True)``); a ``tcp://``
campaign runs, but stderr and the report say it ran unencrypted. The report names where
it ran (:class:`Where`: scheduler address, workers at the start, the common identity).

Every task runs through :func:`in_worker`, which first sets the worker process's heap
to keep freed memory for reuse (:func:`keep_freed_memory`, once per process): a Dask
nanny starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which fixes glibc's
mmap threshold at 128 KB, so every multi-MB NumPy temporary of a test was fresh memory
faulted in page by page (SP 800-22 on 10^6 bits: 27,000 minor faults and 43 ms of
system time a sequence against 10,000 and 17 ms in a plain process,
``bench/results/cluster.md``).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from certification.errors import CertificationError

LOCAL = "local"
SCHEMES = ("tcp", "tls")  # a lab's scheduler: plain TCP or TLS (Dask's own protocols)
CONNECT_SECONDS = 20  # reaching the scheduler (a TLS handshake refused ends sooner)
WAIT_SECONDS = 30  # a scheduler with no worker yet: this long for the first to join

# glibc's mallopt parameters: freed blocks up to 32 MB stay in the heap, and the heap
# keeps up to 512 MB of free memory at its top, so a task's temporaries reuse pages
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
HEAP_KEPT = {M_MMAP_THRESHOLD: 32 * 1024 * 1024, M_TRIM_THRESHOLD: 512 * 1024 * 1024}
_heap_set: list[bool] = []  # this process's heap was set (a worker's, by its first task)


class ClusterError(CertificationError):
    """A cluster a campaign must not run on (other code, no TLS files, no workers), or a
    task a worker refused; raised in one line, the command exits 2."""


@dataclass(frozen=True, slots=True)
class Identity:
    """What computes a process's results: the Croupier version and its software
    manifest's SHA-256 (:func:`certification.install.manifest.build_manifest`)."""

    version: str
    digest: str

    def against(self, mine: Identity) -> str:
        """How this (a worker's) differs from ``mine`` (the client's), for a refusal."""
        parts = []
        if self.version != mine.version:
            parts.append(f"version {self.version} vs {mine.version} here")
        if self.digest != mine.digest:
            parts.append(f"code sha256 {self.digest[:16]}... vs {mine.digest[:16]}... here")
        return ", ".join(parts) or "the same code"


_identity: list[Identity] = []  # this process's, computed once (0.2 s: 500 files hashed)


def code_identity() -> Identity:
    """This process's :class:`Identity`, hashed from the installed files on first use."""
    if not _identity:
        from certification.install.manifest import build_manifest

        manifest = build_manifest()
        _identity.append(Identity(manifest.version, manifest.digest()))
    return _identity[0]


def worker_identity() -> tuple[str, str] | str:
    """Run on each worker by :func:`check_workers`: its (version, manifest sha256), or
    why it cannot tell (a text: an exception would not come back whole through Dask)."""
    try:
        mine = code_identity()
    except Exception as exc:  # a package file it cannot read, a broken install
        return f"{type(exc).__name__}: {exc}"
    return mine.version, mine.digest


def keep_freed_memory() -> bool:
    """Set this process's glibc heap to keep freed memory (see the module docstring),
    once; False where the C library has no ``mallopt`` (musl, macOS): nothing changes."""
    if _heap_set:
        return _heap_set[0]
    try:
        # the C library the interpreter already runs on: dlopen(NULL) finds its symbols,
        # where find_library("c") would run ldconfig (10 ms, and ctypes.util's imports)
        libc: Any = ctypes.CDLL(None)
        done = hasattr(libc, "mallopt") and all(
            libc.mallopt(param, value) == 1 for param, value in HEAP_KEPT.items()
        )
    except OSError:
        done = False
    _heap_set.append(done)
    return done


def in_worker(fn: Callable[..., Any], *args: Any) -> Any:
    """Run one task's ``fn(*args)`` in a worker whose heap keeps freed memory."""
    keep_freed_memory()
    return fn(*args)


def checked_task(expected: tuple[str, str], fn: Callable[..., Any], *args: Any) -> Any:
    """A campaign's task: ``fn(*args)`` (:func:`in_worker`) only if this worker runs the
    client's code (``expected``: its version and manifest sha256). A worker that joined
    after :func:`check_workers` with other code raises instead, and the campaign stops
    with its name: no result of other code ever reaches a report."""
    mine, client_side = code_identity(), Identity(*expected)
    if mine != client_side:
        raise ClusterError(
            f"Dask worker {_worker_address()} runs other code than this client "
            f"({mine.against(client_side)}): it joined after the check and refused its "
            "task; the campaign stops (install this build on it, or remove it, and run again)"
        )
    return in_worker(fn, *args)


def _worker_address() -> str:
    try:
        return str(_distributed().get_worker().address)
    except ValueError:  # not in a worker (a direct call)
        return "(not a worker)"


def _distributed() -> Any:
    """The ``distributed`` package, imported when a campaign asks for it (it is large,
    and its API is untyped: used through ``Any``)."""
    import importlib

    return importlib.import_module("distributed")


def parse(spec: str) -> tuple[str, int | None]:
    """``local`` / ``local:N`` -> ("local", N or None); ``host:port`` -> its
    ``tcp://`` address (Dask's default); ``tcp://`` and ``tls://`` addresses as given."""
    if spec == LOCAL or spec.startswith(LOCAL + ":"):
        rest = spec.removeprefix(LOCAL).removeprefix(":")
        if rest and (not rest.isdigit() or int(rest) < 1):
            raise ValueError(f"--dask {spec!r}: write local or local:N with N >= 1")
        return LOCAL, int(rest) if rest else None
    if "://" not in spec and ":" not in spec:
        raise ValueError(f"--dask {spec!r}: expected local[:N] or a scheduler address")
    address = spec if "://" in spec else f"tcp://{spec}"
    parts = urlsplit(address)
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ValueError(f"--dask {spec!r}: expected local[:N], tls://host:port or tcp://host:port")
    return address, None


def shown(address: str) -> str:
    """An address as a report prints it: scheme, host and port only (no user or
    password a URL might carry, no path or query)."""
    if address == LOCAL:
        return address
    parts = urlsplit(address)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """The PEM files of a ``tls://`` campaign: the lab's CA, this client's certificate
    and its private key (``--dask-tls-ca/-cert/-key``)."""

    ca: Path
    cert: Path
    key: Path


def tls_files(ca: Path | None, cert: Path | None, key: Path | None) -> TlsFiles | None:
    """The three ``--dask-tls-*`` files checked (each readable, the CA a certificate,
    the certificate and key a pair), or None when none is given; ClusterError naming
    the option otherwise."""
    given = {"--dask-tls-ca": ca, "--dask-tls-cert": cert, "--dask-tls-key": key}
    if all(v is None for v in given.values()):
        return None
    missing = [k for k, v in given.items() if v is None]
    if missing:
        raise ClusterError(f"a TLS campaign needs {', '.join(missing)} as well")
    for option, path in given.items():
        try:
            Path(str(path)).read_bytes()
        except OSError as exc:
            raise ClusterError(f"{option} {path}: cannot read it ({exc.strerror})") from None
    assert ca is not None and cert is not None and key is not None
    import ssl

    try:
        context = ssl.create_default_context(cafile=str(ca))
    except ssl.SSLError as exc:
        raise ClusterError(f"--dask-tls-ca {ca}: not a PEM certificate ({exc})") from None
    try:
        context.load_cert_chain(str(cert), str(key))
    except ssl.SSLError as exc:
        raise ClusterError(
            f"--dask-tls-cert {cert} and --dask-tls-key {key}: not a PEM certificate and "
            f"its private key ({exc})"
        ) from None
    return TlsFiles(ca=Path(ca), cert=Path(cert), key=Path(key))


def check_spec(spec: str, tls: TlsFiles | None) -> str:
    """The address ``spec`` names (:func:`parse`), refused unless the TLS files fit it:
    a ``tls://`` scheduler needs them, ``local`` and ``tcp://`` take none."""
    where, _ = parse(spec)
    scheme = urlsplit(where).scheme if where != LOCAL else LOCAL
    if scheme == "tls" and tls is None:
        raise ClusterError(
            f"--dask {shown(where)}: a TLS scheduler needs --dask-tls-ca, --dask-tls-cert "
            "and --dask-tls-key (the lab CA's certificate, this client's certificate and key)"
        )
    if scheme != "tls" and tls is not None:
        raise ClusterError(
            f"--dask-tls-* files are for a tls:// scheduler, not --dask {shown(where)}"
        )
    return where


def add_options(p: argparse.ArgumentParser, what: str) -> None:
    """``--dask ADDRESS`` (``what`` runs there) and the ``--dask-tls-*`` files."""
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        default=None,
        help=f"run {what} on a Dask cluster: local[:N] (a LocalCluster of N worker processes "
        "here) or a scheduler address (tls://host:8786, or tcp://host:8786 unencrypted)",
    )
    for name, text in (
        ("ca", "the lab CA's certificate (PEM) that signed the scheduler's and workers'"),
        ("cert", "this client's certificate (PEM), signed by that CA"),
        ("key", "this client's private key (PEM)"),
    ):
        p.add_argument(f"--dask-tls-{name}", type=Path, metavar="FILE", default=None,
                       help=f"tls:// scheduler: {text}")  # fmt: skip


def from_args(args: argparse.Namespace) -> tuple[str | None, TlsFiles | None]:
    """The parsed ``--dask`` and ``--dask-tls-*`` options, checked before any work:
    (None, None) without ``--dask``; ClusterError / ValueError (one line) otherwise."""
    tls = tls_files(args.dask_tls_ca, args.dask_tls_cert, args.dask_tls_key)
    if args.dask is None:
        if tls is not None:
            raise ClusterError("--dask-tls-* files are for --dask tls://host:port")
        return None, None
    check_spec(args.dask, tls)
    return args.dask, tls


@dataclass(frozen=True, slots=True)
class Where:
    """Where a campaign ran, as its report says: the scheduler (``local`` or its
    address without secrets), its transport, the workers at the start and the code
    every one of them runs (checked)."""

    scheduler: str  # local:N, or tls:// / tcp:// host and port
    transport: str  # "tls", "tcp, unencrypted" or "worker processes on this machine..."
    workers: int
    identity: Identity

    def as_dict(self) -> dict[str, object]:
        return {
            "scheduler": self.scheduler,
            "transport": self.transport,
            "workers": self.workers,
            "version": self.identity.version,
            "manifest_sha256": self.identity.digest,
        }

    def text(self) -> str:
        """One line for a text report."""
        return (
            f"Dask cluster: scheduler {self.scheduler} ({self.transport}), "
            f"{self.workers} worker{'s' if self.workers != 1 else ''} at the start, each "
            f"checked to run croupier {self.identity.version}, manifest sha256 "
            f"{self.identity.digest}"
        )


@dataclass(frozen=True, slots=True)
class Connection:
    """A ``distributed.Client`` (``dask``) whose workers were checked, and where it is."""

    dask: Any
    where: Where


def check_workers(dask: Any, scheduler: str) -> int:
    """Ask every worker of the cluster for its :func:`worker_identity`; refuse the
    campaign (ClusterError, one line) naming each worker that differs from this
    process's code and how, or that could not answer. Returns the number of workers."""
    try:
        dask.wait_for_workers(1, timeout=WAIT_SECONDS)
    except TimeoutError:
        raise ClusterError(
            f"the Dask scheduler {scheduler} has no worker (waited {WAIT_SECONDS} s)"
        ) from None
    mine = code_identity()
    try:
        answers = dask.run(worker_identity, on_error="return")
    except Exception as exc:  # a worker without this package cannot even load the question
        raise ClusterError(
            f"the Dask workers at {scheduler} cannot all say what code they run "
            f"({type(exc).__name__}: {exc}); install the same build on every worker"
        ) from None
    bad = []
    for address, answer in sorted(answers.items()):
        if isinstance(answer, BaseException | str):
            bad.append(f"{address}: cannot tell its code ({answer})")
        elif (theirs := Identity(*answer)) != mine:
            bad.append(f"{address}: {theirs.against(mine)}")
    if bad:
        raise ClusterError(
            f"refusing the campaign: {len(bad)} of the {len(answers)} Dask workers at "
            f"{scheduler} do not run this client's code (croupier {mine.version}, manifest "
            f"sha256 {mine.digest[:16]}...): {'; '.join(bad)}; install the same build on "
            "every worker"
        )
    return len(answers)


def _security(tls: TlsFiles) -> Any:
    return _distributed().Security(
        tls_ca_file=str(tls.ca),
        tls_client_cert=str(tls.cert),
        tls_client_key=str(tls.key),
        require_encryption=True,
    )


@contextmanager
def connect(
    spec: str,
    tls: TlsFiles | None = None,
    warn: Callable[[str], None] | None = None,
) -> Iterator[Connection]:
    """A checked :class:`Connection` to the cluster ``spec`` names (closed on exit):
    ``local[:N]`` starts a LocalCluster here; an address joins the lab's scheduler,
    over TLS with ``tls``'s files. Every worker is checked (:func:`check_workers`)
    before this yields; a ``tcp://`` campaign then warns (``warn``, default stderr)
    that it runs unencrypted."""
    dist = _distributed()
    where = check_spec(spec, tls)
    _, workers = parse(spec)
    if where == LOCAL:
        n = workers or os.cpu_count() or 1
        cluster = dist.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
        )
        try:
            with dist.Client(cluster) as c:
                count = check_workers(c, f"local:{n}")
                transport = "worker processes on this machine, loopback TCP"
                yield Connection(c, Where(f"local:{n}", transport, count, code_identity()))
        finally:
            cluster.close()
        return
    name = shown(where)
    security = _security(tls) if tls is not None else None
    try:
        c = dist.Client(where, security=security, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler {name}: {exc}") from None
    with c:
        count = check_workers(c, name)
        transport = "tls" if tls is not None else "tcp, unencrypted"
        if tls is None:
            (warn or _stderr)(
                f"croupier: warning: the campaign on {name} runs unencrypted (plain TCP): "
                "anyone who can reach that scheduler can read the data and run code on "
                "its workers; use tls:// with --dask-tls-ca/-cert/-key (docs/security.md)"
            )
        yield Connection(c, Where(name, transport, count, code_identity()))


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def client(spec: str, tls: TlsFiles | None = None) -> Iterator[Any]:
    """The checked ``distributed.Client`` of :func:`connect` alone (closed on exit)."""
    with connect(spec, tls) as conn:
        yield conn.dask


def run_tasks(
    dask: Any,
    fn: Callable[..., Any],
    items: Iterable[tuple[int, tuple[Any, ...]]],
    on_done: Callable[[int, Any], None],
    *,
    name: str,
    window: int | None = None,
) -> dict[int, Any]:
    """Run ``fn(*args)`` for each ``(index, args)`` on the cluster; ``on_done(index,
    result)`` as each finishes (progress); returns every result by index. ``window``:
    at most that many tasks submitted at once (their inputs are made only then, so a
    campaign of a thousand 1 MB sequences never holds them all)."""
    todo = iter(items)
    mine = code_identity()  # every task carries this process's code identity
    expected = (mine.version, mine.digest)
    futures: dict[Any, int] = {}
    running = _distributed().as_completed()

    def submit_next() -> bool:
        for index, args in todo:
            key = f"{name}-{index}"
            future = dask.submit(checked_task, expected, fn, *args, key=key, pure=False)
            futures[future] = index
            running.add(future)
            return True
        return False

    while (window is None or len(futures) < window) and submit_next():
        pass
    out: dict[int, Any] = {}
    for future in running:  # as each finishes; the next one takes its place
        index = futures.pop(future)
        out[index] = future.result()
        on_done(index, out[index])
        submit_next()
    return out


class Tasks:
    """A Dask client as a ``submit(fn, *args) -> future`` executor (the SP 800-90B
    estimators' :class:`~certification.sp800_90b.non_iid.Submitter`).

    Large NumPy arguments (the samples, the bitstring: megabytes each) are scattered to
    every worker once (so losing a worker loses no input) and passed by reference, not
    sent again with every estimator; tasks
    are impure (each runs even if an identical one ran before) and named ``name-N``;
    each runs only on a worker with this process's code (:func:`checked_task`).
    """

    def __init__(self, dask: Any, name: str) -> None:
        self.dask = dask
        self.name = name
        self.count = 0
        self._scattered: dict[int, tuple[Any, Any]] = {}  # id -> (array, its future)

    def _ref(self, arg: Any) -> Any:
        import numpy as np

        if isinstance(arg, np.ndarray) and arg.nbytes >= 1 << 16:
            held = self._scattered.get(id(arg))
            if held is None or held[0] is not arg:
                # on every worker: a worker that dies takes no copy the others need
                held = (arg, self.dask.scatter(arg, hash=False, broadcast=True))
                self._scattered[id(arg)] = held
            return held[1]
        return arg

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        self.count += 1
        refs = [self._ref(a) for a in args]
        key = f"{self.name}-{self.count}"
        mine = code_identity()
        expected = (mine.version, mine.digest)
        return self.dask.submit(checked_task, expected, fn, *refs, key=key, pure=False)
