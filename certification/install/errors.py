"""Errors of software verification."""

from __future__ import annotations

from certification.errors import CertificationError


class InstallError(CertificationError):
    """The installed software cannot be shown to be the sealed build.

    Raised for a missing, unreadable, malformed or wrongly signed seal, and by
    :func:`certification.install.seal.require_sealed` for any difference between
    the installed files and the sealed manifest.
    """
