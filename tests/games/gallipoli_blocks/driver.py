"""Play the block game at the engine level through the real protocol: each side's tool knows only
its own secret, builds its envelope body (draws, openings, sealed tokens), and the opponent's
tool replays the signed body; both must reach the same state."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from pbem_engine.protocol import match as protocol
from pbem_engine.canonical import canonical_json, state_hash
from pbem_engine.protocol.core import Prompt
from pbem_engine.games.gallipoli_blocks import GAME, bot
from pbem_engine.hidden.private import anchor, simulate

GID = "9a" * 16
SIDES = ("allied", "ottoman")


class Table:
    """Two tools and the envelopes between them."""

    def __init__(self, options: dict[str, Any] | None = None, mode: str = "unsealed", seed: int = 1) -> None:
        self.secrets = {s: bytes([seed % 256, i]) * 16 for i, s in enumerate(SIDES)}
        self.chains = {s: protocol.chain_links(GID, s, (s + str(seed)).encode().ljust(32, b"-"), 3000) for s in SIDES}
        body = {"mode": mode, "scenario": "full-game", "options": options or {}, "sides": {s: {} for s in SIDES},
                "anchor": self.chains["allied"][0].hex(), "private_anchor": anchor(GID, "allied", self.secrets["allied"])}
        m = protocol.start(GAME, GID, "allied", body)
        self.m = protocol.join(m, "ottoman", {"anchor": self.chains["ottoman"][0].hex(),
                                              "private_anchor": anchor(GID, "ottoman", self.secrets["ottoman"])})
        self.seq = 1
        self.chosen: dict[str, dict[str, str]] = {s: {} for s in SIDES}
        self.events: list[str] = []
        self.rolls: list[dict] = []
        self.bodies: list[tuple[str, dict]] = []  # what each side sent, as signed

    def known(self, side: str) -> dict[str, str]:
        _, openings = simulate(GID, side, self.m["private"][side], self.secrets[side], self.chosen[side])
        return {tok: o["item"] for tok, o in openings.items()}

    @property
    def state(self) -> dict[str, Any]:
        return self.m["game"]

    def waiting(self) -> dict[str, Any] | None:
        return protocol.waiting_for(GAME, self.m)

    def send(self, side: str, actions: list[dict[str, Any]]) -> None:
        """One envelope from ``side``: built with its secret, replayed from the signed body."""
        from pbem_engine.protocol.match import swap_hidden

        reveal = self.chains[side][self.m["chains"][side]["index"] + 1].hex()
        build = {"secret": self.secrets[side], "chosen": self.chosen[side]}
        body = {"reveal": reveal, "actions": actions}
        if self.waiting() and self.waiting()["why"] == "secret":
            body = {"reveal": reveal, "actions": [], "private_secret": self.secrets[side].hex()}
            if self.chosen[side]:
                body["private_chosen"] = self.chosen[side]
            build = None
        mine = protocol.advance(GAME, self.m, self.seq + 1, side, body, build)
        signed = dict(body)
        if build is not None:
            signed["actions"] = swap_hidden(actions, [t for t, _ in build["chosen_out"]])
            if build.get("private"):
                signed["private"] = build["private"]
        theirs = protocol.advance(GAME, self.m, self.seq + 1, side, signed)
        assert state_hash(theirs[0]) == state_hash(mine[0]), "the two tools disagree"
        if build is not None:
            self.chosen[side].update(dict(build["chosen_out"]))
        self.seq += 1
        # as the ledger keeps it: canonical JSON, keys sorted (so no rule may lean on dict order)
        self.m = json.loads(canonical_json(theirs[0]))
        self.events += [e["text"] for e in theirs[1]]
        self.rolls += theirs[2]
        self.bodies.append((side, signed))

    def act(self, side: str, order: str) -> dict[str, Any]:
        """An order in words (or a choice number), as the CLI reads it: the action."""
        from pbem_engine.protocol.core import find_choice
        from pbem.chain.hidden import show_prompt

        prompt = GAME.prompt(self.state)
        if prompt.free:
            return GAME.parse_order(self.state, side, order, self.known(side))
        return find_choice(show_prompt(prompt, self.known(side), GAME), order).action

    def step(self, chooser: Callable[[dict, str, Prompt, dict], str] | None = None) -> bool:
        """One envelope by whoever owes it, its decisions made by ``chooser`` (the bot by
        default), all in one envelope while the decision stays with that side."""
        w = self.waiting()
        if w is None:
            return False
        side = w["side"]
        if w["why"] in ("reveal", "secret"):
            self.send(side, [])
            return True
        chooser = chooser or bot.order
        actions: list[dict[str, Any]] = []
        state = self.state
        reveal = self.chains[side][self.m["chains"][side]["index"] + 1].hex()
        for _ in range(200):
            build = {"secret": self.secrets[side], "chosen": self.chosen[side]}
            m, _, _ = protocol.advance(GAME, self.m, self.seq + 1, side, {"reveal": reveal, "actions": actions}, build) \
                if actions else (self.m, None, None)
            chosen = {**self.chosen[side], **dict(build.get("chosen_out", []))}  # what the draft holds, too
            _, openings = simulate(GID, side, m["private"][side], self.secrets[side], chosen)
            known = {tok: o["item"] for tok, o in openings.items()}
            prompt = GAME.prompt(m["game"])
            if m["pending"] or prompt.side != side:
                break
            prompt = GAME.playable(m["game"], prompt, known)  # as the owner's tool shows it
            text = chooser(m["game"], side, prompt, known)
            if prompt.free:
                actions.append(GAME.parse_order(m["game"], side, text, known))
            else:
                from pbem_engine.protocol.core import find_choice

                actions.append(find_choice(prompt, text).action)
        del state
        self.send(side, actions)
        return True


def random_chooser(rng: random.Random) -> Callable[[dict, str, Prompt, dict], str]:
    """Any legal choice at random; free orders from the bot (with random leading blocks)."""

    def choose(state: dict, side: str, prompt: Prompt, known: dict) -> str:
        if prompt.free:
            return bot.order(state, side, prompt, known)
        return str(rng.randrange(len(prompt.choices)) + 1)

    return choose
