"""Identities: make, list, show, export, import OpenSSH, encrypt."""

import stat
import subprocess

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.cli import cli
from pbem.errors import KeyError_
from pbem.wire import keys as keys_mod
from pbem.wire.keys import Identity, KeyStore, fingerprint, parse_public


def run(home, *args, input=None, env=None):
    result = CliRunner().invoke(cli, ["--home", str(home), *args], input=input, env=env)
    assert "Traceback" not in result.output
    return result


def test_new_list_show_export(tmp_path):
    r = run(tmp_path, "keys", "new", "alice")
    assert r.exit_code == 0, r.output
    fp = r.output.split("fingerprint ")[1].split()[0]
    assert len(fp) == 19 and fp.count("-") == 3
    key_file = tmp_path / "keys" / "alice.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in key_file.read_bytes()
    assert f"alice\t{fp}" in run(tmp_path, "keys", "list").output
    assert fp in run(tmp_path, "keys", "show", "alice").output
    exported = run(tmp_path, "keys", "export", "alice").output
    assert exported.startswith("ssh-ed25519 ") and "PRIVATE" not in exported
    public, comment = parse_public(exported)
    assert fingerprint(public) == fp and comment == "pbem:alice"


def test_refusals_are_one_line_without_traceback(tmp_path):
    run(tmp_path, "keys", "new", "alice")
    again = run(tmp_path, "keys", "new", "alice")
    assert again.exit_code == 1 and "already exists" in again.output
    missing = run(tmp_path, "keys", "show", "nobody")
    assert missing.exit_code == 1 and "no identity 'nobody'" in missing.output
    bad = run(tmp_path, "keys", "new", "../evil")
    assert bad.exit_code == 1 and not (tmp_path / "evil.key").exists()


def test_encrypted_identity_needs_its_passphrase(tmp_path):
    r = run(tmp_path, "keys", "new", "carol", "--passphrase", env={"PBEM_PASSPHRASE": "correct horse"})
    assert r.exit_code == 0, r.output
    assert b"ENCRYPTED" in (tmp_path / "keys" / "carol.key").read_bytes()
    store = KeyStore(tmp_path)
    assert store.load("carol", lambda name: b"correct horse").name == "carol"
    with pytest.raises(KeyError_, match="cannot unlock"):
        store.load("carol", lambda name: b"wrong")
    with pytest.raises(KeyError_, match="encrypted"):
        store.load("carol", None)


def test_openssh_key_as_identity(tmp_path):
    key = Ed25519PrivateKey.generate()
    path = tmp_path / "id_ed25519"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                       serialization.NoEncryption()))
    r = run(tmp_path, "keys", "import", "dave", str(path))
    assert r.exit_code == 0, r.output
    store = KeyStore(tmp_path)
    assert store.load("dave").public == KeyStore(tmp_path).public("dave")
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert store.public("dave") == raw


def test_openssh_key_made_by_ssh_keygen(tmp_path):
    try:
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "k")], check=True)
    except (FileNotFoundError, subprocess.CalledProcessError):
        pytest.skip("ssh-keygen is not installed")
    assert run(tmp_path, "keys", "import", "erin", str(tmp_path / "k")).exit_code == 0
    ssh_public = (tmp_path / "k.pub").read_text()
    assert parse_public(ssh_public)[0] == KeyStore(tmp_path).public("erin")


def test_rsa_key_refused(tmp_path):
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = tmp_path / "id_rsa"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                       serialization.NoEncryption()))
    r = run(tmp_path, "keys", "import", "frank", str(path))
    assert r.exit_code == 1 and "not an ed25519 key" in r.output


