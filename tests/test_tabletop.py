"""Table-top mode through the CLI: two campaigns exchanging files, free orders, sealed dice,
private decks, and a clean verify; and a short game for every shipped pack."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.wire.armor import find_blocks
from pbem.chain.datapack import load, shipped
from tests.conftest import assert_refused, invoke, new_player, pbem

MINI = """
[pack]
id = "mini"
title = "Mini war"
sides = ["red", "blue"]
dice = "d6"
phases = []

[[location]]
id = "hill"
name = "Hill"
adjacent = ["ford"]
provisional = false

[[location]]
id = "ford"
name = "Ford"
adjacent = ["hill"]
provisional = false

[[piece]]
id = "red-guard"
name = "Red Guard"
side = "red"
steps = 4
start = "hill"
provisional = false

[[piece]]
id = "blue-lancers"
name = "Blue Lancers"
side = "blue"
start = "ford"
provisional = false

[[deck]]
id = "red-deck"
name = "Red orders"
owner = "red"
size = 3
provisional = false

[[card]]
id = "red-charge-card"
deck = "red-deck"
name = "Charge"
count = 2
provisional = false

[[card]]
id = "red-rally-card"
deck = "red-deck"
name = "Rally"
count = 1
provisional = false

[[deck]]
id = "events"
name = "Events"
owner = "shared"
size = 2
provisional = false

[[card]]
id = "storm"
deck = "events"
name = "Storm"
count = 2
provisional = false

