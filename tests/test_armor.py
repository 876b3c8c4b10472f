"""The armored text of a turn file: what mail may do to it is harmless, any other change is refused."""

from __future__ import annotations

import base64
import textwrap

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.wire.armor import BEGIN, END, find_blocks
from pbem.wire.envelope import open_block, read_envelopes, seal
from pbem.errors import PbemError
from pbem.wire.keys import Identity

ALICE = Identity("alice", Ed25519PrivateKey.generate())
BOB = Identity("bob", Ed25519PrivateKey.generate())


def content(seq: int = 3, author: str = "blue", kind: str = "turn", **body) -> dict:
    return {"v": 1, "game": "0123456789abcdef" * 2, "seq": seq, "prev": "ab" * 32, "author": author, "kind": kind,
            "engine": {"module": "barrage", "module_version": "1", "pbem": "0.1.0"},
            "body": body or {"reveal": "cd" * 32, "actions": [{"do": "fire"}], "note": "é ünïcode"},
            "state": "ef" * 32}


ENV = seal(BOB, content())
ENV2 = seal(ALICE, content(seq=4, author="red", reveal="12" * 32, actions=[]))
TEXT = ENV.raw
LINES = TEXT.splitlines()
HEADER = LINES[1:6]
BODY = [line for line in LINES[7:-1]]


def assert_same(found, *expected) -> None:
    assert [e.payload for e in found] == [e.payload for e in expected]
    assert [e.content for e in found] == [e.content for e in expected]


def block(header: list[str], body: list[str]) -> str:
    return "\n".join([BEGIN, *header, "", *body, END]) + "\n"


# --- the armor itself ---------------------------------------------------------------

def test_shape_of_a_turn_file() -> None:
    assert LINES[0] == BEGIN and LINES[-1] == END
    assert HEADER == ["Game: " + "0123456789abcdef" * 2, "Seq: 3", "From: blue", "Kind: turn",
                      f"Signer: {BOB.fingerprint}"]
    assert LINES[6] == ""
    assert all(len(line) <= 64 for line in BODY), "body lines must fit in a mail line"
    assert all(line.isascii() for line in LINES), "a turn file is plain ASCII even when its content is not"
    payload = base64.b64decode("".join(BODY))
    assert payload[64:96] == BOB.public


def test_round_trip() -> None:
    [env] = read_envelopes(TEXT)
    assert env.payload == ENV.payload
    assert env.content == content()
    assert env.public == BOB.public
    assert (env.seq, env.author, env.kind, env.game) == (3, "blue", "turn", "0123456789abcdef" * 2)
    assert env.hash == ENV.hash
    assert env.raw == TEXT


def test_text_without_a_block_holds_no_envelope() -> None:
    assert read_envelopes("Hi Bob,\n\nno turn this week, sorry.\n") == []
    assert find_blocks("") == []


# --- what mail does to text ----------------------------------------------------------

@pytest.mark.parametrize("width", [72, 20, 7, 4])
def test_body_lines_rewrapped(width: int) -> None:
    body = [part for line in BODY for part in textwrap.wrap(line, width)]
    assert max(map(len, body)) <= width
    assert_same(read_envelopes(block(HEADER, body)), ENV)


@pytest.mark.parametrize("width", [72, 76, 20])
def test_body_joined_into_one_paragraph_then_rewrapped(width: int) -> None:
    one_line = "".join(BODY)
    assert_same(read_envelopes(block(HEADER, [one_line])), ENV)
    assert_same(read_envelopes(block(HEADER, textwrap.wrap(one_line, width))), ENV)


def test_header_paragraph_reflowed() -> None:
    """A mail client that reflows the header lines into one paragraph, wrapped at 72 columns."""
    header = textwrap.wrap(" ".join(HEADER), 72, break_on_hyphens=False)
    assert len(header) < len(HEADER)
    assert_same(read_envelopes(block(header, BODY)), ENV)


