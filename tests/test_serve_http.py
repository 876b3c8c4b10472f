"""pbem serve's guards, each checked by plain HTTP requests against a real server on loopback:
it listens on 127.0.0.1 only; nothing is answered without this run's token (then its cookie);
a Host header naming another site (DNS rebinding) is refused; a change needs a POST with the
page's CSRF token, from the page's own origin; the key and the secrets never leave the process;
an encrypted identity's passphrase is asked in the terminal, never in the page.  And the page's
refusals are those of the command line, leaving the campaign byte for byte as it was."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import Duel, assert_refused, db_bytes, invoke, pbem

# --- a client as plain as HTTP ----------------------------------------------------------------

class Client:
    """Requests to one server with full control of the headers (Host, Origin, cookie, CSRF)."""

    def __init__(self, server) -> None:
        self.server = server
        self.cookie: str | None = None
        self.csrf: str | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                host: str | None = None, cookie: bool = True) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        sent = {"Host": host or f"127.0.0.1:{self.server.port}"}
        if cookie and self.cookie:
            sent["Cookie"] = self.cookie
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def login(self) -> Client:
        status, headers, _ = self.request("GET", f"/?token={self.server.token}", cookie=False)
        assert status == 303 and headers["location"] == "/", (status, headers)
        self.cookie = headers["set-cookie"].split(";")[0]
        status, _, page = self.request("GET", "/")
        assert status == 200
        self.csrf = re.search(rb'name="pbem-csrf" content="([^"]+)"', page).group(1).decode()
        return self

    def get(self, path: str) -> tuple[int, bytes]:
        status, _, body = self.request("GET", path)
        return status, body

    def page(self) -> str:
        status, body = self.get("/")
        assert status == 200, body
        return body.decode()

    def post(self, path: str, data: dict | None = None, headers: dict[str, str] | None = None,
             csrf: bool = True) -> tuple[int, dict]:
        sent = {"Content-Type": "application/json", **({"X-PBEM-CSRF": self.csrf} if csrf and self.csrf else {}),
                **(headers or {})}
        status, _, body = self.request("POST", path, json.dumps(data or {}).encode(), sent)
        try:
            return status, json.loads(body)
        except ValueError:
            return status, {"text": body.decode(errors="replace")}

    def upload(self, name: str, data: bytes) -> tuple[int, dict]:
        boundary = uuid.uuid4().hex
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        status, _, out = self.request("POST", "/api/ingest", body, {
            "Content-Type": f"multipart/form-data; boundary={boundary}", "X-PBEM-CSRF": self.csrf or ""})
        return status, json.loads(out)

    def choose(self, order: str) -> dict:
        """Give an order; confirm it if it signs (as a player clicking 'Sign' would)."""
        status, out = self.post("/api/choose", {"order": order})
        if out.get("confirm"):
            status, out = self.post("/api/choose", {"order": order, "confirm": True})
        assert status == 200 and out["ok"], out
        return out

    def ready(self) -> list[str]:
        """The paths of the files the page offers to download (ready to send)."""
        return re.findall(r'href="/download/([^"]+)"', self.page())


def start(player, passphrase: bytes | None = None):
    """A server for a player's campaign, in this process (``stop()`` it)."""
    from pbem.wire.keys import KeyStore
    from pbem.web.serve import Server
    from pbem.web.serve_game import Seat

    identity_name = player.name
    seat = Seat(player.dir, KeyStore(player.home).load(identity_name, lambda _: passphrase), passphrase)
    return Server(seat).start()


@pytest.fixture
def duel(tmp_path, runner) -> Duel:
    return Duel(tmp_path, runner)


@pytest.fixture
def served(duel):
    server = start(duel.alice)
    yield duel, server, Client(server)
    server.stop()


PATHS = ["/", "/report", "/api/version", "/static/serve.js", "/static/serve.css", "/download/sent/x.pbem"]


# --- loopback only ---------------------------------------------------------------------------

def test_it_listens_on_loopback_only_and_prints_a_link_with_a_token(served):
    _, server, _ = served
    assert server._server.socket.getsockname()[0] == "127.0.0.1"
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{40,}", server.url)
    assert "--host" not in CliRunner().invoke(__import__("pbem.cli", fromlist=["cli"]).cli, ["serve", "--help"]).output


# --- the token, then the cookie --------------------------------------------------------------

@pytest.mark.parametrize("path", PATHS)
def test_nothing_is_answered_without_the_token_or_its_cookie(served, path):
    _duel, _server, client = served
    status, _, body = client.request("GET", path)
    assert status == 403 and b"token" in body
    assert b"<svg" not in body and b"pbem-csrf" not in body