[track]
phases = ["Movement", "Combat"]
"""


class Table:
    def __init__(self, root: Path, pack: str, sides: tuple[str, str], *extra: str):
        self.runner = CliRunner()
        self.a = self._player(root, "alice", sides[0])
        self.b = self._player(root, "bob", sides[1])
        self.run(self.a, "new", "tabletop", "--pack", pack, "--as", sides[0], "--key", "alice", "--opponent",
                 self.b.pub, "--campaign", self.a.dir, *extra)
        self.run(self.b, "join", next((self.a.dir / "sent").glob("*genesis.pbem")), "--key", "bob",
                 "--campaign", self.b.dir)
        self.run(self.a, "ingest", "--campaign", self.a.dir, next((self.b.dir / "sent").glob("*join.pbem")))
        self.files = {"alice": [], "bob": []}

    def _player(self, root, name, side):
        return new_player(self.runner, root, name, side)

    def run(self, p, *args):
        return pbem(self.runner, *args, env=p.env)

    def act(self, p, *orders):
        """``p`` gives ``orders``; the signed file (if any) is delivered to the other player."""
        out = self.run(p, "play", *orders, "--campaign", p.dir).output
        m = re.search(r"signed turn file #\d+: (\S+)", out)
        if m:
            other = self.b if p is self.a else self.a
            self.files[p.name].append(Path(m.group(1)))
            self.run(other, "ingest", "--campaign", other.dir, m.group(1))
        return out


@pytest.fixture
def table(tmp_path):
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI)
    return Table(tmp_path, str(tmp_path / "mini"), ("red", "blue"))


def test_a_table_top_game_by_files(table):
    t = table
    out = t.act(t.a, "move red guard to ford", "step red -1", "mark ford with smoke", "roll 3d6 for fire")
    assert "signed turn file" in out  # the roll waits for blue's reveal
    t.act(t.b)  # blue reveals: the roll is resolved, red is still to act: a reveal-only reply
    report = t.run(t.a, "report", "--campaign", t.a.dir).output
    assert re.search(r"red rolls 3d6 for fire: \d \d \d = \d+", report)
    out = t.act(t.a, "draw 2 from red orders", "play charge", "pass")
    assert "signed turn file" in out
    bob_view = t.run(t.b, "report", "--campaign", t.b.dir).output
    assert "red plays Charge" in bob_view
    assert re.search(r"red hand: a concealed item$", bob_view, re.M)
    alice_view = t.run(t.a, "report", "--campaign", t.a.dir, "--all").output
    assert re.search(r"red hand: (Charge|Rally)$", alice_view, re.M)
    t.act(t.b, "draw 1 from events")  # a shared deck: its shuffle waits for red's reveal
    t.act(t.a)
    t.act(t.b, "say well played", "next turn", "end blue concedes")
    for p in (t.a, t.b):
        out = t.run(p, "verify", p.dir).output
        assert out.startswith("OK: ")
    status = t.run(t.a, "status", "--campaign", t.a.dir).output
    assert "game over: blue concedes" in status


def test_no_file_from_red_names_a_card_still_in_its_hand(table):
    t = table
    t.act(t.a, "draw 2 from red orders", "play charge", "pass")
    for path in t.files["alice"]:
        text = "".join(b.payload[96:].decode() for b in find_blocks(path.read_text()))
        opened = re.findall(r'"item":"([^"]+)"', text)
        named = set(re.findall(r"red-(?:charge|rally)-card(?:#\d)?", text))
        assert named <= set(opened), (named, opened)


def test_orders_that_make_no_sense_are_refused_with_a_reason(table):
    t = table
    r = t.runner.invoke(__import__("pbem.cli", fromlist=["cli"]).cli,
                        ["play", "move red guard to atlantis", "--campaign", str(t.a.dir)], env=t.a.env)
    assert_refused(r, "illegal-order")
    assert "no location 'atlantis'" in r.stderr
    r = t.runner.invoke(__import__("pbem.cli", fromlist=["cli"]).cli,
                        ["play", "roll lots of dice", "--campaign", str(t.a.dir)], env=t.a.env)
    assert_refused(r, "illegal-order")


SHIPPED = sorted(shipped())


@pytest.mark.parametrize("name", SHIPPED)
def test_a_short_game_with_every_shipped_pack(tmp_path, name):
    pack = load(shipped()[name])
    sides = tuple(pack["pack"]["sides"][:2])
    t = Table(tmp_path, name, sides)
    pieces = [p for p in pack.get("piece", []) if int(p.get("count", 1)) == 1 and not p.get("concealed")]
    piece = next((p for p in pieces if p.get("side") == sides[0]), pieces[0] if pieces else None)
    moves = []
    if piece:  # a pack may have no pieces (their set-ups are in booklets we do not have)
        target = next(loc for loc in pack["location"] if loc["id"] != piece.get("start"))
        moves = [f"move {piece['id']} to {target['id']}"]
    dice = pack["pack"].get("dice", "d6")
    t.act(t.a, *moves, f"roll 2{dice}" if dice != "d100" else "roll d100")
    t.act(t.b)
    own = next((d for d in pack.get("deck", []) if d.get("owner") == sides[0]), None)
    t.act(t.a, *([f"draw 1 from {own['id']}"] if own else []), "pass")
    hidden = next((p for p in pack.get("piece", []) if p.get("concealed") and p.get("side") == sides[1]), None)
    deploy = [f"deploy {hidden['id']} to {pack['location'][0]['id']}"] if hidden else []
    t.act(t.b, *deploy, "say good game", "end a short test game")
    for _ in range(2):  # each side with hidden items reveals its secret
        for p in (t.a, t.b):
            if "It is your" in t.run(p, "report", "--campaign", p.dir).output or \
                    "Reveal your private secret" in t.run(p, "report", "--campaign", p.dir).output:
                t.act(p)
    for p in (t.a, t.b):
        assert t.run(p, "verify", p.dir).output.startswith("OK: ")
    report = t.run(t.a, "report", "--campaign", t.a.dir, "--all").output
    if any(e.get("provisional") for kind in ("location", "piece", "card") for e in pack.get(kind, [])):
        assert "PROVISIONAL DATA" in report


CONCEALED = MINI + """
[[piece]]
id = "blue-spy-one"
name = "Spy One"
side = "blue"
concealed = true
start = "off-map"
provisional = false

