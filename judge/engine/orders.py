"""Order objects and their canonical short form (`A PAR - BUR`, `F NTH C A LON - BEL`).

Orders are NamedTuples rather than frozen dataclasses: just as immutable, and about
three times cheaper to make, which matters at thousands of phases a second. Equality is
made type-aware below, so a hold never equals a disband of the same unit.

An order names units as the player wrote them (`UnitRef`: type perhaps missing, coast
perhaps wrong); legality (legality.py) binds it to the real units on the board, and the
bound order holds the board's `Unit` objects, which read the same (kind, location).
"""

from __future__ import annotations

from typing import NamedTuple


class UnitRef(NamedTuple):
    """A unit as written in an order: its type (None if omitted) and its location."""

    kind: str | None
    location: str

    @property
    def province(self) -> str:
        return self.location.partition("/")[0]

    def __str__(self) -> str:
        return f"{self.kind} {self.location}" if self.kind else self.location


class Hold(NamedTuple):
    unit: UnitRef


class Move(NamedTuple):
    unit: UnitRef
    dest: str  # a location: province key, or KEY/XC when a coast was given
    via_convoy: bool = False
    # The seas of a convoy path written in the order (`A Yor - Nth - Bel`), kept only
    # when the game's rules read paths (DATC 4.A.6 b, c); a path implies `via_convoy`.
    path: tuple[str, ...] = ()


class Support(NamedTuple):
    unit: UnitRef
    supported: UnitRef
    dest: str | None = None  # None: support to hold


class Convoy(NamedTuple):
    unit: UnitRef
    army: UnitRef
    dest: str


class Retreat(NamedTuple):
    unit: UnitRef
    dest: str


class Disband(NamedTuple):
    """A retreat-phase disband, or an adjustment-phase removal."""

    unit: UnitRef


class Build(NamedTuple):
    unit: UnitRef


class Waive(NamedTuple):
    pass


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive


def _typed_eq(a: tuple, b: object) -> bool:
    return type(a) is type(b) and tuple.__eq__(a, b)  # type: ignore[arg-type]


def _typed_ne(a: tuple, b: object) -> bool:
    return not _typed_eq(a, b)


def _typed_hash(a: tuple) -> int:
    return hash((type(a).__name__, *a))


for _cls in (UnitRef, Hold, Move, Support, Convoy, Retreat, Disband, Build, Waive):
    _cls.__eq__ = _typed_eq  # type: ignore[method-assign,assignment]
    _cls.__ne__ = _typed_ne  # type: ignore[method-assign,assignment]
    _cls.__hash__ = _typed_hash  # type: ignore[method-assign,assignment]


def order_text(order: Order) -> str:
    """The canonical short form of Contract 1 (`A LON - BEL VIA`, `A MUN S F KIE`); a
    move with a convoy path reads `A YOR - NTH - BEL`."""
    return _FORMATS[type(order)](order)


_FORMATS = {
    Hold: lambda o: f"{o.unit} H",
    Move: lambda o: (
        f"{o.unit} - {' - '.join(o.path)} - {o.dest}"
        if o.path
        else f"{o.unit} - {o.dest}" + (" VIA" if o.via_convoy else "")
    ),
    Support: lambda o: (
        f"{o.unit} S {o.supported}" if o.dest is None else f"{o.unit} S {o.supported} - {o.dest}"
    ),
    Convoy: lambda o: f"{o.unit} C {o.army} - {o.dest}",
    Retreat: lambda o: f"{o.unit} R {o.dest}",
    Disband: lambda o: f"{o.unit} D",
    Build: lambda o: f"{o.unit} B",
    Waive: lambda o: "WAIVE",
}


def ordered_unit(order: Order) -> UnitRef | None:
    """The unit an order is for (None for WAIVE)."""
    return getattr(order, "unit", None)
