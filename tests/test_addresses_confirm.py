"""A master's PROMOTE and REPLACE and anyone's SET ADDRESS name an address for the game's
mail, and a mail's From: can be forged: each pointed results with their picture, every
phase, at a stranger. The new address gets the code alone until it sends it back
(CONFIRM), as an observer's does (tests/test_observers_confirm.py)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
import sqlite_utils
from judge_harness import HOLDS, Judge, Mail, dashed

from judge.config import Config
from judge.game.observers import UNCONFIRMED_DAYS
from judge.mail import compose
from judge.store import games
from judge.store.codes import code_hash
from judge.store.db import migrate
from judge.store.schema import MIGRATIONS

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
VICTIM = "victim@example.com"
SIGNON = "SIGNON Mwar1 masterpw\n"
ORDERS_ON_FILE = (
    "Orders on file in war1, power by power:\n"
    "  Austria: none\n  England: none\n  France: none\n  Germany: none\n"
    "  Italy: none\n  Russia: none\n  Turkey: none\n"
)


def _to(mails: list[Mail], address: str) -> list[Mail]:
    return [m for m in mails if address in m.to]


def _row(judge: Judge, seat_id: int) -> tuple[str, str, str | None, str | None]:
    """The seat's (role, address, pending address, code's hash) as stored."""
    row = judge.db.execute(
        "SELECT role, address, pending_address, confirm_code FROM seats WHERE id = ?",
        [seat_id],
    ).fetchone()
    assert row is not None
    return row[0], row[1], row[2], row[3]


def _last_seat(judge: Judge) -> int:
    (seat_id,) = judge.db.execute("SELECT MAX(id) FROM seats").fetchone()
    return int(seat_id)


def test_a_promoted_master_gets_nothing_until_its_address_confirms(tmp_path: Path) -> None:
    """PROMOTE mails the address its password and a code, as a capped reply; until the
    code comes back the new master gets no press and no results, and cannot sign on."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    mails = judge.send(MASTER, SIGNON + f"PROMOTE {VICTIM}")
    [ack] = _to(mails, MASTER)
    assert ack.body == (
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master.\n"
        f"Line 2: PROMOTE {VICTIM}\n"
        f"  {VICTIM} is now a master of war1 and gets a password by mail.\n"
        "  The new master gets none of the game's mail until they confirm, with the\n"
        "  code mailed to them.\n\n" + ORDERS_ON_FILE
    )
    seat = _last_seat(judge)
    code = judge.confirm_code(VICTIM)
    assert _row(judge, seat) == ("master", VICTIM, None, code_hash(code))
    [letter] = _to(mails, VICTIM)
    password = letter.body.split("SIGNON Mwar1 ")[1].split()[0]
    assert letter.subject == "TEST:war1 - S1901M you are now a master of the game"
    assert letter.body == (
        f"{MASTER} has made you a master of war1.\n"
        "Confirm first that this address asked for it: until then you get none of\n"
        "the game's mail. Mail the judge this line, from this address, within\n"
        "7 days:\n"
        f"  CONFIRM war1 {dashed(code)}\n"
        "If you did not ask for it, ignore this mail: you get nothing more.\n"
        f"Then sign on with: SIGNON Mwar1 {password}\n"
        "(change the password with SET PASSWORD after signing on).\n"
    )
    kind = judge.db.execute("SELECT kind FROM outbound WHERE recipients LIKE ?", [f"%{VICTIM}%"])
    assert kind.fetchall() == [("reply",)]  # under the replies' cap, not a notice
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nBROADCAST\nHello all.\nENDPRESS")
    mails += judge.send(MASTER, SIGNON + "PROCESS")
    assert [m.subject for m in _to(mails, MASTER) if "Results" in m.subject] == [
        "TEST:war1 - S1901M Results"
    ]
    assert _to(mails, VICTIM) == []
    [refused] = judge.send(VICTIM, f"SIGNON Mwar1 {password}")
    assert "  ERROR: Your master seat of war1 is not confirmed yet: mail\n" in refused.body

    [confirmed] = judge.confirm(VICTIM)
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: you are a master of war1, and get its mail.\n"
        "  Sign on with SIGNON Mwar1 and the password mailed to you.\n"
    )
    assert _row(judge, seat) == ("master", VICTIM, None, None)
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    [results] = _to(mails, VICTIM)
    assert results.subject == "TEST:war1 - F1901M Results"
    assert "Signed on to war1 as master." in judge.send(VICTIM, f"SIGNON Mwar1 {password}")[0].body


