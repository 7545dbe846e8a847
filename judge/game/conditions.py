"""Conditional orders after PHASE (njudge.md section 4): `IF [NOT] [power] [unit]
province`, AND/OR taken left to right, brackets, ELSE IF, ELSE, ENDIF. Pure functions:
held lines are read into a program, and a program gives its orders on a position."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from judge.engine.board import ARMY, FLEET, Position
from judge.engine.geography import GameMap, squash
from judge.game.errors import CommandError

MAX_DEPTH = 4  # IFs inside IFs, and brackets inside brackets (README's limits)
MAX_TERMS = 12  # places named by one condition
_UNIT_WORDS = {"A": ARMY, "ARMY": ARMY, "F": FLEET, "FLEET": FLEET}
_TOKENS = re.compile(r"[()]|[^\s()]+")


@dataclass(frozen=True)
class Place:
    """True when a unit (of `power`, of `kind`, where given) stands in `province`."""

    province: str
    power: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class Not:
    inner: Condition


@dataclass(frozen=True)
class Both:
    """`left AND right` (`any_of` False) or `left OR right`."""

    left: Condition
    right: Condition
    any_of: bool


Condition = Place | Not | Both


@dataclass(frozen=True)
class Branching:
    """An IF with its ELSE IFs and ELSE: (condition, lines) in order; None for ELSE."""

    branches: tuple[tuple[Condition | None, tuple[Item, ...]], ...]


Item = str | Branching  # an order line, or a conditional


def condition(text: str, gm: GameMap) -> Condition:
    """The condition of an IF line (THEN at its end left out); CommandError if it is not
    one. The end of the line closes open brackets."""
    tokens = _TOKENS.findall(text)
    if tokens and tokens[-1].upper() == "THEN":
        tokens = tokens[:-1]
    if len(tokens) > 4 * MAX_TERMS:
        raise CommandError("condition_too_long", limit=MAX_TERMS)
    reader = _Reader(tokens, gm)
    found = reader.expression(0)
    if reader.at < len(tokens):  # a ")" with none open
        raise CommandError("condition_bad", word=tokens[reader.at][:40])
    return found


class _Reader:
    """Reads tokens left to right; AND and OR have no precedence (njudge's rule)."""

    def __init__(self, tokens: list[str], gm: GameMap) -> None:
        self.tokens, self.gm, self.at, self.terms = tokens, gm, 0, 0

    def expression(self, depth: int) -> Condition:
        found = self.term(depth)
        while self.at < len(self.tokens) and self.tokens[self.at].upper() in ("AND", "OR"):
            any_of = self.tokens[self.at].upper() == "OR"
            self.at += 1
            found = Both(found, self.term(depth), any_of)
        return found

    def term(self, depth: int) -> Condition:
        if self.at >= len(self.tokens):
            raise CommandError("condition_bad", word="")
        word = self.tokens[self.at].upper()
        if word == "NOT":
            self.at += 1
            return Not(self.term(depth))
        if word == "(":
            if depth >= MAX_DEPTH:
                raise CommandError("condition_too_deep", limit=MAX_DEPTH)
            self.at += 1
            inner = self.expression(depth + 1)
            if self.at < len(self.tokens) and self.tokens[self.at] == ")":
                self.at += 1
            return inner
        return self.place()

    def place(self) -> Place:
        words: list[str] = []
        while self.at < len(self.tokens) and self.tokens[self.at].upper() not in (
            "AND",
            "OR",
            "NOT",
            "(",
            ")",
        ):
            words.append(self.tokens[self.at])
            self.at += 1
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise CommandError("condition_too_long", limit=MAX_TERMS)
        return place_named(words, self.gm)


def place_named(words: Sequence[str], gm: GameMap) -> Place:
    """`[power] [unit] province`, power and unit in either order, as a Place;
    CommandError naming the words if not."""
    shown = " ".join(words)[:60]
    power: str | None = None
    kind: str | None = None
    rest = list(words)
    province = gm.names.get(squash(" ".join(rest))) if rest else None
    while province is None and len(rest) > 1:
        word = rest[0]
        if kind is None and word.upper() in _UNIT_WORDS:
            kind = _UNIT_WORDS[word.upper()]
        elif power is None and (named := power_named(word, gm)) is not None:
            power = named
        else:
            break
        rest = rest[1:]
        province = gm.names.get(squash(" ".join(rest)))
    if not words:
        raise CommandError("condition_bad", word="")
    if province is None:
        raise CommandError("condition_place", words=shown)
    return Place(gm.province_of(province), power, kind)


def power_named(word: str, gm: GameMap) -> str | None:
    """The power a word names: its name or adjective, or their first two or more letters."""
    key = gm.power_names.get(squash(word))
    if key is not None or len(word) < 2:
        return key
    start = squash(word)
    found = {
        k
        for k, p in gm.powers.items()
        if squash(p.name).startswith(start) or squash(p.adjective).startswith(start)
    }
    return found.pop() if len(found) == 1 else None


def holds(cond: Condition, position: Position) -> bool:
    """Whether `cond` is true of the units standing at the start of the phase."""
    if isinstance(cond, Place):
        return any(
            u.province == cond.province
            and cond.power in (None, u.power)
            and cond.kind in (None, u.kind)
            for u in position.units
        )
    if isinstance(cond, Not):
        return not holds(cond.inner, position)
    left = holds(cond.left, position)
    return (
        (left or holds(cond.right, position))
        if cond.any_of
        else (left and holds(cond.right, position))
    )


def orders_of(program: Sequence[Item], position: Position) -> list[str]:
    """The order lines of the branches that hold, in the order written."""
    out: list[str] = []
    for item in program:
        if isinstance(item, str):
            out.append(item)
            continue
        for cond, lines in item.branches:
            if cond is None or holds(cond, position):
                out += orders_of(lines, position)
                break
    return out


@dataclass
class _Open:
    """An IF being read: its branches so far and the lines of the last one."""

    branches: list[tuple[Condition | None, tuple[Item, ...]]]
    cond: Condition | None
    lines: list[Item]
    closed: bool = False  # an ELSE was read: no ELSE IF may follow


def program(lines: Sequence[str], gm: GameMap) -> tuple[Item, ...]:
    """Held lines (`IF cond`, `ELSE IF cond`, `ELSE`, `ENDIF` and orders, as the command
    reader gives them) as a program; the end closes open IFs. CommandError on a line out
    of place, a condition that is none, or IFs nested deeper than MAX_DEPTH."""
    top: list[Item] = []
    stack: list[_Open] = []
    for line in lines:
        head, _, rest = line.partition(" ")
        here = stack[-1].lines if stack else top
        if head == "IF":
            if len(stack) >= MAX_DEPTH:
                raise CommandError("condition_too_deep", limit=MAX_DEPTH)
            stack.append(_Open([], condition(rest, gm), []))
        elif head in ("ELSE", "ENDIF"):
            if not stack or (head == "ELSE" and stack[-1].closed):
                raise CommandError("condition_order", word=line[:40])
            _next_branch(stack[-1], head, rest, gm)
            if head == "ENDIF":
                done = stack.pop()
                (stack[-1].lines if stack else top).append(Branching(tuple(done.branches)))
        else:
            here.append(line)
    while stack:  # the end of the mail closes open IFs
        done = stack.pop()
        _next_branch(done, "ENDIF", "", gm)
        (stack[-1].lines if stack else top).append(Branching(tuple(done.branches)))
    return tuple(top)


def _next_branch(open_if: _Open, head: str, rest: str, gm: GameMap) -> None:
    """Close the branch being read; an ELSE [IF] opens the next."""
    open_if.branches.append((open_if.cond, tuple(open_if.lines)))
    open_if.lines = []
    if head == "ELSE":
        words = rest.split(" ", 1)
        if words[0] == "IF":
            open_if.cond = condition(words[1] if len(words) > 1 else "", gm)
        else:
            open_if.cond, open_if.closed = None, True
