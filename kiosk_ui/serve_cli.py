"""``croupier serve``: the tables and operator console over HTTP (uvicorn).

Everything that can refuse to start (the settings, the port, the store and its
writer lock, the RNG, the devices, the tables, the player-token key) is opened
here before uvicorn runs, so a refusal is the CLI's one line ``croupier: error:
...`` with exit status 2, never a traceback from uvicorn's lifespan.

The store: ``serve`` only opens a store that exists. A damaged one (database
missing, empty or without its tables beside its keys, keys gone under a log) is
refused, never replaced, and so is a location with no store at all: creating a
store is the explicit ``croupier store init`` (``make run`` runs it first with
``--if-missing``), so a store that vanished never comes back silently as a new,
empty one.

The software: the installed package files must match the seal in the store (their
SHA-256 manifest signed by the appliance key, see ``certification.install``); any
changed, added or missing file is refused before listening, one line, exit 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

    import uvicorn

    from kiosk_ui.appliance import Appliance


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (0 picks a free one)")
    parser.add_argument("--config", type=Path, help="settings TOML (default: packaged demo)")
    parser.add_argument("--store", type=Path, help="store directory (overrides the config)")
    parser.add_argument(
        "--url", help="the store's database: sqlite:///PATH or postgresql://... (overrides)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="processes serving the store, each its share of the tables on port + I "
        "(default: [serve] workers, 1)",
    )
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)  # set by --workers
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    import dataclasses
    import socket

    import uvicorn

    from certification.install.seal import require_sealed
    from kiosk_ui.appliance import Appliance, refuse_simulators
    from kiosk_ui.cashier.number_key import NumberKey
    from kiosk_ui.errors import KioskError
    from kiosk_ui.identity import PlayerTokens
    from kiosk_ui.settings import load
    from kiosk_ui.web.app import create_app

    settings = load(args.config)
    if args.store is not None:
        settings = dataclasses.replace(settings, store=args.store)
    if args.url is not None:
        settings = dataclasses.replace(settings, store_url=args.url)
    workers = args.workers if args.workers is not None else settings.workers
    if workers < 1 or (args.worker is not None and not 0 <= args.worker < workers):
        raise ValueError("--workers must be at least 1 (and --worker one of them)")
    if workers > 1 and args.worker is None:
        from kiosk_ui.workers import supervise

        return supervise(args, workers, settings.stop_seconds)
    if args.worker is not None:  # one of --workers: the store shared with the others
        settings = dataclasses.replace(settings, shared=True, workers=workers, worker=args.worker)
    refuse_simulators(settings)  # before listening: a refusal is one line and exit 2
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        raise OSError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host

    def ready(generated_password: str | None) -> None:
        who = (
            f" (worker {settings.worker} of {settings.workers})"
            if settings.worker is not None
            else ""
        )
        print(f"Croupier serving on http://{shown}:{port}/{who}", flush=True)
        print(f"  operator console: http://{shown}:{port}/operator   status: /status")
        print(f"  store: {settings.store}   config: {settings.source_file}")
        if generated_password:
            print(
                f"  first start: operator '{settings.operator_user}' password "
                f"{generated_password} (change it in the console)"
            )
        print(flush=True)

    # A missing or damaged store is refused here (one line, exit 2), never created.
    appliance = Appliance(settings, create=False)
    try:
        PlayerTokens(settings.store)  # an unreadable token key fails here, not in the lifespan
        # so does the voucher key (made here for an older store), or one not the store's
        NumberKey.of(settings.store).claim(appliance.runtime.db)
        # software not matching its signed manifest never serves (issue 19, point 6)
        require_sealed(settings.store)
    except BaseException:
        appliance.close()
        raise
    url = served_url(settings.public_url, host, port, settings.worker or 0)
    app = create_app(settings, on_ready=ready, appliance=appliance, url=url)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = _stopping_server(config, appliance)
    server.run(sockets=[sock])
    if not server.started:
        raise KioskError("the server did not start (see the message above)")
    return 0


def _stopping_server(config: uvicorn.Config, appliance: Appliance) -> uvicorn.Server:
    """uvicorn's Server, marking the appliance as stopping the moment the stop signal
    arrives (:meth:`Appliance.begin_stop`) rather than once uvicorn has drained its
    connections (a console's stream keeps one up to 25 s) and run the lifespan's
    shutdown: in between, a worker or appliance that stopped sooner gives its leases
    up, and this one, stopping too, would take its tables over."""
    import uvicorn

    worker = appliance.settings.worker is not None

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            appliance.begin_stop()
            if worker and self.should_exit:
                # A worker of serve --workers gets Ctrl-C from the terminal and its
                # supervisor's SIGTERM: whichever comes second must not be uvicorn's
                # "quit now" (a SIGINT after the first signal), which skips the app's
                # shutdown and leaves the worker's leases to expire. A hung worker is
                # the supervisor's to kill ([serve] stop_seconds).
                return
            super().handle_exit(sig, frame)

    return Server(config)


def served_url(public: str | None, host: str, port: int, worker: int) -> str:
    """Where this server is reached, advertised to the floor's other servers and linked
    from their lobbies: ``[serve] public_url`` (worker I of ``--workers``: its port + I),
    else this listening address (a wildcard one: the host's name).

    >>> served_url(None, "127.0.0.1", 8001, 1)
    'http://127.0.0.1:8001'
    >>> served_url("https://pit-3.floor.example:8443/", "0.0.0.0", 8444, 1)
    'https://pit-3.floor.example:8444'
    """
    import socket
    from urllib.parse import urlsplit

    if public:
        parts = urlsplit(public)
        base = parts.port or (443 if parts.scheme == "https" else 80)
        name = parts.hostname or ""
        name = f"[{name}]" if ":" in name else name
        return f"{parts.scheme}://{name}:{base + worker}"
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
