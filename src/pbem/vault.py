"""A side's campaign secrets on disk: mode 0600, optionally encrypted with a passphrase.

The secrets (the hash-chain seed and the private-draw secret) never leave
this machine until the rules say so.  Encrypted files use scrypt to derive a
key from the passphrase and ChaCha20-Poly1305 to seal the JSON.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import PbemError

SCHEME = "scrypt-chacha20poly1305"


def _key(passphrase: bytes, salt: bytes) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=2**15, r=8, p=1).derive(passphrase)


def write(path: Path, data: dict[str, Any], passphrase: bytes | None = None) -> None:
    plain = json.dumps(data, sort_keys=True).encode()
    if passphrase:
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
        sealed = ChaCha20Poly1305(_key(passphrase, salt)).encrypt(nonce, plain, SCHEME.encode())
        plain = json.dumps({"encrypted": SCHEME, "salt": salt.hex(), "nonce": nonce.hex(),
                            "data": base64.b64encode(sealed).decode()}).encode()
    path.parent.mkdir(mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(plain)


def read(path: Path, passphrase: Callable[[], bytes | None] | None = None) -> dict[str, Any]:
    """The secrets; asks ``passphrase()`` if the file is encrypted.

    :raises PbemError: missing file, no or wrong passphrase.
    """
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise PbemError("this campaign's secrets are missing", f"{path} does not exist", code="no-secrets") from None
    if data.get("encrypted") != SCHEME:
        return data
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    secret = passphrase() if passphrase else None
    if not secret:
        raise PbemError("this campaign's secrets are encrypted", "give the passphrase (PBEM_PASSPHRASE or the prompt)",
                        code="locked")
    try:
        plain = ChaCha20Poly1305(_key(secret, bytes.fromhex(data["salt"]))).decrypt(
            bytes.fromhex(data["nonce"]), base64.b64decode(data["data"]), SCHEME.encode())
    except InvalidTag:
        raise PbemError("cannot unlock this campaign's secrets", "wrong passphrase or damaged file", code="locked") from None
    return json.loads(plain)
