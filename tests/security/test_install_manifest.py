"""Issue 19, point 6: the installed software is the sealed build, or nothing serves.

The seal is the SHA-256 of every file of the five installed packages, signed by the
appliance's Ed25519 key into the store (``certification.install``). Attacks, each on
a copy of the installed packages (never the tree the other tests import):

- a file of the installation modified, added or removed: `croupier serve` refuses
  before listening (one line, exit 2), `croupier verify-install` lists the file and
  exits 1, the operator console's check reports it;
- the seal rewritten to match the modified file, without the key: refused as not
  signed; signed by another store's key: refused; a seal that does not hash to the
  hash it states: refused;
- no seal at all: refused, naming the command that makes one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from certification.install.errors import InstallError
from certification.install.manifest import PACKAGES, build_manifest, package_roots
from certification.install.seal import check_install, require_sealed, seal_install, seal_path
from certification.log.keys import KeyStore, SigningKey

from .conftest import demo_settings, write_config


@pytest.fixture
def install(tmp_path: Path) -> Path:
    """A copy of the five installed packages (byte-code caches left out)."""
    root = tmp_path / "install"
    for name, src in package_roots().items():
        shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def roots_of(install: Path) -> dict[str, Path]:
    return {name: install / name for name in PACKAGES}


def run(install: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`croupier ARGS` importing the copy (cwd first on sys.path, and PYTHONPATH)."""
    env = {**os.environ, "PYTHONPATH": str(install)}
    return subprocess.run(
        [sys.executable, "-m", "kiosk_ui.cli", *args],
        cwd=install,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def serve_until_up(install: Path, config: Path) -> tuple[int | str, str]:
    """("started", "") if serve came up (then stopped), else (exit status, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(install)}
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", "0", "--config", str(config)]
    with subprocess.Popen(
        cmd, cwd=install, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            for line in proc.stdout:
                if "serving on" in line:
                    proc.terminate()
                    proc.wait(timeout=60)
                    return "started", ""
            proc.wait(timeout=60)
            return proc.returncode, proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_manifest_lists_every_package_file_and_no_bytecode(install: Path) -> None:
    manifest = build_manifest(roots_of(install))
    assert "games/baccarat/engine.py" in manifest.files
    assert "kiosk_ui/web/static/table.js" in manifest.files  # pages are software too
    assert any(p.endswith(".toml") for p in manifest.files)  # so are pay tables
    assert not any("__pycache__" in p or p.endswith(".pyc") for p in manifest.files)
    on_disk = sum(
        1
        for name in PACKAGES
        for p in (install / name).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    assert len(manifest.files) == on_disk
    assert manifest.digest() == build_manifest(roots_of(install)).digest()  # stable


def test_modified_added_and_removed_files_are_each_named(tmp_path: Path, install: Path) -> None:
    store = tmp_path / "store"
    KeyStore(store).save(SigningKey.generate())
    roots = roots_of(install)
    sealed = seal_install(store, roots)
    assert sealed.ok and sealed.installed_sha256 == sealed.sealed_sha256

    engine = install / "games" / "baccarat" / "engine.py"
    engine.write_text(engine.read_text().replace("def ", "def  ", 1))  # one byte more
    (install / "rng" / "backdoor.py").write_text("SEED = 1\n")
    removed = sorted((install / "kiosk_ui" / "web" / "static").glob("*.css"))[0]
    removed.unlink()

    check = check_install(store, roots)
    assert not check.ok
    assert check.difference.changed == ("games/baccarat/engine.py",)
    assert check.difference.added == ("rng/backdoor.py",)
    assert f"kiosk_ui/web/static/{removed.name}" in check.difference.missing
    with pytest.raises(InstallError, match=r"1 changed \(games/baccarat/engine.py\)"):
        require_sealed(store, roots)


def _forge(store: Path, edit: object) -> None:
    path = seal_path(store)
    record = json.loads(path.read_text())
    edit(record)  # type: ignore[operator]
    path.write_text(json.dumps(record))


def test_a_seal_rewritten_without_the_key_is_refused(tmp_path: Path, install: Path) -> None:
    store = tmp_path / "store"
    KeyStore(store).save(SigningKey.generate())
    roots = roots_of(install)
    seal_install(store, roots)
    engine = install / "games" / "baccarat" / "engine.py"
    engine.write_text(engine.read_text() + "\n# patched\n")
    patched = build_manifest(roots)

    def rewrite(record: dict[str, object]) -> None:  # the attacker's consistent rewrite
        record["manifest"] = patched.body()
        record["sha256"] = patched.digest()

    _forge(store, rewrite)
    with pytest.raises(InstallError, match="is not signed by key"):
        check_install(store, roots)

    other = SigningKey.generate()  # signed, but by a key of the attacker's own

    def resign(record: dict[str, object]) -> None:
        from certification.install.seal import DOMAIN

        record["signature"] = other.sign(DOMAIN + patched.canonical())

    _forge(store, resign)
    with pytest.raises(InstallError, match="is not signed by key"):
        check_install(store, roots)

    def lie(record: dict[str, object]) -> None:
        record["sha256"] = "0" * 64

    _forge(store, lie)
    with pytest.raises(InstallError, match="does not hash to the hash it states"):
        check_install(store, roots)


def test_no_seal_is_refused_naming_the_command(tmp_path: Path) -> None:
    store = tmp_path / "store"
    KeyStore(store).save(SigningKey.generate())
    with pytest.raises(InstallError, match="verify-install --seal"):
        check_install(store)


@pytest.mark.slow
def test_serve_refuses_a_modified_installation(tmp_path: Path, install: Path) -> None:
    """The real commands on the copy: init seals, serve serves; one byte changed in a
    pay table and serve refuses (one line, exit 2), verify-install names the file."""
    config = write_config(tmp_path, demo_settings(tmp_path / "store"))
    made = run(install, "store", "init", "--config", str(config))
    assert made.returncode == 0, made.stderr
    assert "sealed the installed software" in made.stdout
    assert serve_until_up(install, config) == ("started", "")

    table = sorted((install / "games" / "baccarat" / "paytables").glob("*.toml"))[0]
    table.write_bytes(table.read_bytes() + b" ")
    status, err = serve_until_up(install, config)
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert "does not match its signed manifest" in lines[0]
    assert f"games/baccarat/paytables/{table.name}" in lines[0]

    listed = run(install, "verify-install", "--config", str(config))
    assert listed.returncode == 1
    assert f"changed: games/baccarat/paytables/{table.name}" in listed.stdout

    resealed = run(install, "verify-install", "--seal", "--config", str(config))  # the installer
    assert resealed.returncode == 0, resealed.stderr
    assert serve_until_up(install, config) == ("started", "")


def test_operator_console_checks_the_installation_on_demand(tmp_path: Path) -> None:
    """POST /api/operator/install/verify: signed-in operators only; reports no seal,
    then (sealed) the match, the hash and the file count."""
    from fastapi.testclient import TestClient

    from kiosk_ui.settings import parse
    from kiosk_ui.web.app import create_app

    store = tmp_path / "store"
    settings = demo_settings(store)
    app = create_app(parse(settings, source="test"))
    with TestClient(app) as client:
        assert client.post("/api/operator/install/verify").status_code == 401
        password = settings["operator"]["password"]
        tok = client.post("/api/operator/login", json={"user": "admin", "password": password})
        auth = {"authorization": f"Bearer {tok.json()['token']}"}
        unsealed = client.post("/api/operator/install/verify", headers=auth).json()
        assert unsealed["ok"] is False and "no software seal" in unsealed["message"]
        seal_install(store)
        sealed = client.post("/api/operator/install/verify", headers=auth).json()
        assert sealed["ok"] is True, sealed
        assert sealed["installed_sha256"] == build_manifest().digest()
        assert sealed["files"] == len(build_manifest().files)
        assert sealed["changed"] == sealed["added"] == sealed["missing"] == []
