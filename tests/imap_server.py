"""A real IMAP server for tests: Debian's dovecot, run privately on 127.0.0.1.

Use it as a fixture::

    from tests.imap_server import imap_server  # noqa: F401  (a fixture)

    def test_fetch(imap_server):
        imap_server.deliver(b"Subject: turn 2\\r\\n\\r\\n...")
        ...  # point pbem at imap_server.host / .port / .user / .password
        assert imap_server.messages() == [...]

Each server has its own temporary directory (config, sockets, logs, a
passwd-file and the users' Maildirs) and its own free port; nothing of the
system's dovecot (``/etc/dovecot``, ``/run/dovecot``, ``/var/lib/dovecot``) is
read or written.  It listens on 127.0.0.1 only, without TLS, with cleartext
LOGIN / AUTH=PLAIN allowed.

Two users exist: ``user``/``password`` (the first, the one the helpers use by
default) and a second one in ``users`` (for tests of a wrong account).

When dovecot is missing, or does not start within ``PBEM_TEST_DOVECOT_TIMEOUT``
seconds (default 10), the test is skipped with
``IMAP server (Debian dovecot) not available: <reason>`` (``pytest -rs`` shows
it).  ``PBEM_TEST_REQUIRE_IMAP=1`` turns that skip into a failure (for a CI
that is known to have dovecot).  ``PBEM_TEST_DOVECOT`` names the dovecot binary
to use (a path that does not exist simulates a machine without dovecot).

Both dovecot 2.3 (Debian 12) and 2.4 (Debian 13 and later) configuration
syntaxes are written, chosen by ``dovecot --version``.

Run as root, dovecot will not run its login processes or mail access as root:
the login processes then run as ``dovenull`` and the mail user is ``nobody``
(the Maildir files belong to nobody; root can still read them).  Run as
another user, every process runs as that user.
"""

from __future__ import annotations

import ctypes
import grp
import imaplib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SKIP_PREFIX = "IMAP server (Debian dovecot) not available"
DOVECOT_ENV = "PBEM_TEST_DOVECOT"
TIMEOUT_ENV = "PBEM_TEST_DOVECOT_TIMEOUT"
REQUIRE_ENV = "PBEM_TEST_REQUIRE_IMAP"
# Debian installs dovecot in /usr/sbin, which is not on a normal user's PATH.
EXTRA_PATH = ("/usr/sbin", "/usr/local/sbin", "/sbin")

USERS = {"player": "player-secret", "other": "other-secret"}


class DovecotUnavailable(Exception):
    """dovecot is missing or did not start; the message says why."""


# --- finding dovecot --------------------------------------------------------------

def find_dovecot() -> str:
    """The dovecot binary to run: $PBEM_TEST_DOVECOT, else on PATH or in the sbin directories."""
    override = os.environ.get(DOVECOT_ENV)
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise DovecotUnavailable(f"{DOVECOT_ENV}={override} is not an executable file")
    search = os.pathsep.join([os.environ.get("PATH", ""), *EXTRA_PATH])
    found = shutil.which("dovecot", path=search)
    if not found:
        raise DovecotUnavailable(
            "no 'dovecot' on PATH or in /usr/sbin (install it with: apt-get install dovecot-imapd)")
    return found


def dovecot_version(binary: str) -> tuple[int, int, str]:
    """(major, minor, full version text) from ``dovecot --version``."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        raise DovecotUnavailable(f"'{binary} --version' failed: {exc}") from exc
    text = (out.stdout or out.stderr).strip()
    m = re.match(r"(\d+)\.(\d+)", text)
    if out.returncode != 0 or not m:
        raise DovecotUnavailable(f"'{binary} --version' gave exit {out.returncode}: {text[:200]!r}")
    return int(m.group(1)), int(m.group(2)), text


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM dovecot's master if the test process dies (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _short_tmp_parent() -> str | None:
    # dovecot's unix sockets live under base_dir: keep the path well below the
    # 108-byte limit of a socket address.
    parent = tempfile.gettempdir()
    return parent if len(parent) <= 40 else ("/tmp" if os.path.isdir("/tmp") else None)


# --- accounts ---------------------------------------------------------------------

def _accounts() -> dict[str, str | int]:
    """Who runs what: login processes, internal processes, and the mail user (uid/gid)."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.getuid()).pw_name
        group = grp.getgrgid(os.getgid()).gr_name
        return {"login_user": me, "internal_user": me, "internal_group": group,
                "mail_uid": os.getuid(), "mail_gid": os.getgid(), "chroot": False}

    def existing(*names: str) -> pwd.struct_passwd:
        for name in names:
            try:
                return pwd.getpwnam(name)
            except KeyError:
                continue
        raise DovecotUnavailable(f"running as root, and none of the users {', '.join(names)} exists "
                                 "(dovecot will not run its login processes or mail access as root)")

    login = existing("dovenull", "nobody")
    mail = existing("nobody", "dovenull", "dovecot")
    return {"login_user": login.pw_name, "internal_user": "root", "internal_group": "root",
            "mail_uid": mail.pw_uid, "mail_gid": mail.pw_gid, "chroot": True}


