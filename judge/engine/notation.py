"""Order notation: the text players write -> order objects.

Accepts the spellings of the email judges and of people who never read them:
`A Par-Bur`, `Army Paris -> Burgundy`, `F North Sea convoys A London - Belgium`,
`A Mun supports French A Par - Bur`, `F StP/NC - Bar`, `Build F StP(nc)`, `Waive`.
Names may be misspelt when only one name is close (`Pariz`); an ambiguous or unknown
word is rejected with a reason a beginner understands (a Problem: its words are
templates/problems/<code>.txt).

The work is bounded whatever the text: an order longer than MAX_ORDER_CHARS is refused
unread, and one order may cost at most MAX_GUESSES look-ups of a misspelt word, each a
few dozen dictionary probes or set comparisons (_FuzzyIndex), not a measurement of every
name on the map.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from .geography import GameMap
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
from .problems import Problem, ProblemError, Reason, Value

# Limits on one order's text (the longest real order, `F North Atlantic Ocean convoys
# Army Liverpool to Norwegian Sea via convoy`, is under 100 characters; a real order has
# a handful of names, each misspelt at most once).
MAX_ORDER_CHARS = 200
MAX_GUESSES = 8  # look-ups of a misspelt word or phrase in one order


class NotationError(ProblemError):
    """An order that cannot be read; `problem` says why."""


def _of(text: str, **values: str) -> dict[str, str]:
    """The values of a Problem with the order `text`: the words quote it, stripped."""
    return {"text": text.strip(), **values}


class Parsed(NamedTuple):
    order: Order
    notes: tuple[Reason, ...] = ()  # e.g. Problem("read_as_place"): 'pariz' read as Paris


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
# After these a first word that names both a power and a place is the power's name
# (`Egypt: A Egypt - Libya`): no order starts with a place and then a unit or a build.
_AFTER_POWER = frozenset(
    [*_UNIT_WORDS, *(w for w, k in _KEYWORDS.items() if k in (BUILD, REMOVE, WAIVE))]
)
_COASTS = {"nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC"}
_COAST_WORDS = {"north": "NC", "south": "SC", "east": "EC", "west": "WC"}
_COAST_LETTERS = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}

_TOKEN = re.compile(r"[a-z0-9']+|-")
# The general reader's patterns and the fast path's (_FAST), compiled at first use
# (_compiled): orders written as Contract 1's tools write them never need them, and
# compiling them was some 0.3% of a `judge adjudicate` run.
_ARROWS = r"->|=>|-->|→|–|—|>"
_NUMBERING = r"^\s*(?:\d+[.)]|[-*•])\s+"
_DOTTED_COAST = r"\b([nsew])\.\s*c\b\.?"


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled, once."""
    return re.compile(pattern)


# Token kinds in the scanned stream.
_UNIT, _PLACE, _KEY = "unit", "place", "key"
# One item of the stream: (_PLACE, province, coast or None), (_KEY, keyword, None) or
# (_UNIT, "A" or "F", None). Plain tuples: the slow path makes a few per order.
_Item = tuple[str, str, str | None]


_GOING = frozenset([MOVE, RETREAT, R])
_SKIP: _Item = ("skip", "", None)  # a word meaning nothing in an order (power names, fillers)
_COASTISH = frozenset(
    ["coast", "nc", "sc", "ec", "wc", "north", "south", "east", "west", "n", "s", "e", "w"]
)


# Hashed by identity: one per map, _fuzzy_of's key; never shown (less code made at start).
@dataclass(frozen=True, eq=False, repr=False)
class _Tables:
    words: dict[str, _Item]  # one-token word -> its item, or _SKIP
    plain_places: dict[str, str]  # one-token names the fast path may take -> province
    names: dict[str, str]  # squashed name -> province
    longest: int  # the most tokens a name may span
    first_words: frozenset[str]  # tokens that start some multi-token name
    name_words: frozenset[str]  # every token of some multi-token name
    hyphenated: tuple[tuple[str, str], ...]  # "mid-atlantic" -> "midatlantic"
    power_words: frozenset[str]
    multi_coast: frozenset[str]
    coasts: dict[str, str]  # a coast's abbreviation -> its key: nc sc ec wc, and the map's own
    coastish: frozenset[str]  # words that may follow a place as (part of) its coast
    display: dict[str, str]  # province -> full name

    @property
    def fuzzy(self) -> _FuzzyIndex:
        """What a misspelt word may stand for: built at the first one, as many processes
        (a batch of `judge adjudicate`) meet none and it costs some 7 ms per map."""
        return _fuzzy_of(self)


