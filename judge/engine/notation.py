"""Order notation: the text players write -> order objects.

Accepts the spellings of the email judges and of people who never read them:
`A Par-Bur`, `Army Paris -> Burgundy`, `F North Sea convoys A London - Belgium`,
`A Mun supports French A Par - Bur`, `F StP/NC - Bar`, `Build F StP(nc)`, `Waive`.
Names may be misspelt when only one name is close (`Pariz`); an ambiguous or unknown
word is rejected with a reason a beginner understands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .geography import GameMap, squash
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    UnitRef,
    Waive,
)
from .phase import ADJUSTMENTS, RETREATS


class NotationError(ValueError):
    """An order that cannot be read; the message is one sentence for the player."""


@dataclass(frozen=True)
class Parsed:
    order: Order
    notes: tuple[str, ...] = ()  # e.g. "read 'Pariz' as Paris"


# Keywords. Single tokens after lower-casing; "-" is the move sign.
MOVE, HOLD, SUPPORT, CONVOY, VIA, RETREAT, DISBAND, BUILD, REMOVE, WAIVE, R = (
    "move",
    "hold",
    "support",
    "convoy",
    "via",
    "retreat",
    "disband",
    "build",
    "remove",
    "waive",
    "r",
)
_KEYWORDS = {
    "-": MOVE,
    "to": MOVE,
    "m": MOVE,
    "move": MOVE,
    "moves": MOVE,
    "mv": MOVE,
    "into": MOVE,
    "attack": MOVE,
    "attacks": MOVE,
    "go": MOVE,
    "goes": MOVE,
    "h": HOLD,
    "hold": HOLD,
    "holds": HOLD,
    "hld": HOLD,
    "stand": HOLD,
    "stands": HOLD,
    "stay": HOLD,
    "stays": HOLD,
    "s": SUPPORT,
    "sup": SUPPORT,
    "supp": SUPPORT,
    "support": SUPPORT,
    "supports": SUPPORT,
    "supporting": SUPPORT,
    "c": CONVOY,
    "convoy": CONVOY,
    "convoys": CONVOY,
    "convoying": CONVOY,
    "cvy": CONVOY,
    "via": VIA,
    "r": R,
    "retreat": RETREAT,
    "retreats": RETREAT,
    "d": DISBAND,
    "disband": DISBAND,
    "disbands": DISBAND,
    "disbanded": DISBAND,
    "destroy": DISBAND,
    "b": BUILD,
    "build": BUILD,
    "builds": BUILD,
    "remove": REMOVE,
    "removes": REMOVE,
    "waive": WAIVE,
    "waives": WAIVE,
    "waived": WAIVE,
    "waiving": WAIVE,
}
_UNIT_WORDS = {"a": "A", "army": "A", "f": "F", "fleet": "F"}
_FILLERS = {"the", "an", "in", "at", "from", "unit", "of", "s'", "'s"}
_COASTS = {"nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC"}
_COAST_WORDS = {"north": "NC", "south": "SC", "east": "EC", "west": "WC"}
_COAST_LETTERS = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}

_TOKEN = re.compile(r"[a-z0-9']+|-")
_ARROWS = re.compile(r"->|=>|-->|→|–|—|>")
_NUMBERING = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")
_DOTTED_COAST = re.compile(r"\b([nsew])\.\s*c\b\.?")

# Token kinds in the scanned stream.
_UNIT, _PLACE, _KEY = "unit", "place", "key"


@dataclass(frozen=True)
class _Tables:
    names: dict[str, str]  # squashed name -> province
    longest: int  # the most tokens a name may span
    first_words: frozenset[str]  # tokens that start some multi-token name
    hyphenated: tuple[tuple[str, str], ...]  # "mid-atlantic" -> "midatlantic"
    power_words: frozenset[str]
    multi_coast: frozenset[str]
    display: dict[str, str]  # province -> full name


@cache
def _tables(game_map: GameMap) -> _Tables:
    # The map's squashed names, plus the word lists needed to match multi-word names.
    hyphenated = set()
    first_words = set()
    longest = 1
    for text in game_map.spellings:
        words = _TOKEN.findall(text.lower().replace("-", ""))  # as _scan joins them
        longest = max(longest, len(words))
        if len(words) > 1:
            first_words.add(words[0])
        for h in re.findall(r"[a-z]+(?:-[a-z]+)+", text.lower()):
            hyphenated.add((h, h.replace("-", "")))
    power_words = set(game_map.power_names)
    power_words |= {w + "s" for w in game_map.power_names}
    return _Tables(
        names=dict(game_map.names),
        longest=longest,
        first_words=frozenset(first_words),
        hyphenated=tuple(sorted(hyphenated)),
        power_words=frozenset(power_words),
        multi_coast=frozenset(k for k, p in game_map.provinces.items() if p.coasts),
        display={k: p.name for k, p in game_map.provinces.items()},
    )


def parse_order(text: str, game_map: GameMap, phase_kind: str | None = None) -> Parsed:
    """Read one order. `phase_kind` (M/R/A) settles words like `-` (move or retreat)
    and `disband` (retreat-phase disband or removal); both read the same way here."""
    tables = _tables(game_map)
    notes: list[str] = []
    items = _scan(text, tables, notes)
    order = _grammar(items, text, tables)
    if phase_kind == RETREATS and isinstance(order, Move):
        order = Retreat(order.unit, order.dest)
    elif phase_kind not in (RETREATS, None) and isinstance(order, Retreat):
        order = Move(order.unit, order.dest)
    if phase_kind == ADJUSTMENTS and isinstance(order, Hold):
        raise NotationError(
            f"{text.strip()!r} is not an adjustment order: write Build, Remove or Waive."
        )
    return Parsed(order, tuple(notes))


# -- scanning ---------------------------------------------------------------------------


def _scan(text: str, t: _Tables, notes: list[str]) -> list[tuple]:
    """Text -> a stream of (kind, value[, coast]) items, power names and fillers dropped."""
    s = _NUMBERING.sub("", text.lower(), count=1)
    s = _ARROWS.sub(" - ", s)
    s = _DOTTED_COAST.sub(r" \1c ", s)
    for hyph, joined in t.hyphenated:
        if hyph in s:
            s = s.replace(hyph, joined)
    tokens = _TOKEN.findall(s)
    items: list[tuple] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        # Multi-word names first ("north sea", "st petersburg", "gulf of lyon").
        if tok in t.first_words:
            j = min(n, i + t.longest)
            while j > i + 1:
                prov = t.names.get("".join(tokens[i:j]))
                if prov:
                    break
                j -= 1
            if j > i + 1:
                i = _place(items, prov, tokens, j, t)
                continue
        if tok == "via" or (tok == "by" and i + 1 < n and tokens[i + 1] in ("convoy", "sea")):
            items.append((_KEY, VIA))
            i += 2 if i + 1 < n and tokens[i + 1] in ("convoy", "sea") else 1
            continue
        unit = _UNIT_WORDS.get(tok)
        if unit:
            items.append((_UNIT, unit))
            i += 1
            continue
        key = _KEYWORDS.get(tok)
        if key:
            items.append((_KEY, key))
            i += 1
            continue
        prov = t.names.get(tok)
        if prov:
            i = _place(items, prov, tokens, i + 1, t)
            continue
        if tok in t.power_words or tok in _FILLERS or tok.endswith("'s"):
            i += 1
            continue
        if tok in _COASTS or tok == "coast":
            i += 1  # a coast with nothing before it to belong to: ignore (DATC 4.B.6)
            continue
        prov_or_key = _fuzzy(tok, t)
        if prov_or_key in _KEYWORDS.values():
            items.append((_KEY, prov_or_key))
            notes.append(f"read {tok!r} as {prov_or_key}")
            i += 1
        else:
            notes.append(f"read {tok!r} as {t.display[prov_or_key]}")
            i = _place(items, prov_or_key, tokens, i + 1, t)
    return items


def _place(items: list[tuple], prov: str, tokens: list[str], i: int, t: _Tables) -> int:
    """Append a place, taking the coast written after it (`spa sc`, `stp north coast`)."""
    coast = None
    n = len(tokens)
    if i < n:
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < n else None
        if tok in _COASTS:
            coast, i = _COASTS[tok], i + 1
        elif tok in _COAST_WORDS and nxt == "coast":
            coast, i = _COAST_WORDS[tok], i + 2
        elif prov in t.multi_coast and (
            tok in _COAST_WORDS
            or (tok in _COAST_LETTERS and tok != "s")
            or (tok == "s" and (nxt is None or nxt == "-" or nxt in _KEYWORDS))
        ):
            coast, i = (_COAST_WORDS.get(tok) or _COAST_LETTERS[tok]), i + 1
        if i < n and tokens[i] == "coast":
            i += 1
    items.append((_PLACE, prov, coast))
    return i


_FUZZY_KEYWORDS = {
    "support": SUPPORT,
    "supports": SUPPORT,
    "convoy": CONVOY,
    "convoys": CONVOY,
    "disband": DISBAND,
    "retreat": RETREAT,
    "build": BUILD,
    "remove": REMOVE,
    "holds": HOLD,
    "hold": HOLD,
}


def _fuzzy(tok: str, t: _Tables) -> str:
    """The one province (or keyword) `tok` is a misspelling of, or NotationError."""
    if len(tok) < 3 or tok.isdigit():
        raise NotationError(f"I don't know the word or place {tok!r}.")
    limit = 1 if len(tok) <= 5 else 2
    best: dict[str, int] = {}
    for name, prov in t.names.items():
        if abs(len(name) - len(tok)) > limit:
            continue
        d = _distance(tok, name, limit)
        if d <= limit and d < best.get(prov, 99):
            best[prov] = d
    for word, key in _FUZZY_KEYWORDS.items():
        if abs(len(word) - len(tok)) <= limit:
            d = _distance(tok, word, limit)
            if d <= limit and d < best.get(key, 99):
                best[key] = d
    if not best:
        raise NotationError(f"I don't know the place {tok!r}.")
    low = min(best.values())
    closest = sorted(k for k, d in best.items() if d == low)
    if len(closest) > 1:
        names = [t.display.get(k, k) for k in closest]
        listed = ", ".join(names[:-1]) + " or " + names[-1]
        raise NotationError(f"{tok!r} could be {listed}: please write the name out.")
    return closest[0]


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance with transpositions (optimal string alignment), capped past limit."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


# -- grammar ------------------------------------------------------------------------------


def _grammar(items: list[tuple], text: str, t: _Tables) -> Order:
    shown = text.strip()
    if not items:
        raise NotationError(f"{shown!r} is not an order: expected something like 'A Par - Bur'.")
    pos = 0

    def peek_key() -> str | None:
        return items[pos][1] if pos < len(items) and items[pos][0] == _KEY else None

    def unit_ref(what: str) -> UnitRef:
        nonlocal pos
        kind = None
        while pos < len(items) and items[pos][0] == _UNIT:
            kind = items[pos][1]  # "a fleet": the last designation counts
            pos += 1
        if pos >= len(items) or items[pos][0] != _PLACE:
            raise NotationError(f"{shown!r}: expected {what}, like 'A Par'.")
        loc = _location(items[pos])
        pos += 1
        return UnitRef(kind, loc)

    def place(what: str) -> str:
        nonlocal pos
        if pos >= len(items) or items[pos][0] != _PLACE:
            raise NotationError(f"{shown!r}: expected {what} after the move sign.")
        loc = _location(items[pos])
        pos += 1
        return loc

    def finish(order: Order) -> Order:
        if pos < len(items):
            extra = items[pos]
            word = extra[1] if extra[0] != _PLACE else t.display[extra[1]]
            raise NotationError(f"{shown!r}: I don't understand {word!r} at the end of the order.")
        return order

    first = peek_key()
    if first == WAIVE:
        pos = len(items) if all(i[0] == _KEY for i in items) else 1
        return finish(Waive())
    if first == BUILD:
        pos += 1
        return finish(Build(unit_ref("the unit to build")))
    if first in (REMOVE, DISBAND, R):
        pos += 1
        return finish(Disband(unit_ref("the unit to remove")))

    unit = unit_ref("a unit and its place")
    key = peek_key()
    if key is None:
        if pos == len(items):
            return Hold(unit)
        dest = place("a destination")  # `A Par Bur`: a move without its sign
        return finish(_move_rest(unit, dest, items, pos, shown))
    pos += 1
    if key == HOLD:
        return finish(Hold(unit))
    if key in (MOVE, RETREAT, R):
        dest = place("where the unit goes")
        order = _move_rest(unit, dest, items, pos, shown)
        if key != MOVE and isinstance(order, Move) and not order.via_convoy:
            return Retreat(unit, order.dest)
        return order
    if key == VIA:
        raise NotationError(f"{shown!r}: write the destination before 'via convoy'.")
    if key == SUPPORT:
        supported = unit_ref("the unit supported")
        nxt = peek_key()
        if nxt is None or nxt == HOLD:
            pos += 1 if nxt == HOLD else 0
            return finish(Support(unit, supported, None))
        if nxt == MOVE:
            pos += 1
            return finish(Support(unit, supported, place("where the supported unit goes")))
        raise NotationError(f"{shown!r}: a support is 'A Mun S A Bur' or 'A Mun S A Par - Bur'.")
    if key == CONVOY:
        army = unit_ref("the army convoyed")
        if peek_key() != MOVE:
            raise NotationError(f"{shown!r}: a convoy names the army's move, 'F Nth C A Lon - Bel'.")
        pos += 1
        return finish(Convoy(unit, army, place("where the army goes")))
    if key in (DISBAND, REMOVE):
        return finish(Disband(unit))
    if key == BUILD:
        return finish(Build(unit))
    raise NotationError(f"{shown!r}: I don't understand {key!r} here.")


def _move_rest(unit: UnitRef, dest: str, items: list[tuple], pos: int, shown: str) -> Order:
    """After `A Lon - Bel`: further `- X` steps (a convoy path, DATC 4.A.6) and `via`."""
    via = False
    n = len(items)
    while pos < n:
        kind, value = items[pos][0], items[pos][1]
        if kind == _KEY and value == VIA:
            via = True
            pos += 1
        elif kind == _KEY and value == CONVOY:  # "A Lon - Bel convoy"
            via = True
            pos += 1
        elif kind == _KEY and value == MOVE and pos + 1 < n and items[pos + 1][0] == _PLACE:
            dest = _location(items[pos + 1])  # a path: only the last place counts
            via = True
            pos += 2
        else:
            raise NotationError(f"{shown!r}: I don't understand the end of this move.")
    return Move(unit, dest, via)


def _location(item: tuple) -> str:
    _, prov, coast = item
    return f"{prov}/{coast}" if coast else prov
