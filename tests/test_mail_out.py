"""Out: ready-to-send messages, sent by SMTP to a real server on loopback, read back, ingested."""

import socket
from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default

import pytest

# aiosmtpd comes with the test extra (pip install '.[test]'); without it, say so instead of erroring
Controller = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd not installed: pip install '.[test]'").Controller
from aiosmtpd.smtp import AuthResult, LoginPassword  # noqa: E402

from tests.conftest import assert_refused


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp():
    inbox = Inbox()

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"alice" and auth_data.password == b"s3cret pass"
        return AuthResult(success=ok)

    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port(), authenticator=authenticator,
                            auth_require_tls=False)
    controller.start()
    inbox.port = controller.port
    yield inbox
    controller.stop()


def configure(d, player, port, user=None):
    args = ["mail", "config", "--smtp", f"127.0.0.1:{port}", "--smtp-security", "none", "--from",
            f"{player.name}@example.org"]
    if user:
        args += ["--smtp-user", user]
    d.run(player, *args)
    invitation_went_by_hand(player.dir)


def invitation_went_by_hand(campaign):
    """The invitation's and join's mails (pbem new and join write them) were sent some other way."""
    for path in (campaign / "outbox").glob("*.eml"):
        path.unlink()


def test_a_turn_goes_out_by_smtp_and_comes_in_as_mail(two_campaigns, smtp, tmp_path):
    d = two_campaigns
    configure(d, d.alice, smtp.port)
    d.run(d.alice, "mail", "address", "blue", "bob@example.org", "--campaign", d.alice.dir)
    out = d.run(d.alice, "play", "1", "--campaign", d.alice.dir).output
    assert "ready to send:" in out
    sent = d.run(d.alice, "mail", "send", "--campaign", d.alice.dir).output
    assert "sent " in sent and len(smtp.messages) == 1
    mail_from, rcpt, raw = smtp.messages[0]
    assert rcpt == ["bob@example.org"] and mail_from == "alice@example.org"
    msg = message_from_bytes(raw, policy=default)
    assert msg["Subject"].startswith("[barrage ") and "your reveal" in msg["Subject"]  # whose move, and what
    assert abs((msg["Date"].datetime - datetime.now(UTC)).total_seconds()) < 60  # RFC 5322: dated
    attachments = [p for p in msg.iter_attachments()]
    assert len(attachments) == 1 and attachments[0].get_filename().endswith(".pbem")
    body = msg.get_body(("plain",)).get_content()
    assert "report for blue" in body and "-----BEGIN PBEM TURN-----" not in body  # the file once: attached
    assert f"The turn file is attached ({attachments[0].get_filename()})" in body
    (tmp_path / "received.eml").write_bytes(raw)
    result = d.ingest("bob", tmp_path / "received.eml")
    assert result.exit_code == 0 and "accepted #2 from red" in result.output
    assert "repeated in this input" not in result.output
    assert d.run(d.alice, "mail", "send", "--campaign", d.alice.dir).output.strip() == "nothing to send"


def test_smtp_login_with_a_password_from_the_environment_never_written(two_campaigns, smtp):
    d = two_campaigns
    configure(d, d.alice, smtp.port, user="alice")
    d.run(d.alice, "mail", "address", "blue", "bob@example.org", "--campaign", d.alice.dir)
    d.run(d.alice, "play", "1", "--campaign", d.alice.dir)
    from tests.conftest import invoke

    missing = invoke(d.runner, "mail", "send", "--campaign", d.alice.dir, env=d.alice.env)
    assert_refused(missing, "no-password")
    wrong = invoke(d.runner, "mail", "send", "--campaign", d.alice.dir,
                   env=dict(d.alice.env, PBEM_SMTP_PASSWORD="nope"))
    assert_refused(wrong, "smtp")
    ok = invoke(d.runner, "mail", "send", "--campaign", d.alice.dir,
                env=dict(d.alice.env, PBEM_SMTP_PASSWORD="s3cret pass"))
    assert ok.exit_code == 0 and len(smtp.messages) == 1
    for root in (d.alice.home, d.alice.dir):
        for path in root.rglob("*"):
            if path.is_file():
                assert b"s3cret pass" not in path.read_bytes(), path


