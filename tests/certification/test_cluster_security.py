"""A lab's Dask cluster, as its IT department and a regulator need it: every worker runs
this client's code (checked before the first task, and again by every task, so a worker
that joins later computes nothing), ``tls://`` with the lab's certificates gives the
local run's report, and the report says where the campaign ran. Real clusters only:
``dask scheduler`` and ``dask worker`` processes (over TLS where it matters), some with a
``--preload`` module that changes the code they report, as another build would."""

from __future__ import annotations

import datetime
import ipaddress
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from certification.cluster import (
    ClusterError,
    check_spec,
    code_identity,
    connect,
    parse,
    shown,
    tls_files,
)
from certification.stats.sp800_22.suite import run_suite
from kiosk_ui.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "nist-sts" / "data.sha1"
SP800_22 = ["--sequences", "4", "--length", "100000", "--tests", "frequency,runs,serial"]

# what another build would report: a different version (so a different manifest too),
# or the same version with one file that differs (the battery's own module)
OTHER_VERSION = """
from certification.install import manifest
manifest.installed_version = lambda: "9.9.9"
"""
OTHER_FILE = """
from certification.install import manifest
_real = getattr(manifest, "_real_file_digest", manifest._file_digest)  # preloaded twice
manifest._real_file_digest = _real
manifest._file_digest = lambda path: "0" * 64 if path.name == "battery.py" else _real(path)
"""
NO_CROUPIER = """
import sys
sys.modules["certification.cluster"] = None  # as on a host without the package
"""


def _distributed() -> Any:
    import distributed

    return distributed


