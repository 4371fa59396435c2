"""NIST CAVP DRBG response files (``.rsp``): parse them and run them through the DRBGs.

A file is a sequence of groups. Each group starts with bracketed header lines
(``[SHA-256]``, ``[AES-256 use df]``, ``[PredictionResistance = False]``,
``[ReturnedBitsLen = 1024]`` ...) and holds cases (``COUNT = 0`` then ``Key = hex``
lines, in order; ``AdditionalInput`` and ``EntropyInputPR`` repeat once per
generate call). Which mechanism the file is for comes from its ``# <mech> options:``
comment, else from its file name.

The three CAVS test flows (CAVS 14.3, DRBGVS):

- no_reseed: instantiate; generate(add1); generate(add2); compare the second output;
- pr_false:  instantiate; reseed(EntropyInputReseed, AdditionalInputReseed); then as above;
- pr_true:   instantiate; generate(add1) with prediction resistance, fresh entropy
  EntropyInputPR1; generate(add2) likewise with EntropyInputPR2; compare the second.

Groups of a mechanism or variant not implemented here (Hash_DRBG, TDEA, "no df")
are skipped by name, never counted as passed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rng.ctr_drbg import KEY_BYTES, CtrDrbg
from rng.drbg import Drbg
from rng.errors import KatFileError, RngError
from rng.hmac_drbg import HASHES, HmacDrbg

_MECH_RE = re.compile(r"^#\s*(HMAC_DRBG|CTR_DRBG|Hash_DRBG|DualEC_DRBG)\s+options", re.I)


@dataclass(frozen=True, slots=True)
class KatCase:
    """One ``COUNT = n`` block: its group header and its fields in file order."""

    mechanism: str  # "HMAC_DRBG", "CTR_DRBG", ...
    group: str  # "SHA-256", "AES-256 use df", ...
    params: dict[str, str]  # header "[Key = value]" lines of the group
    count: int
    fields: tuple[tuple[str, str], ...]
    line: int  # line number of the COUNT line, for messages

    def get(self, key: str) -> bytes:
        """The single field ``key`` decoded from hex (KatFileError if absent or repeated)."""
        values = self.all(key)
        if len(values) != 1:
            raise KatFileError(f"line {self.line}: expected one {key!r}, found {len(values)}")
        return values[0]

    def all(self, key: str) -> list[bytes]:
        """Every value of ``key`` in file order, decoded from hex."""
        out = []
        for k, v in self.fields:
            if k == key:
                try:
                    out.append(bytes.fromhex(v))
                except ValueError:
                    raise KatFileError(f"line {self.line}: {key} is not hex: {v[:40]!r}") from None
        return out

    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.fields)

    @property
    def label(self) -> str:
        return f"{self.mechanism} [{self.group}] COUNT={self.count}"


@dataclass(slots=True)
class KatReport:
    """Totals of a run; ``failures`` names each failed case."""

    passed: int = 0
    failed: int = 0
    skipped: dict[str, int] = field(default_factory=dict)  # group -> cases skipped
    failures: list[str] = field(default_factory=list)


def _mechanism(text_lines: list[str], path: Path) -> str:
    for line in text_lines[:40]:
        m = _MECH_RE.match(line.strip())
        if m:
            return {k.lower(): k for k in ("HMAC_DRBG", "CTR_DRBG", "Hash_DRBG", "DualEC_DRBG")}[
                m.group(1).lower()
            ]
    stem = path.stem.upper()
    for name in ("HMAC_DRBG", "CTR_DRBG", "HASH_DRBG"):
        if name in stem:
            return "Hash_DRBG" if name == "HASH_DRBG" else name
    raise KatFileError(f"{path}: cannot tell which DRBG mechanism this file is for")


def parse_rsp(path: Path) -> Iterator[KatCase]:
    """Yield every case of a CAVP DRBG ``.rsp`` file (CRLF or LF line ends)."""
    try:
        text = path.read_text(encoding="ascii")
    except UnicodeDecodeError:
        raise KatFileError(f"{path}: not an ASCII CAVP response file") from None
    lines = text.splitlines()
    mechanism = _mechanism(lines, path)
    group = ""
    params: dict[str, str] = {}
    in_header = False
    count: int | None = None
    count_line = 0
    fields: list[tuple[str, str]] = []

    def finish() -> KatCase | None:
        if count is None:
            return None
        return KatCase(mechanism, group, dict(params), count, tuple(fields), count_line)

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            if (case := finish()) is not None:
                yield case
            count, fields = None, []
            inner = line[1:-1].strip()
            if not in_header:
                params = {}
                in_header = True
            if "=" in inner:
                key, _, value = inner.partition("=")
                params[key.strip()] = value.strip()
            else:
                group = inner
            continue
        in_header = False
        key, sep, value = line.partition("=")
        if not sep:
            raise KatFileError(f"{path}:{number}: expected 'Name = value', got {line[:60]!r}")
        key, value = key.strip(), value.strip()
        if key == "COUNT":
            if (case := finish()) is not None:
                yield case
            if not group:
                raise KatFileError(f"{path}:{number}: COUNT before any [group] header")
            try:
                count = int(value)
            except ValueError:
                raise KatFileError(f"{path}:{number}: bad COUNT {value!r}") from None
            count_line, fields = number, []
        elif count is None:
            raise KatFileError(f"{path}:{number}: {key!r} outside a COUNT block")
        else:
            fields.append((key, value))
    if (case := finish()) is not None:
        yield case


def supported(case: KatCase) -> bool:
    """True if this package implements the case's mechanism and variant."""
    if case.mechanism == "HMAC_DRBG":
        return case.group in HASHES
    if case.mechanism == "CTR_DRBG":
        cipher, _, variant = case.group.partition(" ")
        return cipher in KEY_BYTES and variant == "use df"
    return False