@cache
def _fuzzy_of(t: _Tables) -> _FuzzyIndex:
    return _fuzzy_index(t.names)


@cache
def _tables(game_map: GameMap) -> _Tables:
    # The map's squashed names, plus the word lists needed to match multi-word names.
    hyphenated = set()
    first_words = set()
    name_words: set[str] = set()
    longest = 1
    for text in game_map.spellings:
        tokens = _TOKEN.findall(text.lower().replace("-", ""))  # as _scan joins them
        longest = max(longest, len(tokens))
        if len(tokens) > 1:
            first_words.add(tokens[0])
            name_words.update(tokens)
        for h in re.findall(r"[a-z]+(?:-[a-z]+)+", text.lower()):
            hyphenated.add((h, h.replace("-", "")))
    power_words = set(game_map.power_names)
    power_words |= {w + "s" for w in game_map.power_names}
    words: dict[str, _Item] = {}
    for w in power_words | _FILLERS:
        words[w] = _SKIP
    for name, prov in game_map.names.items():
        words[name] = (_PLACE, prov, None)
    for w, key in _KEYWORDS.items():
        words[w] = (_KEY, key, None)
    for w, kind in _UNIT_WORDS.items():
        words[w] = (_UNIT, kind, None)
    coasts = _map_coasts(game_map, words)
    plain_places = {
        name: prov
        for name, prov in game_map.names.items()
        if name not in first_words and words.get(name) == (_PLACE, prov, None)
    }
    return _Tables(
        words=words,
        plain_places=plain_places,
        names=dict(game_map.names),
        longest=longest,
        first_words=frozenset(first_words),
        name_words=frozenset(name_words),
        hyphenated=tuple(sorted(hyphenated)),
        power_words=frozenset(power_words),
        multi_coast=frozenset(k for k, p in game_map.provinces.items() if p.coasts),
        coasts=coasts,
        coastish=_COASTISH | frozenset(coasts),
        display={k: p.name for k, p in game_map.provinces.items()},
    )


def _map_coasts(game_map: GameMap, words: dict[str, _Item]) -> dict[str, str]:
    """The coast abbreviations a player may write: the usual four, and any other coast
    key the map gives (`TRD/SW`) that is not already a word of the map's orders."""
    coasts = dict(_COASTS)
    for province in game_map.provinces.values():
        for c in province.coasts:
            if c.lower() not in coasts and c.lower() not in words:
                coasts[c.lower()] = c
    return coasts


def parse_order(
    text: str, game_map: GameMap, phase_kind: str | None = None, paths: bool = False
) -> Parsed:
    """Read one order. `phase_kind` (M/R/A) settles words like `-` (move or retreat)
    and `disband` (retreat-phase disband or removal); both read the same way here.
    `paths`: keep a convoy path written in a move (`A Yor - Nth - Bel`), for games whose
    rules read paths (DATC 4.A.6 b, c); otherwise the path is ignored (4.A.6 a) and the
    move reads `A YOR - BEL VIA`."""
    if len(text) <= _CACHED_ORDER_CHARS:
        return _parse_order_cached(text, game_map, phase_kind, paths)
    return _parse_order(text, game_map, phase_kind, paths)


# Orders repeat (every game opens with the same few; `judge adjudicate` reads thousands
# of phases): each text is read once per map, phase kind and path rule. A Parsed is
# immutable, so shared; a map is hashed by identity. Refusals (NotationError) are not
# kept: they are read again. Only short texts are kept, so the cache stays small.
# CACHED_ORDER_CHARS and parse_kept_order are parse_order's, for a caller reading a
# phase's orders in one loop (adjudication.read_orders): a text no longer than it may be
# read by parse_kept_order, with the same arguments and answer as parse_order's.
_CACHED_ORDER_CHARS = CACHED_ORDER_CHARS = 48