def test_a_wrong_token_is_refused_and_sets_no_cookie(served):
    _, server, client = served
    for token in ("", "x", server.token[:-1], server.token + "x", server.session, server.csrf):
        status, headers, _ = client.request("GET", f"/?token={token}")
        assert status == 403 and "set-cookie" not in headers, token


def test_the_token_sets_a_strict_http_only_cookie_that_opens_the_page(served):
    _, server, client = served
    status, headers, _ = client.request("GET", f"/?token={server.token}")
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"pbem_serve_{server.port}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert server.token not in cookie  # the cookie is not the token of the printed link
    client.cookie = cookie.split(";")[0]
    for path in PATHS[:5]:
        assert client.get(path)[0] == 200, path
    status, _, _body = client.request("GET", "/", headers={"Cookie": f"pbem_serve_{server.port}=forged"}, cookie=False)
    assert status == 403


def test_the_page_is_not_kept_in_caches_nor_framed_by_other_sites(served):
    _, _, client = served
    client.login()
    _, headers, _ = client.request("GET", "/")
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'self'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]  # no inline script, nothing from elsewhere


# --- the Host header (DNS rebinding) ------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1", "127.0.0.1:{other}",
                                  "localhost.evil.example:{port}", "[::1]:{port}", "0.0.0.0:{port}"])
def test_a_host_header_naming_another_site_is_refused_even_with_the_cookie(served, host):
    _, server, client = served
    client.login()
    name = host.format(port=server.port, other=server.port + 1)
    for path in ("/", "/api/version", "/report"):
        status, _, body = client.request("GET", path, host=name)
        assert status == 403 and b"Host" in body, (name, path)
    status, _, _ = client.request("GET", f"/?token={server.token}", host=name, cookie=False)
    assert status == 403  # the token does not work through another name either
    status, _, _ = client.request("POST", "/api/undo", b"{}", {"X-PBEM-CSRF": client.csrf,
                                                              "Content-Type": "application/json"}, host=name)
    assert status == 403


def test_localhost_on_its_own_port_is_accepted(served):
    _, server, client = served
    client.login()
    status, _, _ = client.request("GET", "/api/version", host=f"localhost:{server.port}")
    assert status == 200


# --- changes: POST with the CSRF token, from our own origin -------------------------------------

def test_a_change_without_the_csrf_token_or_from_another_origin_is_refused_and_changes_nothing(served):
    duel, server, client = served
    client.login()
    before = db_bytes(duel.alice.dir)
    attempts = [
        client.post("/api/choose", {"order": "1", "confirm": True}, csrf=False),
        client.post("/api/choose", {"order": "1", "confirm": True}, headers={"X-PBEM-CSRF": "forged"}),
        client.post("/api/choose", {"order": "1", "confirm": True}, headers={"X-PBEM-CSRF": server.session}),
        client.post("/api/choose", {"order": "1", "confirm": True}, headers={"Origin": "http://evil.example"}),
        client.post("/api/choose", {"order": "1", "confirm": True},
                    headers={"Origin": f"http://127.0.0.1:{server.port + 1}"}),
        client.post("/api/send", {}, csrf=False),
        client.post("/api/undo", {}, csrf=False),
    ]
    for status, out in attempts:
        assert status == 403, out
    status, _, _ = client.request("POST", "/api/ingest", b"x", {"Content-Type": "text/plain"})
    assert status == 403
    assert db_bytes(duel.alice.dir) == before
    assert not list((duel.alice.dir / "sent").glob("*-0002-*"))


def test_a_get_never_changes_anything(served):
    duel, _, client = served
    client.login()
    before = db_bytes(duel.alice.dir)
    for path in ("/api/choose?order=1&confirm=1", "/api/send", "/api/undo", "/api/ingest"):
        assert client.get(path)[0] == 405, path
    assert db_bytes(duel.alice.dir) == before


def test_with_the_token_a_choice_signs_the_same_turn_file_as_pbem_play(served):
    duel, _server, client = served
    client.login()
    status, out = client.post("/api/choose", {"order": "1"})
    assert status == 200 and out["confirm"] and "cannot be taken back" in out["confirm"]
    assert not list((duel.alice.dir / "sent").glob("*-0002-*"))  # asked first: nothing signed yet
    out = client.choose("1")
    assert out["signed"] and any("signed turn file #2" in line for line in out["lines"])
    [sent] = (duel.alice.dir / "sent").glob("*-0002-*")
    assert any(line.startswith("ready to send: ") for line in out["lines"])
    assert f"sent/{sent.name}" in client.ready() and any(p.endswith(".eml") for p in client.ready())
    duel.deliver(sent, duel.bob)  # bob's tool accepts it like any turn file
    for p in (duel.alice, duel.bob):
        assert duel.run(p, "verify", p.dir).output.startswith("OK: ")


