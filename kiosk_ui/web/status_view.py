"""What the technician's status page shows of a server, and the summary its peers get.

:func:`public_status` is the body of ``GET /api/status`` (devices, RNG, tables, store
fault): public to anyone who reaches the server, so nothing secret and no outcome, and
every URL query stripped (a simulator's seed could predict outcomes). :func:`health`
condenses it into the few lines the floor's status page lists for each server (its RNG's
health, its devices' states, its store fault): each server sends its own in its
``GET /api/floor/here`` part (:mod:`kiosk_ui.web.routes.floor`), so any server's status
page shows every server of the floor (:meth:`kiosk_ui.web.floor_view.FloorView.servers`)
and tells nothing a server's own status page does not tell already.
"""

from __future__ import annotations

import importlib.metadata
import time
from typing import TYPE_CHECKING, Any

from firmware_bridge.url import public_text, public_url

if TYPE_CHECKING:
    from kiosk_ui.appliance import Appliance


def version() -> str | None:
    """The installed Croupier's version (None: not installed, run from a checkout)."""
    try:
        return importlib.metadata.version("croupier")
    except importlib.metadata.PackageNotFoundError:
        return None


def public_value(value: Any) -> Any:
    """``value`` with every URL query stripped from its strings (seeds, device options).

    The unauthenticated answers show a device's role, scheme, path, state and model;
    anything in a URL's query could predict outcomes (a simulator's seed), so it is
    removed here, whatever message carried it. The full URL is in the operator API.
    """
    if isinstance(value, str):
        return public_text(value)
    if isinstance(value, dict):
        return {k: public_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [public_value(v) for v in value]
    return value


def public_status(app: Appliance) -> dict[str, Any]:
    """Device and RNG health, the tables and the store's fault (None: none), as the
    technician's status page reads them (``GET /api/status``).

    ``test_mode`` is true when ``[rng] test_mode`` lets a deterministic source drive a
    table: every player page then shows the test banner.
    """
    devices = []
    for st in app.device_status():
        devices.append(
            {
                "role": st.role,
                "url": public_url(st.url),
                "state": str(st.state),
                "model": st.model,
                "serial_number": st.serial_number,
                "firmware": st.firmware,
                "last_fault": st.last_fault,
                "counters": dict(st.counters),
            }
        )
    rng = app.rng_status()
    out = public_value(
        {
            "demo": app.settings.demo,
            "test_mode": app.test_mode,
            "devices": devices,
            "rng": {k: rng[k] for k in ("policy", "active", "halted", "sources", "generator")},
            "store": app.runtime.db.health.reason(),
            "tables": [
                {
                    "id": t.id,
                    "variant": t.variant.id,
                    "source": t.source.name,
                    "suspended": t.suspended,
                }
                for t in app.tables()
            ],
        }
    )
    assert isinstance(out, dict)
    return out


def rng_health(rng: dict[str, Any]) -> dict[str, Any]:
    """The RNG in one word (``state``): "failed" while the supply is halted or its
    active source failed; "fallback" while the fallback policy deals from its fallback
    source because the configured one failed; "healthy" while the configured source
    passes its health tests; else "unknown" (not started yet). With the active source's
    name and kind and the alarm (the halt's reason, or the configured source's last
    error)."""
    sources: list[dict[str, Any]] = rng["sources"]
    active: dict[str, Any] = next((s for s in sources if s.get("name") == rng["active"]), {})
    primary = sources[0] if sources else {}
    source_state = active.get("state")
    if rng["halted"] or source_state in ("failed", "unavailable"):
        state = "failed"
    elif active and active is not primary:
        state = "fallback" if source_state == "ok" else "unknown"
    elif source_state == "ok":
        state = "healthy"
    else:
        state = "unknown"
    return {
        "state": state,
        "source": rng["active"],
        "kind": active.get("kind"),
        "policy": rng["policy"],
        "alarm": rng["halted"] or primary.get("last_error") or active.get("last_error"),
    }


def health_summary(status: dict[str, Any], started: float) -> dict[str, Any]:
    """The summary of :func:`public_status`'s ``status`` the floor's status page lists
    for a server: RNG health, each device's state and last fault, the store's fault,
    its tables (suspended ones with why), its version and when it started (``started``:
    seconds since the epoch)."""
    return {
        "rng": rng_health(status["rng"]),
        "devices": [
            {"role": d["role"], "state": d["state"], "last_fault": d["last_fault"]}
            for d in status["devices"]
        ],
        "store": status["store"],
        "test_mode": status["test_mode"],
        "tables": [{"id": t["id"], "suspended": t["suspended"]} for t in status["tables"]],
        "version": version(),
        "started": utc(started),
    }


def utc(seconds: float) -> str:
    """``seconds`` since the epoch as an ISO 8601 UTC time, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
