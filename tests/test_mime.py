"""pbem.wire.mime writes a plain turn-file mail byte for byte as the email package does (what
pbem.mailbox.mail.compose builds, under pbem.mailbox.mail.email_policy), and declines anything it cannot."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.generator import Generator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbem.wire import mime
from pbem.mailbox.mail import by_email

BOUNDARY = "===============0123456789012345678=="
printable = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
words = st.lists(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12),
                 min_size=1, max_size=8).map(" ".join)
atoms = st.text(st.sampled_from("abcxyzABC019._%+-"), min_size=1, max_size=20)
domains = st.lists(st.text(st.sampled_from("abcz09-"), min_size=1, max_size=10), min_size=1, max_size=3).map(".".join)
addresses = st.builds(lambda a, d: f"{a}@{d}", atoms, domains)
lines = st.lists(st.one_of(st.text(printable, max_size=90), st.text(printable, min_size=990, max_size=1005)),
                 max_size=12)
texts = st.builds(lambda ls, end: "\n".join(ls) + end, lines, st.sampled_from(["", "\n", "\n\n"]))
anything = st.text(max_size=200)  # any letter at all: the writer declines or agrees


@pytest.fixture(autouse=True)
def fixed_boundary(monkeypatch):
    monkeypatch.setattr(Generator, "_make_boundary", classmethod(lambda cls, text=None: BOUNDARY))
    monkeypatch.setattr(mime, "_boundary", lambda texts: BOUNDARY)


def check(headers, body, attachments) -> bytes | None:
    ours = mime.plain(headers, body, attachments)
    if ours is not None:
        assert ours == by_email(headers, body, attachments)
    return ours


@settings(max_examples=300, deadline=None)
@given(sender=addresses, to=addresses, subject=words, body=texts,
       files=st.lists(st.tuples(st.from_regex(r"[A-Za-z0-9._-]{1,30}", fullmatch=True), texts), min_size=1, max_size=2),
       automatic=st.booleans())
@example(sender="red@pbem.invalid", to="blue@pbem.invalid", subject="[barrage b866b56d] your move: fire",
         body="", files=[("x.pbem", "")], automatic=False)
def test_a_plain_message_is_the_email_packages_bytes(sender, to, subject, body, files, automatic):
    headers = [("From", sender), ("To", to), ("Subject", subject), ("Date", mime.date()),
               ("Message-ID", mime.message_id("pbem-0123456789abcdef", to.rpartition("@")[2])),
               ("References", "<pbem-0123456789abcdef0123456789abcdef@pbem.invalid>"),
               ("X-Pbem-Game", "0123456789abcdef0123456789abcdef"), ("X-Pbem-To-Side", "blue")]
    if automatic:
        headers.append(("Auto-Submitted", "auto-generated"))
    ours = check(headers, body, files)
    long = any(len(line) > mime.MAX_LINE for text in [body] + [t for _, t in files] for line in text.split("\n"))
    assert (ours is None) == (long or "=?" in subject)  # declined only for a line too long to go as it is,
    # or what may read as an encoded word


@settings(max_examples=300, deadline=None)
@given(subject=anything, body=anything, name=anything, sender=anything)
def test_anything_else_is_declined_or_written_the_same(subject, body, name, sender):
    check([("From", sender), ("To", "b@c.d"), ("Subject", subject)], body, [(name or "f", body)])


def test_what_the_writer_declines():
    plain = [("From", "a@b.c"), ("To", "d@e.f"), ("Subject", "hi")]
    assert mime.plain(plain, "text\n", [("f.pbem", "x\n")]) is not None
    for headers in ([("From", "Alice <a@b.c>")], [("Subject", "Jürgen's move")], [("Subject", "=?utf-8?q?x?=")],
                    [("Subject", " lead")], [("Subject", "two  spaces")]):
        assert mime.plain(headers, "text", []) is None
    assert mime.plain(plain, "café", []) is None
    assert mime.plain(plain, "x" * 999, []) is None
    assert mime.plain(plain, "a\rb", []) is None
    assert mime.plain(plain, "text", [("my turn.pbem", "x")]) is None
    assert mime.plain(plain, "text", []) is None


def test_message_ids_are_of_make_msgids_form_and_differ():
    import re

    ids = {mime.message_id("pbem-0123", "example.org") for _ in range(50)}
    assert len(ids) == 50
    assert all(re.fullmatch(r"<\d+\.\d+\.\d+\.pbem-0123@example\.org>", i) for i in ids)


@pytest.mark.parametrize("length", [980, 985, 988, 989, 990, 995, 1000])
def test_a_subject_near_the_longest_line_is_written_as_email_writes_it_or_declined(length):
    plain = [("From", "a@b.c"), ("To", "d@e.f")]
    for subject in (" ".join(["w" * 9] * (length // 10)) + "x" * (length % 10), "w" * length):
        check(plain + [("Subject", subject)], "text\n", [("f.pbem", "x\n")])


@pytest.mark.parametrize("sender", ["a..b@c.d", ".a@b.c", "a.@b.c", "A+B@Ex.COM", "-@-", "a@b..c", "a_b@c_d"])
def test_odd_but_bare_addresses_are_written_as_email_writes_them_or_declined(sender):
    check([("From", sender), ("To", "d@e.f"), ("Subject", "s")], "text\n", [("f.pbem", "x\n")])


@settings(max_examples=300, deadline=None)
@given(when=st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 1, 1),
                        timezones=st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m)))))
def test_the_date_is_written_as_email_writes_it(when):
    """(years before 1970 aside: email reads a year under 100 as this century's or the last's)"""
    from email.utils import format_datetime

    assert mime.date(when) == format_datetime(when)
    assert check([("From", "a@b.c"), ("Date", mime.date(when))], "text\n", [("f.pbem", "x\n")]) is not None


def test_the_date_is_now_in_the_local_time_zone():
    from email.utils import parsedate_to_datetime

    written = parsedate_to_datetime(mime.date())
    assert written.utcoffset() == datetime.now().astimezone().utcoffset()
    assert abs((datetime.now().astimezone() - written).total_seconds()) < 5