@pytest.fixture
def dask_cli(tmp_path: Path) -> Iterator[Callable[..., None]]:
    """``start("scheduler" | "worker", *args)``: a real ``dask scheduler`` or ``dask
    worker`` process (its log in ``tmp_path``); every one started is stopped at the end."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(command: str, *args: str) -> None:
        log = tmp_path / f"dask-{command}-{len(procs)}.log"
        with log.open("wb") as out:
            cmd = [sys.executable, "-m", f"distributed.cli.dask_{command}", *args]
            procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT))

    yield start
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _scheduler(start: Callable[..., None], directory: Path, *flags: str) -> str:
    """A ``dask scheduler`` on 127.0.0.1 (a free port); its address once it listens."""
    info = directory / f"scheduler-{len(list(directory.glob('scheduler-*')))}.json"
    start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
          "--scheduler-file", str(info), *flags)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            return str(json.loads(info.read_text())["address"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.2)
    raise AssertionError(f"no scheduler wrote {info} within 60 s")


def _worker(start: Callable[..., None], scheduler: str, name: str, *flags: str) -> None:
    start("worker", scheduler, "--name", name, "--nthreads", "1", "--no-nanny",
          "--no-dashboard", *flags)  # fmt: skip


def _odd_worker(
    start: Callable[..., None], directory: Path, scheduler: str, name: str, source: str
) -> None:
    """A ``dask worker`` named ``name`` whose ``--preload`` module is ``source``."""
    preload = directory / f"{name.replace('-', '_')}.py"
    preload.write_text(source)
    _worker(start, scheduler, name, "--preload", str(preload))


def _addresses_by_name(dask: Any) -> dict[str, str]:
    workers = dask.scheduler_info(n_workers=-1)["workers"]
    return {str(w["name"]): address for address, w in workers.items()}


def test_the_addresses_and_tls_files_a_campaign_accepts(tmp_path: Path) -> None:
    assert parse("lab-scheduler:8786") == ("tcp://lab-scheduler:8786", None)
    assert parse("tls://lab-scheduler:8786") == ("tls://lab-scheduler:8786", None)
    for bad in ("ws://lab:8786", "inproc://x", "tls://:8786"):
        with pytest.raises(ValueError, match="tls://host:port or tcp://host:port"):
            parse(bad)
    assert shown("tls://ops:secret@lab:8786/x?token=1") == "tls://lab:8786"  # no secrets
    ca, cert, key = _pki(tmp_path, "lab")
    with pytest.raises(ClusterError, match="needs --dask-tls-key as well"):
        tls_files(ca, cert, None)
    with pytest.raises(ClusterError, match=r"--dask-tls-cert /no/such: cannot read it"):
        tls_files(ca, Path("/no/such"), key)
    with pytest.raises(ClusterError, match=r"--dask-tls-ca .*: not a PEM certificate"):
        tls_files(key, cert, key)
    _, _, other_key = _pki(tmp_path, "other")
    with pytest.raises(ClusterError, match="not a PEM certificate and its private key"):
        tls_files(ca, cert, other_key)  # a key that is not the certificate's
    files = tls_files(ca, cert, key)
    assert files is not None
    with pytest.raises(ClusterError, match="a TLS scheduler needs --dask-tls-ca"):
        check_spec("tls://lab:8786", None)
    with pytest.raises(ClusterError, match="are for a tls:// scheduler, not --dask tcp://lab"):
        check_spec("tcp://lab:8786", files)
    assert check_spec("tls://lab:8786", files) == "tls://lab:8786"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--dask", "tls://127.0.0.1:1"], "a TLS scheduler needs --dask-tls-ca"),
        (["--dask", "tls://127.0.0.1:1", "--dask-tls-ca", "/no/ca.pem", "--dask-tls-cert",
          "/no/c.pem", "--dask-tls-key", "/no/k.pem"], "--dask-tls-ca /no/ca.pem: cannot read"),
        (["--dask-tls-ca", "{ca}", "--dask-tls-cert", "{cert}", "--dask-tls-key", "{key}"],
         "are for --dask tls://host:port"),
        (["--dask", "local:1", "--dask-tls-ca", "{ca}", "--dask-tls-cert", "{cert}",
          "--dask-tls-key", "{key}"], "are for a tls:// scheduler, not --dask local"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("command", ["sp800-22", "sp800-90b", "run"])
def test_bad_dask_options_are_one_line_before_any_work(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    extra: list[str],
    message: str,
) -> None:
    ca, cert, key = _pki(tmp_path, "lab")
    extra = [a.format(ca=ca, cert=cert, key=key) for a in extra]
    out = tmp_path / "run"
    argv = {
        "sp800-22": ["certify", "sp800-22", str(DATA)],
        "sp800-90b": ["certify", "sp800-90b", str(DATA)],
        "run": ["certify", "run", "--source", "sim", "--out", str(out), "--dieharder", "none"],
    }[command]
    assert main([*argv, *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert not out.exists()  # certify run captured nothing


def test_sp800_90b_iid_on_a_cluster_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the non-IID estimators run on a cluster: --iid with --dask is refused rather
    than run here while the report would name a cluster."""
    assert main(["certify", "sp800-90b", str(DATA), "--iid", "--dask", "local:1"]) == 2
    assert "the IID track (--iid) runs here" in _one_line(capsys)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_workers_with_other_code_are_refused_before_the_first_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_cli: Callable[..., None]
) -> None:
    """A lab cluster of one worker with this build and three real workers without it
    (another version; the same version with one other file; no croupier to import): the
    campaign refuses in one line naming each of the three and how, and runs nothing."""
    dist = _distributed()
    mine = code_identity()
    address = _scheduler(dask_cli, tmp_path)
    _worker(dask_cli, address, "good")
    _odd_worker(dask_cli, tmp_path, address, "odd-version", OTHER_VERSION)
    _odd_worker(dask_cli, tmp_path, address, "odd-file", OTHER_FILE)
    _odd_worker(dask_cli, tmp_path, address, "no-croupier", NO_CROUPIER)
    with dist.Client(address) as watch:
        watch.wait_for_workers(4, timeout=60)
        names = _addresses_by_name(watch)
        assert main(["certify", "sp800-22", str(DATA), *SP800_22, "--dask", address]) == 2
        stored = watch.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.tasks))
    captured = capsys.readouterr()
    assert captured.out == ""  # no report
    err = captured.err
    assert err.count("\n") == 1 and err.startswith("croupier: error: refusing the campaign")
    assert "3 of the 4 Dask workers" in err
    assert f"{names['odd-version']}: version 9.9.9 vs {mine.version} here, code sha256" in err
    assert f"{names['odd-file']}: code sha256 " in err
    assert f"{names['odd-file']}: version" not in err  # the same version: the code differs
    assert f"{names['no-croupier']}: cannot tell its code (ModuleNotFoundError" in err
    assert names["good"] not in err  # the worker with this build is not named
    assert not [key for key in stored if "sp800-22" in str(key)]  # not one task was sent


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_worker_joining_later_with_other_code_computes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_cli: Callable[..., None]
) -> None:
    """The check passes (one worker, this build); then a worker with other code joins
    and the good one leaves: every task the newcomer gets refuses to run, and the
    campaign stops with an error naming it, not with its results."""
    seqs = [np.random.default_rng(7).integers(0, 2, 20_000, dtype=np.uint8) for _ in range(4)]
    address = _scheduler(dask_cli, tmp_path)
    _worker(dask_cli, address, "good")
    with connect(address) as conn:
        assert conn.where.workers == 1 and conn.where.transport == "tcp, unencrypted"
        _odd_worker(dask_cli, tmp_path, address, "late", OTHER_FILE)
        conn.dask.wait_for_workers(2, timeout=60)
        names = _addresses_by_name(conn.dask)
        conn.dask.retire_workers([names["good"]], close_workers=True)
        with pytest.raises(ClusterError) as refused:
            run_suite(seqs, tests=("Frequency",), dask=conn.dask)
    text = str(refused.value)
    assert text.startswith(f"Dask worker {names['late']} runs other code than this client")
    assert "joined after the check and refused its task" in text
    assert "unencrypted (plain TCP)" in capsys.readouterr().err  # said for tcp://, once