@lru_cache(maxsize=16384)
def _parse_order_cached(
    text: str, game_map: GameMap, phase_kind: str | None, paths: bool
) -> Parsed:
    return _parse_order(text, game_map, phase_kind, paths)


parse_kept_order = _parse_order_cached


def _parse_order(text: str, game_map: GameMap, phase_kind: str | None, paths: bool) -> Parsed:
    if len(text) > MAX_ORDER_CHARS and len(text.strip()) > MAX_ORDER_CHARS:
        values = {"length": str(len(text.strip())), "limit": str(MAX_ORDER_CHARS)}
        raise NotationError(Problem("line_too_long", values))
    tables = _tables(game_map)
    notes: list[Reason] = []
    order = _fast(text, tables)
    if order is None:
        items = _scan(text, tables, notes)
        order = _grammar(items, text, tables)
        if not paths and type(order) is Move and order.path:
            order = order._replace(path=())
    if phase_kind == RETREATS and isinstance(order, Move):
        order = Retreat(order.unit, order.dest)
    elif phase_kind not in (RETREATS, None) and isinstance(order, Retreat):
        order = Move(order.unit, order.dest)
    if phase_kind == ADJUSTMENTS and isinstance(order, Hold):
        raise NotationError(Problem("hold_in_adjustments", _of(text)))
    return Parsed(order, tuple(notes))


# -- the fast path ----------------------------------------------------------------------

_PLACE_RE = r"([a-z]+)(?:\s*[(/]\s*([nesw]c)\s*\)?)?"
_FAST = (
    r"\s*(?:([af])\s+)?" + _PLACE_RE + r"(?:"
    r"\s*(?:-|->|\s+to\s+)\s*" + _PLACE_RE + r"|"
    r"\s+(s|c|supports|convoys)\s+(?:([af])\s+)?"
    + _PLACE_RE
    + r"(?:\s*(?:-|->)\s*"
    + _PLACE_RE
    + r")?|"
    r"\s+(h|holds?)"
    r")?\s*"
)


# tuple.__new__ makes a NamedTuple without its Python-level __new__: half the cost, on
# the path every order takes. Every field is passed, defaults included.
_new = tuple.__new__


def _fast(text: str, t: _Tables) -> Order | None:
    """The most common shapes (`A Par-Bur`, `F Nth S A Lon - Bel`, `F Nth C A Lon-Bel`,
    `A Mun H`) read by one regular expression. Only plain one-word names are taken, so
    the result is exactly what the general reader gives; anything else returns None."""
    order = _spaced(text.split(), t.plain_places)
    if order is not None:
        return order
    m = _compiled(_FAST).fullmatch(text.lower())
    if m is None:
        return None
    kind, place, coast, dest, dcoast, op, kind2, place2, coast2, dest2, dcoast2, hold = m.groups()
    plain = t.plain_places
    prov = plain.get(place)
    if prov is None:
        return None
    unit = _new(
        UnitRef, (kind.upper() if kind else None, f"{prov}/{coast.upper()}" if coast else prov)
    )
    if dest is not None:
        d = plain.get(dest)
        return (
            None
            if d is None
            else _new(Move, (unit, f"{d}/{dcoast.upper()}" if dcoast else d, False, ()))
        )
    if op is None:
        return _new(Hold, (unit,)) if (kind or hold) else None  # a bare place: general reader
    p2 = plain.get(place2)
    if p2 is None:
        return None
    other = _new(
        UnitRef, (kind2.upper() if kind2 else None, f"{p2}/{coast2.upper()}" if coast2 else p2)
    )
    to = None
    if dest2 is not None:
        d2 = plain.get(dest2)
        if d2 is None:
            return None
        to = f"{d2}/{dcoast2.upper()}" if dcoast2 else d2
    if op[0] == "s":
        return _new(Support, (unit, other, to))
    return None if to is None else _new(Convoy, (unit, other, to))


