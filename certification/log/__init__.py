"""The signed, tamper-evident game log.

Records are canonical JSON (:mod:`.canonical`) linked by SHA-256 (:mod:`.chain`),
with Ed25519-signed checkpoints over RFC 6962 Merkle roots (:mod:`.merkle`,
:mod:`.keys`). :mod:`.verify` checks a log alone and raises
:class:`LogIntegrityError` at the first bad record.
"""

from certification.log.chain import JournalWriter, StoredRecord, make_record
from certification.log.errors import LogError, LogFormatError, LogIntegrityError, LogKeyError
from certification.log.keys import KeyStore, SigningKey, load_public_key
from certification.log.verify import VerifyReport, verify_lines

__all__ = [
    "JournalWriter",
    "KeyStore",
    "LogError",
    "LogFormatError",
    "LogIntegrityError",
    "LogKeyError",
    "SigningKey",
    "StoredRecord",
    "VerifyReport",
    "load_public_key",
    "make_record",
    "verify_lines",
]
