"""Errors raised by the SP 800-90B entropy assessment.

::

    Sp80090bError
     +-- SampleFileError (ValueError)   a sample file that cannot be assessed (empty,
     |                                  unreadable, wider than the declared symbol width)
     +-- SampleDataError (ValueError)   samples the assessment cannot use (one symbol only,
                                        too few samples for a test, bad restart matrix)
"""

from __future__ import annotations


class Sp80090bError(Exception):
    """Base of every SP 800-90B assessment error."""


class SampleFileError(Sp80090bError, ValueError):
    """A sample file that cannot be read or does not fit the declared symbol width."""


class SampleDataError(Sp80090bError, ValueError):
    """Sample data the assessment cannot use (single symbol, too short, bad shape)."""
