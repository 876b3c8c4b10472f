"""Signature checks: libsodium first, pyca's verdict on whatever libsodium refuses.

``envelope.check_signature`` asks libsodium (PyNaCl) first, a third faster than pyca's OpenSSL
check, and pyca only for a payload libsodium refuses.  That is exactly as strict as pyca alone
only if libsodium never accepts what pyca refuses: these tests hold the verdicts to pyca's over
good, damaged and hostile payloads, including the small-order keys libsodium refuses and pyca
accepts.
"""

from __future__ import annotations

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import given, settings, strategies as st

from pbem.wire import envelope
from pbem.wire.envelope import DOMAIN, check_signature
from pbem.errors import SignatureError

L = 2**252 + 27742317777372353535851937790883648493  # the order of the Ed25519 base point
# Points of small order (and non-canonical encodings of some), as libsodium's blacklist names them.
SMALL_ORDER = [bytes.fromhex(h) for h in (
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1, non-canonical
)]


def pyca_accepts(payload: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(payload[64:96]).verify(payload[:64], DOMAIN + payload[96:])
    except (InvalidSignature, ValueError):
        return False
    return True


def ours_accepts(payload: bytes) -> bool:
    try:
        check_signature(payload)
    except SignatureError:
        return False
    return True


def signed(seed: bytes, body: bytes) -> bytes:
    key = Ed25519PrivateKey.from_private_bytes(seed)
    return key.sign(DOMAIN + body) + key.public_key().public_bytes_raw() + body


seeds = st.binary(min_size=32, max_size=32)
bodies = st.binary(min_size=1, max_size=400)


@settings(max_examples=200, deadline=None)
@given(seeds, bodies)
def test_a_good_signature_is_accepted(seed: bytes, body: bytes) -> None:
    payload = signed(seed, body)
    assert pyca_accepts(payload) and ours_accepts(payload)


@settings(max_examples=300, deadline=None)
@given(seeds, bodies, st.data())
def test_a_changed_byte_is_refused_as_pyca_refuses_it(seed: bytes, body: bytes, data: st.DataObject) -> None:
    payload = bytearray(signed(seed, body))
    at = data.draw(st.integers(0, len(payload) - 1))
    payload[at] ^= data.draw(st.integers(1, 255))
    assert ours_accepts(bytes(payload)) == pyca_accepts(bytes(payload))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SMALL_ORDER), st.sampled_from(SMALL_ORDER), st.integers(0, 2**256 - 1), bodies)
def test_small_order_keys_and_commitments_get_pycas_verdict(key: bytes, r: bytes, s: int, body: bytes) -> None:
    """libsodium refuses every small-order key and R; pyca accepts some of these signatures (any
    message verifies under the identity key with R the identity and S = 0): they are accepted, as
    pyca alone accepted them."""
    payload = r + (s % (2 * L) if s % 3 else 0).to_bytes(32, "little") + key + body
    assert ours_accepts(payload) == pyca_accepts(payload)


def test_pyca_decides_what_libsodium_refuses() -> None:
    identity = SMALL_ORDER[0]
    payload = identity + bytes(32) + identity + b'{"any":"message"}'
    sodium_open, refused = envelope._sodium()
    with pytest.raises(refused):
        sodium_open(payload[:64] + DOMAIN + payload[96:], payload[64:96])
    assert pyca_accepts(payload)
    check_signature(payload)  # accepted, as before libsodium was asked first


def test_a_scalar_past_the_group_order_is_refused() -> None:
    good = signed(bytes(range(32)), b'{"a":1}')
    s = int.from_bytes(good[32:64], "little") + L  # the same point equation, a non-canonical S
    payload = good[:32] + s.to_bytes(32, "little") + good[64:]
    assert not pyca_accepts(payload)
    with pytest.raises(SignatureError, match="bad signature"):
        check_signature(payload)


def test_a_good_signature_never_reaches_pyca(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pyca() -> None:
        raise AssertionError("pyca was asked about a signature libsodium accepts")

    monkeypatch.setattr(envelope, "_ed25519", no_pyca)
    check_signature(signed(bytes(32), b'{"seq":1}'))
    with pytest.raises(AssertionError, match="pyca was asked"):
        check_signature(signed(bytes(32), b'{"seq":1}')[:-1] + b"2")


def test_without_libsodium_pyca_checks_every_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyNaCl is a dependency; should it be missing, every verdict is still pyca's."""
    monkeypatch.setattr(envelope, "_sodium", lambda: None)
    good = signed(bytes(range(32)), b'{"a":1}')
    check_signature(good)
    assert not envelope.sodium_accepts(good)  # the thread and the worker leave it to the replay
    with pytest.raises(SignatureError, match="bad signature"):
        check_signature(good[:-1] + b"2")
