"""``croupier log``: :mod:`certification.log.cli`'s commands, reading the appliance's store.

The commands, their words and exit codes are :mod:`certification.log.cli`'s (the
regulator's verifier, which opens no database). This module only wires in how a
``--store DIR`` is read: read-only, through :func:`kiosk_ui.store.reader.open_reader`.
Standard library only at import, like every registration module.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from certification.log.reader import StoredLog


def register(parser: argparse.ArgumentParser) -> None:
    from certification.log import cli

    cli.register(parser, _open_store)


def _open_store(store_dir: Path) -> StoredLog:
    from kiosk_ui.store.reader import open_reader

    return open_reader(store_dir)
