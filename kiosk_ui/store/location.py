"""Where a store's database is: the store directory's own file, or a PostgreSQL server.

A store is always a directory on the appliance (its signing keys, its writer lock,
its anchor): that is what ``--store DIR`` names everywhere. Its database is
``DIR/croupier.db`` (SQLite, the default) unless the directory says otherwise: a
store made on a PostgreSQL server keeps the server's address in ``DIR/database.url``
(written at creation, without any password: give that to libpq by ``PGPASSFILE`` /
``~/.pgpass`` or ``PGPASSWORD``), so every reader (``croupier log verify``, ``ledger
audit``, ``log recall``) finds the same database from the same ``--store DIR``.

A URL given at open (``[store] url``, ``CROUPIER_STORE_URL``, ``--url``) is one of
``sqlite:///PATH`` (the store directory PATH, as before), ``sqlite:`` (the configured
directory) or ``postgresql://...`` (libpq's URL or ``key=value`` string).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kiosk_ui.errors import StoreError

URL_FILE = "database.url"
POSTGRES = ("postgresql://", "postgres://")


@dataclass(frozen=True, slots=True)
class Location:
    """A store directory and, for a PostgreSQL store, its server's URL."""

    directory: Path
    url: str | None = None  # None: SQLite, DIR/croupier.db

    @property
    def postgres(self) -> bool:
        return self.url is not None


def stored_url(directory: Path) -> str | None:
    """The PostgreSQL URL a store directory names (``database.url``), or None."""
    path = directory / URL_FILE
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc}") from None
    return text or None


def resolve(directory: str | Path, url: str | None = None) -> Location:
    """The store at ``directory`` with the database ``url`` names (see the module doc);
    a directory made for one PostgreSQL database refuses another URL."""
    d = Path(directory)
    if url is None or not url.strip():
        return Location(d, stored_url(d))
    url = url.strip()
    if url.startswith("sqlite:"):
        rest = url.removeprefix("sqlite:")
        if rest.startswith("//"):
            rest = rest.removeprefix("//")
            if not rest.startswith("/"):
                raise StoreError(f"store URL {masked(url)!r}: write sqlite:///ABSOLUTE/PATH")
        d = Path(rest) if rest else d
        if stored_url(d) is not None:
            raise StoreError(f"store {d} is a PostgreSQL store ({URL_FILE}); not {url}")
        return Location(d)
    if url.startswith(POSTGRES) or "=" in url:
        have = stored_url(d)
        if have is not None and have != public(url):
            raise StoreError(
                f"store {d} belongs to the database {have}, not {public(url)}: one store "
                "directory (its signing keys) per database"
            )
        return Location(d, url)
    raise StoreError(f"store URL {masked(url)!r}: expected sqlite:///PATH or postgresql://...")


def masked(url: str) -> str:
    """``url`` as an error may show it: any password (``user:PW@``, ``password=PW``) as
    ``***``, for a URL too malformed for :func:`public` to take apart."""
    url = re.sub(r"(//[^/@]*?:)[^/@]*@", r"\1***@", url)
    return re.sub(r"(password\s*=\s*)[^&\s]*", r"\1***", url, flags=re.I)


def public(url: str) -> str:
    """``url`` without its password (what ``database.url`` keeps and errors show)."""
    from psycopg import conninfo

    try:
        params = conninfo.conninfo_to_dict(url)
    except Exception as exc:  # psycopg.ProgrammingError: a malformed URL
        # libpq quotes the bad part, which may be the password (or the whole URL): never
        # shown, only what is wrong
        why = re.sub(r'"[^"]*"', '"..."', str(exc).strip())
        raise StoreError(
            f"store URL is not a libpq URL (not shown: it may hold a password): {why}"
        ) from None
    params.pop("password", None)
    return conninfo.make_conninfo("", **{k: str(v) for k, v in params.items() if v is not None})


APPLIANCE_FILE = "appliance.id"


def appliance_name(directory: Path, worker: int | None = None) -> str:
    """This appliance's name on a shared store: the host and a random id kept in the
    store directory (made once), so a restarted appliance takes back its own leases at
    once (``worker``: one of its ``serve --workers`` processes, each a holder of its
    own). Copy only ``keys/`` to provision another appliance, never this file."""
    import socket
    import uuid

    path = directory / APPLIANCE_FILE
    try:
        ident = path.read_text().strip()
    except FileNotFoundError:
        ident = ""
    if not ident:
        ident = uuid.uuid4().hex[:12]
        tmp = path.with_suffix(".tmp")
        tmp.write_text(ident + "\n")
        tmp.replace(path)
    name = f"{socket.gethostname()}/{ident}"
    return name if worker is None else f"{name}/worker-{worker}"


def remember(location: Location) -> None:
    """Write the directory's ``database.url`` (a PostgreSQL store, at creation)."""
    if location.url is None or stored_url(location.directory) is not None:
        return
    path = location.directory / URL_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(public(location.url) + "\n")
    tmp.replace(path)
