"""A stop is not held up by the kiosks watching a table, and logs no traceback.

Each table page keeps a WebSocket feed open (``/api/ws/tables/ID``: notices, and a ping
after 15 s of quiet). On SIGTERM uvicorn closes every socket (code 1012) and waits for
their handlers; a feed that only waited on its notices noticed the close at its next
ping, up to 15 s later, so a technician's stop (and ``serve --workers``' ordered stop,
``[serve] stop_seconds``) waited on the quietest kiosk, and a server with a graceful
timeout cancelled it with an ``Exception in ASGI application`` traceback. The feed now
listens to its socket too and ends with it.
"""

from __future__ import annotations

import json
import signal
import time
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from websockets.sync.client import connect

from tests.security.conftest import Process, demo_settings, write_config


def test_sigterm_with_table_feeds_open_stops_at_once(
    tmp_path: Path, serve_process: Callable[..., Process]
) -> None:
    config = write_config(tmp_path, demo_settings(tmp_path / "store"))
    served = serve_process(config)
    with urllib.request.urlopen(f"{served.url}/api/tables", timeout=30) as r:
        table = json.load(r)[0]["id"]  # the lobby's first table
    ws_url = served.url.replace("http://", "ws://") + f"/api/ws/tables/{table}"
    with ExitStack() as stack:
        feeds = [stack.enter_context(connect(ws_url, open_timeout=30)) for _ in range(3)]
        time.sleep(0.5)  # the feeds' handlers are waiting: the next ping 15 s away
        served.proc.send_signal(signal.SIGTERM)
        # well before any feed's first ping: each handler ended with its socket
        code = served.proc.wait(timeout=10)
        err = served.proc.stderr.read() if served.proc.stderr is not None else ""
        assert code in (0, -signal.SIGTERM), err  # (uvicorn re-raises the stop signal)
        assert "Traceback" not in err and "ERROR" not in err, err
        for feed in feeds:  # each kiosk was told the server goes away (1012: restart)
            try:
                while True:
                    feed.recv(timeout=5)
            except Exception:  # the close, as the client library reports it
                pass
            assert feed.close_code == 1012, feed.close_code