# --- refusals: those of the command line, nothing changed -------------------------------------------

def test_an_illegal_order_is_refused_with_a_reason_and_a_detail_and_changes_nothing(tmp_path, runner):
    from tests.conftest import hill60_pair

    # Hill 60: the Allied player has choices (barrage's every barrage is the only legal choice)
    alice, bob = hill60_pair(runner, tmp_path)
    server = start(alice)
    try:
        _illegal_order_refused(runner, alice, Client(server))
    finally:
        server.stop()


def _illegal_order_refused(runner, alice, client) -> None:
    client.login()
    before = db_bytes(alice.dir)
    cli = invoke(runner, "play", "--campaign", alice.dir, "march on berlin", env=alice.env)
    assert_refused(cli)
    status, out = client.post("/api/choose", {"order": "march on berlin"})
    assert status == 422 and out["refusal"]["code"] == "illegal-order" and out["refusal"]["detail"]
    assert f"Error: {out['refusal']['code']}: {out['refusal']['reason']}" in cli.stderr
    status, out = client.post("/api/undo")
    assert status == 422 and out["refusal"]["code"] == "no-draft"
    assert db_bytes(alice.dir) == before


@pytest.mark.parametrize("name, data", [
    ("empty.pbem", b""),
    ("binary.pbem", b"\x00\x01garbage"),
    ("latin1.pbem", b"caf\xe9 au lait"),
    ("words.txt", b"no turn file in here\n"),
    ("message.eml", b"From: bob@example.org\nTo: alice@example.org\nSubject: hi\n\nno turn file here\n"),
])
def test_a_dropped_file_is_refused_as_pbem_ingest_refuses_it(served, tmp_path, monkeypatch, name, data):
    duel, _, client = served
    client.login()
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(data)
    before = db_bytes(duel.alice.dir)
    cli = invoke(duel.runner, "ingest", "--campaign", duel.alice.dir, name, env=duel.alice.env)
    assert_refused(cli)
    status, out = client.upload(name, data)
    assert status == 422, out
    r = out["refusal"]
    assert cli.stderr.splitlines()[:2] == [f"Error: {r['code']}: {r['reason']}", f"  {r['detail']}"]
    assert db_bytes(duel.alice.dir) == before


def test_a_dropped_turn_file_is_ingested_with_the_messages_of_pbem_ingest(duel, tmp_path):
    path = duel.play(duel.alice)
    server = start(duel.bob)
    try:
        client = Client(server).login()
        status, out = client.upload(path.name, path.read_bytes())
        assert status == 200 and out["lines"][0] == "accepted #2 from red (turn)", out
        status, out = client.upload(path.name, path.read_bytes())
        assert out["lines"] == ["skipped #2 from red: already ingested"]
        lines = path.read_text().split("\n")  # one character of the signature changed: line 8 is the body's first
        lines[7] = lines[7][:10] + ("B" if lines[7][10] != "B" else "C") + lines[7][11:]
        tampered = "\n".join(lines).encode()  # (the first "A" anywhere could be a padding bit, which changes nothing)
        before = db_bytes(duel.bob.dir)
        status, out = client.upload("tampered.pbem", tampered)
        assert status == 422 and out["refusal"]["code"], out
        assert db_bytes(duel.bob.dir) == before
    finally:
        server.stop()


def test_a_dropped_file_over_the_size_limit_is_refused_as_pbem_ingest_refuses_it(duel, tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_MAX_MAIL_BYTES", "100000")
    monkeypatch.chdir(tmp_path)
    Path("big.pbem").write_bytes(b"x" * 120_000)
    cli = invoke(duel.runner, "ingest", "--campaign", duel.alice.dir, "big.pbem", env=duel.alice.env)
    assert_refused(cli, "too-large")
    server = start(duel.alice)
    try:
        client = Client(server).login()
        before = db_bytes(duel.alice.dir)
        status, out = client.upload("big.pbem", Path("big.pbem").read_bytes())
        r = out["refusal"]
        assert status == 422 and cli.stderr.splitlines()[:2] == [f"Error: {r['code']}: {r['reason']}",
                                                                  f"  {r['detail']}"]
        status, out = client.upload("huge.pbem", b"x" * 400_000)  # past what the server reads at all
        assert status == 413 and out["refusal"]["code"] == "too-large", out
        assert db_bytes(duel.alice.dir) == before
    finally:
        server.stop()


# --- the key and the secrets never leave the process --------------------------------------------

def secrets_of(player, passphrase: bytes | None = None) -> list[str]:
    """Every secret a campaign and its identity hold, in the forms a leak could take."""
    import base64

    from cryptography.hazmat.primitives import serialization

    from pbem.store import vault
    from pbem.wire.keys import KeyStore

    data = vault.read(player.dir / "secrets" / "chain.json", lambda: passphrase)
    found = [data["secret"]] + [data[k] for k in ("private", "salt", "box") if data.get(k)]
    identity = KeyStore(player.home).load(player.name, lambda _: passphrase)
    raw = identity.private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                         serialization.NoEncryption())
    found += [raw.hex(), base64.b64encode(raw).decode(), (player.home / "keys" / f"{player.name}.key").read_text()
              .splitlines()[1]]
    if passphrase:
        found.append(passphrase.decode())
    return found


