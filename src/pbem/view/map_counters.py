"""The map's counters: what a piece is, drawn as the game's own counter would show it.

A piece of a game's ``board(view)`` may say its ``kind`` (infantry, cavalry, artillery, hq,
machine-gun, leader, ship, gunboat, steamer, aircraft, armour, block, marker); where it does
not, the kind is read from its label as the game prints it ("16th Brigade (infantry)", "HMS
Triumph", "27th Rgt MG Coy", "Col Kemal"); where nothing says, the counter is plain. The values
are the label's too: Assault on Gallipoli's "Firepower 2, range 2, strength 2" as 2-2-2, Blood
on the Tigris's "strength 4, MA 6" as 4-6 with its steps as pips, a block's "(3 steps, strength
2)" as the strength on its top edge and its steps as pips.

Each piece is ONE line of SVG starting ``<g class="piece`` whose first element is the counter's
``<rect x= y=``, and every other element is placed by ``x``/``y`` attributes only (symbols are
``<use>`` of ``<defs>``): the replay stores a piece once, at the origin, and moves it by those
attributes (replay_page.py).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

SIZE = 30  # a counter's side, in map units (one CSS px at zoom 1; the page never shows less than 0.82)
FAN, RISE = 4, 17  # each next counter of a stack this far right and up: the one under it shows its lower
FAN_MAX = 3  # half, its values and its centre (a click or a drag reaches it); past three, the count says the rest
LIFT = 0  # a stack's bottom edge this far below its location's centre (its lower half stays free to click)
STATUS_COLOURS = ("#e07b00", "#7b3fa0", "#0a8f8f", "#c2185b")
EXHAUSTED = "#555"  # the EXH tab under an exhausted counter

# NATO-style symbols, drawn at the origin in a 16 x 11 frame (land units) or free (ships, aircraft)
_FRAME = '<rect x="0" y="0" width="16" height="11" fill="#fff" stroke="#111" stroke-width="1"/>'
SYMBOLS = {
    "infantry": _FRAME + '<path d="M0 0L16 11M16 0L0 11" stroke="#111" stroke-width="1"/>',
    "cavalry": _FRAME + '<path d="M0 11L16 0" stroke="#111" stroke-width="1"/>',
    "artillery": _FRAME + '<circle cx="8" cy="5.5" r="2.3" fill="#111"/>',
    "machine-gun": _FRAME + '<path d="M0 0L16 11M16 0L0 11M8 1V10" stroke="#111" stroke-width="1"/>',
    "hq": _FRAME + '<path d="M0.5 11V16" stroke="#111" stroke-width="1.6"/><text x="8" y="8.5" '
                   'text-anchor="middle" font-size="7" font-weight="bold" fill="#111">HQ</text>',
    "armour": _FRAME + '<rect x="3" y="2.5" width="10" height="6" rx="3" fill="none" stroke="#111"/>',
    "leader": '<path d="M8 0L10 4.2L14.6 4.6L11.2 7.6L12.2 12L8 9.7L3.8 12L4.8 7.6L1.4 4.6L6 4.2Z" fill="#fff" '
              'stroke="#111" stroke-width=".8"/>',
    "ship": '<path d="M0 6H16L13 11H3Z" fill="#fff" stroke="#111"/><rect x="6" y="2" width="4" height="4" fill="#fff" '
            'stroke="#111"/>',
    "gunboat": '<path d="M1 7H15L12.5 11H3.5Z" fill="#fff" stroke="#111"/><path d="M8 7V3H12" stroke="#111" '
               'stroke-width="1.2" fill="none"/>',
    "steamer": '<path d="M1 7H15L12.5 11H3.5Z" fill="#fff" stroke="#111"/><rect x="6.5" y="2" width="3" height="5" '
               'fill="#111"/>',
    "aircraft": '<path d="M0 5Q4 0 8 5Q12 0 16 5" fill="none" stroke="#fff" stroke-width="2"/>'
                '<path d="M0 5Q4 0 8 5Q12 0 16 5" fill="none" stroke="#111" stroke-width="1"/>',
}
NAMES = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "artillery", "machine-gun": "machine gun",
         "hq": "headquarters", "armour": "armoured car", "leader": "leader", "ship": "ship", "gunboat": "gunboat",
         "steamer": "steamer", "aircraft": "aircraft"}
_WORDS = (  # the label's words that say a kind, first match wins
    (r"\((hq)\)|\bHQ\b", "hq"), (r"\bMG\b|machine.?gun", "machine-gun"), (r"\(gunboat\)", "gunboat"),
    (r"\(steamer\)", "steamer"), (r"\((air|aircraft|plane)\)|\bAlbatross\b", "aircraft"),
    (r"\(armou?red|\barmou?red car", "armour"), (r"\(cavalry\)|\bCav(alry)?\b|\bLancers\b|\bHorse\b", "cavalry"),
    (r"\(artillery\)|\bArtillery\b|\bBattery\b|\bGuns?\b", "artillery"),
    (r"^(HMS|SMS|HMT)\b|\bTurgut Reis\b|\(ship\)|\bbattleship\b", "ship"),
    (r"^(Col|Gen|Maj|Lt Col|Brig|Capt)\.? ", "leader"),
    (r"\(infantry\)|\b(Bde|Brigade|Rgt|Regiment|Bn|Battalion|Div|Division|Coy|Company|Inf)\b", "infantry"),
)
_DROP = {"infantry", "brigade", "bde", "battalion", "bn", "regiment", "rgt", "division", "div", "coy", "company",
         "hq", "cavalry", "cav", "artillery", "hms", "col", "gen", "maj", "lt", "brig", "capt", "and", "the", "of",
         "inf", "corps"}


def kind_of(piece: dict[str, Any]) -> str | None:
    """The unit type the board gives, else the one its label says, else None (a plain counter)."""
    if piece.get("kind") in SYMBOLS:
        return piece["kind"]
    label = str(piece.get("label", ""))
    if piece.get("concealed") and not piece.get("known"):
        return None
    for pattern, kind in _WORDS:
        if re.search(pattern, label, re.I if kind not in ("hq", "machine-gun", "ship", "leader") else 0):
            return kind
    return None


def is_block(piece: dict[str, Any]) -> bool:
    label = str(piece.get("label", ""))
    return bool(re.search(r"\(\d+ steps?, strength \d+\)|concealed block|\[\[[^|]*\|block\]\]", label))


def designation(label: str) -> str:
    """A counter's short name: "1/35 Infantry Brigade" 1/35, "29 Div British / 87 Bde" 87, "Col Kemal" Kemal."""
    head = re.split(r" \(|,|:", label, maxsplit=1)[0].strip()
    if " / " in head:
        head = head.split(" / ")[-1]
    words = [w for w in head.split() if w.lower().strip(".") not in _DROP] or head.split()[:1]
    text = " ".join(words)
    if len(text) > 8:
        text = " ".join(w if any(ch.isdigit() for ch in w) else w[:3] for w in words[:2])
    return text[:9]