def _spaced(words: list[str], plain: dict[str, str]) -> Order | None:
    """The shapes Contract 1's tools write, word by word (`A PAR - BUR`, `A PAR H`,
    `F NTH S A LON - BEL`, `F NTH C A LON - BEL`, `A LON - BEL VIA`, `A PAR R BUR`,
    `F STP/NC B`, `A PAR D`, `WAIVE`; a coast as `/NC`), read as the regular expression and the
    general reader read them but at a fraction of their cost; None for anything else,
    which _fast reads."""
    n = len(words)
    if n < 2 or words[0] not in _KINDS or (prov := _spaced_place(words[1], plain)) is None:
        return _new(Waive, ()) if words == ["WAIVE"] else None
    unit = _new(UnitRef, (words[0], prov))
    if n == 2 or n == 3:
        shape = _ALONE.get(words[2]) if n == 3 else Hold
        return None if shape is None else _new(shape, (unit,))
    if (n == 4 or (n == 5 and words[4] == "VIA")) and words[2] in ("-", "R"):
        dest = _spaced_place(words[3], plain)
        if dest is None:
            return None
        if words[2] == "R":
            return _new(Retreat, (unit, dest)) if n == 4 else None
        return _new(Move, (unit, dest, n == 5, ()))
    op = words[2]
    if op not in ("S", "C"):
        return None
    rest = words[3:]
    kind = rest.pop(0) if rest[0] in _KINDS else None
    if len(rest) == 1 and op == "S":  # a support to hold
        other = _spaced_place(rest[0], plain)
        return None if other is None else _new(Support, (unit, _new(UnitRef, (kind, other)), None))
    if len(rest) != 3 or rest[1] != "-":
        return None
    other, dest = _spaced_place(rest[0], plain), _spaced_place(rest[2], plain)
    if other is None or dest is None:
        return None
    named = _new(UnitRef, (kind, other))
    return _new(Support, (unit, named, dest)) if op == "S" else _new(Convoy, (unit, named, dest))


def _spaced_place(word: str, plain: dict[str, str]) -> str | None:
    """A place as _spaced reads it: a plain one-word name, with a coast written `/NC`
    (`/nc`), as the regular expression reads it; None for anything else."""
    prov = plain.get(word.lower())
    if prov is not None or "/" not in word:
        return prov
    name, _, coast = word.partition("/")
    prov = plain.get(name.lower())
    coast = coast.upper()
    return None if prov is None or coast not in _SPACED_COASTS else f"{prov}/{coast}"


_SPACED_COASTS = frozenset({"NC", "SC", "EC", "WC"})  # the regular expression's [nesw]c
# `A PAR H`, `F STP/NC B`, `A PAR D`
_ALONE: dict[str, type[Hold] | type[Build] | type[Disband]] = {
    "H": Hold,
    "B": Build,
    "D": Disband,
}


_KINDS = ("A", "F")


# -- scanning ---------------------------------------------------------------------------


def _scan(text: str, t: _Tables, notes: list[Reason]) -> list[_Item]:
    """Text -> a stream of (kind, value, coast) items, power names and fillers dropped."""
    tokens = _TOKEN.findall(_normalise(text, t))
    items: list[_Item] = []
    words = t.words
    guesses = 0
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if not items and tok in t.power_words and i + 1 < n and tokens[i + 1] in _AFTER_POWER:
            i += 1  # the power the order is for, though a place has its name too
            continue
        # Multi-word names first ("north sea", "st petersburg", "gulf of lyon").
        if tok in t.first_words:
            found = _multi_word_name(tokens, i, t)
            if found is not None:
                i = _place(items, found[0], tokens, found[1], t)
                continue
        item = words.get(tok)
        if item is not None:
            i = _known_word(items, item, tokens, i + 1, t)
            continue
        if tok == "by" and i + 1 < n and tokens[i + 1] in ("convoy", "sea"):
            items.append((_KEY, VIA, None))
            i += 2
            continue
        if tok.endswith("'s"):
            i += 1
            continue
        if tok in t.coasts or tok == "coast":
            i += 1  # a coast with nothing before it to belong to: ignore (DATC 4.B.6)
            continue
        i, guesses = _misspelling(items, notes, tokens, i, t, text, guesses)
    return items


