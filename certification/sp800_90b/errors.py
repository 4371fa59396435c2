"""Errors raised by the SP 800-90B entropy assessment.

::

    CertificationError (certification.errors)
     +-- Sp80090bError
          +-- SampleFileError (ValueError)   a sample file that cannot be assessed (empty,
          |                                  unreadable, wider than the declared width)
          +-- SampleDataError (ValueError)   samples the assessment cannot use (one symbol
                                             only, too few samples, bad restart matrix)
"""

from __future__ import annotations

from certification.errors import CertificationError


class Sp80090bError(CertificationError):
    """Base of every SP 800-90B assessment error."""


class SampleFileError(Sp80090bError, ValueError):
    """A sample file that cannot be read or does not fit the declared symbol width."""


class SampleDataError(Sp80090bError, ValueError):
    """Sample data the assessment cannot use (single symbol, too short, bad shape)."""
