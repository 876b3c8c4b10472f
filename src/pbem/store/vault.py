"""A side's campaign secrets on disk: mode 0600, optionally encrypted with a passphrase.

The secrets (the hash-chain seed and the private-draw secret) never leave
this machine until the rules say so.  Encrypted files use scrypt to derive a
key from the passphrase and ChaCha20-Poly1305 to seal the JSON.

Every write replaces the file in one step (``pbem.store.files.atomic_write``): a kill leaves the
old secrets or the new ones, never an empty or half-written file.  A file that cannot be
read as secrets (not JSON, not a JSON object, an encrypted file with a damaged field) is
refused with ``bad-secrets`` and a one-line reason.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import PbemError
from .files import atomic_write, temporary
from .lock import crash_point

SCHEME = "scrypt-chacha20poly1305"


def _key(passphrase: bytes, salt: bytes) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=2**15, r=8, p=1).derive(passphrase)


def seal(data: dict[str, Any], passphrase: bytes | None = None) -> bytes:
    """The bytes of a secrets file holding ``data`` (encrypted with ``passphrase`` if given)."""
    plain = json.dumps(data, sort_keys=True).encode()
    if not passphrase:
        return plain
    import secrets

    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    salt, nonce = secrets.token_bytes(16), secrets.token_bytes(12)
    sealed = ChaCha20Poly1305(_key(passphrase, salt)).encrypt(nonce, plain, SCHEME.encode())
    return json.dumps({"encrypted": SCHEME, "salt": salt.hex(), "nonce": nonce.hex(),
                       "data": base64.b64encode(sealed).decode()}).encode()


def write(path: Path, data: dict[str, Any], passphrase: bytes | None = None) -> None:
    """Replace the secrets file ``path`` with ``data``, in one step, mode 0600."""
    blob = seal(data, passphrase)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise PbemError("cannot write this campaign's secrets", f"{path.parent}: {e.strerror or e}",
                        code="unwritable") from None
    if os.environ.get("PBEM_CRASH_AT") == "secrets:write":  # tests: die half-way through the write
        fd, _ = temporary(path)
        os.write(fd, blob[: len(blob) // 2])
        crash_point("secrets:write")
    try:
        atomic_write(path, blob, 0o600)
    except OSError as e:  # disk full, read-only: the old file stands, whole
        raise PbemError("cannot write this campaign's secrets", f"{path}: {e.strerror or e}; the file is as it was",
                        code="unwritable") from None


def _damaged(path: Path, why: str) -> PbemError:
    return PbemError("this campaign's secrets are damaged", f"{path}: {why}; restore the file from a backup",
                     code="bad-secrets")


def load(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` as stored (maybe an encrypted wrapper)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise PbemError("this campaign's secrets are missing", f"{path} does not exist", code="no-secrets") from None
    except OSError as e:
        raise PbemError("this campaign's secrets cannot be read", f"{path}: {e.strerror or e}",
                        code="bad-secrets") from None
    except UnicodeDecodeError:
        raise _damaged(path, "not UTF-8 text") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise _damaged(path, "empty file" if not text.strip() else f"not JSON ({e})") from None
    if not isinstance(data, dict):
        raise _damaged(path, f"a JSON {type(data).__name__}, not an object")
    return data


def is_encrypted(path: Path) -> bool:
    try:
        return load(path).get("encrypted") is not None
    except PbemError:
        return False


def read(path: Path, passphrase: Callable[[], bytes | None] | None = None) -> dict[str, Any]:
    """The secrets; asks ``passphrase()`` if the file is encrypted.

    :raises PbemError: missing file (``no-secrets``), no or wrong passphrase (``locked``),
        a damaged file (``bad-secrets``).
    """
    data = load(path)
    if "encrypted" not in data:
        return data
    if data["encrypted"] != SCHEME:
        raise _damaged(path, f"encrypted with an unknown scheme {str(data['encrypted'])[:40]!r}")
    try:
        salt, nonce = bytes.fromhex(data["salt"]), bytes.fromhex(data["nonce"])
        sealed = base64.b64decode(data["data"], validate=True)
    except KeyError as e:
        raise _damaged(path, f"the encrypted file has no {e.args[0]!r} field") from None
    except (TypeError, ValueError, binascii.Error):
        raise _damaged(path, "a field of the encrypted file (salt, nonce or data) is not valid hex or base64") from None
    if len(nonce) != 12 or not salt:
        raise _damaged(path, f"the nonce has {len(nonce)} bytes, not 12" if salt else "the salt is empty")
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    secret = passphrase() if passphrase else None
    if not secret:
        raise PbemError("this campaign's secrets are encrypted", "give the passphrase (PBEM_PASSPHRASE or the prompt)",
                        code="locked")
    try:
        plain = ChaCha20Poly1305(_key(secret, salt)).decrypt(nonce, sealed, SCHEME.encode())
    except InvalidTag:
        raise PbemError("cannot unlock this campaign's secrets", "wrong passphrase or damaged file", code="locked") from None
    try:
        opened = json.loads(plain)
    except ValueError:
        raise _damaged(path, "the decrypted secrets are not JSON") from None
    if not isinstance(opened, dict):
        raise _damaged(path, "the decrypted secrets are not a JSON object")
    return opened


def draft_problem(data: Any) -> str | None:
    """Why ``data`` is not a draft this tool wrote, or None."""
    if not isinstance(data, dict) or set(data) - {"after", "actions"}:
        return "not a draft: an object with 'after' and 'actions' expected"
    if not isinstance(data.get("after"), int) or isinstance(data["after"], bool):
        return "'after' is not an envelope number"
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        return "'actions' is not a list of actions"
    return None


def secrets_problem(data: dict[str, Any], game: str | None, side: str) -> str | None:
    """Why ``data`` is not this campaign's secrets, or None."""
    def is_hex(value: Any, size: int | None = None) -> bool:
        if not isinstance(value, str) or (size is not None and len(value) != size * 2):
            return False
        try:
            bytes.fromhex(value)
        except ValueError:
            return False
        return bool(value)

    for key, kind in (("game", str), ("side", str), ("secret", str), ("length", int)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            return f"the field {key!r} is missing or not a {kind.__name__}"
    if game is not None and data["game"] != game:
        return f"they are the secrets of game {data['game'][:16]}, not of this campaign's {game}"
    if side and data["side"] != side:
        return f"they are the secrets of {data['side'][:16]}, not of {side}"
    if not is_hex(data["secret"], 32):
        return "the chain secret is not 32 bytes of hex"
    if not 0 < data["length"] <= 1_000_000:
        return "the chain length is out of range"
    for key in ("private", "salt", "box"):
        if data.get(key) is not None and not is_hex(data[key], 32):
            return f"the field {key!r} is not 32 bytes of hex"
    checkpoints = data.get("checkpoints", [])
    if not isinstance(checkpoints, list) or len(checkpoints) > data["length"] \
            or not all(is_hex(c, 32) for c in checkpoints):
        return "the chain's checkpoints are not a list of links (32 bytes of hex)"
    chosen = data.get("chosen", {})
    if not isinstance(chosen, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in chosen.items()):
        return "the record of hidden choices ('chosen') is not a table of names"
    return None