def _normalise(text: str, t: _Tables) -> str:
    """The text in lower case, numbering dropped, arrows as move signs, dotted coasts
    (`n.c.`) and hyphenated names (`mid-atlantic`) written as the tables have them."""
    s = text.lower()
    # The substitutions are rarely needed: test cheaply before running each.
    if s[:1].isdigit() or s.lstrip()[:1] in ("-", "*", "•"):
        s = _compiled(_NUMBERING).sub("", s, count=1)
    if ">" in s or "–" in s or "—" in s or "→" in s:
        s = _compiled(_ARROWS).sub(" - ", s)
    if "." in s:
        s = _compiled(_DOTTED_COAST).sub(r" \1c ", s)
    for hyph, joined in t.hyphenated:
        if hyph in s:
            s = s.replace(hyph, joined)
    return s


def _multi_word_name(tokens: list[str], i: int, t: _Tables) -> tuple[str, int] | None:
    """(province, end) for the longest name of two or more words at tokens[i:end]."""
    j = min(len(tokens), i + t.longest)
    while j > i + 1:
        prov = t.names.get("".join(tokens[i:j]))
        if prov:
            return prov, j
        j -= 1
    return None


def _known_word(items: list[_Item], item: _Item, tokens: list[str], i: int, t: _Tables) -> int:
    """Append the item of a word the tables know (tokens[i - 1]); the next token's index."""
    if item is _SKIP:
        return i
    n = len(tokens)
    if item[0] == _PLACE:
        if i < n and tokens[i] in t.coastish:
            return _place(items, item[1], tokens, i, t)
        items.append(item)
        return i
    if item[1] == VIA and i < n and tokens[i] in ("convoy", "sea"):
        i += 1  # "via convoy"
    if item[1] == MOVE and items and items[-1][0] == _KEY and items[-1][1] in _GOING:
        return i  # "moves to", "retreats to", "--": one move sign
    items.append(item)
    return i


def _misspelling(
    items: list[_Item],
    notes: list[Reason],
    tokens: list[str],
    i: int,
    t: _Tables,
    text: str,
    guesses: int,
) -> tuple[int, int]:
    """Read the unknown word at tokens[i] as the one name or keyword it is a misspelling
    of, noting how it was read: (the next token's index, guesses made so far in the
    order). The longest phrase is tried first: of a multi-word name ("tyrrenian sea")
    or of one word; it runs only over words unknown or of multi-word names."""
    n = len(tokens)
    end = i + 1
    while end < min(n, i + t.longest) and (
        tokens[end] in t.name_words or (tokens[end] not in t.words and tokens[end] != "-")
    ):
        end += 1
    for j in range(end, i + 1, -1):  # a phrase of several words: tried, longest first
        guesses = _guess(guesses, text)
        try:
            found = _fuzzy("".join(tokens[i:j]), t)
        except NotationError:
            continue
        return _read_as(items, notes, tokens, i, j, found, t), guesses
    guesses = _guess(guesses, text)
    found = _fuzzy(tokens[i], t)  # one word: read, or the reason it cannot be
    return _read_as(items, notes, tokens, i, i + 1, found, t), guesses


def _guess(guesses: int, text: str) -> int:
    """One more guess at a misspelling, or NotationError when there were too many."""
    guesses += 1
    if guesses > MAX_GUESSES:
        raise NotationError(Problem("too_many_guesses", _of(text, limit=str(MAX_GUESSES))))
    return guesses


def _read_as(
    items: list[_Item],
    notes: list[Reason],
    tokens: list[str],
    i: int,
    j: int,
    found: str,
    t: _Tables,
) -> int:
    """Append what tokens[i:j] were read as (a keyword or a place), noting it; the next
    token's index."""
    shown = " ".join(tokens[i:j])
    if found in _KEYWORDS.values():
        items.append((_KEY, found, None))
        notes.append(Problem("read_as_keyword", {"shown": shown, "keyword": found}))
        return j
    notes.append(Problem("read_as_place", {"shown": shown, "place": t.display[found]}))
    return _place(items, found, tokens, j, t)