def everything_served(client: Client) -> bytes:
    out = b""
    for path in PATHS[:5] + [f"/download/{p}" for p in client.ready()]:
        status, body = client.get(path)
        assert status == 200, path
        out += body
    return out


def test_no_page_file_or_answer_holds_a_secret(duel):
    duel.run(duel.alice, "play", "1", "--campaign", duel.alice.dir)
    server = start(duel.bob)
    try:
        client = Client(server).login()
        text = client.upload("turn.pbem", max((duel.alice.dir / "sent").glob("*.pbem")).read_bytes())[1]
        text = json.dumps(text).encode() + json.dumps(client.choose("1")).encode()
        text += everything_served(client)
        assert client.ready(), "the turn file and its mail are offered"
        for secret in secrets_of(duel.bob):
            assert secret.encode() not in text
        for path in ("secrets/chain.json", "campaign.db", "../bob/secrets/chain.json", "sent/../secrets/chain.json",
                     "outbox/../campaign.db", str(duel.bob.dir / "secrets" / "chain.json")):
            status, headers, body = client.request("GET", f"/download/{path}")
            if status == 308:  # werkzeug merges the doubled slash of an absolute path first
                status, headers, body = client.request("GET", headers["location"].split(str(server.port), 1)[-1])
            assert status == 404 and b"chain" not in body, path
        assert b'type="password"' not in text  # no passphrase is ever asked in the page
    finally:
        server.stop()


@pytest.mark.parametrize("path", ["sent/x%00.pbem", "sent/%00", "%00", "outbox/a%00b.eml",
                                  "sent/" + "a" * 5000 + ".pbem"])
def test_a_nul_byte_or_an_overlong_name_in_a_download_is_a_clean_404(served, caplog, path):
    _duel, _server, client = served
    client.login()
    status, _, body = client.request("GET", f"/download/{path}")
    assert (status, body) == (404, b"refused: only turn files in sent/ and mail in outbox/ can be downloaded\n")
    assert not [r for r in caplog.records if r.exc_info], "no traceback logged"


# --- an encrypted identity: its passphrase in the terminal, never in the page ------------------------