def test_a_replaced_powers_mail_goes_to_the_master_until_its_new_player_confirms(
    tmp_path: Path,
) -> None:
    """REPLACE seats the power at once (no newcomer may take it over, its deadline as
    before) but mails the new address only the password and the code; the power's own
    mail, press to it included, goes to the master meanwhile."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    mails = judge.send(MASTER, SIGNON + f"REPLACE F {VICTIM}")
    seat = _last_seat(judge)
    code = judge.confirm_code(VICTIM)
    assert _row(judge, seat) == ("player", MASTER, VICTIM, code_hash(code))
    [ack] = [m for m in _to(mails, MASTER) if m.subject.endswith("orders")]
    assert (
        f"Line 2: REPLACE F {VICTIM}\n"
        f"  France in war1 now belongs to {VICTIM}, who gets a password by mail.\n"
        "  The new player must confirm first, with the code mailed to them; until\n"
        f"  then France's mail goes to {MASTER}.\n"
    ) in ack.body
    [letter] = _to(mails, VICTIM)
    password = letter.body.split("SIGNON Fwar1 ")[1].split()[0]
    assert letter.body == (
        "The master of war1 has given you France.\n"
        "Confirm first that this address asked for it: until then the power's mail\n"
        "goes to the master. Mail the judge this line, from this address, within\n"
        "7 days:\n"
        f"  CONFIRM war1 {dashed(code)}\n"
        "If you did not ask for it, ignore this mail: you get nothing more.\n"
        f"Sign on with: SIGNON Fwar1 {password}\n"
        "(change the password with SET PASSWORD after signing on).\n"
        "The deadline for the current phase is Monday 23 November 2026 12:08 UTC.\n"
    )
    [taken] = judge.send("stranger@example.net", "SIGNON Fwar1 mine")
    assert "You now play" not in taken.body  # held, not free for a newcomer
    mails = judge.send(players["G"], "SIGNON Gwar1 pw3\nPRESS TO F\nA word for France.\nENDPRESS")
    assert _to(mails, VICTIM) == []
    assert len([m for m in _to(mails, MASTER) if "A word for France." in m.body]) >= 1
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    assert _to(mails, VICTIM) == []
    # A REPLACE of the waiting seat (a mistyped address, say) tells no one it was taken.
    mails = judge.send(MASTER, SIGNON + "REPLACE F typo@example.net")
    assert [m.subject for m in mails if "no longer play" in m.subject] == []
    judge.send(MASTER, SIGNON + f"REPLACE F {VICTIM}")
    seat = _last_seat(judge)
    assert _row(judge, seat) == ("player", MASTER, VICTIM, code_hash(judge.confirm_code(VICTIM)))

    [confirmed] = judge.confirm(VICTIM)
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: the mail of your France seat of war1 comes to this\n"
        f"  address now, no longer to {MASTER}.\n"
    )
    assert _row(judge, seat) == ("player", VICTIM, None, None)
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    assert [m.subject for m in _to(mails, VICTIM)] == ["TEST:war1 - F1901M Results"]


def test_a_players_new_address_gets_the_code_alone_until_it_confirms(tmp_path: Path) -> None:
    """SET ADDRESS leaves the mail at the old address, which is told so; the new one gets
    one code mail (a second SET ADDRESS in the mail is refused) and nothing else, a wrong
    code is refused, and a later mail's SET ADDRESS replaces the pending address."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    old = players["G"]
    moves = f"SET ADDRESS {VICTIM}\nSET ADDRESS other@example.net"
    mails = judge.send(old, f"SIGNON Gwar1 pw3\n{moves}")
    assert [m.to for m in mails] == [[old], [VICTIM]]
    assert mails[0].body.startswith(
        "Line 1: SIGNON Gwar1 ****\n"
        "  Signed on to war1 as Germany.\n"
        f"Line 2: SET ADDRESS {VICTIM}\n"
        f"  Not moved yet: your mail for war1 goes on to {old}\n"
        f"  until {VICTIM} confirms: a code was mailed to it,\n"
        "  to be sent back from there within 7 days (CONFIRM war1 code).\n"
        "  Then the mail goes there.\n"
        "Line 3: SET ADDRESS other@example.net\n"
        f"  ERROR: Not moved: {VICTIM} already waits to confirm, from this\n"
        "  mail. One new address a mail; a later mail's SET ADDRESS replaces it.\n"
    )
    code = judge.confirm_code(VICTIM)
    [seat] = [s.id for s in games.seats(judge.db, judge.game()) if s.power == "GERMANY"]
    assert _row(judge, seat) == ("player", old, VICTIM, code_hash(code))
    assert mails[1].subject == "TEST:war1 - S1901M confirm your new address"
    assert mails[1].body == (
        "The player of Germany in war1\n"
        "has given this address as theirs. The game's mail for them comes here only\n"
        "once you confirm that this address asked for it: mail the judge this line,\n"
        "from this address, within 7 days:\n"
        f"  CONFIRM war1 {dashed(code)}\n"
        "If you did not ask for it, ignore this mail: you get nothing more.\n"
    )
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nPRESS TO G\nHi Germany.\nENDPRESS")
    mails += judge.send(MASTER, SIGNON + "PROCESS")
    assert _to(mails, VICTIM) == []
    assert [m.subject for m in _to(mails, old) if "Results" in m.subject] == [
        "TEST:war1 - S1901M Results"
    ]
    wrong = "ZZZZZZZZ" if code != "ZZZZZZZZ" else "YYYYYYYY"
    [refused] = judge.send(VICTIM, f"CONFIRM war1 {wrong}")
    assert "  ERROR: That is not the code mailed to this address for war1.\n" in refused.body

    judge.send(old, "SIGNON Gwar1 pw3\nSET ADDRESS other@example.net")
    assert _row(judge, seat)[:3] == ("player", old, "other@example.net")
    [gone] = judge.send(VICTIM, f"CONFIRM war1 {code}")
    assert "  ERROR: This address has nothing of war1 to confirm" in gone.body
    [confirmed] = judge.confirm("other@example.net")
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: the mail of your Germany seat of war1 comes to this\n"
        f"  address now, no longer to {old}.\n"
    )
    assert _row(judge, seat) == ("player", "other@example.net", None, None)
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    assert [m.subject for m in _to(mails, "other@example.net")] == ["TEST:war1 - F1901M Results"]
    assert _to(mails, old) == [] and _to(mails, VICTIM) == []