[[piece]]
id = "blue-spy-two"
name = "Spy Two"
side = "blue"
concealed = true
start = "off-map"
provisional = false
"""


def test_concealed_pieces_are_hidden_until_revealed_and_checked_at_the_end(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(CONCEALED)
    t = Table(tmp_path, str(tmp_path / "pack"), ("red", "blue"))
    t.act(t.a, "pass")
    t.act(t.b, "deploy spy two to hill", "deploy spy one to ford", "move spy two to ford", "pass")
    red_view = t.run(t.a, "report", "--campaign", t.a.dir).output
    assert "a concealed item (blue, concealed)" in red_view and "Spy" not in red_view
    blue_view = t.run(t.b, "report", "--campaign", t.b.dir, "--all").output
    assert "Spy One (blue, concealed)" in blue_view and "Spy Two (blue, concealed)" in blue_view
    for path in t.files["bob"]:  # bob's files: tokens, never the spies' ids, until one is revealed
        text = "".join(b.payload[96:].decode() for b in find_blocks(path.read_text()))
        assert "blue-spy" not in text
    t.act(t.a, "pass")
    # blue's orders end the game, so its secret and the spies it hid go with them (red hid nothing)
    t.act(t.b, "reveal spy two", "end blue reveals its spy")
    assert "blue reveals Spy Two at Ford" in t.run(t.a, "report", "--campaign", t.a.dir).output
    assert "game over" in t.run(t.a, "status", "--campaign", t.a.dir).output
    for p in (t.a, t.b):
        assert t.run(p, "verify", p.dir).output.startswith("OK: ")
    final = t.run(t.a, "report", "--campaign", t.a.dir, "--all").output
    assert "Spy One" in final  # after the end every hidden choice is opened and checked


def test_a_false_hidden_choice_is_cheating_at_the_end(tmp_path):
    import json

    from pbem_engine.protocol import match as protocol
    from pbem.play.campaign import Campaign

    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(CONCEALED)
    t = Table(tmp_path, str(tmp_path / "pack"), ("red", "blue"))
    t.act(t.a, "pass")
    t.act(t.b, "deploy spy one to hill", "pass")
    bob = Campaign.open(t.b.dir)
    chosen, private = bob.chosen_items(), bob.private_secret()
    record = json.loads(json.dumps(Campaign.open(t.a.dir).match()["private"]["blue"]))
    (tok,) = chosen
    with pytest.raises(protocol.ProtocolError) as e:  # bob claims at the end that he hid the other spy
        protocol._reveal_secret(bob.genesis["game"], "blue", record, private, {tok: "blue-spy-two"})
    assert e.value.code == "cheating" and "hidden choice in envelope" in str(e.value)
    with pytest.raises(protocol.ProtocolError) as e:  # or does not open it at all
        protocol._reveal_secret(bob.genesis["game"], "blue", json.loads(json.dumps(record)), private, {})
    assert e.value.code == "cheating"


def test_play_without_orders_says_what_orders_look_like(table):
    out = table.run(table.a, "play", "--campaign", table.a.dir).output
    assert "red: turn 1, Movement" in out and "move PIECE to LOCATION" in out and "roll 3d6" in out


def test_secret_notes_are_sealed_until_opened(table):
    t = table
    t.act(t.a, "note we attack the ford at dawn", "pass")
    bob_view = t.run(t.b, "report", "--campaign", t.b.dir).output
    assert "red writes sealed note 1: a concealed item" in bob_view and "dawn" not in bob_view
    mine = t.run(t.a, "report", "--campaign", t.a.dir, "--all").output
    assert "red writes sealed note 1: we attack the ford at dawn" in mine
    for path in t.files["alice"]:
        text = path.read_text() + "".join(b.payload[96:].decode() for b in find_blocks(path.read_text()))
        assert "dawn" not in text
    t.act(t.b, "pass")
    t.act(t.a, "open note 1", "end red opens its plan")  # red's secret goes with its last orders:
    assert "red opens note 1: we attack the ford at dawn" in t.run(t.b, "report", "--campaign", t.b.dir).output
    assert "red reveals its private secret" in t.run(t.b, "report", "--campaign", t.b.dir, "--all").output
    for p in (t.a, t.b):
        assert t.run(p, "verify", p.dir).output.startswith("OK: ")


def test_an_own_concealed_piece_is_named_by_its_id_and_step_or_flip_say_to_reveal_it_first(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "pack.toml").write_text(CONCEALED)
    t = Table(tmp_path, str(tmp_path / "pack"), ("red", "blue"))
    t.act(t.a, "pass")
    moved = t.act(t.b, "deploy blue-spy-one to hill", "move blue-spy-one to ford")  # by the id it was deployed by
    assert "blue moves Spy One from Hill to Ford" in moved, moved
    for order, verb in (("step blue-spy-one -1", "step"), ("flip spy one", "flip")):
        refused = invoke(t.runner, "play", order, "--campaign", t.b.dir, env=t.b.env)
        assert_refused(refused, "illegal-order")
        assert f"Spy One is concealed: 'reveal Spy One' first, then {verb} it" in refused.output, refused.output


def test_shuffle_is_reshuffle_for_every_deck_as_the_readme_says(table):
    t = table
    out = t.act(t.a, "shuffle red orders", "pass")
    assert "signed turn file" in out and "reshuffle" in out.lower(), out


def test_pieces_that_arrive_on_a_later_turn_are_listed_in_words(tmp_path):
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "pack.toml").write_text(MINI.replace('start = "ford"', 'start = "turn:2"'))
    t = Table(tmp_path, str(tmp_path / "mini"), ("red", "blue"))
    report = t.run(t.a, "report", "--campaign", t.a.dir).output
    assert re.search(r"^  arriving on turn 2 +blue", report, re.M) and "turn:2" not in report, report
