"""Passphrases: from PBEM_PASSPHRASE, asked on a terminal, or a refusal saying how to give one
(never a bare 'Aborted!'); OpenSSH keys protected by a passphrase import, a wrong one is refused."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import PbemError
from pbem.wire.keys import KeyStore, public_raw
from tests.conftest import assert_refused, invoke, new_player, pbem

PBEM = Path(sys.executable).parent / "pbem"


# --- pbem keys new --passphrase --------------------------------------------------------------

def test_keys_new_takes_the_passphrase_from_the_environment(home, runner):
    result = pbem(runner, "keys", "new", "carol", "--passphrase", env={"PBEM_PASSPHRASE": "correct horse"})
    assert "fingerprint" in result.output
    assert b"ENCRYPTED" in (home / "keys" / "carol.key").read_bytes()
    assert KeyStore(home).load("carol", lambda name: b"correct horse").name == "carol"


def test_keys_new_passphrase_without_a_terminal_says_how_to_give_one(home, runner):
    result = invoke(runner, "keys", "new", "carol", "--passphrase")
    assert_refused(result, "no-passphrase")
    first = result.stderr.splitlines()[0]
    assert "PBEM_PASSPHRASE" in first and "terminal" in first
    assert "Aborted" not in result.output
    assert not (home / "keys" / "carol.key").exists()


def test_encrypted_campaign_secrets_without_a_terminal_say_how_to_give_a_passphrase(tmp_path, runner):
    alice = new_player(runner, tmp_path, "alice", "red")
    bob = new_player(runner, tmp_path, "bob", "blue")
    result = invoke(runner, "new", "barrage", "--as", "red", "--key", "alice", "--opponent", bob.pub,
                    "--encrypt-secrets", "--campaign", alice.dir, env=alice.env)
    assert_refused(result, "no-passphrase")
    assert "PBEM_PASSPHRASE" in result.stderr and "Aborted" not in result.output
    assert not alice.dir.exists()


# --- pbem keys import of a key protected by a passphrase ------------------------------------------

def protected_key(tmp_path: Path, passphrase: str, maker: str) -> tuple[Path, bytes]:
    """An OpenSSH ed25519 private key file protected by ``passphrase``, and its raw public key."""
    path = tmp_path / f"id_ed25519_{maker}"
    if maker == "ssh-keygen":
        if shutil.which("ssh-keygen") is None:
            pytest.skip("ssh-keygen is not installed")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "me@host", "-f", str(path)],
                       check=True)
        key = serialization.load_ssh_private_key(path.read_bytes(), passphrase.encode())
    else:
        key = Ed25519PrivateKey.generate()
        path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                           serialization.BestAvailableEncryption(passphrase.encode())))
    assert b"OPENSSH PRIVATE KEY" in path.read_bytes()
    return path, public_raw(key.public_key())


MAKERS = ["ssh-keygen", "cryptography"]


@pytest.mark.parametrize("maker", MAKERS)
def test_import_of_a_protected_openssh_key_with_its_passphrase(home, runner, tmp_path, maker):
    path, public = protected_key(tmp_path, "secret", maker)
    result = pbem(runner, "keys", "import", "dave", path, env={"PBEM_PASSPHRASE": "secret"})
    assert "fingerprint" in result.output and "kept encrypted" in result.output
    store = KeyStore(home)
    assert store.public("dave") == public
    # the identity keeps the key's protection: same passphrase, nothing opens it without one
    assert b"ENCRYPTED" in (home / "keys" / "dave.key").read_bytes()
    assert store.load("dave", lambda name: b"secret").public == public
    with pytest.raises(PbemError, match="encrypted"):
        store.load("dave", None)


@pytest.mark.parametrize("maker", MAKERS)
def test_import_of_a_protected_key_without_a_passphrase_is_refused(home, runner, tmp_path, maker):
    path, _ = protected_key(tmp_path, "secret", maker)
    result = invoke(runner, "keys", "import", "dave", path)
    assert_refused(result, "no-passphrase")
    assert "PBEM_PASSPHRASE" in result.stderr.splitlines()[0]
    assert "dave" not in KeyStore(home).names()


@pytest.mark.parametrize("maker", MAKERS)
def test_import_with_a_wrong_passphrase_is_refused(home, runner, tmp_path, maker):
    path, _ = protected_key(tmp_path, "secret", maker)
    result = invoke(runner, "keys", "import", "dave", path, env={"PBEM_PASSPHRASE": "not it"})
    assert_refused(result, "bad-key")
    assert "wrong passphrase" in result.stderr
    assert "dave" not in KeyStore(home).names()


def test_an_unprotected_key_imports_as_before_even_with_a_passphrase_set(home, runner, tmp_path):
    key = Ed25519PrivateKey.generate()
    path = tmp_path / "id_ed25519"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                       serialization.NoEncryption()))
    result = pbem(runner, "keys", "import", "erin", path, env={"PBEM_PASSPHRASE": "unused"})
    assert "kept encrypted" not in result.output
    assert b"ENCRYPTED" not in (home / "keys" / "erin.key").read_bytes()
    assert KeyStore(home).load("erin").public == public_raw(key.public_key())


def test_import_under_a_taken_name_is_refused_before_asking(home, runner, tmp_path):
    pbem(runner, "keys", "new", "dave")
    path, _ = protected_key(tmp_path, "secret", "cryptography")
    result = invoke(runner, "keys", "import", "dave", path)  # no passphrase: it must not matter
    assert_refused(result, "bad-key")
    assert "already exists" in result.stderr


# --- on a terminal: asked ----------------------------------------------------------------------

def _echo_off(fd: int, until: float) -> bool:
    """Wait until the terminal stops echoing (a hidden prompt is reading)."""
    import termios

    while time.monotonic() < until:
        if not termios.tcgetattr(fd)[3] & termios.ECHO:
            return True
        time.sleep(0.02)
    return False


def on_a_terminal(args: list[str], answers: list[str], home: Path) -> tuple[int, str]:
    """Run the installed ``pbem ARGS`` on a pseudo-terminal, answering each hidden prompt in turn."""
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    env["PBEM_HOME"] = str(home)
    master, slave = os.openpty()
    proc = subprocess.Popen([str(PBEM), *args], stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True)  # no controlling terminal: getpass reads the pty
    os.close(slave)
    output, pending, deadline = b"", [a.encode() + b"\n" for a in answers], time.monotonic() + 60
    answered = 0  # how much output there was when the last answer was given: a new prompt comes after it
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child has gone: the pty is closed
                    break
                if not chunk:
                    break
                output += chunk
                if pending and output[answered:].rstrip().endswith(b":") and _echo_off(master, deadline):
                    os.write(master, pending.pop(0))
                    answered = len(output)
            elif proc.poll() is not None:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)
    return proc.returncode, output.decode(errors="replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
def test_on_a_terminal_the_passphrases_are_asked(tmp_path):
    home = tmp_path / "home"
    code, out = on_a_terminal(["keys", "new", "carol", "--passphrase"], ["pw one", "pw one"], home)
    assert code == 0, out
    assert "Repeat for confirmation" in out and "fingerprint" in out
    assert KeyStore(home).load("carol", lambda name: b"pw one").name == "carol"

    path, public = protected_key(tmp_path, "secret", "cryptography")
    code, out = on_a_terminal(["keys", "import", "dave", str(path)], ["secret"], home)
    assert code == 0, out
    assert f"Passphrase of {path}" in out and "secret" not in out.replace(f"{path}", "")
    assert KeyStore(home).load("dave", lambda name: b"secret").public == public


def test_bcrypt_is_installed_with_pbem():
    """cryptography opens passphrase-protected OpenSSH keys only with bcrypt: pbem must require it."""
    from importlib.metadata import requires

    assert any(r.split(">")[0].split("=")[0].strip().lower() == "bcrypt" for r in requires("pbem") or [])
    import bcrypt  # noqa: F401