def _place(items: list[_Item], prov: str, tokens: list[str], i: int, t: _Tables) -> int:
    """Append a place, taking the coast written after it (`spa sc`, `stp north coast`)."""
    coast = None
    n = len(tokens)
    if i < n:
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < n else None
        if tok in t.coasts:
            coast, i = t.coasts[tok], i + 1
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
        raise NotationError(Problem("unknown_word", {"word": tok}))
    closest = _closest(tok, t.fuzzy)
    if not closest:
        raise NotationError(Problem("unknown_word", {"word": tok}))
    if len(closest) > 1:
        # A province by its name; a keyword as itself, named among `words`.
        names = tuple(t.display.get(k, k) for k in closest)
        words = tuple(k for k in closest if k not in t.display)
        values: dict[str, Value] = {"word": tok, "names": names, "words": words}
        raise NotationError(Problem("ambiguous_word", values))
    return closest[0]


# Hashed by identity: one per map, the cache's key; never shown (less code made at start).
@dataclass(frozen=True, eq=False, repr=False)
class _FuzzyIndex:
    """The words a misspelling may stand for, found without measuring every word.

    Short tokens (up to SHORT letters) by symmetric deletion: two words within edit
    distance k (a transposition counting one) share a string made by deleting at most k
    letters from each, so a look-up probes a dictionary with the token's own deletions
    (at most 56). Longer tokens by counting bigrams among the words of about the same
    length: each edit changes at most three of a word's bigrams, so a word that lacks
    more than 3k of the token's bigrams is farther than k. Only the words that pass are
    measured (_distance); the answer is the same as measuring every word."""

    targets: dict[str, tuple[str, ...]]  # word -> the provinces or keywords it names
    deletions: dict[str, tuple[str, ...]]  # a short word less up to 2 letters -> words
    by_length: dict[int, tuple[tuple[str, frozenset[tuple[str, int]]], ...]]
    longest: int  # the longest word: a token longer by more than 2 matches nothing


SHORT = 10  # tokens up to this long are looked up by deletions, longer ones by bigrams


def _fuzzy_index(names: Mapping[str, str]) -> _FuzzyIndex:
    targets: dict[str, list[str]] = {}
    for word, target in [*names.items(), *_FUZZY_KEYWORDS.items()]:
        targets.setdefault(word, []).append(target)
    deletions: dict[str, set[str]] = {}
    by_length: dict[int, list[tuple[str, frozenset[tuple[str, int]]]]] = {}
    for word in targets:
        if len(word) <= SHORT + 2:  # the words a short token may be near
            for variant in _deletions(word, 2):
                deletions.setdefault(variant, set()).add(word)
        by_length.setdefault(len(word), []).append((word, _bigrams(word)))
    return _FuzzyIndex(
        targets={w: tuple(ts) for w, ts in targets.items()},
        deletions={v: tuple(sorted(ws)) for v, ws in deletions.items()},
        by_length={n: tuple(ws) for n, ws in by_length.items()},
        longest=max(map(len, targets)),
    )


def _deletions(word: str, k: int) -> set[str]:
    """`word` and every string made by deleting up to k of its letters."""
    out = {word}
    frontier = {word}
    for _ in range(k):
        frontier = {w[:i] + w[i + 1 :] for w in frontier for i in range(len(w))}
        out |= frontier
    return out


def _bigrams(word: str) -> frozenset[tuple[str, int]]:
    """The word's bigrams as a set, a repeated one numbered (so set difference counts
    them as a multiset would)."""
    seen: dict[str, int] = {}
    out = []
    for i in range(len(word) - 1):
        gram = word[i : i + 2]
        n = seen[gram] = seen.get(gram, -1) + 1
        out.append((gram, n))
    return frozenset(out)


