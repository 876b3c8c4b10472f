"""A playthrough by the installed ``pbem`` command, as people play by e-mail (issue 29, item 14).

Every party (two players, or a referee and two players) has its own home (``PBEM_HOME``: its
identity) and its own working folder; nothing passes between them but the public keys and the
files the tool writes into ``sent/`` (``sent/to-SIDE/`` for a referee's files to one player),
each copied into the receiver's ``inbox/`` and given to ``pbem join`` or ``pbem ingest``.  Every
command is a subprocess of the ``pbem`` script installed next to ``sys.executable``: what a
player types, what a player reads.

Orders go by the numbers printed: ``pbem play`` with no orders lists the decision, the harness
picks a number from that printed list and types ``pbem play N``.  Where a decision lists no
numbers and needs words (the block game's Ottoman deployment, table-top free orders) it types
the words the prompt or README shows.  Which number to pick is the chooser's business (a
module's own bot reading the party's own database, or a seeded random choice); what was typed
is always a printed number or the words.

At every step it checks (``Playthrough.problems`` collects, ``Playthrough.finish`` asserts):

* every printed number is accepted (exit 0), and no command prints a Traceback;
* the list is the decision the tool acts on: the bot's choice, found in the decision the party's
  own tool offers, is printed under the same label and number; every third number typed, its
  printed label typed in words in a copy of the campaign does the same and leads to the same
  next decision; after a drafted order the list moves on, and (every third draft) ``pbem
  status`` names the decision listed;
* no output line of play, status, report or ingest carries internal markup (``[[``, ``]]``,
  ``$hide``, raw JSON or Python reprs, a 64-digit token or a ``deck:`` card id in place of a
  name) or a doubled prefix (``ottoman: ottoman:``, ``waiting for X: waiting for X``);
* ``pbem report`` (read every eighth turn file and at the end) is checked like every output;
* at the end every party's ``pbem verify`` passes and all of them end on the same envelope and
  state (a refereed game after the referee's disclosure).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

PBEM = str(Path(sys.executable).parent / "pbem")

# --- what no line a player reads may carry ---------------------------------------------------

MARKUP = [
    (re.compile(r"\[\[|\]\]"), "internal markup [[ ]]"),
    (re.compile(r"\$hide"), "internal markup $hide"),
    (re.compile(r"\{\s*\"[^\"]*\"\s*:|\[\s*\{\s*\"|\{'[^']*':|\['[^']*'[,\]]|\[-?\d+(?:, -?\d+)+\]"),
     "raw JSON or a Python repr"),
    (re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])"), "a 64-digit token id"),
    (re.compile(r"\bdeck:[a-z0-9-]+:\d+:\d+"), "a card's deck id"),
    (re.compile(r"\b([A-Za-z][\w-]*): \1:"), "a doubled prefix"),
    (re.compile(r"\b([A-Za-z][\w-]*(?: [A-Za-z][\w'-]*){1,4}): \1\b"), "a doubled phrase"),
]
CHECKED_COMMANDS = {"play", "status", "report", "ingest", "join", "new", "undo", "disclose"}
LISTED = re.compile(r"^  (\d+)\. (.*)$")
SIGNED = re.compile(r"^signed turn file #(\d+): (.*)$")


@dataclass
class Out:
    who: str
    args: list[str]
    code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def text(self) -> str:
        return self.stdout + self.stderr

    def command(self) -> str:
        return f"{self.who}$ pbem " + " ".join(_quote(a) for a in self.args)


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./=:+-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


@dataclass
class Listing:
    """What ``pbem play`` without orders printed: the decision's heading, its numbered choices,
    and whether it asks for words (no numbers, or the free-orders hint)."""

    heading: str
    labels: list[str]
    free: bool
    out: Out

    def number_of(self, label: str) -> int | None:
        hits = [i for i, x in enumerate(self.labels, 1) if x == label]
        return hits[0] if hits else None

    def number_for(self, words: str) -> int | None:
        """The number of the printed choice these words name: its label, or the one label they begin."""
        exact = self.number_of(words)
        if exact is not None:
            return exact
        hits = [i for i, x in enumerate(self.labels, 1) if x.lower().startswith(words.lower())]
        return hits[0] if len(hits) == 1 else None


class Stop(AssertionError):
    """A step that cannot go on (a printed number refused, a command failed): the game stops here."""


class Party:
    def __init__(self, pt: "Playthrough", name: str, side: str | None) -> None:
        self.pt, self.name, self.side = pt, name, side
        self.dir = pt.root / name
        self.home = self.dir / "home"
        self.inbox = self.dir / "inbox"
        self.campaign = self.dir / "campaign"
        for d in (self.home, self.inbox):
            d.mkdir(parents=True, exist_ok=True)
        self.seen: set[Path] = set()  # files of sent/ already mailed
        self.pending: list[Path] = []  # files received, not yet ingested

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
        env.update(PBEM_HOME=str(self.home), HOME=str(self.dir), PBEM_LOCK_WAIT="30")
        return env

    def pbem(self, *args: str, campaign: str | None = "campaign", expect: int | None = 0, cwd: Path | None = None,
             label: str = "") -> Out:
        argv = [str(a) for a in args] + (["--campaign", campaign] if campaign else [])
        start = time.perf_counter()
        done = subprocess.run([PBEM, *argv], cwd=cwd or self.dir, env=self.env(), capture_output=True, text=True,
                              timeout=300)
        out = Out(self.name, argv, done.returncode, done.stdout, done.stderr, time.perf_counter() - start)
        self.pt.record(out)
        if expect is not None and out.code != expect:
            self.pt.problem(out, f"exit {out.code}, expected {expect}" + (f" ({label})" if label else ""))
            raise Stop(f"{out.command()} exited {out.code}:\n{out.text}")
        return out

    def new_files(self) -> list[Path]:
        """Files the tool wrote into sent/ (and sent/to-SIDE/) since the last call: the mail."""
        sent = self.campaign / "sent"
        files = sorted(p for p in sent.rglob("*.pbem") if p not in self.seen) if sent.is_dir() else []
        self.seen.update(files)
        return files

    def receive(self, path: Path) -> Path:
        target = self.inbox / path.name
        shutil.copyfile(path, target)
        return target


@dataclass
class Problem:
    command: str
    output: str
    what: str


@dataclass
class Playthrough:
    """One game by the installed command: its parties, the log of every command, the problems found."""

    root: Path
    module: str
    refereed: bool
    chooser: Callable[["Playthrough", "Party", Listing], str | int]
    options: list[str] = field(default_factory=list)  # pbem new arguments (--option, --scenario, --pack)
    seed: int = 0
    words_every: int = 1  # every how many numbers typed the label is typed in words too, in a copy
    status_every: int = 1  # every how many drafts pbem status is asked
    report_every: int = 1  # every how many turn files the mover reads pbem report first
    log: list[Out] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    echo: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.parties: dict[str, Party] = {}
        self.sides: list[str] = []
        self.decisions = 0  # orders typed
        self.numbers = 0  # of them, numbers whose label is unique in the list
        self.drafts = 0  # of them, those that drafted (not signed)
        self.turns = 0  # turn files the parties sat down to
        self.files = 0

    # -- bookkeeping ---------------------------------------------------------------------

    def record(self, out: Out) -> None:
        self.log.append(out)
        if self.echo:
            self.echo(out.command() + f"   [{out.code}, {out.seconds:.2f}s]")
            for line in out.text.splitlines():
                self.echo("    " + line)
        if "Traceback" in out.text:
            self.problem(out, "a Traceback")
        if out.args and out.args[0] in CHECKED_COMMANDS:
            for line in out.text.splitlines():
                for pattern, what in MARKUP:
                    if pattern.search(line):
                        self.problem(out, f"{what} in the line {line.strip()!r}")

    def problem(self, out: Out | None, what: str) -> None:
        command = out.command() if out else ""
        text = out.text if out else ""
        if any(p.what == what for p in self.problems):  # the same line again (a draft's events are repeated)
            return
        if self.echo:
            self.echo(f"!!! PROBLEM: {what}")
        self.problems.append(Problem(command, text, what))

    def finish(self) -> None:
        assert not self.problems, "\n\n".join(f"{p.command}\n{p.output}\n=> {p.what}" for p in self.problems[:8])

    # -- set-up --------------------------------------------------------------------------

    def keys(self, party: Party) -> Path:
        """``pbem keys new NAME`` and ``pbem keys export NAME > NAME.pub``: the public key to mail."""
        party.pbem("keys", "new", party.name, campaign=None)
        out = party.pbem("keys", "export", party.name, campaign=None)
        pub = party.dir / f"{party.name}.pub"
        pub.write_text(out.stdout)
        return pub

    def sides_of(self) -> list[str]:
        from pbem_engine.registry import get_game  # the module's sides, as `pbem games` prints them

        return list(get_game(self.module).sides) if self.module != "tabletop" else []

    def setup(self, sides: list[str]) -> None:
        self.sides = sides
        alice, bob = Party(self, "alice", sides[0]), Party(self, "bob", sides[1])
        self.parties = {sides[0]: alice, sides[1]: bob}
        pubs = {p.side: self.keys(p) for p in (alice, bob)}
        if self.refereed:
            ref = self.parties["referee"] = Party(self, "referee", "referee")
            self.keys(ref)
            players = []
            for side in sides:
                players += ["--player", f"{side}={ref.receive(pubs[side]).relative_to(ref.dir)}"]
            ref.pbem("new", self.module, "--referee", "--key", "referee", *players, *self.options)
            genesis = ref.new_files()
            assert len(genesis) == 1, genesis
            joins = []
            for party in (alice, bob):
                party.pbem("join", party.receive(genesis[0]).relative_to(party.dir), "--key", party.name)
                joins += [ref.receive(f).relative_to(ref.dir) for f in party.new_files()]
            ref.pbem("ingest", *joins)
        else:
            alice.pbem("new", self.module, "--as", sides[0], "--key", "alice",
                       "--opponent", alice.receive(pubs[sides[1]]).relative_to(alice.dir), *self.options)
            genesis = alice.new_files()
            assert len(genesis) == 1, genesis
            bob.pbem("join", bob.receive(genesis[0]).relative_to(bob.dir), "--key", "bob")
            self.mail(bob)

    # -- the post ------------------------------------------------------------------------

    def mail(self, sender: Party, signed: Out | None = None) -> list[Out]:
        """Every file the sender's tool wrote goes to whom it is for.  Who moves next reads it at
        once (``pbem ingest``); in a refereed game the other player reads his mail when his own
        move comes (several files in one ingest), as a person may."""
        files = sender.new_files()
        self.files += len(files)
        if self.refereed and sender.side == "referee" and any(p.parent.name.startswith("to-") for p in files):
            files = [p for p in files if p.parent.name.startswith("to-")]  # its own copy stays home
        receivers: list[str] = []
        for path in files:
            if self.refereed and sender.side == "referee":
                folder = path.parent.name
                to = [folder.removeprefix("to-")] if folder.startswith("to-") else list(self.sides)
            elif self.refereed:
                to = ["referee"]
            else:
                to = [s for s in self.sides if s != sender.side]
            for side in to:
                self.parties[side].pending.append(self.parties[side].receive(path))
                receivers += [side] if side not in receivers else []
        if self.refereed and sender.side == "referee" and signed is not None:
            m = re.search(r"^Now (\w[\w-]*)'s decision|^Now waiting for (\w[\w-]*)\b", signed.stdout, re.M)
            mover = m and (m.group(1) or m.group(2))
            if mover in receivers:
                receivers = [mover]
        return [out for side in receivers if (out := self.collect(self.parties[side])) is not None]

    def collect(self, party: Party) -> Out | None:
        """The party ingests every file waiting in its inbox, in one command."""
        if not party.pending:
            return None
        names = [str(p.relative_to(party.dir)) for p in party.pending]
        party.pending = []
        return party.pbem("ingest", *names)

    # -- play ------------------------------------------------------------------------------

    def listing(self, party: Party) -> Listing | Out:
        """``pbem play`` without orders: the decision listed, or (a reveal, a referee's turn) what it signed."""
        out = party.pbem("play")
        lines = out.stdout.splitlines()
        if any(SIGNED.match(line) for line in lines):
            return out
        labels, heading, free = [], "", False
        for line in lines:
            m = LISTED.match(line)
            if m:
                if int(m.group(1)) != len(labels) + 1:
                    self.problem(out, f"the list is not numbered 1, 2, ...: {line!r}")
                labels.append(m.group(2))
            elif line.startswith("Orders in words"):
                free = True
            elif not labels and line.strip() and not line.startswith(("Give your orders", "(")):
                heading = line.removeprefix("Then: ")  # the last line before the list: the decision
        if not heading and not labels:
            self.problem(out, "pbem play listed no decision and signed nothing")
            raise Stop(out.text)
        return Listing(heading, labels, free or not labels, out)

    def whose_move(self) -> str | None:
        """The side whose move it is, by ``pbem status`` of the referee (or of the first player)."""
        party = self.parties["referee" if self.refereed else self.sides[0]]
        out = party.pbem("status")
        if re.search(r"^waiting for you\b", out.stdout, re.M):
            return party.side
        m = re.search(r"^waiting for (\w[\w-]*)\b", out.stdout, re.M)
        return m.group(1) if m and m.group(1) in self.parties else None

    def turn(self, party: Party) -> list[Out]:
        """One turn file of a party: list, pick a number (or words), again, until it signs; mail it."""
        self.collect(party)
        self.turns += 1
        if (self.turns - 1) % self.report_every == 0:
            party.pbem("report")  # what a player reads before his move: checked like every output
        shown = self.listing(party)
        for _ in range(400):
            if isinstance(shown, Out):  # a reveal or a referee's adjudication: signed with no orders
                return self.mail(party, shown)
            choice = self.chooser(self, party, shown)
            if isinstance(choice, int):
                if not 1 <= choice <= len(shown.labels):
                    raise Stop(f"chooser gave {choice} for a list of {len(shown.labels)}")
                order, label = str(choice), shown.labels[choice - 1]
            else:
                order, label = choice, None
            words = self.words_copy(party, label, shown) if label is not None else None
            out = party.pbem("play", order, label=f"the printed number {order}: {label!r}" if label else "words")
            self.decisions += 1
            signed = any(SIGNED.match(line) for line in out.stdout.splitlines())
            if not signed and "drafted, not yet signed" not in out.stdout:
                self.problem(out, "pbem play N neither drafted nor signed")
                raise Stop(out.text)
            if not signed:
                self.drafts += 1
            status = party.pbem("status") if not signed and (self.drafts - 1) % self.status_every == 0 else None
            after = None if signed else self.listing(party)
            if words is not None:
                self.compare_words(party, words, order, label, out, after)  # type: ignore[arg-type]
            if signed:
                return self.mail(party, out)
            if isinstance(after, Out):
                self.problem(after, "pbem play without orders signed a draft")
                return self.mail(party, after)
            assert after is not None
            if label is not None and after.heading == shown.heading and after.labels == shown.labels:
                self.problem(after.out, f"after 'pbem play {order}' drafted, pbem play lists the same decision again")
            if status is not None:
                self.check_status(party, status, after)
            shown = after
        raise Stop("a turn of 400 decisions")

    def words_copy(self, party: Party, label: str, shown: Listing) -> str | None:
        """Every ``words_every``-th number typed: a copy of the campaign, where its label will be
        typed in words (as printed, odds and all), to check that the number did what it says."""
        if shown.labels.count(label) != 1:
            return None
        self.numbers += 1
        if (self.numbers - 1) % self.words_every:
            return None
        copy = party.dir / "words-copy"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(party.campaign, copy, ignore=shutil.ignore_patterns("outbox", "campaign.lock"))
        return label

    def compare_words(self, party: Party, words: str, order: str, label: str, out: Out,
                      after: Listing | Out | None) -> None:
        """In the copy: the printed label typed in words does what the number did (the same output,
        and after a draft the same decision listed next)."""
        norm = lambda text: re.sub(r"\S*words-copy\S*|\S*campaign/\S*", "PATH", text)  # noqa: E731
        typed = party.pbem("play", words, campaign="words-copy", expect=None)
        if typed.code != 0:
            self.problem(typed, f"the printed label of number {order} ({words!r}) is refused in words")
        elif norm(typed.stdout) != norm(out.stdout):
            self.problem(out, f"number {order} did not do what its printed label {label!r} does in words:\n"
                              f"--- by number:\n{out.stdout}--- in words:\n{typed.stdout}")
        elif after is not None:
            listed = party.pbem("play", campaign="words-copy")
            if norm(listed.stdout) != norm(after.out.stdout if isinstance(after, Listing) else after.stdout):
                self.problem(listed, f"after number {order} pbem play lists another decision than after its "
                                     f"printed label {words!r} in words:\n--- after the number:\n"
                                     f"{after.out.stdout if isinstance(after, Listing) else after.stdout}")
        shutil.rmtree(party.dir / "words-copy")

    def check_status(self, party: Party, status: Out, shown: Listing) -> None:
        """``pbem status`` after a draft says the move is ours and names the decision ``pbem play``
        lists (a reveal still owed may be named instead: the file it goes in is still ours to sign)."""
        if re.search(rf"^waiting for {re.escape(party.side or '')}'s reveal\b", status.stdout, re.M):
            return
        m = re.search(r"^waiting for you: (.*?) \(since envelope", status.stdout, re.M)
        if not m:
            self.problem(status, "pbem status does not say the move is ours after a draft")
            return
        said = m.group(1).removeprefix("your reveal (a roll waits for it), then your decision: ").rstrip(".")
        heading = shown.heading.removeprefix(f"{party.side}: ").rstrip(".")
        if not (heading.startswith(said) or said.startswith(heading)):
            self.problem(status, f"pbem status names another decision than pbem play lists ({shown.heading!r})")

    def next_mover(self, outs: list[Out]) -> str | None:
        """Whose move it is after the post: the receiver whose ``pbem ingest`` says 'Your move' (the
        referee's ``pbem status`` when none does); None when the game is over and nothing is owed."""
        movers = [o.who for o in outs if "Your move" in o.stdout]
        if len(movers) == 1:
            return next(s for s, p in self.parties.items() if p.name == movers[0])
        if movers:
            self.problem(outs[-1], f"'Your move' told to several parties at once: {movers}")
        if outs and all("The game is over." in o.stdout for o in outs):
            return None
        return self.whose_move()

    def play_game(self, max_files: int = 400, until: tuple[str, int] | None = None) -> bool:
        """Turn after turn until the game is over (True), or (False) until a party's ``pbem play``
        says the game turn ``until`` = (pattern with the turn as its group, turn) has come."""
        mover = self.whose_move()
        while mover is not None:
            if self.files > max_files:
                raise Stop(f"the game did not end in {max_files} files")
            outs = self.turn(self.parties[mover])
            if until is not None and any(int(n) >= until[1] for o in self.log[-6:] if o.args[:1] == ["play"]
                                         for n in re.findall(until[0], o.stdout)):
                return False
            mover = self.next_mover(outs)
        return True

    def end(self, over: bool) -> None:
        """A refereed game stopped before its end: the referee discloses it (pbem disclose), and
        every player ingests the disclosure."""
        if self.refereed and not over:
            self.mail(self.parties["referee"], self.parties["referee"].pbem("disclose"))
        for party in self.parties.values():
            self.collect(party)
            if party.side != "referee":
                party.pbem("report")

    # -- the end ------------------------------------------------------------------------------

    def verify_all(self) -> dict[str, tuple[str, str]]:
        """Every party's pbem verify passes; all end on the same envelope and state."""
        seen = {}
        for side, party in self.parties.items():
            out = party.pbem("verify", "campaign", campaign=None)
            m = re.search(r"^OK: (\d+) envelopes?\b.*; state ([0-9a-f]+)", out.stdout, re.M)
            if not m:
                self.problem(out, "pbem verify does not say OK with the envelopes and the state")
                continue
            seen[side] = (m.group(1), m.group(2))
        if len(set(seen.values())) != 1:
            self.problem(None, f"the parties' campaigns end apart (envelopes, state): {seen}")
        return seen

# --- choosers: which printed number to type --------------------------------------------------

def situation(party: Party):
    """What a module's bot sees of the party's own game, read from its own database (read only):
    the decision as its tool offers it (after the draft), the state and the hidden items it may
    name.  Only to decide WHICH choice: the order is still typed as a printed number."""
    from pbem.play.campaign import Campaign

    camp = Campaign.open(party.campaign, readonly=True)
    try:
        if camp.refereed:  # its orders run on its view, after its draft, as pbem play runs them
            from pbem.play.referee_orders import latest_view, offered

            draft, _ = offered(camp, latest_view(camp))
            return camp.game, draft.prompt, draft.state, draft.known
        from pbem.play.turns import shown_prompt

        prompt = shown_prompt(camp)
        match = camp.match()
        actions = camp.draft() or []
        if actions or match["pending"]:
            match = camp.preview(actions, camp.next_link())[0]
        return camp.game, prompt, match["game"], camp.knowledge(match) if "private" in match else {}
    finally:
        camp.close()


def bot(pt: Playthrough, party: Party, listing: Listing) -> int | str:
    """The module's own player (engine/games/*/bot.py, as the demo plays it) decides; its choice is
    found by its label in the printed list, and typed by that number.  Words it gives that are a
    printed label are typed by number too ('1. done', '1. lead strongest'); other words as words."""
    game, prompt, state, known = situation(party)
    if prompt is None:
        pt.problem(listing.out, "pbem play lists a decision, but the party's tool has none to offer")
        raise Stop(listing.out.text)
    answer = game.player(state, party.side, prompt, known).strip()
    if answer.isdigit():
        label = prompt.choices[int(answer) - 1].label
        number = listing.number_of(label)
        if number is None:
            pt.problem(listing.out, f"the tool's decision has {label!r} (choice {answer}), which pbem play does not "
                                    f"list")
            raise Stop(listing.out.text)
        if number != int(answer):
            pt.problem(listing.out, f"{label!r} is choice {answer} of the tool's decision but number {number} in "
                                    "the printed list")
        return number
    number = listing.number_for(answer)
    if number is not None:
        return number
    words = WORDS.get(pt.module)
    return words(answer, listing) if words else answer


def blocks_words(order: str, listing: Listing) -> str:
    """The block game's deployment as a person types it from the prompt: the names it prints
    ('deploy 9th Div / 25th Rgt 4 Krithia'), where the bot gives ids ('deploy ott-9-div-25-rgt 4 krithia')."""
    from pbem_engine.games.gallipoli_blocks.data import BLOCKS, SPACES

    m = re.fullmatch(r"deploy (\S+) (?:(\d) )?(.+)", order)
    if not m:
        return order
    block, steps, space = m.groups()
    space = SPACES.get(space.replace(" ", "-"), (space,))[0]
    name = "dummy" if block == "dummy" else BLOCKS[block][0]
    if name not in listing.heading or space not in listing.heading:
        raise Stop(f"the deployment prompt does not name {name!r} or {space!r}: {listing.heading}")
    return f"deploy {name} {steps} {space}" if steps else f"deploy {name} {space}"


def tigris_words(order: str, listing: Listing) -> str:
    """Blood on the Tigris's orders with units by the names its report prints ('move 13th Corps HQ
    to 1412'), where the bot gives ids ('move tk-13-corps-hq to 1412')."""
    from pbem_engine.games.blood_on_the_tigris import counters

    return re.sub(r"\b(?:br|tk)-[a-z0-9-]+", lambda m: counters.name(m.group(0)), order)


WORDS = {"gallipoli-blocks": blocks_words, "blood-on-the-tigris": tigris_words}


def preferring(*words: str, often: float = 0.5) -> Callable[[Playthrough, Party, Listing], int | str]:
    """A seeded chooser: the first printed label that begins with one of ``words`` (in their order)
    ``often``, else any printed number."""
    def choose(pt: Playthrough, party: Party, listing: Listing) -> int | str:
        if not listing.labels:
            raise Stop(f"a decision in words only, with no words to give: {listing.heading}")
        if pt.rng.random() < often:
            for word in words:
                for i, label in enumerate(listing.labels, 1):
                    if label.lower().startswith(word):
                        return i
        return pt.rng.randint(1, len(listing.labels))

    return choose


def hurried(chooser: Callable[[Playthrough, Party, Listing], int | str], *words: str, often: float = 0.5
            ) -> Callable[[Playthrough, Party, Listing], int | str]:
    """``chooser``, but ``often`` the first printed label beginning with one of ``words`` (pass, end
    the phase): a game whose every unit may act gets through its turns in fewer files."""
    def choose(pt: Playthrough, party: Party, listing: Listing) -> int | str:
        if pt.rng.random() < often:
            for word in words:
                for i, label in enumerate(listing.labels, 1):
                    if label.lower().startswith(word):
                        return i
        return chooser(pt, party, listing)

    return choose


def tabletop(script: dict[str, list[list[str]]], cards: list[str]) -> Callable[[Playthrough, Party, Listing], int | str]:
    """Table-top mode's free orders, as its README section writes them, from a script: for each
    side, its orders hand-over after hand-over (each list ends where the side hands over).  An
    order with '{card}' names a card of the party's own hand as ``pbem report`` prints it (the
    first of ``cards``, the pack's card names, that the report's hand line shows)."""
    def choose(pt: Playthrough, party: Party, listing: Listing) -> int | str:
        queues = pt.__dict__.setdefault("script", {side: [order for segment in segments for order in segment]
                                                   for side, segments in script.items()})
        queue = queues[party.side or ""]
        if not queue:
            raise Stop(f"the script of {party.side} ran out at: {listing.heading}")
        order = queue.pop(0)
        if "{card}" in order:
            report = party.pbem("report")
            hand = next((line for line in report.stdout.splitlines() if line.startswith(f"{party.side} hand:")), "")
            held = sorted((hand.find(name), name) for name in cards if name in hand)
            if not held:
                pt.problem(report, f"{party.side}'s report names no card of its own hand: {hand!r}")
                raise Stop(report.text)
            order = order.replace("{card}", held[0][1])
        number = listing.number_for(order)
        return number if number is not None else order

    return choose
