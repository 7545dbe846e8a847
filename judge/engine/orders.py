"""Order objects and their canonical short form (`A PAR - BUR`, `F NTH C A LON - BEL`).

Orders are NamedTuples rather than frozen dataclasses: just as immutable, and about
three times cheaper to make, which matters at thousands of phases a second. Equality is
made type-aware below, so a hold never equals a disband of the same unit.

An order names units as the player wrote them (`UnitRef`: type perhaps missing, coast
perhaps wrong); legality (legality.py) binds it to the real units on the board, and the
bound order holds the board's `Unit` objects, which read the same (kind, location):
an order's fields are typed `UnitLike`, what both have in common.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol


class UnitLike(Protocol):
    """A unit as an order names it: a written `UnitRef`, or the board's `Unit` once the
    order is bound (legality.py). Read-only, so both fit."""

    @property
    def kind(self) -> str | None: ...

    @property
    def location(self) -> str: ...

    @property
    def province(self) -> str: ...

    @property
    def text(self) -> str: ...


class UnitRef(NamedTuple):
    """A unit as written in an order: its type (None if omitted) and its location."""

    kind: str | None
    location: str

    @property
    def province(self) -> str:
        return self.location.partition("/")[0]

    @property
    def text(self) -> str:
        """As written in an order's text: `A PAR`, or `PAR` without a type."""
        return f"{self.kind} {self.location}" if self.kind else self.location

    def __str__(self) -> str:
        return self.text


class Hold(NamedTuple):
    unit: UnitLike

    def text(self) -> str:
        """The canonical short form (order_text)."""
        return f"{self.unit.text} H"


class Move(NamedTuple):
    unit: UnitLike
    dest: str  # a location: province key, or KEY/XC when a coast was given
    via_convoy: bool = False
    # The seas of a convoy path written in the order (`A Yor - Nth - Bel`), kept only
    # when the game's rules read paths (DATC 4.A.6 b, c); a path implies `via_convoy`.
    path: tuple[str, ...] = ()

    def text(self) -> str:
        """The canonical short form (order_text)."""
        if self.path:
            return f"{self.unit.text} - {' - '.join(self.path)} - {self.dest}"
        return f"{self.unit.text} - {self.dest}" + (" VIA" if self.via_convoy else "")


class Support(NamedTuple):
    unit: UnitLike
    supported: UnitLike
    dest: str | None = None  # None: support to hold

    def text(self) -> str:
        """The canonical short form (order_text)."""
        if self.dest is None:
            return f"{self.unit.text} S {self.supported.text}"
        return f"{self.unit.text} S {self.supported.text} - {self.dest}"


class Convoy(NamedTuple):
    unit: UnitLike
    army: UnitLike
    dest: str

    def text(self) -> str:
        """The canonical short form (order_text)."""
        return f"{self.unit.text} C {self.army.text} - {self.dest}"


class Retreat(NamedTuple):
    unit: UnitLike
    dest: str

    def text(self) -> str:
        """The canonical short form (order_text)."""
        return f"{self.unit.text} R {self.dest}"


class Disband(NamedTuple):
    """A retreat-phase disband, or an adjustment-phase removal."""

    unit: UnitLike

    def text(self) -> str:
        """The canonical short form (order_text)."""
        return f"{self.unit.text} D"


class Build(NamedTuple):
    unit: UnitLike

    def text(self) -> str:
        """The canonical short form (order_text)."""
        return f"{self.unit.text} B"


class Waive(NamedTuple):
    def text(self) -> str:
        """The canonical short form (order_text)."""
        return "WAIVE"


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive
MovementOrder = Hold | Move | Support | Convoy  # what a movement phase's units may do


def _typed_eq(a: tuple[object, ...], b: object) -> bool:
    return type(a) is type(b) and tuple.__eq__(a, b)


def _typed_ne(a: tuple[object, ...], b: object) -> bool:
    return not _typed_eq(a, b)


def _typed_hash(a: tuple[object, ...]) -> int:
    return hash((type(a).__name__, *a))


# A NamedTuple cannot inherit them from a shared base, so they are set on each class
# here; mypy refuses any assignment to a method, hence the ignores.
for _cls in (UnitRef, Hold, Move, Support, Convoy, Retreat, Disband, Build, Waive):
    _cls.__eq__ = _typed_eq  # type: ignore[method-assign]  # type-aware equality, see above
    _cls.__ne__ = _typed_ne  # type: ignore[method-assign,assignment]  # as __eq__
    _cls.__hash__ = _typed_hash  # type: ignore[method-assign,assignment]  # agrees with __eq__


def order_text(order: Order) -> str:
    """The canonical short form of Contract 1 (`A LON - BEL VIA`, `A MUN S F KIE`); a
    move with a convoy path reads `A YOR - NTH - BEL`."""
    return order.text()


def ordered_unit(order: Order) -> UnitLike | None:
    """The unit an order is for (None for WAIVE)."""
    return None if isinstance(order, Waive) else order.unit