@lru_cache(maxsize=4096)  # a mail's lines are read twice or more (routing, checking)
def _closest(tok: str, index: _FuzzyIndex) -> tuple[str, ...]:
    """The provinces or keywords nearest to `tok` within its allowed distance (1 for up
    to 5 letters, else 2), sorted: none, one, or several when it is ambiguous."""
    limit = 1 if len(tok) <= 5 else 2
    if len(tok) > index.longest + limit:
        return ()  # no word is near enough
    words: set[str] = set()
    if len(tok) <= SHORT:
        found = map(index.deletions.get, _deletions(tok, limit))
        words = words.union(*(ws for ws in found if ws))
    else:
        grams = _bigrams(tok)
        for n in range(len(tok) - limit, len(tok) + limit + 1):
            for word, word_grams in index.by_length.get(n, ()):
                if len(grams - word_grams) <= 3 * limit:
                    words.add(word)
    best: dict[str, int] = {}
    for word in words:
        if abs(len(word) - len(tok)) > limit:
            continue
        d = _distance(tok, word, limit)
        if d > limit:
            continue
        for target in index.targets[word]:
            if d < best.get(target, 99):
                best[target] = d
    if not best:
        return ()
    low = min(best.values())
    return tuple(sorted(k for k, d in best.items() if d == low))


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance with transpositions (optimal string alignment) when it is at most
    `limit`, else limit + 1. A common prefix and suffix cost nothing and are dropped;
    of the rest only the band |i - j| <= limit is computed: a cell outside it is farther
    than limit anyway."""
    big = limit + 1
    if abs(len(a) - len(b)) > limit:
        return big
    start = 0
    end_a, end_b = len(a), len(b)
    while start < end_a and start < end_b and a[start] == b[start]:
        start += 1
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    a, b = a[start:end_a], b[start:end_b]
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return min(max(n, m), big)
    prev2: list[int] = []
    prev = [j if j <= limit else big for j in range(m + 1)]
    for i in range(1, n + 1):
        ca = a[i - 1]
        lo = i - limit if i > limit else 1
        hi = i + limit if i + limit < m else m
        cur = [big] * (m + 1)
        if i <= limit:
            cur[0] = i
        low = cur[lo - 1]
        for j in range(lo, hi + 1):
            cb = b[j - 1]
            v = prev[j - 1] + (ca != cb)
            if prev[j] < v:
                v = prev[j] + 1
            if cur[j - 1] < v:
                v = cur[j - 1] + 1
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and prev2[j - 2] < v:
                v = prev2[j - 2] + 1
            if v > big:
                v = big
            cur[j] = v
            if v < low:
                low = v
        if low >= big:
            return big
        prev2, prev = prev, cur
    return prev[m]


# -- grammar ------------------------------------------------------------------------------


def _grammar(items: list[_Item], text: str, t: _Tables) -> Order:
    """The order the scanned items make, or NotationError saying what is wrong."""
    if not items:
        raise NotationError(Problem("not_an_order", _of(text)))
    first = items[0][1] if items[0][0] == _KEY else None
    if first in (WAIVE, BUILD, REMOVE, DISBAND, R):
        order = _adjustment(first, items, text, t)
        if order is not None:
            return order
    unit, pos = _unit_ref(items, 0, text, "unit")
    if pos == len(items):
        if unit.kind is None:  # a bare place ("Hello" read as Helgoland) is no order
            raise NotationError(Problem("not_an_order", _of(text)))
        return Hold(unit)
    kind, key = items[pos][0], items[pos][1]
    if kind == _PLACE:  # `A Par Bur`: a move without its sign
        return _move_rest(unit, _location(items[pos]), items, pos + 1, text)
    if kind != _KEY:
        _trailing(items, pos, text, t)
    return _after_keyword(unit, key, items, pos + 1, text, t)


def _adjustment(first: str | None, items: list[_Item], text: str, t: _Tables) -> Order | None:
    """An order that starts with its keyword (`Waive`, `Build A Par`, `Remove F Bre`)."""
    if first == WAIVE:
        if all(i[0] == _KEY for i in items):  # "waive build"
            return Waive()
        _trailing(items, 1, text, t)
    if first == BUILD:
        unit, pos = _unit_ref(items, 1, text, "built")
        _trailing(items, pos, text, t)
        return Build(unit)
    if first in (REMOVE, DISBAND, R):
        unit, pos = _unit_ref(items, 1, text, "removed")
        _trailing(items, pos, text, t)
        return Disband(unit)
    return None


def _after_keyword(
    unit: UnitRef, key: str, items: list[_Item], pos: int, text: str, t: _Tables
) -> Order:
    """The order of `unit` whose keyword `key` comes just before items[pos]."""
    if key in (MOVE, RETREAT, R):
        dest = _place_at(items, pos, text, "move")
        order = _move_rest(unit, dest, items, pos + 1, text)
        if key != MOVE and isinstance(order, Move) and not order.via_convoy:
            return Retreat(unit, order.dest)
        return order
    if key == HOLD:
        _trailing(items, pos, text, t)
        return Hold(unit)
    if key == SUPPORT:
        return _support_rest(unit, items, pos, text, t)
    if key == CONVOY:
        army, pos = _unit_ref(items, pos, text, "convoyed")
        if pos >= len(items) or items[pos][:2] != (_KEY, MOVE):
            raise NotationError(Problem("convoy_without_move", _of(text)))
        dest = _place_at(items, pos + 1, text, "convoy")
        _trailing(items, pos + 2, text, t)
        return Convoy(unit, army, dest)
    if key in (DISBAND, REMOVE):
        _trailing(items, pos, text, t)
        return Disband(unit)
    if key == BUILD:
        _trailing(items, pos, text, t)
        return Build(unit)
    if key == VIA:
        raise NotationError(Problem("via_before_destination", _of(text)))
    raise NotationError(Problem("keyword_out_of_place", _of(text, keyword=key)))


def _support_rest(unit: UnitRef, items: list[_Item], pos: int, text: str, t: _Tables) -> Order:
    """After `A Mun S`: the unit supported, and its move if it is one."""
    supported, pos = _unit_ref(items, pos, text, "supported")
    n = len(items)
    nxt = items[pos][1] if pos < n and items[pos][0] == _KEY else None
    if pos == n or nxt == HOLD:
        _trailing(items, pos + (nxt == HOLD), text, t)
        return Support(unit, supported, None)
    if nxt == MOVE:
        dest = _place_at(items, pos + 1, text, "support")
        _trailing(items, pos + 2, text, t)
        return Support(unit, supported, dest)
    raise NotationError(Problem("support_form", _of(text)))


def _unit_ref(items: list[_Item], pos: int, text: str, what: str) -> tuple[UnitRef, int]:
    """A unit as written at items[pos]: optional type(s), then a place. `what`: which
    unit of the order it is (templates/problems/unit_expected.txt names each)."""
    kind = None
    n = len(items)
    while pos < n and items[pos][0] == _UNIT:
        kind = items[pos][1]  # "a fleet": the last designation counts
        pos += 1
    if pos >= n or items[pos][0] != _PLACE:
        raise NotationError(Problem("unit_expected", _of(text, what=what)))
    return UnitRef(kind, _location(items[pos])), pos + 1


def _place_at(items: list[_Item], pos: int, text: str, what: str) -> str:
    """The place at items[pos], where the `what` order's move goes (templates/problems/
    place_expected.txt names each)."""
    if pos >= len(items) or items[pos][0] != _PLACE:
        raise NotationError(Problem("place_expected", _of(text, what=what)))
    return _location(items[pos])


def _trailing(items: list[_Item], pos: int, text: str, t: _Tables) -> None:
    """Refuse words left over after a complete order."""
    if pos < len(items):
        extra = items[pos]
        word = t.display[extra[1]] if extra[0] == _PLACE else extra[1]
        raise NotationError(Problem("trailing_word", _of(text, word=word)))


def _move_rest(unit: UnitRef, dest: str, items: list[_Item], pos: int, text: str) -> Order:
    """After `A Lon - Bel`: further `- X` steps and `via Nth`, a convoy path (DATC 4.A.6),
    and `via convoy`. The path's seas are kept in order; parse_order drops them unless
    the game reads paths."""
    via = False
    path: list[str] = []
    n = len(items)
    while pos < n:
        kind, value = items[pos][0], items[pos][1]
        if kind == _KEY and value in (VIA, CONVOY):  # "via convoy", "A Lon - Bel convoy"
            via = True
            pos += 1
            while pos < n and items[pos][0] == _PLACE:
                path.append(items[pos][1])  # "A Lon - Bel via Nth"
                pos += 1
        elif kind == _KEY and value == MOVE and pos + 1 < n and items[pos + 1][0] == _PLACE:
            path.append(dest.partition("/")[0])  # "A Yor - Nth - Bel": Nth is a step
            dest = _location(items[pos + 1])
            via = True
            pos += 2
        else:
            raise NotationError(Problem("move_end", _of(text)))
    return Move(unit, dest, via, tuple(path))


def _location(item: _Item) -> str:
    _, prov, coast = item
    return f"{prov}/{coast}" if coast else prov