# --- configuration ----------------------------------------------------------------

def _config(version: tuple[int, int], root: Path, port: int, acc: dict,
            no_chroot: frozenset[str] = frozenset()) -> str:
    """dovecot.conf for this server, in the syntax of the installed version.

    ``no_chroot``: services whose default chroot is cleared (a process that is not
    root cannot chroot).
    """
    v24 = version >= (2, 4)
    lines: list[str] = []
    if v24:
        # 2.4: must be the first setting; keeps 2.4.0 defaults on later 2.4.x.
        lines += ["dovecot_config_version = 2.4.0", "dovecot_storage_version = 2.4.0"]
    lines += [
        "# written by tests/imap_server.py for one test run",
        f"base_dir = {root}/run",
        f"state_dir = {root}/state",
        f"instance_name = pbem-test-{port}",
        f"log_path = {root}/dovecot.log",
        "protocols = imap",
        "listen = 127.0.0.1",
        "ssl = no",
        "auth_allow_cleartext = yes" if v24 else "disable_plaintext_auth = no",
        "auth_mechanisms = plain login",
        "auth_failure_delay = 0",  # a refused password answers at once
        f"default_internal_user = {acc['internal_user']}",
        f"default_internal_group = {acc['internal_group']}",
        f"default_login_user = {acc['login_user']}",
        f"first_valid_uid = {acc['mail_uid']}",
        f"first_valid_gid = {acc['mail_gid']}",
        f"mail_uid = {acc['mail_uid']}",
        f"mail_gid = {acc['mail_gid']}",
        f"mail_home = {root}/home/%{{user}}" if v24 else f"mail_home = {root}/home/%u",
    ]
    if v24:
        lines += ["mail_driver = maildir", "mail_path = ~/Maildir"]
    else:
        lines += ["mail_location = maildir:~/Maildir"]
    lines += [
        "mail_fsync = never",
        "namespace inbox {",
        "  inbox = yes",
        "}",
    ]
    if v24:
        lines += [
            "passdb passwd-file {",
            f"  passwd_file_path = {root}/passwd",
            "}",
            "userdb passwd-file {",
            f"  passwd_file_path = {root}/passwd",
            "}",
        ]
    else:
        lines += [
            "passdb {",
            "  driver = passwd-file",
            f"  args = username_format=%u {root}/passwd",
            "}",
            "userdb {",
            "  driver = passwd-file",
            f"  args = username_format=%u {root}/passwd",
            "}",
        ]
    services: dict[str, list[str]] = {
        "imap-login": ["  inet_listener imap {", f"    port = {port}", "  }",
                       "  inet_listener imaps {", "    port = 0", "  }"],
        # no growing delay after repeated failed logins from 127.0.0.1
        "anvil": ["  unix_listener anvil-auth-penalty {", "    mode = 0", "  }"],
    }
    for name in sorted(no_chroot):
        services.setdefault(name, []).append("  chroot =")
    for name, body in services.items():
        lines += [f"service {name} {{", *body, "}"]
    return "\n".join(lines) + "\n"


