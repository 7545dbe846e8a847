"""The player registry (njudge's REGISTER form): each registered person's fields, and the
addresses that are that person. The caller holds the transaction (the message's own).

An address belongs to at most one registration. The address that sends a form is its
first; I AM ALSO joins another (judge/commands/registry.py decides when it may)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from .audit import iso


@dataclass(frozen=True)
class Registration:
    """A registered person: the form's fields in the order written, and their addresses
    in the order they were joined."""

    id: int
    fields: tuple[tuple[str, str], ...]
    addresses: tuple[str, ...]
    updated_at: str

    def field(self, name: str) -> str:
        """The value of the field `name` ("" when the form left it out)."""
        return dict(self.fields).get(name, "")


def find(db: sqlite_utils.Database, address: str) -> Registration | None:
    """The registration `address` (lower case) belongs to, if any."""
    row = db.execute(
        "SELECT registration_id FROM registry_addresses WHERE address = ?", [address]
    ).fetchone()
    return _load(db, int(row[0])) if row else None


def register(
    db: sqlite_utils.Database, address: str, fields: list[tuple[str, str]], now: datetime
) -> Registration:
    """Store `fields` as the registration of `address`: a new form replaces all the fields
    of the one it already belongs to, or starts a registration with it as its address."""
    text = json.dumps(fields)
    known = find(db, address)
    if known is not None:
        db.execute(
            "UPDATE registrations SET fields = ?, updated_at = ? WHERE id = ?",
            [text, iso(now), known.id],
        )
        return _load(db, known.id)
    cursor = db.execute(
        "INSERT INTO registrations (fields, created_at, updated_at) VALUES (?, ?, ?)",
        [text, iso(now), iso(now)],
    )
    registration_id = int(cursor.lastrowid or 0)
    link(db, address, registration_id, now)
    return _load(db, registration_id)


def link(db: sqlite_utils.Database, address: str, registration_id: int, now: datetime) -> None:
    """Make `address` (belonging to no registration) one of the registration's."""
    db.execute(
        "INSERT INTO registry_addresses (address, registration_id, linked_at) VALUES (?, ?, ?)",
        [address, registration_id, iso(now)],
    )


def is_master_of(db: sqlite_utils.Database, master: str, addresses: tuple[str, ...]) -> bool:
    """Whether `master` is the master of a game in which one of `addresses` has a seat."""
    if not addresses:
        return False
    marks = ", ".join("?" for _ in addresses)
    row = db.execute(
        "SELECT 1 FROM seats m JOIN seats p ON p.game_id = m.game_id "
        f"WHERE m.role = 'master' AND m.address = ? AND p.address IN ({marks}) LIMIT 1",
        [master, *addresses],
    ).fetchone()
    return row is not None


def _load(db: sqlite_utils.Database, registration_id: int) -> Registration:
    """The registration with this id (which exists)."""
    fields, updated_at = db.execute(
        "SELECT fields, updated_at FROM registrations WHERE id = ?", [registration_id]
    ).fetchone()
    addresses = db.execute(
        "SELECT address FROM registry_addresses WHERE registration_id = ? "
        "ORDER BY linked_at, address",
        [registration_id],
    ).fetchall()
    pairs = tuple((str(k), str(v)) for k, v in json.loads(fields))
    return Registration(registration_id, pairs, tuple(a for (a,) in addresses), str(updated_at))