def test_an_encrypted_identity_without_a_terminal_is_refused_before_anything_listens(tmp_path, runner, monkeypatch):
    home = tmp_path / "home"
    env = {"PBEM_HOME": str(home), "PBEM_PASSPHRASE": "s3cret words"}
    pbem(runner, "keys", "new", "carol", "--passphrase", env=env)
    pbem(runner, "keys", "new", "dan", env={"PBEM_HOME": str(tmp_path / "dan")})
    pbem(runner, "keys", "export", "dan", "-o", tmp_path / "dan.pub", env={"PBEM_HOME": str(tmp_path / "dan")})
    pbem(runner, "new", "barrage", "--as", "red", "--key", "carol", "--opponent", tmp_path / "dan.pub",
         "--campaign", tmp_path / "c", env=env)
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    result = invoke(runner, "serve", "--campaign", tmp_path / "c", env={"PBEM_HOME": str(home)})
    assert_refused(result, "bad-key")
    assert "identity 'carol' is encrypted" in result.stderr and "http://" not in result.output


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is needed")
def test_an_encrypted_identity_is_unlocked_in_the_terminal_and_the_page_never_asks(tmp_path, runner):
    import pty
    import select

    home = tmp_path / "home"
    words = "correct horse battery"
    env = {"PBEM_HOME": str(home), "PBEM_PASSPHRASE": words}
    pbem(runner, "keys", "new", "carol", "--passphrase", env=env)
    pbem(runner, "keys", "new", "dan", env={"PBEM_HOME": str(tmp_path / "dan")})
    pbem(runner, "keys", "export", "dan", "-o", tmp_path / "dan.pub", env={"PBEM_HOME": str(tmp_path / "dan")})
    pbem(runner, "new", "barrage", "--as", "red", "--key", "carol", "--opponent", tmp_path / "dan.pub",
         "--campaign", tmp_path / "c", "--encrypt-secrets", env=env)
    dan = {"PBEM_HOME": str(tmp_path / "dan")}
    pbem(runner, "join", next((tmp_path / "c" / "sent").glob("*genesis*")), "--key", "dan", "--campaign",
         tmp_path / "d", env=dan)
    pbem(runner, "ingest", "--campaign", tmp_path / "c", next((tmp_path / "d" / "sent").glob("*join*")), env=env)
    child_env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"} | {"PBEM_HOME": str(home)}
    main, sub = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "serve", "--campaign", str(tmp_path / "c")],
                            stdin=sub, stdout=sub, stderr=sub, env=child_env, close_fds=True)
    os.close(sub)
    seen = b""

    def until(pattern: bytes, seconds: float = 60) -> re.Match:
        nonlocal seen
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            m = re.search(pattern, seen)
            if m:
                return m
            if select.select([main], [], [], 0.2)[0]:
                try:
                    seen += os.read(main, 4096)
                except OSError:
                    break
        raise AssertionError(f"no {pattern!r} in the terminal:\n{seen.decode(errors='replace')}")

    try:
        until(rb"Passphrase for identity 'carol'")
        os.write(main, words.encode() + b"\n")
        until(rb"Passphrase for campaign secrets")
        os.write(main, words.encode() + b"\n")
        m = until(rb"(http://127\.0\.0\.1:(\d+)/\?token=[A-Za-z0-9_-]+)")
        assert words.encode() not in seen  # typed without echo

        class Running:
            port = int(m.group(2))
            token = m.group(1).decode().split("token=")[1]

        client = Client(Running).login()
        text = everything_served(client)
        assert b'type="password"' not in text and words.encode() not in text
        status, out = client.post("/api/choose", {"order": "1", "confirm": True})
        assert status == 200 and out["signed"], out  # the unlocked key signs; no passphrase was asked of the page
        for secret in secrets_of(type("P", (), {"dir": tmp_path / "c", "home": home, "name": "carol"}),
                                 words.encode()):
            assert secret.encode() not in text + json.dumps(out).encode()
    finally:
        proc.terminate()
        proc.wait(10)
        os.close(main)
    assert invoke(runner, "verify", tmp_path / "c", env=env).output.startswith("OK: ")


def test_pbem_serve_prints_its_link_open_gives_it_to_the_browser_and_ctrl_c_stops_it(duel, tmp_path):
    import signal

    opened = tmp_path / "opened.txt"
    fake = tmp_path / "browser.sh"  # what $BROWSER names: it only notes the link it was given
    fake.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"} | duel.alice.env | {"BROWSER": str(fake)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "serve", "--campaign", str(duel.alice.dir), "--open"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    try:
        lines = []
        while not any("token=" in line for line in lines):
            line = proc.stdout.readline().decode()
            assert line, "".join(lines)
            lines.append(line)
        url = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=\S+)", "".join(lines))
        for _ in range(100):
            if opened.exists() and opened.read_text().strip():
                break
            time.sleep(0.1)
        assert opened.read_text().strip() == url.group(1)

        class Running:
            port = int(url.group(2))
            token = url.group(1).split("token=")[1]

        assert "You are <strong>red</strong>" in Client(Running).login().page()
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        rest = proc.communicate(timeout=20)[0].decode()
        assert proc.returncode == 0 and "pbem serve stopped." in rest and "Traceback" not in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_dropped_saved_mail_is_ingested_like_pbem_ingest_reads_it(duel):
    duel.run(duel.alice, "play", "1", "--campaign", duel.alice.dir)
    [mail] = (duel.alice.dir / "outbox").glob("*-0002-*.eml")  # the message pbem play wrote for bob
    copy = duel.snapshot(duel.bob, "cli")
    cli = duel.run(copy, "ingest", "--campaign", copy.dir, mail).output.splitlines()
    server = start(duel.bob)
    try:
        client = Client(server).login()
        status, out = client.upload(mail.name, mail.read_bytes())
        assert status == 200 and "accepted #2 from red (turn)" in out["lines"], out
        assert [line for line in out["lines"] if line.startswith(("accepted", "skipped"))] == \
            [line for line in cli if line.startswith(("accepted", "skipped"))]  # as pbem ingest says it
        assert 'data-mine="yes"' in client.page()
    finally:
        server.stop()
