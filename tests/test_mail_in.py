"""Turn files out of real mail: every encoding and wrapping a mail program produces."""

import mailbox
import textwrap
from email.message import EmailMessage
from email.policy import SMTP

import pytest

from tests.conftest import assert_refused, db_bytes


def message(body: str, *, cte: str | None = None, subtype: str = "plain") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "bob@example.org"
    msg["To"] = "alice@example.org"
    msg["Subject"] = "my turn"
    msg.set_content(body, subtype=subtype, cte=cte) if cte else msg.set_content(body, subtype=subtype)
    return msg


def rewrap(text: str, width: int = 72) -> str:
    return "\n".join(textwrap.fill(line, width) if len(line) > width else line for line in text.splitlines())


@pytest.fixture
def turn(two_campaigns):
    """bob's turn #3 as text, and a helper to ingest bytes into alice's campaign."""
    d = two_campaigns
    d.deliver(d.play("red"), "bob")
    path = d.play("blue")
    return d, path.read_text()


def ingest_bytes(d, tmp_path, data: bytes, name="mail.eml"):
    f = tmp_path / name
    f.write_bytes(data)
    return d.ingest("alice", f)


@pytest.mark.parametrize("cte", ["quoted-printable", "base64", "7bit"])
def test_body_encodings(turn, tmp_path, cte):
    d, text = turn
    raw = message("Here is my turn.\n\n" + text + "\nCheers, Bob\n", cte=cte).as_bytes(policy=SMTP)  # CRLF
    result = ingest_bytes(d, tmp_path, raw)
    assert result.exit_code == 0 and "accepted #3 from blue" in result.output, result.output


def test_html_only_message(turn, tmp_path):
    d, text = turn
    html_body = "<html><body><p>My turn:</p><pre>" + text.replace("\n", "<br>\n") + "</pre></body></html>"
    raw = message(html_body, subtype="html", cte="quoted-printable").as_bytes()
    result = ingest_bytes(d, tmp_path, raw)
    assert "accepted #3 from blue" in result.output, result.output


def test_attachment_and_inline(turn, tmp_path):
    d, text = turn
    msg = message("Turn attached and below.\n\n" + text)
    msg.add_attachment(text.encode(), maintype="application", subtype="octet-stream", filename="turn.pbem")
    result = ingest_bytes(d, tmp_path, msg.as_bytes())
    assert result.exit_code == 0 and "accepted #3 from blue" in result.output
    assert "repeated in this input" in result.output  # the same block twice in one message


def test_quoted_reply_rewrapped_and_forwarded_twice(turn, tmp_path):
    d, text = turn
    quoted = "\n".join("> " + line for line in rewrap(text, 60).splitlines())
    inner = message("Earlier:\n\n" + quoted + "\n")
    middle = EmailMessage()
    middle["From"], middle["To"], middle["Subject"] = "carol@example.org", "dave@example.org", "Fwd: my turn"
    middle.set_content("forwarding")
    middle.add_attachment(inner)
    outer = EmailMessage()
    outer["From"], outer["To"], outer["Subject"] = "dave@example.org", "alice@example.org", "Fwd: Fwd: my turn"
    outer.set_content("forwarding again")
    outer.add_attachment(middle)
    result = ingest_bytes(d, tmp_path, outer.as_bytes())
    assert "accepted #3 from blue" in result.output, result.output


def test_mbox_and_maildir_and_stdin(turn, tmp_path):
    d, text = turn
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    box.add(message("nothing here"))
    box.add(message(text, cte="base64"))
    box.flush()
    result = d.ingest("alice", tmp_path / "inbox.mbox")
    assert "accepted #3 from blue" in result.output, result.output
    maildir = mailbox.Maildir(tmp_path / "Maildir")
    maildir.add(message(text, cte="quoted-printable"))
    result = d.ingest("alice", tmp_path / "Maildir")
    assert result.exit_code == 0 and "skipped #3 from blue: already ingested" in result.output
    from tests.conftest import invoke

    piped = invoke(d.runner, "ingest", "--campaign", d.alice.dir, "-", env=d.alice.env, input=message(text).as_bytes())
    assert piped.exit_code == 0 and "already ingested" in piped.output


def test_other_games_in_a_mailbox_are_reported_not_refused(turn, tmp_path, runner):
    from tests.conftest import Duel

    d, text = turn
    other = Duel(tmp_path / "other", runner)
    foreign = other.invitation.read_text()
    box = mailbox.mbox(tmp_path / "mixed.mbox")
    box.add(message(foreign))
    box.add(message(text))
    box.flush()
    result = d.ingest("alice", tmp_path / "mixed.mbox")
    assert result.exit_code == 0, result.output
    assert "another game" in result.output and "accepted #3 from blue" in result.output


def test_a_damaged_block_in_mail_is_refused_and_changes_nothing(turn, tmp_path):
    d, text = turn
    lines = text.splitlines()
    lines[-3] = lines[-3][:10] + ("A" if lines[-3][10] != "A" else "B") + lines[-3][11:]
    before = db_bytes(d.alice.dir)
    result = ingest_bytes(d, tmp_path, message("\n".join(lines), cte="quoted-printable").as_bytes())
    assert_refused(result, "bad-signature")  # one base64 character changed: the signature no longer verifies
    assert "mail.eml" in result.stderr  # the detail names the message
    assert db_bytes(d.alice.dir) == before


def test_a_message_without_a_turn_file(turn, tmp_path):
    d, _ = turn
    result = ingest_bytes(d, tmp_path, message("just chatting").as_bytes())
    assert_refused(result, "no-turn-file")
