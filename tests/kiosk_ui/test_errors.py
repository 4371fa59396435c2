"""The web app's errors: one table of type -> (status, code), declared in the OpenAPI schema."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import kiosk_ui
from kiosk_ui.errors import KioskError
from kiosk_ui.settings import parse
from kiosk_ui.web.app import create_app
from kiosk_ui.web.errors import STATUS, status_and_code


def _all_subclasses(kind: type[KioskError]) -> set[type[KioskError]]:
    found: set[type[KioskError]] = set()
    todo = [kind]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def test_every_kiosk_error_has_a_mapping() -> None:
    for module in pkgutil.walk_packages(kiosk_ui.__path__, "kiosk_ui."):
        importlib.import_module(module.name)  # every module that may define one
    subclasses = _all_subclasses(KioskError)
    assert len(subclasses) >= 20
    missing = sorted(k.__qualname__ for k in subclasses if k not in STATUS)
    assert missing == [], f"add these to kiosk_ui.web.errors.KIOSK_ERRORS: {missing}"
    for kind in subclasses:
        assert STATUS[kind] == (kind.status, kind.code)
        assert status_and_code(kind.__new__(kind)) == (kind.status, kind.code)


def test_the_openapi_schema_declares_the_error_body(tmp_path: Path) -> None:
    app = create_app(parse({"store": {"dir": str(tmp_path / "store")}}, source="test"))
    schema = app.openapi()
    assert "ErrorResponse" in schema["components"]["schemas"]
    error_ref = {"$ref": "#/components/schemas/ErrorResponse"}
    actions = schema["paths"]["/api/tables/{table_id}/actions"]["post"]["responses"]
    for status in ("404", "409", "422", "423"):
        assert actions[status]["content"]["application/json"]["schema"] == error_ref
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert operation["responses"]["409"]["content"]["application/json"]["schema"] == (
                error_ref
            ), (method, path)
