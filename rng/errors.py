"""Errors raised by the rng package.

::

    RngError
     +-- EntropyError                 no trustworthy entropy right now
     |    +-- EntropyHealthError      an SP 800-90B health test (RCT, APT, start-up) failed
     |    +-- SourceUnavailable       the source is missing, unplugged, timed out or closed
     +-- DrbgError                    misuse of an SP 800-90A DRBG
     |    +-- ReseedRequired          the reseed counter reached the reseed interval
     |    +-- DrbgUninstantiated      used after uninstantiate()
     |    +-- DrbgInputError (ValueError)  input too short/long, request too large
     +-- RngHalted                    a fail-closed stop: no output until an operator restarts
     +-- TestModeRequired             a simulator source on a real-money table without test mode
     +-- RngConfigError (ValueError)  a bad rng config table, URL or option
     +-- KatFileError (ValueError)    a CAVP .rsp file that cannot be parsed

A failing source always raises (it fails closed): nothing in this package returns
"no data" or a sentinel that a caller could mistake for random output.
"""

from __future__ import annotations


class RngError(Exception):
    """Base of every rng-package error."""


class EntropyError(RngError):
    """No trustworthy entropy is available right now."""


class EntropyHealthError(EntropyError):
    """A continuous or start-up health test failed; the source's output is not used."""

    def __init__(self, message: str, *, test: str = "", source: str = "") -> None:
        super().__init__(message)
        self.test = test
        self.source = source


class SourceUnavailable(EntropyError):
    """The entropy source is missing, unplugged, timed out or closed."""


class DrbgError(RngError):
    """A DRBG was used against the rules of SP 800-90A."""


class ReseedRequired(DrbgError):
    """The reseed counter reached the reseed interval: reseed before generating again."""


class DrbgUninstantiated(DrbgError):
    """The DRBG was uninstantiated (its state is zeroised) and cannot be used."""


class DrbgInputError(DrbgError, ValueError):
    """An input or request outside the limits of SP 800-90A (Table 2 / Table 3)."""


class RngHalted(RngError):
    """The generator stopped under the fail-closed policy; an operator must restart it."""


class TestModeRequired(RngError):
    """A simulated (seeded, predictable) source was asked to serve a real-money table."""

    __test__ = False  # not a pytest test class, despite the name


class RngConfigError(RngError, ValueError):
    """An rng configuration value, source URL or CLI option is invalid."""


class KatFileError(RngError, ValueError):
    """A NIST CAVP response file that cannot be parsed."""
