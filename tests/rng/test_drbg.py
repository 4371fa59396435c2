"""SP 800-90A limits and life cycle of both DRBGs (the algorithms themselves: test_cavp)."""

from __future__ import annotations

import pytest

from rng.ctr_drbg import CtrDrbg
from rng.drbg import MAX_REQUEST_BYTES
from rng.errors import DrbgInputError, DrbgUninstantiated, ReseedRequired
from rng.hmac_drbg import HmacDrbg

E32, N16 = bytes(range(32)), bytes(range(16))
MECHANISMS = [HmacDrbg, CtrDrbg]


@pytest.mark.parametrize("cls", MECHANISMS)
def test_request_limit_is_2_pow_19_bits(cls: type[HmacDrbg] | type[CtrDrbg]) -> None:
    d = cls(E32, N16)
    assert len(d.generate(MAX_REQUEST_BYTES)) == 1 << 16
    with pytest.raises(DrbgInputError, match="2\\*\\*19"):
        d.generate(MAX_REQUEST_BYTES + 1)


@pytest.mark.parametrize("cls", MECHANISMS)
def test_reseed_counter_limit(cls: type[HmacDrbg] | type[CtrDrbg]) -> None:
    d = cls(E32, N16, reseed_interval=3)
    for _ in range(3):
        d.generate(16)
    with pytest.raises(ReseedRequired):
        d.generate(16)
    d.reseed(bytes(32))
    assert d.reseed_counter == 1
    d.generate(16)


@pytest.mark.parametrize("cls", MECHANISMS)
def test_uninstantiate_zeroises_and_refuses(cls: type[HmacDrbg] | type[CtrDrbg]) -> None:
    d = cls(E32, N16)
    d.uninstantiate()
    with pytest.raises(DrbgUninstantiated):
        d.generate(1)
    with pytest.raises(DrbgUninstantiated):
        d.reseed(E32)


@pytest.mark.parametrize("cls", MECHANISMS)
def test_entropy_shorter_than_security_strength_is_refused(
    cls: type[HmacDrbg] | type[CtrDrbg],
) -> None:
    with pytest.raises(DrbgInputError, match="at least 256"):
        cls(bytes(31), N16)
    d = cls(E32, N16)
    with pytest.raises(DrbgInputError):
        d.reseed(bytes(16))


@pytest.mark.parametrize("cls", MECHANISMS)
def test_prediction_resistance_reseeds_with_the_fresh_entropy(
    cls: type[HmacDrbg] | type[CtrDrbg],
) -> None:
    """generate(PR) == reseed(entropy, additional) then generate(no additional) (9.3.1)."""
    a, b = cls(E32, N16), cls(E32, N16)
    fresh, extra = bytes([7]) * 32, b"additional"
    out = a.generate(64, extra, prediction_resistance_entropy=fresh)
    b.reseed(fresh, extra)
    assert out == b.generate(64)
    assert a.reseed_counter == 2
    # Different fresh entropy gives different output: the entropy is really used.
    c = cls(E32, N16)
    assert c.generate(64, extra, prediction_resistance_entropy=bytes(32)) != out


def test_ctr_keystream_crosses_the_128_bit_counter_wrap() -> None:
    """V near 2**128 - 1: the one-call AES-CTR path must wrap like V = (V + 1) mod 2**128."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    d = CtrDrbg(E32, N16)
    key = d._key
    d._v = (1 << 128) - 2
    out = d.generate(64)
    ecb = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    blocks = [((1 << 128) - 1 + i) % (1 << 128) for i in range(4)]
    expected = b"".join(ecb.update(v.to_bytes(16, "big")) for v in blocks)
    assert out == expected


def test_unknown_variants_are_refused() -> None:
    with pytest.raises(DrbgInputError):
        HmacDrbg(E32, N16, hash_name="MD5")
    with pytest.raises(DrbgInputError):
        CtrDrbg(E32, N16, cipher="TDEA")


@pytest.mark.parametrize("module", ["drbg", "hmac_drbg", "ctr_drbg", "health", "sample"])
def test_deterministic_core_imports_no_os_time_or_random(module: str) -> None:
    """STYLE.md idiom C: entropy and time are injected, never fetched by the core."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).parents[2] / "rng" / f"{module}.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"os", "time", "random", "secrets"}
