"""Bit-file reading as NIST's tool does it, and the TTY-only progress bar."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from certification.errors import InputFormatError, ParameterError
from certification.progress import Progress
from certification.stats.bitstream import detect_format, parse_bits, read_bits, split_sequences


def test_format_detection() -> None:
    assert detect_format(b"0101 1100\n") == "ascii"
    assert detect_format(b"\x00\xff01") == "binary"
    assert detect_format(b"   \n") == "binary"  # no digit at all: not an ASCII bit file
    assert detect_format(b"") == "binary"


def test_ascii_skips_whitespace_and_binary_is_msb_first() -> None:
    bits, fmt = parse_bits(b"10\r\n 1 1")
    assert fmt == "ascii" and bits.tolist() == [1, 0, 1, 1]
    bits, fmt = parse_bits(b"\x80\x01", "binary")
    assert fmt == "binary" and bits.tolist() == [1] + [0] * 14 + [1]


def test_ascii_rejects_other_characters(tmp_path: Path) -> None:
    f = tmp_path / "bits.txt"
    f.write_bytes(b"0101\n012")
    with pytest.raises(InputFormatError, match="byte 7"):
        read_bits(f, "ascii")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(InputFormatError, match="no bits"):
        read_bits(empty)
    with pytest.raises(InputFormatError, match="directory"):
        read_bits(tmp_path)


def test_split_like_the_tool() -> None:
    bits = np.arange(25, dtype=np.uint8) % 2
    parts = split_sequences(bits, length=10)
    assert len(parts) == 2 and parts[1].tolist() == bits[10:20].tolist()
    assert split_sequences(bits)[0].size == 25  # shorter than 10^6: one sequence, all of it
    with pytest.raises(InputFormatError, match="need 30"):
        split_sequences(bits, 3, 10)
    with pytest.raises(ParameterError):
        split_sequences(bits, 0, 10)


def test_binary_sequences_start_on_32_bit_boundaries_like_assess() -> None:
    bits = np.arange(100, dtype=np.int64).astype(np.uint8)  # bit i holds i (mod 256)
    parts = split_sequences(bits, 3, 20, "binary")
    assert [p[0] for p in parts] == [0, 32, 64]  # assess reads 4-byte words per stream
    assert all(p.size == 20 for p in parts)
    assert len(split_sequences(bits, None, 20, "binary")) == 3
    assert [p[0] for p in split_sequences(bits, 3, 20, "ascii")] == [0, 20, 40]


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal() -> None:
    quiet = io.StringIO()
    with Progress(3, "x", quiet) as bar:
        bar.advance()
    assert quiet.getvalue() == ""
    tty = FakeTty()
    with Progress(2, "SP 800-22", tty) as bar:
        bar.advance()
        bar.advance()
    assert "SP 800-22 [" in tty.getvalue() and "2/2" in tty.getvalue()