def _chrooted_services(binary: str, conf: Path) -> frozenset[str]:
    """The services that the installed dovecot chroots by default (``dovecot -a``: all settings)."""
    try:
        out = subprocess.run([binary, "-c", str(conf), "-a"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        raise DovecotUnavailable(f"'dovecot -a' failed: {exc}") from exc
    if out.returncode != 0:
        raise DovecotUnavailable(f"'dovecot -a' gave exit {out.returncode}: {out.stderr.strip()[-500:]}")
    found, service = set(), None
    for line in out.stdout.splitlines():
        m = re.match(r"service (\S+) \{$", line)
        if m:
            service = m.group(1)
        elif line == "}":
            service = None
        elif service and re.match(r"  chroot = \S", line):
            found.add(service)
    return frozenset(found)


# --- the server ---------------------------------------------------------------------

class ImapServer:
    """A private dovecot IMAP server; ``start()`` it, ``stop()`` it (or use ``with``)."""

    host = "127.0.0.1"

    def __init__(self, users: dict[str, str] | None = None, timeout: float | None = None) -> None:
        self.users = dict(users or USERS)
        self.user, self.password = next(iter(self.users.items()))
        self.timeout = timeout if timeout is not None else float(os.environ.get(TIMEOUT_ENV, "10"))
        self.port = 0
        self.root: Path | None = None
        self.version = ""
        self.startup_seconds = 0.0
        self._proc: subprocess.Popen | None = None

    # paths ------------------------------------------------------------------------
    @property
    def maildir(self) -> Path:
        """The first user's Maildir (INBOX is its cur/new/tmp; folder F is ``.F``)."""
        return self.maildir_of(self.user)

    def maildir_of(self, user: str) -> Path:
        assert self.root is not None, "server not started"
        return self.root / "home" / user / "Maildir"

    @property
    def log_path(self) -> Path:
        assert self.root is not None, "server not started"
        return self.root / "dovecot.log"

    def log(self) -> str:
        """dovecot's log (and what it wrote on stderr) so far."""
        text = ""
        for path in (self.log_path, self.root / "stderr.txt"):  # type: ignore[operator]
            try:
                text += path.read_text(errors="replace")
            except OSError:
                pass
        return text

    # life cycle ---------------------------------------------------------------------
    def start(self) -> "ImapServer":
        """Start dovecot; raises DovecotUnavailable (with the reason) if it cannot."""
        binary = find_dovecot()
        major, minor, self.version = dovecot_version(binary)
        acc = _accounts()
        self.root = Path(tempfile.mkdtemp(prefix="pbem-imap-", dir=_short_tmp_parent()))
        try:
            self._prepare(acc)
            conf = self.root / "dovecot.conf"
            no_chroot: frozenset[str] = frozenset()
            if not acc["chroot"]:
                conf.write_text(_config((major, minor), self.root, 0, acc))
                no_chroot = _chrooted_services(binary, conf)
            last_error = ""
            for _attempt in range(3):  # another process may grab the free port first
                self.port = free_port()
                conf.write_text(_config((major, minor), self.root, self.port, acc, no_chroot))
                try:
                    self._launch(binary, conf)
                    return self
                except DovecotUnavailable as exc:
                    last_error = str(exc)
                    self._terminate()
                    if "in use" not in last_error:
                        break
            raise DovecotUnavailable(last_error)
        except BaseException:
            self.stop()
            raise

    def _prepare(self, acc: dict) -> None:
        root = self.root
        assert root is not None
        (root / "state").mkdir()
        (root / "home").mkdir()
        # passwd-file: user:{PLAIN}password:uid:gid:gecos:home:shell:extra_fields; uid,
        # gid and home come from mail_uid, mail_gid and mail_home.  (A wrong password
        # is answered after about 0.5 s: dovecot 2.3 flushes failures on a 500 ms timer.)
        (root / "passwd").write_text(
            "".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in self.users.items()))
        for user in self.users:
            for sub in ("cur", "new", "tmp"):
                (root / "home" / user / "Maildir" / sub).mkdir(parents=True)
        if os.geteuid() == 0:
            # dovecot's own processes (mail user, login user) must reach their files.
            root.chmod(0o755)
            (root / "passwd").chmod(0o644)
            for path in [root / "home", *(root / "home").rglob("*")]:
                os.chown(path, acc["mail_uid"], acc["mail_gid"])

    def _launch(self, binary: str, conf: Path) -> None:
        assert self.root is not None
        t0 = time.monotonic()
        with open(self.root / "stderr.txt", "wb") as err:
            # -F: stay in the foreground, so this Popen is dovecot's master process.
            self._proc = subprocess.Popen([binary, "-F", "-c", str(conf)], stdin=subprocess.DEVNULL,
                                          stdout=err, stderr=subprocess.STDOUT, start_new_session=True,
                                          preexec_fn=_die_with_parent)
        deadline = t0 + self.timeout
        while True:
            if self._proc.poll() is not None:
                raise DovecotUnavailable(
                    f"dovecot {self.version} exited with status {self._proc.returncode} at start-up:\n"
                    + self._log_tail())
            if self._greets():
                self.startup_seconds = time.monotonic() - t0
                return
            if time.monotonic() > deadline:
                raise DovecotUnavailable(
                    f"dovecot {self.version} did not answer on {self.host}:{self.port} within "
                    f"{self.timeout:g} s:\n" + self._log_tail())
            time.sleep(0.02)

    def _greets(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=2) as s:
                return s.recv(64).startswith(b"* OK")
        except OSError:
            return False

    def _log_tail(self, lines: int = 15) -> str:
        text = self.log().strip()
        if "Address already in use" in text:
            text += "\n(port in use)"
        return "\n".join(text.splitlines()[-lines:]) or "(dovecot logged nothing)"

    def _terminate(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        # The master and all its children share the process group started for it
        # (start_new_session).  SIGTERM to the master alone makes it wait about a
        # second for its children; SIGTERM to the whole group ends it at once
        # (nearly always: SIGKILL for what is left after 0.3 s; nothing is lost, the
        # whole directory goes away).
        for sig, wait in ((signal.SIGTERM, 0.3), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                continue
            if sig == signal.SIGTERM:  # a straggler that ignored SIGTERM
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            break

    def stop(self) -> None:
        """Stop dovecot and remove its directory."""
        self._terminate()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "ImapServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # IMAP helpers (stdlib imaplib) ------------------------------------------------------
    def connect(self, user: str | None = None, password: str | None = None) -> imaplib.IMAP4:
        """A logged-in imaplib connection (the first user unless told); the caller logs out."""
        user = user or self.user
        password = password if password is not None else self.users[user]
        conn = imaplib.IMAP4(self.host, self.port, timeout=10)
        try:
            conn.login(user, password)
        except BaseException:
            conn.shutdown()
            raise
        return conn

    @staticmethod
    def _mailbox(folder: str) -> str:
        return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def deliver(self, raw: bytes, folder: str = "INBOX", user: str | None = None,
                flags: str | None = None) -> int | None:
        """APPEND a message (creating ``folder`` if needed); its UID (from APPENDUID).

        imaplib sends line ends as CRLF, so bare LF in ``raw`` arrives as CRLF.
        """
        conn = self.connect(user)
        try:
            if folder.upper() != "INBOX":
                conn.create(self._mailbox(folder))  # "NO [ALREADYEXISTS]" is fine
            typ, data = conn.append(self._mailbox(folder), flags, None, raw)
            if typ != "OK":
                raise AssertionError(f"APPEND to {folder} refused: {data!r}")
            m = re.search(rb"APPENDUID \d+ (\d+)", data[0] or b"")
            return int(m.group(1)) if m else None
        finally:
            conn.logout()

    def _fetch(self, folder: str, item: str, user: str | None) -> list[tuple[bytes, bytes | None]]:
        """(FETCH line, literal) per message in ``folder``, in order; [] if there is no such folder."""
        conn = self.connect(user)
        try:
            typ, data = conn.select(self._mailbox(folder), readonly=True)  # EXAMINE: flags untouched
            if typ != "OK":
                return []
            if int(data[0] or 0) == 0:
                return []
            typ, data = conn.fetch("1:*", item)
            assert typ == "OK", data
            out = []
            for part in data:
                if isinstance(part, tuple):
                    out.append((part[0], part[1]))
                elif part and part != b")":
                    out.append((part, None))
            return out
        finally:
            conn.logout()

    def messages(self, folder: str = "INBOX", user: str | None = None) -> list[bytes]:
        """The raw messages in ``folder``, oldest first, read without setting \\Seen."""
        return [body or b"" for _, body in self._fetch(folder, "(BODY.PEEK[])", user)]

    def flags(self, folder: str = "INBOX", user: str | None = None) -> list[set[str]]:
        """The flags of each message in ``folder`` (e.g. ``{"\\\\Seen"}``), oldest first."""
        result = []
        for line, _ in self._fetch(folder, "(FLAGS)", user):
            m = re.search(rb"FLAGS \(([^)]*)\)", line)
            result.append(set(m.group(1).decode().split()) if m else set())
        return result

    def folders(self, user: str | None = None) -> list[str]:
        """The user's mailbox names."""
        conn = self.connect(user)
        try:
            typ, data = conn.list()
            assert typ == "OK", data
            names = []
            for line in data:
                m = re.match(rb'\([^)]*\) (?:"[^"]*"|NIL) (.*)$', line or b"")
                if m:
                    names.append(m.group(1).decode().strip('"'))
            return names
        finally:
            conn.logout()

    def clear(self, folder: str = "INBOX", user: str | None = None) -> None:
        """Delete every message in ``folder`` (for a server shared by several tests)."""
        conn = self.connect(user)
        try:
            typ, data = conn.select(self._mailbox(folder))
            if typ == "OK" and int(data[0] or 0):
                conn.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                conn.expunge()
        finally:
            conn.logout()


# --- fixtures -------------------------------------------------------------------------

def _serve() -> Iterator[ImapServer]:
    server = ImapServer()
    try:
        server.start()
    except DovecotUnavailable as exc:
        message = f"{SKIP_PREFIX}: {exc}"
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def imap_server() -> Iterator[ImapServer]:
    """A fresh dovecot IMAP server, empty mailboxes, for one test."""
    yield from _serve()


@pytest.fixture(scope="module")
def imap_server_module() -> Iterator[ImapServer]:
    """One dovecot IMAP server shared by a test module (use ``clear()`` between tests)."""
    yield from _serve()