USAGE = [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]  # both ends


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def _pki(directory: Path, label: str) -> tuple[Path, Path, Path]:
    """A throwaway CA and one certificate it signs (server and client use, for
    127.0.0.1 and localhost): ``label-ca.pem``, ``label-cert.pem``, ``label-key.pem``."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name(f"{label} lab CA"))
        .issuer_name(_name(f"{label} lab CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(f"{label} dask"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(
            x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = tuple(directory / f"{label}-{part}.pem" for part in ("ca", "cert", "key"))
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths[0], paths[1], paths[2]


def _tls_flags(ca: Path, cert: Path, key: Path) -> list[str]:
    return ["--dask-tls-ca", str(ca), "--dask-tls-cert", str(cert), "--dask-tls-key", str(key)]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_tls_campaign_is_the_local_run_and_says_where_it_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_cli: Callable[..., None]
) -> None:
    """A real TLS scheduler and worker, started as docs/deploy.md says (``dask scheduler
    --tls-ca-file ... --tls-cert ... --tls-key ...``, ``dask worker tls://...`` with the
    same flags; a throwaway CA): sp800-22 (text and JSON), sp800-90b and certify run over
    tls:// give the local run's results, their reports add where they ran; a client
    without certificates, with another CA's, or over plain TCP is refused in one line."""
    ca, cert, key = _pki(tmp_path, "lab")
    mine = code_identity()
    local_text = _cli(capsys, ["certify", "sp800-22", str(DATA), *SP800_22])
    local_json = json.loads(_cli(capsys, ["certify", "sp800-22", str(DATA), *SP800_22, "--json"]))
    raw = tmp_path / "raw.bin"
    raw.write_bytes(np.random.default_rng(3).integers(0, 256, 4000, dtype=np.uint8).tobytes())
    local_90b = _cli(capsys, ["certify", "sp800-90b", str(raw), "--bits-per-symbol", "8"])
    run_args = ["certify", "run", "--source", "sim", "--sequences", "3", "--length", "64000",
                "--rounds", "300", "--samples", "100", "--game", "war", "--raw-samples", "0",
                "--dieharder", "none"]  # fmt: skip
    _cli(capsys, [*run_args, "--out", str(tmp_path / "local")])

    tls = ["--tls-ca-file", str(ca), "--tls-cert", str(cert), "--tls-key", str(key)]
    address = _scheduler(dask_cli, tmp_path, "--protocol", "tls", *tls)
    dask_cli("worker", address, "--nthreads", "1", "--no-dashboard", *tls)  # with a nanny
    assert address.startswith("tls://127.0.0.1:")
    flags = ["--dask", address, *_tls_flags(ca, cert, key)]
    remote_text = _cli(capsys, ["certify", "sp800-22", str(DATA), *SP800_22, *flags])
    remote_json = json.loads(
        _cli(capsys, ["certify", "sp800-22", str(DATA), *SP800_22, "--json", *flags])
    )
    remote_90b = _cli(capsys, ["certify", "sp800-90b", str(raw), "--bits-per-symbol", "8",
                               *flags])  # fmt: skip
    _cli(capsys, [*run_args, "--out", str(tmp_path / "remote"), *flags])

    # no certificates: refused before connecting; another CA's: the handshake fails
    assert main(["certify", "sp800-22", str(DATA), *SP800_22, "--dask", address]) == 2
    assert "a TLS scheduler needs --dask-tls-ca" in _one_line(capsys)
    stranger = _tls_flags(*_pki(tmp_path, "stranger"))
    argv = ["certify", "sp800-22", str(DATA), *SP800_22, "--dask", address, *stranger]
    assert main(argv) == 2
    assert f"cannot reach the Dask scheduler {address}" in _one_line(capsys)
    plain = address.replace("tls://", "tcp://")  # a plain TCP client of a TLS scheduler
    assert main(["certify", "sp800-22", str(DATA), *SP800_22, "--dask", plain]) == 2
    assert f"cannot reach the Dask scheduler {plain}" in _one_line(capsys)

    where = (
        f"Dask cluster: scheduler {address} (tls), 1 worker at the start, each checked to run "
        f"croupier {mine.version}, manifest sha256 {mine.digest}"
    )
    assert remote_text == local_text + f"\n{where}\n"  # the local report, then where it ran
    cluster = remote_json.pop("cluster")
    assert remote_json == local_json
    assert cluster == {"scheduler": address, "transport": "tls", "workers": 1,
                       "version": mine.version, "manifest_sha256": mine.digest}  # fmt: skip
    assert remote_90b == local_90b + f"\n{where}\n"

    local_dir, remote_dir = tmp_path / "local", tmp_path / "remote"
    for name in ("finalAnalysisReport.txt", "data.bin", "games.txt"):
        assert (remote_dir / name).read_bytes() == (local_dir / name).read_bytes(), name
    checkpoints = [sorted((d / "sp800_22.jsonl").read_text().splitlines())
                   for d in (local_dir, remote_dir)]  # fmt: skip
    assert checkpoints[0] == checkpoints[1]  # the same lines, in the order they finished
    local_doc = json.loads((local_dir / "report.json").read_text())
    remote_doc = json.loads((remote_dir / "report.json").read_text())
    assert (
        "sp800_22_clusters" not in local_doc
        and "Dask" not in (local_dir / "report.html").read_text()
    )  # a local run's report is as it was
    assert remote_doc.pop("sp800_22_clusters") == [{**cluster, "sequences": 3}]
    remote_doc["run"]["out"] = local_doc["run"]["out"]
    assert remote_doc == local_doc
    assert f"3 sequences on {address} (tls, 1 workers" in (remote_dir / "report.html").read_text()


def _cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The command's report (it succeeds; TLS or local, it warns of no plain TCP)."""
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "unencrypted" not in captured.err
    return captured.out


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line of a refused command (no report, no traceback)."""
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1, captured.err
    assert lines[0].startswith("croupier: error: ")
    return lines[0]