def test_a_pending_address_left_a_week_is_forgotten_and_the_mail_stays(tmp_path: Path) -> None:
    """A new address not confirmed within UNCONFIRMED_DAYS is forgotten when the game's
    phase is next processed: the seat keeps its address of record, and the code no
    longer confirms anything."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["G"], f"SIGNON Gwar1 pw3\nSET ADDRESS {VICTIM}")
    code = judge.confirm_code(VICTIM)
    [seat] = [s.id for s in games.seats(judge.db, judge.game()) if s.power == "GERMANY"]
    judge.now += timedelta(days=UNCONFIRMED_DAYS)
    for i, initial in enumerate("AEFGIRT"):
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    assert judge.game().phase == "F1901M"
    assert _row(judge, seat) == ("player", players["G"], None, None)
    assert _to(mails, VICTIM) == []
    [told] = [m for m in _to(mails, players["G"]) if "Results" not in m.subject]
    assert told.subject == f"TEST:war1 - F1901M Not confirmed: {VICTIM}"
    assert told.body == (
        f"{VICTIM} did not confirm within 7 days\n"
        "that it is the new address of Germany in war1.\n"
        "The mail still comes to this address: SET ADDRESS again to move it.\n"
    )
    [gone] = judge.send(VICTIM, f"CONFIRM war1 {code}")
    assert "  ERROR: This address has nothing of war1 to confirm" in gone.body


def test_a_replacement_never_confirmed_is_told_to_the_master_who_holds_the_power(
    tmp_path: Path,
) -> None:
    """After a week the master, who got the power's mail meanwhile, is told it is still
    his, once; the new address gets nothing; a PROMOTE never confirmed is told to the
    masters, and the seat is gone."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.send(MASTER, SIGNON + f"REPLACE F {VICTIM}\nPROMOTE other@example.net")
    judge.now += timedelta(days=UNCONFIRMED_DAYS, seconds=1)
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    lapsed = [m for m in mails if "Not confirmed" in m.subject]
    assert [(m.to, m.subject) for m in lapsed] == [
        ([MASTER], f"TEST:war1 - F1901M Not confirmed: {VICTIM}"),
        ([MASTER], "TEST:war1 - F1901M Not confirmed: other@example.net"),
    ]
    assert lapsed[0].body == (
        f"{VICTIM} did not confirm within 7 days\n"
        "that it takes over France in war1.\n"
        "France's mail still comes to you: give it to another player\n"
        "with REPLACE F address, or play it with BECOME.\n"
    )
    assert lapsed[1].body == (
        "other@example.net did not confirm within 7 days\n"
        "that it is a master of war1: it is not one.\n"
        "PROMOTE it again if it should be.\n"
    )
    assert _to(mails, VICTIM) == _to(mails, "other@example.net") == []
    assert [s.address for s in games.seats(judge.db, judge.game(), games.MASTER)] == [MASTER]
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    assert [m for m in mails if "Not confirmed" in m.subject] == []  # told once


