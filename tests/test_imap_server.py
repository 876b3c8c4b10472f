"""The IMAP test harness itself (tests/imap_server.py): a real dovecot, private to each test."""

from __future__ import annotations

import imaplib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.imap_server import (DOVECOT_ENV, REQUIRE_ENV, SKIP_PREFIX, DovecotUnavailable,
                               ImapServer, imap_server, imap_server_module)  # noqa: F401  (fixtures)

REPO = Path(__file__).resolve().parent.parent

MESSAGE = (b"From: alice@example.org\r\n"
           b"To: bob@example.org\r\n"
           b"Subject: PBEM turn 2\r\n"
           b"\r\n"
           b"-----BEGIN PBEM TURN-----\r\n"
           b"payload\r\n"
           b"-----END PBEM TURN-----\r\n")


def test_login_append_search_fetch(imap_server):
    conn = imaplib.IMAP4(imap_server.host, imap_server.port, timeout=10)
    try:
        typ, _ = conn.login(imap_server.user, imap_server.password)
        assert typ == "OK"
        typ, _ = conn.append("INBOX", None, None, MESSAGE)
        assert typ == "OK"
        typ, data = conn.select("INBOX")
        assert (typ, data) == ("OK", [b"1"])
        typ, data = conn.search(None, "SUBJECT", '"PBEM turn 2"')
        assert (typ, data) == ("OK", [b"1"])
        typ, data = conn.search(None, "SUBJECT", '"no such turn"')
        assert (typ, data) == ("OK", [b""])
        typ, data = conn.fetch("1", "(BODY.PEEK[])")
        assert typ == "OK"
        assert data[0][1] == MESSAGE
    finally:
        conn.logout()
    # it is a real Maildir on disk
    [stored] = list((imap_server.maildir / "new").iterdir()) + list((imap_server.maildir / "cur").iterdir())
    assert stored.read_bytes() == MESSAGE.replace(b"\r\n", b"\n")  # Maildir keeps LF line ends


def test_deliver_and_messages(imap_server):
    assert imap_server.messages() == []
    uid1 = imap_server.deliver(MESSAGE)
    uid2 = imap_server.deliver(b"Subject: second\n\nbare LF line ends\n")
    assert (uid1, uid2) == (1, 2)
    assert imap_server.messages() == [MESSAGE, b"Subject: second\r\n\r\nbare LF line ends\r\n"]
    # read without marking anything \Seen
    assert all("\\Seen" not in f for f in imap_server.flags())

    imap_server.deliver(MESSAGE, folder="Done")
    assert imap_server.messages("Done") == [MESSAGE]
    assert "Done" in imap_server.folders()
    assert (imap_server.maildir / ".Done").is_dir()
    assert imap_server.messages("No such folder") == []

    imap_server.deliver(MESSAGE, flags=r"(\Seen)")
    assert imap_server.flags()[-1] >= {"\\Seen"}
    imap_server.clear()
    assert imap_server.messages() == []


def test_wrong_password_is_refused(imap_server):
    conn = imaplib.IMAP4(imap_server.host, imap_server.port, timeout=10)
    try:
        with pytest.raises(imaplib.IMAP4.error, match="AUTHENTICATIONFAILED|[Aa]uthentication failed"):
            conn.login(imap_server.user, imap_server.password + "x")
        # the right password still works on the same connection afterwards
        assert conn.login(imap_server.user, imap_server.password)[0] == "OK"
    finally:
        conn.logout()


def test_second_user_has_own_mailbox(imap_server):
    other = [u for u in imap_server.users if u != imap_server.user][0]
    imap_server.deliver(MESSAGE, user=other)
    assert imap_server.messages(user=other) == [MESSAGE]
    assert imap_server.messages() == []
    with pytest.raises(imaplib.IMAP4.error):
        imap_server.connect(other, imap_server.password)  # the first user's password


_seen: dict[str, tuple[int, Path]] = {}


@pytest.mark.parametrize("which", ["first", "second"])
def test_fixtures_do_not_share_mailboxes(imap_server, which):
    # Whichever of the two runs second finds an empty INBOX and a different server.
    assert imap_server.messages() == []
    imap_server.deliver(b"Subject: " + which.encode() + b"\r\n\r\nbody\r\n")
    assert [m.split(b"\r\n")[0] for m in imap_server.messages()] == [b"Subject: " + which.encode()]
    for other, (port, maildir) in _seen.items():
        assert maildir != imap_server.maildir
        assert not maildir.exists(), f"the server of the {other!r} test was not cleaned up"
    _seen[which] = (imap_server.port, imap_server.maildir)


def test_two_servers_at_once(imap_server):
    with ImapServer() as second:
        assert second.port != imap_server.port
        imap_server.deliver(MESSAGE)
        assert second.messages() == []
        second_root = second.root
    assert not second_root.exists()
    assert imap_server.messages() == [MESSAGE]  # the first one still runs


# --- without dovecot -------------------------------------------------------------------

def test_missing_dovecot_is_reported(monkeypatch):
    monkeypatch.setenv(DOVECOT_ENV, "/nonexistent/dovecot")
    with pytest.raises(DovecotUnavailable, match="/nonexistent/dovecot"):
        ImapServer().start()


def test_dovecot_that_does_not_start_is_reported(tmp_path, monkeypatch):
    fake = tmp_path / "dovecot"
    fake.write_text("#!/bin/sh\n"
                    "if [ \"$1\" = --version ]; then echo '2.3.99 (fake)'; exit 0; fi\n"
                    "echo 'Fatal: this is not really dovecot' >&2; exit 89\n")
    fake.chmod(0o755)
    monkeypatch.setenv(DOVECOT_ENV, str(fake))
    server = ImapServer()
    with pytest.raises(DovecotUnavailable, match=r"(?s)(exited with status|gave exit) 89.*not really dovecot"):
        server.start()
    assert server.root is not None and not server.root.exists()  # its directory is removed


def _run_pytest(tmp_path: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    test = tmp_path / "test_uses_imap.py"
    test.write_text(textwrap.dedent("""
        from tests.imap_server import imap_server  # noqa: F401

        def test_needs_imap(imap_server):
            raise AssertionError("should not run")
    """))
    pythonpath = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": pythonpath, **env_extra}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(test)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_without_dovecot_tests_are_skipped_visibly(tmp_path):
    result = _run_pytest(tmp_path, {DOVECOT_ENV: "/nonexistent"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 skipped" in result.stdout, result.stdout
    assert f"{SKIP_PREFIX}: {DOVECOT_ENV}=/nonexistent is not an executable file" in result.stdout, result.stdout


def test_required_imap_fails_instead_of_skipping(tmp_path):
    result = _run_pytest(tmp_path, {DOVECOT_ENV: "/nonexistent", REQUIRE_ENV: "1"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 error" in result.stdout and SKIP_PREFIX in result.stdout, result.stdout


def test_module_scoped_server(imap_server_module):
    imap_server_module.clear()
    imap_server_module.deliver(MESSAGE)
    assert imap_server_module.messages() == [MESSAGE]
    imap_server_module.clear()
    assert imap_server_module.messages() == []
