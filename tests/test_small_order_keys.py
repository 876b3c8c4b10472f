"""A public key that is a point of small order names no one: under the identity point a signature
(R the identity, S = 0) verifies any message, and pyca accepts it.  Wherever a public key enters
(an opponent's or a player's key file for ``pbem new``, an invitation's keys for ``pbem join``,
``pbem keys import``) every such key, in every encoding, is refused in one line, exit 1, and
nothing is written.  The points are derived here from the curve itself, not copied from a list."""

from __future__ import annotations

import base64
import struct

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.chain import invitation
from pbem.errors import RefusedTurn
from pbem.wire.keys import small_order
from tests.conftest import assert_refused, forge, invoke, new_player, pbem, read_envelope

# --- the eight points of small order, from the curve -x^2 + y^2 = 1 + d x^2 y^2 (RFC 8032) ------

P = 2**255 - 19
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def x_of(y: int, sign: int) -> int | None:
    """RFC 8032's decoding of x from y and its sign bit (None: no point, or x = 0 with sign 1)."""
    x2 = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    return P - x if x & 1 != sign else x


def add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return (x1 * y2 + x2 * y1) * pow(1 + t, -1, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, -1, P) % P


def torsion() -> list[tuple[int, int]]:
    """The 8-torsion subgroup: the multiples of a point of order 8."""
    y = _order_8_y()
    multiples, q = [], (0, 1)
    for _ in range(8):
        multiples.append(q)
        q = add(q, (x_of(y, 0), y))
    assert q == (0, 1)
    return multiples


def _order_8_y() -> int:
    """A point of order 8 doubles to one of order 4, (±sqrt(-1), 0).  Doubling (a = -1) gives
    y' = (y^2 + x^2) / (2 + x^2 - y^2), which is 0 when x^2 = -y^2; on the curve that is
    d y^4 + 2 y^2 - 1 = 0, so y^2 = (-1 ± sqrt(1 + d)) / d."""
    def sqrt(v: int) -> int | None:
        r = pow(v, (P + 3) // 8, P)
        r = r if (r * r - v) % P == 0 else r * SQRT_M1 % P
        return r if (r * r - v) % P == 0 else None

    root = sqrt((1 + D) % P)
    for y2 in ((-1 + root) * pow(D, -1, P) % P, (-1 - root) * pow(D, -1, P) % P):
        y = sqrt(y2)
        if y is not None and x_of(y, 0) is not None:
            return y
    raise AssertionError("no point of order 8")


def encodings(point: tuple[int, int]) -> list[bytes]:
    """Every 32-byte string a lenient reader decodes to ``point``: y or y + p (below 2^255), with
    the sign bit of x (both, where x = 0: the second is non-canonical)."""
    x, y = point
    out = []
    for stored in (y, y + P):
        for sign in (0, 1):
            if stored < 2**255 and (x_of(y, sign) == x or x == 0):
                out.append((stored | sign << 255).to_bytes(32, "little"))
    return out


POINTS = torsion()
SMALL = sorted({e for p in POINTS for e in encodings(p)})
IDENTITY = (1).to_bytes(32, "little")


def test_there_are_eight_points_of_small_order_in_fourteen_encodings():
    assert len(set(POINTS)) == 8
    assert len(SMALL) == 14 and IDENTITY in SMALL


@pytest.mark.parametrize("key", SMALL, ids=[k.hex()[:8] + k.hex()[-2:] for k in SMALL])
def test_every_encoding_of_a_small_order_point_is_one(key):
    assert small_order(key)


def test_real_keys_are_not_of_small_order():
    for seed in range(200):
        key = Ed25519PrivateKey.from_private_bytes(seed.to_bytes(32, "little")).public_key().public_bytes_raw()
        assert not small_order(key)


def ssh_line(public: bytes, comment: str = "evil") -> str:
    blob = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + public
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} {comment}\n"


# --- where a key enters -------------------------------------------------------------------------

@pytest.fixture
def players(tmp_path, runner, home):
    return new_player(runner, tmp_path, "alice", "red"), new_player(runner, tmp_path, "bob", "blue")


@pytest.mark.parametrize("key", SMALL, ids=[k.hex()[:8] + k.hex()[-2:] for k in SMALL])
def test_pbem_new_refuses_a_small_order_opponent_or_player(tmp_path, runner, players, key):
    alice, bob = players
    evil = tmp_path / "evil.pub"
    evil.write_text(ssh_line(key))
    result = invoke(runner, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", evil,
                    "--campaign", alice.dir, env=alice.env)
    assert_refused(result, "bad-key")
    assert "small-order key" in result.stderr
    result = invoke(runner, "new", "barrage", "--referee", "--key", "alice", "--player", f"red={evil}",
                    "--player", f"blue={bob.pub}", "--campaign", alice.dir, env=alice.env)
    assert_refused(result, "bad-key")
    assert not alice.dir.exists()


class IdentityPointForger:
    """A 'key' of small order: under the identity point, R the identity and S = 0 verify anything."""

    public = IDENTITY

    def sign(self, message: bytes) -> bytes:
        return IDENTITY + bytes(32)


def test_pbem_join_refuses_an_invitation_signed_under_the_identity_point(tmp_path, runner, players):
    alice, bob = players
    pbem(runner, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub,
         "--campaign", alice.dir, env=alice.env)
    content = read_envelope(next((alice.dir / "sent").glob("*genesis.pbem"))).content
    content["body"]["sides"]["red"]["key"] = base64.b64encode(IDENTITY).decode()
    forged = forge(IdentityPointForger(), content, tmp_path / "forged.pbem")
    result = invoke(runner, "join", forged, "--key", "bob", "--campaign", bob.dir, env=bob.env)
    assert_refused(result, "bad-genesis")
    assert "small-order key" in result.stderr
    assert not (bob.dir / "campaign.db").exists()


@pytest.mark.parametrize("key", SMALL, ids=[k.hex()[:8] + k.hex()[-2:] for k in SMALL])
def test_an_invitation_pinning_a_small_order_key_is_refused(tmp_path, runner, players, key):
    """The check join (and verify) make of every key of a genesis, whatever its signature."""
    alice, bob = players
    pbem(runner, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub,
         "--campaign", alice.dir, env=alice.env)
    content = read_envelope(next((alice.dir / "sent").glob("*genesis.pbem"))).content
    content["body"]["sides"]["blue"]["key"] = base64.b64encode(key).decode()
    with pytest.raises(RefusedTurn) as refused:
        invitation.check(content)
    assert refused.value.code == "bad-genesis" and "side blue: 'key' is a small-order key" in refused.value.detail


def test_keys_import_refuses_an_openssh_key_whose_public_half_is_of_small_order(tmp_path, runner, home):
    real = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    pem = real.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                             serialization.NoEncryption()).decode()
    lines = pem.strip().splitlines()
    blob = base64.b64decode("".join(lines[1:-1]))
    blob = blob.replace(real.public_key().public_bytes_raw(), IDENTITY)
    body = base64.b64encode(blob).decode()
    evil = tmp_path / "id_ed25519"
    evil.write_text("\n".join([lines[0], *(body[i:i + 70] for i in range(0, len(body), 70)), lines[-1]]) + "\n")
    result = invoke(runner, "keys", "import", "evil", evil)
    assert_refused(result, "bad-key")
    assert not (home / "keys" / "evil.key").exists()
