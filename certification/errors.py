"""Errors raised by the certification package.

::

    CertificationError
     +-- InputFormatError (ValueError)   a data file that is not the format asked for
     |                                   (stray characters in ASCII bits, too few bits)
     +-- ParameterError (ValueError)     a test parameter or option out of its range
     +-- CheckpointError (ValueError)    a resume directory whose checkpoint does not
     |                                   match the run asked for, or is damaged
     +-- SourceError                     the random source for a capture could not be used

The SP 800-90B assessment (``certification.sp800_90b``) and the signed game log
(``certification.log``) derive their own errors from :class:`CertificationError`.
"""

from __future__ import annotations


class CertificationError(Exception):
    """Base of every certification-package error."""


class InputFormatError(CertificationError, ValueError):
    """A data file that does not hold what the chosen input format says."""


class ParameterError(CertificationError, ValueError):
    """A test parameter or command-line option out of its allowed range."""


class CheckpointError(CertificationError, ValueError):
    """A checkpoint in a run directory that cannot be resumed."""


class SourceError(CertificationError):
    """The random source named for a capture is not available."""
