"""Mail in from a real IMAP server (Debian's dovecot on loopback), and a referee's mailbox run."""

import re
from email import message_from_bytes
from email.policy import default

from tests.conftest import invoke
from tests.imap_server import imap_server  # noqa: F401  (a fixture)
from tests.test_mail_out import invitation_went_by_hand, smtp  # noqa: F401  (a fixture)


def configure_imap(d, player, server, smtp_port=None):
    args = ["mail", "config", "--imap", f"{server.host}:{server.port}", "--imap-security", "none",
            "--imap-user", server.user, "--from", f"{player.name}@example.org"]
    if smtp_port:
        args += ["--smtp", f"127.0.0.1:{smtp_port}", "--smtp-security", "none"]
    d.run(player, *args)


def fetch(d, player, server):
    return invoke(d.runner, "mail", "fetch", "--campaign", player.dir,
                  env=dict(player.env, PBEM_IMAP_PASSWORD=server.password))


def test_fetch_ingests_new_mail_once_and_reports_bad_mail(two_campaigns, imap_server):
    d = two_campaigns
    configure_imap(d, d.bob, imap_server)
    d.run(d.alice, "play", "1", "--campaign", d.alice.dir)
    (message,) = sorted((d.alice.dir / "outbox").glob("*-turn-*.eml"))
    imap_server.deliver(b"From: spam@example.org\r\nSubject: hello\r\n\r\nno game here\r\n")
    raw = message.read_bytes()
    damaged = raw.replace(b"Kind: turn", b"Kind: tunr")
    imap_server.deliver(damaged)
    imap_server.deliver(raw)
    first = fetch(d, d.bob, imap_server)
    assert first.exit_code == 0, first.output
    assert "accepted #2 from red" in first.output
    assert "REFUSED a message from" in first.stderr and "header" in first.stderr
    assert "no turn file" in first.output
    again = fetch(d, d.bob, imap_server)
    assert again.exit_code == 0 and "accepted" not in again.output  # nothing is processed twice
    assert len(imap_server.messages()) == 3  # and nothing is lost: the mailbox is only read
    wrong = invoke(d.runner, "mail", "fetch", "--campaign", d.bob.dir, env=dict(d.bob.env, PBEM_IMAP_PASSWORD="x"))
    assert wrong.exit_code == 1 and "Error: imap:" in wrong.stderr and "Traceback" not in wrong.output


def test_a_referees_mailbox_runs_the_game(tmp_path, imap_server, smtp):
    from tests.test_referee import Refereed

    g = Refereed.__new__(Refereed)
    g.runner, g.root = __import__("click.testing", fromlist=["CliRunner"]).CliRunner(), tmp_path
    g.ref, g.alice, g.bob = g._player("ref", "referee"), g._player("alice", "allied"), g._player("bob", "ottoman")
    g.run(g.ref, "new", "hill60", "--referee", "--key", "ref", "--player", f"allied={g.alice.pub}",
          "--player", f"ottoman={g.bob.pub}", "--campaign", g.ref.dir)
    configure_imap(g, g.ref, imap_server, smtp.port)
    invitation_went_by_hand(g.ref.dir)
    for side, who in (("allied", "alice"), ("ottoman", "bob")):
        g.run(g.ref, "mail", "address", side, f"{who}@example.org", "--campaign", g.ref.dir)
    invitation = next((g.ref.dir / "sent").glob("*genesis.pbem"))
    env = dict(g.ref.env, PBEM_IMAP_PASSWORD=imap_server.password)

    def mail_from(player, path):
        text = path.read_text()
        imap_server.deliver(f"From: {player.name}@example.org\r\nTo: ref@example.org\r\nSubject: pbem\r\n\r\n"
                            f"{text}".encode())

    def run():
        result = invoke(g.runner, "mail", "run", "--campaign", g.ref.dir, env=env)
        assert result.exit_code == 0, result.output + result.stderr
        return result.output

    for p in (g.alice, g.bob):
        g.run(p, "join", invitation, "--key", p.name, "--campaign", p.dir)
        mail_from(p, next((p.dir / "sent").glob("*join.pbem")))
    mail_from(g.alice, invitation)  # a stray copy of the genesis: already known, skipped
    out = run()
    assert "adjudicated #1" in out and out.count("sent ") == 2
    assert run().count("adjudicated") == 0 and len(smtp.messages) == 2  # safe to run again

    def deliver_views():
        for _, (rcpt,), raw in smtp.messages[delivered[0]:]:
            player = g.alice if rcpt.startswith("alice") else g.bob
            (tmp_path / "in.eml").write_bytes(raw)
            g.run(player, "ingest", "--campaign", player.dir, tmp_path / "in.eml")
        delivered[0] = len(smtp.messages)

    delivered = [0]
    deliver_views()
    # allied gives orders by mail; the mailbox adjudicates and answers both players
    out = g.run(g.alice, "play", "1", "--campaign", g.alice.dir).output
    orders = re.search(r"signed turn file #\d+: (\S+)", out).group(1)
    mail_from(g.alice, __import__("pathlib").Path(orders))
    imap_server.deliver(b"From: bob@example.org\r\nSubject: my orders\r\n\r\n-----BEGIN PBEM TURN-----\r\nGame: x\r\n")
    out = run()
    assert "accepted #2 from allied" in out and "adjudicated #3" in out
    assert re.search(r"REFUSED a message from bob@example\.org \('my orders'\): truncated.*; answered", out)
    replies = [m for m in smtp.messages if b"could not be used" in m[2]]
    assert len(replies) == 1 and replies[0][1] == ["bob@example.org"]
    reply = message_from_bytes(replies[0][2], policy=default)
    assert reply["Subject"] == "Re: my orders" and "truncated" in reply.get_content()
    smtp.messages.remove(replies[0])
    deliver_views()
    assert "accepted" not in run() and len(smtp.messages) == delivered[0]  # again: nothing new
    report = g.run(g.bob, "report", "--campaign", g.bob.dir).output
    assert "report for ottoman" in report