def _instantiate(case: KatCase) -> Drbg:
    entropy = case.get("EntropyInput")
    nonce = case.get("Nonce")
    pers = case.get("PersonalizationString")
    if case.mechanism == "HMAC_DRBG":
        return HmacDrbg(entropy, nonce, pers, hash_name=case.group)
    return CtrDrbg(entropy, nonce, pers, cipher=case.group.partition(" ")[0])


def run_case(case: KatCase) -> bytes:
    """Run one supported case through the CAVS flow its fields call for; return the output."""
    try:
        bits = int(case.params["ReturnedBitsLen"])
    except (KeyError, ValueError):
        raise KatFileError(f"line {case.line}: group lacks a valid [ReturnedBitsLen]") from None
    if bits % 8:
        raise KatFileError(f"line {case.line}: ReturnedBitsLen {bits} is not whole bytes")
    n = bits // 8
    drbg = _instantiate(case)
    adds = case.all("AdditionalInput")
    if len(adds) != 2:
        raise KatFileError(f"line {case.line}: expected 2 AdditionalInput, found {len(adds)}")
    pr = case.params.get("PredictionResistance", "False").lower() == "true"
    out = b""
    if pr:
        fresh = case.all("EntropyInputPR")
        if len(fresh) != 2:
            raise KatFileError(f"line {case.line}: expected 2 EntropyInputPR, found {len(fresh)}")
        for add, entropy in zip(adds, fresh, strict=True):
            out = drbg.generate(n, add, prediction_resistance_entropy=entropy)
    else:
        if case.has("EntropyInputReseed"):
            drbg.reseed(case.get("EntropyInputReseed"), case.get("AdditionalInputReseed"))
        for add in adds:
            out = drbg.generate(n, add)
    drbg.uninstantiate()
    return out


def run_file(path: Path) -> KatReport:
    """Run every supported case of ``path``; count passes, failures and skipped groups."""
    report = KatReport()
    for case in parse_rsp(path):
        if not supported(case):
            key = f"{case.mechanism} [{case.group}]"
            report.skipped[key] = report.skipped.get(key, 0) + 1
            continue
        try:
            ok = run_case(case) == case.get("ReturnedBits")
        except KatFileError:
            raise
        except RngError as exc:
            ok = False
            report.failures.append(f"{case.label}: {exc}")
        else:
            if not ok:
                report.failures.append(f"{case.label}: ReturnedBits differ")
        if ok:
            report.passed += 1
        else:
            report.failed += 1
    return report