def test_seats_made_before_the_pending_addresses_keep_their_address(tmp_path: Path) -> None:
    """A store of version 20: its player and master keep getting mail at their address,
    with nothing pending."""
    db = sqlite_utils.Database(sqlite3.connect(str(tmp_path / "old.db")))
    migrate(db, MIGRATIONS[:20])
    at = "2026-01-01T00:00:00.000000+00:00"
    db.execute(
        "INSERT INTO games (id, name, variant, state, settings, created_at) "
        "VALUES (1, 'old1', 'standard', 'active', '{}', ?)",
        [at],
    )
    for role, power, address in (
        ("master", None, "gm@example.org"),
        ("player", "FRANCE", "p2@example.org"),
    ):
        db.execute(
            "INSERT INTO seats (game_id, role, power, address, password_hash, joined_at) "
            "VALUES (1, ?, ?, ?, 'x', ?)",
            [role, power, address, at],
        )
    db.conn.commit()
    migrate(db)
    game = games.find_game(db, "old1")
    assert game is not None
    held = [(s.role, s.address, s.pending_address, s.unconfirmed) for s in games.seats(db, game)]
    assert held == [
        ("master", "gm@example.org", None, False),
        ("player", "p2@example.org", None, False),
    ]


def test_a_masters_new_address_waits_for_its_code_as_a_players_does(tmp_path: Path) -> None:
    """The master's SET ADDRESS leaves the results at the old address until the new one
    confirms; then they go there alone."""
    judge = Judge(tmp_path)
    judge.start_game()
    mails = judge.send(MASTER, SIGNON + "SET ADDRESS gm@new.example.org")
    assert [m.to for m in mails] == [[MASTER], ["gm@new.example.org"]]
    assert mails[1].body.startswith("A master of war1\nhas given this address as theirs.")
    mails = judge.send(MASTER, SIGNON + "PROCESS")
    assert _to(mails, "gm@new.example.org") == []
    assert "TEST:war1 - S1901M Results" in [m.subject for m in _to(mails, MASTER)]
    [confirmed] = judge.confirm("gm@new.example.org")
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: the mail of your master seat of war1 comes to this\n"
        f"  address now, no longer to {MASTER}.\n"
    )
    mails = judge.send("gm@new.example.org", SIGNON + "PROCESS")
    assert "TEST:war1 - F1901M Results" in [m.subject for m in _to(mails, "gm@new.example.org")]
    assert _to(mails, MASTER) == []


def test_confirm_takes_the_seat_whose_code_it_carries(tmp_path: Path) -> None:
    """An address waiting on two seats of one game (it observes, and a master PROMOTEd
    it) confirms the one whose code it sends back; the other still waits."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.send(VICTIM, "OBSERVE war1 fanpw")
    observer = _last_seat(judge)
    mails = judge.send(MASTER, SIGNON + f"PROMOTE {VICTIM}")
    master = _last_seat(judge)
    [letter] = _to(mails, VICTIM)
    mailed = letter.body.split("CONFIRM war1 ")[1].split()[0]  # in groups, dashed
    master_code = mailed.replace("-", "")
    observer_hash = _row(judge, observer)[3]
    assert observer != master and _row(judge, master)[3] == code_hash(master_code)
    assert observer_hash not in (None, code_hash(master_code))

    judge.send(VICTIM, f"CONFIRM war1 {mailed}")  # as mailed
    assert _row(judge, master) == ("master", VICTIM, None, None)
    assert _row(judge, observer) == ("observer", VICTIM, None, observer_hash)


@pytest.mark.parametrize(
    ("kept", "by_master", "power"),
    [(True, True, "P" * 20), (True, False, "P" * 20), (True, False, None), (False, False, None)],
)
def test_the_not_confirmed_notice_fits_78_columns_with_its_longest_names(
    kept: bool, by_master: bool, power: str | None
) -> None:
    game = "g" * 20  # games.MAX_GAME_NAME
    values = {"game": game, "role": "player", "power": power, "initial": "P", "days": 7}
    head = {"code": "TEST", "game": game, "phase": "S1901M"}
    _, body = compose.render(
        "unconfirmed_lapsed",
        Config(name="TEST", address="judge@example.org"),
        **values,
        address="a@example.org",
        kept=kept,
        by_master=by_master,
        head=head,
    )
    assert max(len(line) for line in body.splitlines()) <= 78, body
