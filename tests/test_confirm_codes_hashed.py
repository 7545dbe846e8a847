"""Confirmation codes are kept only as hashes (judge/store/codes.py): a copy of the
database (a backup, `judge export`, a stolen disk) confirms no address in someone else's
name. The mail carries the code; CONFIRM hashes what was typed and compares."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path

import pytest
from judge_harness import Judge, Mail

from judge.store.db import open_db

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
SIGNON = "SIGNON Mwar1 masterpw\n"
WRONG = (
    "  ERROR: That is not the code mailed to this address for war1.\n"
    "  A wrong code counts as a wrong password.\n"
)


_CODE = re.compile(r"CONFIRM war1 (\S+)")


def _sha256(code: str) -> str:
    return "sha256$" + hashlib.sha256(code.encode()).hexdigest()


def _mailed(mails: list[Mail], address: str) -> str:
    """The code in the one mail to `address` that carries one, without the dashes it is
    mailed with (four groups of four)."""
    [code] = [c for m in mails if address in m.to for c in _CODE.findall(m.body)]
    assert re.fullmatch(r"[A-Z0-9]{4}(-[A-Z0-9]{4}){3}", code), code
    return code.replace("-", "")


def _on_disk(tmp_path: Path, sql: str, args: list[str]) -> list[tuple[object, ...]]:
    """`sql`'s rows read from the judge's SQLite file by a connection of the test's own."""
    conn = sqlite3.connect(tmp_path / "j.db")
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def _stored(tmp_path: Path, address: str) -> object:
    """What the row of the seat that waits for `address` holds in confirm_code."""
    [(stored,)] = _on_disk(
        tmp_path,
        "SELECT confirm_code FROM seats WHERE left_at IS NULL AND confirm_code IS NOT NULL "
        "AND (pending_address = ? OR address = ? AND pending_address IS NULL)",
        [address, address],
    )
    return stored


def test_each_code_mailed_is_stored_as_its_sha256_and_never_itself(tmp_path: Path) -> None:
    """OBSERVE, PROMOTE, REPLACE, a player's and a confirmed observer's SET ADDRESS: the
    row holds `sha256$` and the hex digest of the code mailed, and no cell of the seats
    or the audit log holds the code."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.observe("fan@example.net", "fanpw")
    asked = {
        "watcher@example.net": judge.send("watcher@example.net", "OBSERVE war1 pw"),
        "co@example.net": judge.send(MASTER, SIGNON + "PROMOTE co@example.net"),
        "new-f@example.net": judge.send(MASTER, SIGNON + "REPLACE F new-f@example.net"),
        "new-g@example.net": judge.send(
            players["G"], "SIGNON Gwar1 pw3\nSET ADDRESS new-g@example.net"
        ),
        "fan2@example.net": judge.send(
            "fan@example.net", "SIGNON Owar1 fanpw\nSET ADDRESS fan2@example.net"
        ),
    }
    codes = {address: _mailed(mails, address) for address, mails in asked.items()}
    assert len(set(codes.values())) == 5
    assert {a: _stored(tmp_path, a) for a in codes} == {a: _sha256(c) for a, c in codes.items()}
    cells = [
        str(cell)
        for table in ("seats", "audit")
        for row in _on_disk(tmp_path, f"SELECT * FROM {table}", [])
        for cell in row
    ]
    assert [c for c in cells for code in codes.values() if code in c] == []


def test_the_mailed_code_confirms_and_the_stored_hash_does_not(tmp_path: Path) -> None:
    """A reader of the database who types the row's value, or its digest alone, gets
    the reply any wrong code gets, and the seat still waits; the code the mail carries,
    as a reader copies it (in pieces, lower case), confirms."""
    judge = Judge(tmp_path)
    judge.start_game()
    address = "victim@example.com"
    code = _mailed(judge.send(address, "OBSERVE war1 pw"), address)
    stored = _stored(tmp_path, address)
    assert stored == _sha256(code)
    typed = [str(stored), str(stored).removeprefix("sha256$"), "ZZZZZZZZZZZZZZZZ"]
    [refused] = judge.send(address, "\n".join(f"CONFIRM war1 {t}" for t in typed))
    assert refused.body == "".join(f"Line {n}: CONFIRM war1 ****\n" + WRONG for n in (1, 2, 3))
    assert _stored(tmp_path, address) == stored  # still waiting

    [confirmed] = judge.send(address, f"CONFIRM war1 {code[:8].lower()} {code[8:]}")
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: you observe war1, and get its mail.\n"
        "  Sign on with SIGNON Owar1 password.\n"
    )
    assert _on_disk(tmp_path, "SELECT confirm_code FROM seats WHERE address = ?", [address]) == [
        (None,)
    ]


def test_a_code_stored_plain_before_the_upgrade_is_hashed_and_still_confirms(
    tmp_path: Path,
) -> None:
    """A store of version 21 held each code as mailed (8 letters then): migration 22
    turns it into its hash, and the code the address got before the upgrade confirms.
    Versions 22 to 25 change no table, so a store of 21 is today's without 23's and 25's
    indexes, with the unique index 24 dropped, its codes written plain."""
    judge = Judge(tmp_path)
    judge.start_game()
    address = "victim@example.com"
    judge.send(address, "OBSERVE war1 pw")
    judge.db.execute(
        "UPDATE seats SET confirm_code = 'K7QX2MNP' WHERE address = ? AND role = 'observer'",
        [address],
    )
    for index in (
        "idx_inbound_to_forget",
        "idx_outbound_to_forget",
        "idx_pictures_created",
        "idx_outbound_results_ready",
    ):
        judge.db.execute(f"DROP INDEX {index}")
    judge.db.execute("CREATE UNIQUE INDEX idx_outbound_message_id ON outbound (message_id)")
    judge.db.execute("PRAGMA user_version = 21")
    judge.db.conn.commit()
    judge.db.conn.close()

    judge.db = open_db(tmp_path / "j.db")  # the upgraded judge: migrations run
    assert _on_disk(tmp_path, "PRAGMA user_version", []) == [(25,)]
    assert _stored(tmp_path, address) == _sha256("K7QX2MNP")
    [confirmed] = judge.send(address, "CONFIRM war1 k7qx-2mnp")
    assert "  Confirmed: you observe war1, and get its mail.\n" in confirmed.body
    assert _on_disk(tmp_path, "SELECT confirm_code FROM seats WHERE address = ?", [address]) == [
        (None,)
    ]
