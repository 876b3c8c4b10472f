"""Identities: Ed25519 keys, their files, and fingerprints players read aloud.

A private key lives in ``<home>/keys/NAME.key`` (PKCS#8 PEM, mode 0600,
encrypted when a passphrase is given); its public half in ``NAME.pub`` as an
OpenSSH line, which is also what a player sends to an opponent.  An existing
OpenSSH ed25519 key can be imported as an identity.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import KeyError_

if TYPE_CHECKING:  # the library itself only where a key is made, read or used: a report needs none
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
Passphrase = Callable[[str], bytes | None]  # asked with the key name; None = no passphrase


def default_home() -> Path:
    return Path(os.environ.get("PBEM_HOME") or Path.home() / ".pbem")


@functools.lru_cache(maxsize=64)  # a campaign has a few keys, read once per envelope
def fingerprint(public: bytes) -> str:
    """A short, phone-readable fingerprint of a raw 32-byte public key: 4 groups of 4."""
    text = base64.b32encode(hashlib.sha256(b"pbem/v1/key\0" + public).digest()[:10]).decode()
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


def public_raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes_raw()


# The y coordinates (sign bit cleared) of the eight points of small order, in every encoding,
# canonical or not (0 and 1 also as p and p + 1): libsodium's list.  A signature under such a
# key can be made to verify any message (the identity's: R the identity, S = 0), so it names no one.
_SMALL_ORDER_Y = frozenset(bytes.fromhex(h) for h in (
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4 (x = ±sqrt(-1))
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p - 1: order 2
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p: 0
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # p + 1: 1
))


def small_order(public: bytes) -> bool:
    """Whether a raw Ed25519 public key is a point of small order (any encoding of one)."""
    return len(public) == 32 and public[:31] + bytes([public[31] & 0x7F]) in _SMALL_ORDER_Y


def refuse_small_order(public: bytes, source: str) -> None:
    """:raises KeyError_: ``public`` is a point of small order, a key anyone can sign for."""
    if small_order(public):
        raise KeyError_(f"{source} is a small-order key, which anyone can sign for",
                        "it is no one's key: ask for the public key 'pbem keys export NAME' prints")


# An unencrypted PKCS#8 Ed25519 private key is this DER prefix and the 32-byte seed (RFC 8410).
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")


def _plain_seed(pem: bytes) -> bytes | None:
    """The seed of an unencrypted Ed25519 key file exactly as ``_save`` writes it, else None (for
    ``serialization`` to read, or refuse): the cold ``pbem play`` is spared importing
    ``serialization`` (about 11 ms)."""
    lines = pem.split(b"\n")
    if len(lines) != 4 or lines[0] != b"-----BEGIN PRIVATE KEY-----" or lines[2] != b"-----END PRIVATE KEY-----" \
            or lines[3] != b"":
        return None
    try:
        der = base64.b64decode(lines[1], validate=True)
    except ValueError:
        return None
    return der[16:] if len(der) == 48 and der.startswith(_PKCS8_ED25519) else None


class Identity:
    """A named Ed25519 private key: a pyca key, or the 32-byte seed of one read from a plain key
    file (``seed=``), which libsodium signs with.  Ed25519 signatures are deterministic, so both
    give the same bytes (tests/test_keys.py); a cold ``pbem play`` is spared importing pyca."""

    def __init__(self, name: str, private: Ed25519PrivateKey | None = None, *, seed: bytes | None = None) -> None:
        if (private is None) == (seed is None):
            raise ValueError("an identity is made of a pyca key or of a seed, one of the two")
        self.name, self._private, self._seed = name, private, seed

    @property
    def private(self) -> Ed25519PrivateKey:
        """The pyca key (made from the seed when first asked: to save it, or export it)."""
        if self._private is None:
            from cryptography.hazmat.primitives.asymmetric.ed25519 import (
                Ed25519PrivateKey,
            )

            self._private = Ed25519PrivateKey.from_private_bytes(self._seed)
        return self._private

    @functools.cached_property
    def _sodium_pair(self) -> tuple[bytes, bytes] | None:
        """libsodium's public key and secret key of the seed (None: no seed, or no libsodium)."""
        if self._seed is None:
            return None
        try:
            from nacl.bindings import crypto_sign_seed_keypair
        except ImportError:  # a dependency; without it pyca signs
            return None
        return crypto_sign_seed_keypair(self._seed)

    @property
    def public(self) -> bytes:
        if self._sodium_pair is not None:
            return self._sodium_pair[0]
        return public_raw(self.private.public_key())

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, message: bytes) -> bytes:
        if self._sodium_pair is not None:
            from nacl.bindings import crypto_sign

            return crypto_sign(message, self._sodium_pair[1])[:64]  # the signature, then the message
        return self.private.sign(message)


def openssh_line(public: bytes, comment: str) -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = Ed25519PublicKey.from_public_bytes(public)
    text = key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
    return f"{text} {comment}\n"


