"""Order objects and their canonical short form (`A PAR - BUR`, `F NTH C A LON - BEL`).

An order names units as the player wrote them (`UnitRef`: type perhaps missing, coast
perhaps wrong); legality (legality.py) binds it to the real units on the board.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitRef:
    """A unit as written in an order: its type (None if omitted) and its location."""

    kind: str | None
    location: str

    @property
    def province(self) -> str:
        return self.location.split("/", 1)[0]

    def __str__(self) -> str:
        return f"{self.kind} {self.location}" if self.kind else self.location


@dataclass(frozen=True)
class Hold:
    unit: UnitRef


@dataclass(frozen=True)
class Move:
    unit: UnitRef
    dest: str  # a location: province key, or KEY/XC when a coast was given
    via_convoy: bool = False


@dataclass(frozen=True)
class Support:
    unit: UnitRef
    supported: UnitRef
    dest: str | None = None  # None: support to hold


@dataclass(frozen=True)
class Convoy:
    unit: UnitRef
    army: UnitRef
    dest: str


@dataclass(frozen=True)
class Retreat:
    unit: UnitRef
    dest: str


@dataclass(frozen=True)
class Disband:
    """A retreat-phase disband, or an adjustment-phase removal."""

    unit: UnitRef


@dataclass(frozen=True)
class Build:
    unit: UnitRef


@dataclass(frozen=True)
class Waive:
    pass


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive


def order_text(order: Order) -> str:
    """The canonical short form of Contract 1 (`A LON - BEL VIA`, `A MUN S F KIE`)."""
    match order:
        case Hold(unit):
            return f"{unit} H"
        case Move(unit, dest, via):
            return f"{unit} - {dest}" + (" VIA" if via else "")
        case Support(unit, supported, None):
            return f"{unit} S {supported}"
        case Support(unit, supported, dest):
            return f"{unit} S {supported} - {dest}"
        case Convoy(unit, army, dest):
            return f"{unit} C {army} - {dest}"
        case Retreat(unit, dest):
            return f"{unit} R {dest}"
        case Disband(unit):
            return f"{unit} D"
        case Build(unit):
            return f"{unit} B"
        case Waive():
            return "WAIVE"
    raise TypeError(order)


def ordered_unit(order: Order) -> UnitRef | None:
    """The unit an order is for (None for WAIVE)."""
    return getattr(order, "unit", None)