def test_a_plain_key_file_is_read_without_serialization_and_as_it_would_read_it(tmp_path):
    """The cold 'pbem play' reads an unencrypted key file as written by 'pbem keys new' itself
    (keys._plain_seed); any other shape goes to cryptography's reader, with the same verdicts."""
    store = KeyStore(tmp_path)
    made = store.create("dave")
    key_file = tmp_path / "keys" / "dave.key"
    pem = key_file.read_bytes()
    assert keys_mod._plain_seed(pem) is not None
    assert store.load("dave").private.private_bytes_raw() == made.private.private_bytes_raw()
    by_library = serialization.load_pem_private_key(pem, None)
    assert by_library.private_bytes_raw() == keys_mod._plain_seed(pem)
    for variant in (pem.replace(b"\n", b"\r\n"), b"\n" + pem, pem + b"\n"):  # still a key, read by the library
        assert keys_mod._plain_seed(variant) is None
        key_file.write_bytes(variant)
        assert store.load("dave").private.private_bytes_raw() == made.private.private_bytes_raw()
    body = pem.split(b"\n")[1]
    for damaged in (pem.replace(body, body[:-4] + b"AAA="), pem.replace(body, body[:20]), pem.replace(body, b"!" + body[1:])):
        assert keys_mod._plain_seed(damaged) is None
        key_file.write_bytes(damaged)
        with pytest.raises(KeyError_, match="cannot unlock"):
            store.load("dave")


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), message=st.binary(max_size=3000))
def test_an_identity_read_from_its_seed_signs_as_pyca_signs(seed: bytes, message: bytes) -> None:
    """A plain key file gives an identity of its seed, which libsodium signs with (a cold 'pbem
    play' does not load pyca): Ed25519 is deterministic, so the signature and public key are
    pyca's, byte for byte."""
    by_pyca = Identity("p", Ed25519PrivateKey.from_private_bytes(seed))
    by_seed = Identity("s", seed=seed)
    assert by_seed.public == by_pyca.public
    assert by_seed.sign(message) == by_pyca.sign(message)
    assert by_seed.private.private_bytes_raw() == seed


def test_an_identity_is_a_key_or_a_seed() -> None:
    with pytest.raises(ValueError):
        Identity("none")
    with pytest.raises(ValueError):
        Identity("both", Ed25519PrivateKey.generate(), seed=bytes(32))


def test_the_key_directory_is_readable_by_its_owner_alone(tmp_path):
    """keys/ is made mode 0700, and a keys/ found more open is closed when a key is saved in it."""
    import os

    assert run(tmp_path / "fresh", "keys", "new", "alice").exit_code == 0
    assert stat.S_IMODE((tmp_path / "fresh" / "keys").stat().st_mode) == 0o700
    (tmp_path / "open" / "keys").mkdir(parents=True)
    os.chmod(tmp_path / "open" / "keys", 0o755)
    assert run(tmp_path / "open", "keys", "new", "bob").exit_code == 0
    assert stat.S_IMODE((tmp_path / "open" / "keys").stat().st_mode) == 0o700


def test_a_plain_key_file_is_checked_for_its_format_before_its_seed_is_read(tmp_path):
    """The shortcut that reads a plain key file's 32 bytes as an Ed25519 seed takes only the exact
    file 'pbem keys new' writes: a key of another algorithm of the same length, a stray character
    in the body or another label is refused (by cryptography's reader), never read as a seed."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    store = KeyStore(tmp_path)
    store.create("dave")
    key_file = tmp_path / "keys" / "dave.key"
    pem = key_file.read_bytes()
    x25519 = X25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption())
    assert len(x25519) == len(pem)  # the same shape, 48 bytes of DER: only the algorithm differs
    key_file.write_bytes(x25519)
    with pytest.raises(KeyError_, match="not an ed25519 key"):
        store.load("dave")
    body = pem.split(b"\n")[1]
    for damaged in (pem.replace(body, body[:10] + b"!" + body[10:]), pem.replace(b"PRIVATE KEY", b"PUBLIC KEY")):
        key_file.write_bytes(damaged)
        with pytest.raises(KeyError_, match="cannot unlock"):
            store.load("dave")