def parse_public(text: str, source: str = "public key") -> tuple[bytes, str]:
    """Raw public key and comment from an OpenSSH ``ssh-ed25519`` line.

    :raises KeyError_: not an ed25519 public key.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    line = text.strip()
    parts = line.split()
    if len(parts) < 2 or parts[0] != "ssh-ed25519":
        raise KeyError_(f"{source} is not an ed25519 public key", "expected a line 'ssh-ed25519 AAAA... name'")
    try:
        key = serialization.load_ssh_public_key(" ".join(parts[:2]).encode())
    except (ValueError, TypeError) as e:
        raise KeyError_(f"{source} is not a valid ed25519 public key", str(e)) from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyError_(f"{source} is not an ed25519 key")
    refuse_small_order(public_raw(key), source)
    return public_raw(key), " ".join(parts[2:])


class KeyStore:
    """The identities in ``home/keys``."""

    def __init__(self, home: Path | None = None) -> None:
        self.dir = (home or default_home()) / "keys"

    def _paths(self, name: str) -> tuple[Path, Path]:
        if not NAME.match(name):
            raise KeyError_(f"'{name}' is not a usable identity name", "use letters, digits, '.', '_' or '-'")
        return self.dir / f"{name}.key", self.dir / f"{name}.pub"

    def names(self) -> list[str]:
        if not self.dir.is_dir():
            return []
        return sorted(p.stem for p in self.dir.glob("*.key"))

    def create(self, name: str, passphrase: bytes | None = None) -> Identity:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return self._save(Identity(name, Ed25519PrivateKey.generate()), passphrase)

    def import_openssh(self, name: str, path: Path, passphrase: bytes | Passphrase | None = None) -> Identity:
        """Adopt an existing OpenSSH ed25519 private key as identity ``name``.

        ``passphrase``: the key's passphrase, or a function asked for it (with the file's name)
        only when the key is protected by one.  A protected key's identity is stored encrypted
        with the same passphrase.

        :raises KeyError_: unreadable or not an ed25519 key; a protected key without its
            passphrase (code ``no-passphrase``) or with a wrong one.
        """
        from cryptography.exceptions import UnsupportedAlgorithm
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        key_path, _ = self._paths(name)
        if key_path.exists():  # before asking for a passphrase
            raise KeyError_(f"identity '{name}' already exists", str(key_path))
        try:
            data = path.read_bytes()
        except OSError as e:
            raise KeyError_(f"cannot read {path}", e.strerror or str(e)) from None
        secret = None
        try:
            try:
                key = serialization.load_ssh_private_key(data, None)
            except TypeError:  # the only TypeError without a password: the key is protected by one
                secret = passphrase(str(path)) if callable(passphrase) else passphrase
                if not secret:
                    raise KeyError_(f"{path} is protected by a passphrase: set PBEM_PASSPHRASE or run this in a "
                                    "terminal", "pbem asks for the key's passphrase only on a terminal",
                                    code="no-passphrase") from None
                try:
                    key = serialization.load_ssh_private_key(data, secret)
                except ValueError:
                    raise KeyError_(f"wrong passphrase for {path}",
                                    "it does not decrypt the key (or the file is damaged)") from None
        except ValueError as e:
            raise KeyError_(f"{path} is not a usable OpenSSH private key", str(e)) from None
        except UnsupportedAlgorithm as e:
            raise KeyError_(f"cannot decrypt {path}", f"{e}: install pbem with its dependencies (bcrypt)") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyError_(f"{path} is not an ed25519 key", "pbem identities are Ed25519; make one with ssh-keygen -t ed25519")
        refuse_small_order(public_raw(key.public_key()), str(path))  # no seed gives one: as every key that enters
        return self._save(Identity(name, key), secret)

    def _save(self, identity: Identity, passphrase: bytes | None) -> Identity:
        from cryptography.hazmat.primitives import serialization

        key_path, pub_path = self._paths(identity.name)
        if key_path.exists():
            raise KeyError_(f"identity '{identity.name}' already exists", str(key_path))
        self.dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o700)
        encryption = (serialization.BestAvailableEncryption(passphrase) if passphrase
                      else serialization.NoEncryption())
        pem = identity.private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        pub_path.write_text(openssh_line(identity.public, f"pbem:{identity.name}"))
        return identity

    def load(self, name: str, passphrase: Passphrase | None = None) -> Identity:
        key_path, _ = self._paths(name)
        try:
            pem = key_path.read_bytes()
        except FileNotFoundError:
            known = ", ".join(self.names()) or "none"
            raise KeyError_(f"no identity '{name}'", f"known identities: {known}; make one with 'pbem keys new {name}'") from None
        seed = _plain_seed(pem)
        if seed is not None:
            return Identity(name, seed=seed)
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        secret = None
        if b"ENCRYPTED" in pem:
            secret = passphrase(name) if passphrase else None
            if not secret:
                raise KeyError_(f"identity '{name}' is encrypted", "give its passphrase (PBEM_PASSPHRASE or the prompt)")
        try:
            key = serialization.load_pem_private_key(pem, secret)
        except (ValueError, TypeError):
            raise KeyError_(f"cannot unlock identity '{name}'", "wrong passphrase or damaged key file") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyError_(f"identity '{name}' is not an ed25519 key")
        return Identity(name, key)

    def public(self, name: str) -> bytes:
        _, pub_path = self._paths(name)
        try:
            return parse_public(pub_path.read_text(), str(pub_path))[0]
        except FileNotFoundError:
            raise KeyError_(f"no identity '{name}'", f"known identities: {', '.join(self.names()) or 'none'}") from None

    def public_line(self, name: str) -> str:
        return openssh_line(self.public(name), f"pbem:{name}")