def values(piece: dict[str, Any]) -> tuple[str, str, tuple[int, int] | None]:
    """(the values line, the top edge's number, (steps left, steps in all) or None) from the label."""
    label = str(piece.get("label", ""))
    m = re.search(r"Firepower (\d+), range (\d+), strength (\d+)", label)
    if m:
        return "-".join(m.groups()), "", None
    m = re.search(r"\((\d+) steps?, strength (\d+)\)", label)
    if m:
        return "", m.group(2), (int(m.group(1)), int(m.group(1)))
    strength, ma = re.search(r"strength (\d+)", label), re.search(r"\bMA (\d+)", label)
    steps = re.search(r"(\d+) of (\d+) steps?", label)
    line = "-".join(x.group(1) for x in (strength, ma) if x)
    return line, "", (int(steps.group(1)), int(steps.group(2))) if steps else None


def defs(kinds: set[str]) -> str:
    """The symbols these counters use, once each."""
    return "".join(f'<g id="u-{k}">{SYMBOLS[k]}</g>' for k in sorted(kinds))


def pale(colour: str) -> str:
    """A side's colour mixed half with white: the exhausted (flipped) face."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{(v + 255) // 2:02x}" for v in (r, g, b))


def counter(piece: dict[str, Any], px: float, py: float, colour: str, status_colour: dict[str, str],
            count: int = 0) -> str:
    """One piece at (px, py), its top-left corner: one line of SVG."""
    at, side = escape(str(piece["at"])), escape(str(piece.get("side")))
    exhausted = bool(piece.get("exhausted"))
    hidden = piece.get("concealed") and not piece.get("known")
    block = is_block(piece)
    kind = kind_of(piece)
    face = pale(colour) if exhausted and colour.startswith("#") and len(colour) == 7 else colour
    ink = "#111" if exhausted else "#fff"
    s = SIZE
    parts = [f'<g class="piece{" exhausted" if exhausted else ""}" data-at="{at}" data-side="{side}">'
             f'<title>{escape(piece["label"])}</title>']
    about = ((f' data-kind="{kind}"' if kind else "") + (' data-block="yes"' if block else "")
             + (' data-face="down"' if hidden else "")  # on the counter's face: the tag stays as it was
             + (f' data-piece="{escape(str(piece["id"]))}"' if piece.get("id") and not hidden else ""))  # what orders name
    if block:  # a block stands: its side edge shows below it
        parts.append(f'<rect x="{px + 2:.1f}" y="{py + 2:.1f}" width="{s}" height="{s}" rx="2" fill="#222" '
                     f'fill-opacity=".55"/>')
    parts.append(f'<rect x="{px:.1f}" y="{py:.1f}" width="{s}" height="{s}" rx="2" class="face"{about} fill="{face}" '
                 f'stroke="#111" stroke-width="1"/>')
    if hidden:  # face down: the side's colour and a blank
        parts.append(f'<rect x="{px + 4:.1f}" y="{py + 4:.1f}" width="{s - 8}" height="{s - 8}" rx="1" fill="none" '
                     f'stroke="#fff" stroke-opacity=".5"/>')
    else:
        line, top, steps = values(piece)
        badge = str(piece.get("badge") or "")
        if kind in SYMBOLS:
            parts.append(f'<use href="#u-{kind}" x="{px + 7:.1f}" y="{py + 9:.1f}"/>')
        elif not top and not line and badge:
            top = badge
        name = designation(str(piece["label"]))
        squeeze = f' textLength="{s - 3}" lengthAdjust="spacingAndGlyphs"' if len(name) > 6 else ""
        if top:  # a block's strength on its top edge, the name under it
            parts.append(f'<text class="cv" x="{px + s / 2:.1f}" y="{py + 8.5:.1f}" fill="{ink}">{escape(top)}</text>')
            if kind not in SYMBOLS:
                parts.append(f'<text class="cd" x="{px + s / 2:.1f}" y="{py + 19:.1f}" fill="{ink}"{squeeze}>'
                             f'{escape(name)}</text>')
            else:
                parts.append(f'<text class="cd" x="{px + s / 2:.1f}" y="{py + 28:.1f}" fill="{ink}"{squeeze}>'
                             f'{escape(name)}</text>')
        else:
            parts.append(f'<text class="cd" x="{px + s / 2:.1f}" y="{py + 7.5:.1f}" fill="{ink}"{squeeze}>'
                         f'{escape(name)}</text>')
            if line:
                parts.append(f'<text class="cv" x="{px + s / 2:.1f}" y="{py + 28:.1f}" fill="{ink}">{escape(line)}</text>')
        if steps:  # pips down the right edge: white left, dark lost
            left, whole = steps
            for j in range(min(whole, 4)):
                parts.append(f'<rect x="{px + s - 4.5:.1f}" y="{py + 9 + j * 4.5:.1f}" width="3" height="3" '
                             f'fill="{"#fff" if j < left else "#333"}" stroke="#111" stroke-width=".5"/>')
    codes = (["EXH"] if exhausted else []) + list(piece.get("status", []))  # exhausted: a marker too, not only pale
    for j, code in enumerate(codes[:2]):  # status markers: a labelled tab under the counter
        parts.append(f'<rect class="status" data-status="{escape(code)}" x="{px + j * s / 2:.1f}" y="{py + s + 0.5:.1f}" '
                     f'width="{s / 2:.1f}" height="7" fill="{status_colour.get(code, EXHAUSTED if code == "EXH" else "#000")}"/>'
                     f'<text class="cs" x="{px + j * s / 2 + s / 4:.1f}" y="{py + s + 6.3:.1f}">{escape(code)}</text>')
    if count > 1:  # the stack's count, on its top counter
        parts.append(f'<rect class="count" x="{px + s - 8:.1f}" y="{py - 7:.1f}" width="14" height="11" rx="5.5" '
                     f'fill="#111"/><text class="cc" x="{px + s - 1:.1f}" y="{py + 1.5:.1f}">{count}</text>')
    return "".join(parts) + "</g>"


def stack_box(n: int) -> tuple[float, float]:
    """The width and height a stack of ``n`` counters covers, fanned up and to the right."""
    k = min(n, FAN_MAX) - 1
    return SIZE + FAN * k, SIZE + RISE * k


def stack_centre(x: float, y: float, n: int) -> tuple[float, float]:
    """Where a stack of ``n`` on a location at (x, y) is centred: its bottom counter just above the
    location's centre, the rest fanned up."""
    return x, y + LIFT - stack_box(n)[1] / 2


def stack(pieces: list[dict[str, Any]], x: float, y: float, palette: dict[str, str],
          status_colour: dict[str, str]) -> list[str]:
    """A stack on a location at (x, y): the first piece at the bottom, each next one up and to the right."""
    w, h = stack_box(len(pieces))
    left, bottom = x - w / 2, y + LIFT
    out = []
    for i, piece in enumerate(pieces):
        k = min(i, FAN_MAX - 1)
        px, py = left + k * FAN, bottom - SIZE - k * RISE
        out.append(counter(piece, px, py, palette.get(piece.get("side"), "#666"), status_colour,
                           len(pieces) if i == len(pieces) - 1 else 0))
    return out