@pytest.mark.parametrize("prefix", ["> ", "> > ", ">> ", ">", "  "])
def test_quoted_reply(prefix: str) -> None:
    quoted = "".join(prefix + line + "\n" for line in TEXT.splitlines())
    assert_same(read_envelopes(quoted), ENV)
    assert_same(read_envelopes("On Monday Bob wrote:\n" + quoted + "\nThanks, fired back.\n"), ENV)


def test_quoted_twice_and_rewrapped() -> None:
    body = textwrap.wrap("".join(BODY), 68)
    text = "".join("> > " + line + "\n" for line in block(HEADER, body).splitlines())
    assert_same(read_envelopes(text), ENV)


def test_crlf_line_ends() -> None:
    assert_same(read_envelopes(TEXT.replace("\n", "\r\n")), ENV)
    assert_same(read_envelopes(("> " + TEXT.replace("\n", "\n> ")).replace("\n", "\r\n")), ENV)


def test_trailing_spaces_and_tabs() -> None:
    text = "".join(line + (" " * (i % 3)) + ("\t" if i % 2 else "") + "\n" for i, line in enumerate(LINES))
    assert_same(read_envelopes(text), ENV)


def test_text_before_and_after() -> None:
    text = "Subject: turn 3\n\nDear Alice,\n\nhere it is:\n\n" + TEXT + "\n-- \nBob\nSent from my phone\n"
    assert_same(read_envelopes(text), ENV)


def test_several_blocks_in_one_message() -> None:
    text = "my turn:\n" + TEXT + "\nand yours, quoted:\n" + "".join("> " + line + "\n" for line in ENV2.raw.splitlines())
    blocks = find_blocks(text)
    assert len(blocks) == 2
    assert [open_block(b).payload for b in blocks] == [ENV.payload, ENV2.payload]
    assert [b.headers["Seq"] for b in blocks] == ["3", "4"]
    assert_same(read_envelopes(text), ENV, ENV2)
    assert_same(read_envelopes(ENV2.raw + ENV.raw), ENV2, ENV)


# --- refused changes -------------------------------------------------------------------

@pytest.mark.parametrize("cut", ["no END line", "half the body", "only BEGIN", "END before BEGIN"])
def test_truncated_block(cut: str) -> None:
    text = {"no END line": "\n".join(LINES[:-1]) + "\n",
            "half the body": "\n".join(LINES[:9]) + "\n",
            "only BEGIN": BEGIN + "\n",
            "END before BEGIN": END + "\n" + "\n".join(LINES[:-1])}[cut]
    with pytest.raises(PbemError) as e:
        read_envelopes(text)
    assert e.value.code == "truncated"


def test_block_begun_inside_another_is_refused() -> None:
    with pytest.raises(PbemError) as e:
        read_envelopes("\n".join(LINES[:8]) + "\n" + TEXT)
    assert e.value.code == "truncated"


@pytest.mark.parametrize("header", [
    ["Game: " + "0123456789abcdef" * 2, "Seq: 3", "From: blue", "Kind: turn"],  # Signer lost
    [*HEADER, "Seq: 3"],  # twice
    [*HEADER, "Reply-To: x"],  # unknown field
    [*HEADER[:4], "Signer:"],  # no value
])
def test_damaged_header(header: list[str]) -> None:
    with pytest.raises(PbemError) as e:
        read_envelopes(block(header, BODY))
    # a field without its value takes the next word as its value: the body then lacks it
    assert e.value.code in ("bad-armor", "bad-signature")


def test_signature_from_another_key_is_refused() -> None:
    payload = base64.b64decode("".join(BODY))
    forged = payload[:64] + ALICE.public + payload[96:]
    with pytest.raises(PbemError) as e:
        read_envelopes(block(HEADER, textwrap.wrap(base64.b64encode(forged).decode(), 64)))
    assert e.value.code == "bad-signature"


