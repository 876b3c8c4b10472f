"""This side's own hash chain: the link its next envelope reveals, and the chain's renewal
before it runs out (``pbem_engine.protocol.chain``).

The secrets (``secrets/chain.json``) hold the first chain (``secret``, ``length``,
``checkpoints``) and, once renewed, ``renewals``: for each new chain its secret, its checkpoints
and ``from``, the index of the link revealed in the envelope that signed its anchor (the new
chain's link ``j`` is then revealed at index ``from + j``).  A renewal is written to the secrets
before the envelope carrying its anchor is signed, so a crash between the two loses nothing: a
renewal whose envelope was never stored sits at an index not yet passed, and is replaced by the
next one made there.
"""

from __future__ import annotations

import secrets as secrets_mod
from typing import TYPE_CHECKING, Any

from pbem_engine.protocol import match as protocol

from ..errors import PbemError

if TYPE_CHECKING:  # only for annotations: the campaign is handed in
    from .campaign import Campaign


def _now(camp: Campaign) -> dict[str, Any]:
    match = camp.match()
    return (match["public"] if camp.refereed else match)["chains"][camp.side]


def chain_for(data: dict[str, Any], index: int) -> dict[str, Any]:
    """The chain link ``index`` comes from: the newest renewal whose anchor sits below it, else the first."""
    chain = {"secret": data["secret"], "checkpoints": data.get("checkpoints") or [], "from": 0}
    for renewal in data.get("renewals") or []:
        if isinstance(renewal, dict) and isinstance(renewal.get("from"), int) and renewal["from"] < index:
            chain = renewal
    return dict(chain, length=data["length"])


def next_link(camp: Campaign) -> str:
    """The next link of our hash chain (hex), which our next envelope reveals.

    :raises PbemError: ``chain-exhausted`` (a campaign whose tool did not renew in time)."""
    data = camp.chain_secrets()
    now = _now(camp)
    index = now["index"] + 1
    chain = chain_for(data, index)
    local = index - chain["from"]
    if local > chain["length"]:
        raise PbemError("hash chain exhausted", f"all {data['length']} links are used", code="chain-exhausted")
    try:
        checkpoints = [bytes.fromhex(c) for c in chain["checkpoints"]]  # none in an older campaign
        secret = bytes.fromhex(chain["secret"])
    except (TypeError, ValueError):
        raise PbemError("this campaign's secrets are damaged", "a renewed chain in secrets/chain.json is not hex",
                        code="bad-secrets") from None
    return protocol.next_link(data["game"], data["side"], secret, chain["length"], local, checkpoints,
                              now.get("renewed", now["link"])).hex()


def renewed(camp: Campaign, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with ``renew`` (a new chain's anchor) when the chain its reveal comes from has fewer
    than ``RENEW_BEFORE`` links left after it; the new chain's secret is kept first.  A referee's
    new secret is the one its salt gives (``pbem_engine.protocol.referee.renewal_secret``): it may
    not choose it; a player's, as a two-player side's, is fresh."""
    if "reveal" not in body or "renew" in body:
        return body
    data = camp.chain_secrets()
    index = _now(camp)["index"] + 1
    chain = chain_for(data, index)
    if chain["length"] - (index - chain["from"]) >= protocol.RENEW_BEFORE:
        return body
    if camp.refereed and camp.side == "referee":
        from pbem_engine.protocol.referee import renewal_secret  # loaded in a refereed game only

        secret = renewal_secret(bytes.fromhex(camp.referee_disclosure()["salt"]), index)
    else:
        secret = secrets_mod.token_bytes(32)
    length = data["length"]
    links = protocol.chain_links(data["game"], data["side"], secret, length)
    every = protocol.checkpoint_every(length)
    fresh = {"secret": secret.hex(), "from": index, "checkpoints": [c.hex() for c in links[every:length:every]]}
    kept = [r for r in data.get("renewals") or [] if isinstance(r, dict) and r.get("from", index) < index]
    data = dict(data, renewals=[*kept, fresh])
    camp.chain_secrets(keep=data)
    return dict(body, renew=links[0].hex())