def test_a_referee_mails_each_player_only_its_own_view(tmp_path, smtp):
    from tests.test_referee import Refereed

    g = Refereed(tmp_path)
    g.run(g.ref, "mail", "config", "--smtp", f"127.0.0.1:{smtp.port}", "--smtp-security", "none",
          "--from", "ref@example.org")
    invitation_went_by_hand(g.ref.dir)
    for side, who in (("allied", "alice"), ("ottoman", "bob")):
        g.run(g.ref, "mail", "address", side, f"{who}@example.org", "--campaign", g.ref.dir)
    g.run(g.ref, "play", "--campaign", g.ref.dir)
    g.run(g.ref, "mail", "send", "--campaign", g.ref.dir)
    assert sorted(r for _, (r,), _ in smtp.messages) == ["alice@example.org", "bob@example.org"]
    for _, (rcpt,), raw in smtp.messages:
        msg = message_from_bytes(raw, policy=default)
        side = "allied" if rcpt.startswith("alice") else "ottoman"
        other = "ottoman" if side == "allied" else "allied"
        (attachment,) = list(msg.iter_attachments())
        assert f"to-{side}" not in attachment.get_filename()  # the file name is the envelope's
        body = msg.get_body(("plain",)).get_content()
        assert f"your view ({side})" in body and f"your view ({other})" not in body
        player = g.alice if side == "allied" else g.bob
        path = tmp_path / f"{side}.eml"
        path.write_bytes(raw)
        result = g.run(player, "ingest", "--campaign", player.dir, path)
        assert "accepted #1 from referee" in result.output


def _self_signed(tmp_path):
    """A certificate for 127.0.0.1 and its key, as PEM files (the test's own little CA)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_starttls_checks_the_server_certificate(two_campaigns, tmp_path):
    import ssl

    cert, key = _self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port(), tls_context=context, require_starttls=True)
    controller.start()
    try:
        d = two_campaigns
        d.run(d.alice, "mail", "config", "--smtp", f"127.0.0.1:{controller.port}", "--smtp-security", "starttls",
              "--from", "alice@example.org")
        invitation_went_by_hand(d.alice.dir)
        d.run(d.alice, "mail", "address", "blue", "bob@example.org", "--campaign", d.alice.dir)
        d.run(d.alice, "play", "1", "--campaign", d.alice.dir)
        untrusted = d.invoke(d.alice, "mail", "send", "--campaign", d.alice.dir)
        assert_refused(untrusted, "smtp")
        assert "CERTIFICATE_VERIFY_FAILED" in untrusted.stderr and not inbox.messages
        d.run(d.alice, "mail", "config", "--smtp-cafile", str(cert))
        d.run(d.alice, "mail", "send", "--campaign", d.alice.dir)
        assert len(inbox.messages) == 1
    finally:
        controller.stop()


def test_every_mail_pbem_sends_is_dated(two_campaigns, smtp):
    """RFC 5322 requires a Date: the mail pbem writes has one (written plainly, or by the email package
    for a From with a name), and a message from elsewhere without one gets one when it is sent."""
    d = two_campaigns
    configure(d, d.alice, smtp.port)
    d.run(d.alice, "mail", "config", "--from", "Alice Liddell <alice@example.org>")  # written by email
    d.run(d.alice, "mail", "address", "blue", "bob@example.org", "--campaign", d.alice.dir)
    d.run(d.alice, "play", "1", "--campaign", d.alice.dir)
    (d.alice.dir / "outbox" / "by-hand.eml").write_bytes(
        b"From: alice@example.org\r\nTo: bob@example.org\r\nSubject: hello\r\n\r\nA word.\r\n")
    d.run(d.alice, "mail", "send", "--campaign", d.alice.dir)
    assert len(smtp.messages) == 2
    for _, _, raw in smtp.messages:
        msg = message_from_bytes(raw, policy=default)
        assert abs((msg["Date"].datetime - datetime.now(UTC)).total_seconds()) < 60, raw[:300]


def test_a_mail_holds_its_turn_file_once_and_a_bounded_text(two_campaigns, tmp_path):
    """The turn file goes attached, once (inline as well, a referee's mail grew to twice its file),
    and the text before it is cut past pbem.mailbox.mail.BODY_MOST: the mail stays near its file's size."""
    from pbem.play.campaign import Campaign
    from pbem.mailbox.mail import BODY_MOST, compose

    d = two_campaigns
    turn = next((d.alice.dir / "sent").glob("*genesis.pbem"))
    camp = Campaign.open(d.alice.dir, readonly=True)
    try:
        long = "\n".join(f"line {n}: " + "x" * 70 for n in range(2000))  # 160 kB of report
        raw = compose(camp, "blue", [turn], long, "alice@example.org", "your move")
    finally:
        camp.ledger.close()
    msg = message_from_bytes(raw, policy=default)
    body = msg.get_body(("plain",)).get_content()
    assert len(body) < BODY_MOST + 400 and "more line(s) cut here" in body and "line 1999" not in body
    assert len(raw) < turn.stat().st_size + BODY_MOST + 2000
    (tmp_path / "saved.eml").write_bytes(raw)  # the saved mail still gives its turn file
    result = d.ingest("bob", tmp_path / "saved.eml")
    assert result.exit_code == 0 and "skipped #0 from red: already" in result.output, result.output