@pytest.mark.parametrize("padding", ["=", "=="])
def test_non_canonical_base64_is_refused(padding: str) -> None:
    """base64 has spare bits in its last character: setting them changes no byte, yet must be refused."""
    note = ""
    while True:
        env = seal(BOB, content(note=note))
        body = "".join(env.raw.splitlines()[7:-1])
        if len(body) - len(body.rstrip("=")) == len(padding):
            break
        note += "x"
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    stripped = body.rstrip("=")
    last = alphabet.index(stripped[-1])
    spare = 0b1111 if padding == "==" else 0b11
    twin = stripped[:-1] + alphabet[last | spare] + padding
    assert twin != body and base64.b64decode(twin) == base64.b64decode(body)
    assert_same(read_envelopes(block(env.raw.splitlines()[1:6], textwrap.wrap(body, 64))), env)
    with pytest.raises(PbemError) as e:
        read_envelopes(block(env.raw.splitlines()[1:6], textwrap.wrap(twin, 64)))
    assert e.value.code == "bad-armor"


def _inner_positions(text: str) -> list[int]:
    """Non-whitespace characters strictly between the BEGIN and END lines (header included)."""
    start = text.index("\n") + 1
    end = text.rindex(END)
    return [i for i in range(start, end) if not text[i].isspace()]


def _marker_positions(text: str) -> list[int]:
    first = len(BEGIN)
    last = text.rindex(END)
    return [i for i in list(range(first)) + list(range(last, last + len(END))) if not text[i].isspace()]


PRINTABLE = [chr(c) for c in range(33, 127)]


@settings(max_examples=400, deadline=None)
@given(data=st.data(), env=st.sampled_from([ENV, ENV2]))
def test_any_changed_character_inside_the_block_is_refused(data, env) -> None:
    text = env.raw
    i = data.draw(st.sampled_from(_inner_positions(text)), label="position")
    new = data.draw(st.sampled_from([c for c in PRINTABLE if c != text[i]]), label="new")
    changed = text[:i] + new + text[i + 1:]
    with pytest.raises(PbemError):
        read_envelopes(changed)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_changed_character_in_the_markers_finds_no_envelope(data) -> None:
    i = data.draw(st.sampled_from(_marker_positions(TEXT)), label="position")
    new = data.draw(st.sampled_from([c for c in PRINTABLE if c != TEXT[i]]), label="new")
    changed = TEXT[:i] + new + TEXT[i + 1:]
    try:
        found = read_envelopes(changed)
    except PbemError:
        return
    assert found == [], "a damaged BEGIN/END line must not yield an envelope"


@settings(max_examples=100, deadline=None)
@given(width=st.integers(4, 100), quote=st.sampled_from(["", "> ", "> > ", ">>", "\t"]),
       newline=st.sampled_from(["\n", "\r\n"]), trailing=st.sampled_from(["", " ", "  \t"]),
       join=st.booleans())
def test_mail_mangling_is_harmless(width, quote, newline, trailing, join) -> None:
    body = textwrap.wrap("".join(BODY), width) if join else [p for line in BODY for p in textwrap.wrap(line, width)]
    lines = ["Hello,", *block(HEADER, body).splitlines(), "bye"]
    text = newline.join(quote + line + trailing for line in lines) + newline
    assert_same(read_envelopes(text), ENV)


@settings(max_examples=500, deadline=None)
@given(env=st.sampled_from([ENV, ENV2]), data=st.data())
def test_the_one_match_reading_agrees_with_the_line_by_line_scan(env, data) -> None:
    """A stored envelope is read with one match (``_alone_as_written``); whatever it takes from a
    text, changed anywhere by a character added, removed or replaced, is what ``scan`` finds."""
    from pbem.wire.armor import _alone_as_written, scan

    text = env.raw
    for _ in range(data.draw(st.integers(0, 2), label="changes")):
        i = data.draw(st.integers(0, len(text)), label="at")
        new = data.draw(st.sampled_from(PRINTABLE + ["\n", " ", "=", "\r", "é", ""]), label="new")
        text = text[:i] + new + text[i + data.draw(st.integers(0, 1), label="drop"):]
    fast = _alone_as_written(text)
    if fast is not None:
        found = scan(text)
        assert found.blocks == [fast] and not found.damaged
    else:
        assert text != env.raw
