"""Observers confirm their address before they get any mail: OBSERVE seats the From:
address, which anyone can forge, and a stranger's game of fifty forged observers mailed
every phase's results (with the picture, about 150 KB), every broadcast and the diaries
at its end to fifty strangers. Only someone who reads the address's mail knows the code
the answer to its OBSERVE carries (judge/game/observers.py)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
import sqlite_utils
from judge_harness import HOLDS, Judge, Mail, dashed, observing

from judge.commands.player import MAX_CREATED_PER_DAY, MAX_FORMING_CREATED, MAX_OBSERVERS
from judge.game.observers import CODE_LENGTH, CODE_LETTERS, UNCONFIRMED_DAYS
from judge.store import games
from judge.store.codes import code_hash
from judge.store.db import migrate
from judge.store.schema import MIGRATIONS

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
VICTIM = "victim@example.com"
RESULTS = "TEST:war1 - S1901M Results"


def _to(mails: list[Mail], address: str) -> list[Mail]:
    return [m for m in mails if address in m.to]


def _seat_row(judge: Judge, address: str) -> tuple[str | None, str | None]:
    """The observer row of `address` in war1: (its code's hash, when it left)."""
    row = judge.db.execute(
        "SELECT confirm_code, left_at FROM seats WHERE role = 'observer' AND address = ?",
        [address],
    ).fetchone()
    assert row is not None
    return row[0], row[1]


def test_a_forged_observer_gets_nothing_until_its_address_confirms(tmp_path: Path) -> None:
    """A forged OBSERVE is answered once, to the address, with the code; then the game's
    results, broadcasts and press go to everyone but it. Once the address sends the code
    back, it gets the next phase's results like any observer."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    [answer] = judge.send(VICTIM, "OBSERVE war1 forgedpw")
    code = judge.confirm_code(VICTIM)
    assert _seat_row(judge, VICTIM) == (code_hash(code), None)
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
    assert answer.to == [VICTIM]
    assert answer.body == "Line 1: OBSERVE war1 ****\n" + observing("war1", code)
    broadcast = "SIGNON Fwar1 pw2\nBROADCAST\nHello all.\nENDPRESS"
    mails = judge.send(players["F"], broadcast)
    assert len([m for m in mails if "Broadcast" in m.subject]) == 7  # the others and the master
    assert _to(mails, VICTIM) == []
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS")
    results = [m for m in mails if m.subject == RESULTS]
    assert sorted(a for m in results for a in m.to) == sorted([MASTER, *players.values()])
    assert _to(mails, VICTIM) == []

    [confirmed] = judge.send(VICTIM, f"CONFIRM war1 {code[:4]}-{code[4:].lower()}")
    assert confirmed.to == [VICTIM]
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: you observe war1, and get its mail.\n"
        "  Sign on with SIGNON Owar1 password.\n"
    )
    assert _seat_row(judge, VICTIM) == (None, None)
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS")
    [to_victim] = _to(mails, VICTIM)
    [to_master] = [m for m in _to(mails, MASTER) if "Results" in m.subject]
    assert to_victim.subject == to_master.subject == "TEST:war1 - F1901M Results"
    assert to_victim.body == to_master.body
    [again] = judge.send(VICTIM, f"CONFIRM war1 {code}")  # once is enough
    assert again.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  ERROR: This address has nothing of war1 to confirm (the code comes in\n"
        "  the mail that OBSERVE, PROMOTE, REPLACE or SET ADDRESS sends to it).\n"
    )


def test_an_unconfirmed_observer_gets_no_diaries_nor_end_of_game_mail(tmp_path: Path) -> None:
    """The game's end (TERMINATE) and its Diaries mail, up to a megabyte, go to the
    confirmed observer and never to one that did not confirm."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.observe("fan@example.net", "fanpw")
    judge.send(VICTIM, "OBSERVE war1 forgedpw")
    judge.send("fan@example.net", "SIGNON Owar1 fanpw\nDIARY\nWatching closely.\nENDPRESS")
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nTERMINATE")
    assert _to(mails, VICTIM) == []
    subjects = sorted(m.subject for m in _to(mails, "fan@example.net"))
    assert subjects == ["TEST:war1 - S1901M Diaries", "TEST:war1 - S1901M Game Terminated"]


def test_a_wrong_code_is_refused_and_counted_as_a_wrong_password(tmp_path: Path) -> None:
    """Guessing the code is guessing a password: each CONFIRM spends one of the mail's
    passwords, each wrong code counts against the sender's wrong passwords, and past
    the limit the code is not checked, the right one neither, save in an answer to the
    notice mailed to the address then."""
    judge = Judge(tmp_path, wrong_passwords_per_hour=10)
    judge.start_game()
    judge.send(VICTIM, "OBSERVE war1 forgedpw")
    code = judge.confirm_code(VICTIM)
    wrong = "ZZZZZZZZ" if code != "ZZZZZZZZ" else "YYYYYYYY"
    [answer] = judge.send(VICTIM, f"CONFIRM war1 {wrong}\n" * 6)
    refused = (
        "  ERROR: That is not the code mailed to this address for war1.\n"
        "  A wrong code counts as a wrong password.\n"
    )
    five = "".join(f"Line {n}: CONFIRM war1 ****\n" + refused for n in range(1, 6))
    assert answer.body == five + (
        "Line 6: CONFIRM war1 ****\n"
        "  ERROR: not read: one mail may carry at most 5 passwords (SIGNON,\n"
        "  CREATE, OBSERVE, SET PASSWORD, ...). Send the rest in another mail.\n"
    )
    [_, notice] = judge.send(VICTIM, f"CONFIRM war1 {wrong}\n" * 5)
    assert (notice.to, notice.subject) == ([VICTIM], "TEST wrong passwords from your address")
    wrongs = judge.db.execute(
        "SELECT COUNT(*) FROM wrong_passwords WHERE key = ?", [f"sender:{VICTIM}"]
    ).fetchone()
    assert wrongs == (10,)
    [locked] = judge.send(VICTIM, f"CONFIRM war1 {code}")
    assert locked.body.startswith(
        "Line 1: CONFIRM war1 ****\n"
        "  ERROR: Refused, and the code was not checked: too many wrong passwords\n"
        "  or codes from your address in the last hour. Codes are checked again\n"
        "  from "
    )
    assert judge.confirm_code(VICTIM) == code  # still waiting
    # The address's own answer to the notice passes the lock (a forger never sees it).
    reply_to = f"In-Reply-To: {notice.message_id}\r\n"
    [confirmed] = judge.send(VICTIM, f"CONFIRM war1 {code}", head=reply_to)
    assert "  Confirmed: you observe war1, and get its mail.\n" in confirmed.body


def test_an_unconfirmed_seat_is_dropped_when_the_next_phase_is_processed(tmp_path: Path) -> None:
    """An unconfirmed seat counts toward the game's observers, so that forged OBSERVEs
    cannot grow the table without end; one left UNCONFIRMED_DAYS unconfirmed is dropped
    when the game's phase is next processed. One younger stays."""
    assert UNCONFIRMED_DAYS == 7
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(VICTIM, "OBSERVE war1 forgedpw")
    asked = judge.now
    judge.now = asked + timedelta(days=UNCONFIRMED_DAYS) - timedelta(minutes=2)
    judge.send("young@example.net", "OBSERVE war1 youngpw")
    judge.now = asked + timedelta(days=UNCONFIRMED_DAYS)
    for i, initial in enumerate("AEFGIRT"):
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    assert [m.subject for m in mails if "Results" in m.subject][0] == RESULTS
    assert _seat_row(judge, VICTIM)[1] is not None  # left
    assert _seat_row(judge, "young@example.net")[1] is None
    seated = games.seats(judge.db, judge.game(), games.OBSERVER, unconfirmed=True)
    assert [s.address for s in seated] == ["young@example.net"]


def test_a_full_list_of_stale_unconfirmed_seats_makes_room_at_the_next_observe(
    tmp_path: Path,
) -> None:
    """Fifty forged OBSERVEs fill the observer list; a week later, before any phase is
    processed, a real observer's OBSERVE drops the stale seats and is seated."""
    judge = Judge(tmp_path)
    judge.start_game()
    for i in range(MAX_OBSERVERS):
        judge.send(f"forged{i}@victim.example", f"OBSERVE war1 pw{i}")
    [full] = judge.send("fan@example.net", "OBSERVE war1 fanpw")
    assert "The observer list of war1 is full" in full.body
    judge.now += timedelta(days=UNCONFIRMED_DAYS)
    [seated] = judge.send("fan@example.net", "OBSERVE war1 fanpw")
    code = judge.confirm_code("fan@example.net")
    assert seated.body == "Line 1: OBSERVE war1 ****\n" + observing("war1", code)
    held = games.seats(judge.db, judge.game(), games.OBSERVER, unconfirmed=True)
    assert [s.address for s in held] == ["fan@example.net"]


def test_an_observer_who_moves_confirms_the_new_address(tmp_path: Path) -> None:
    """SET ADDRESS by a confirmed observer would point the game's mail at any address:
    the new one gets a code and nothing else until it confirms, and the seat moves no
    more until then (else each SET ADDRESS line of a mail mailed a code elsewhere)."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.observe("fan@example.net", "fanpw")
    moves = f"SET ADDRESS {VICTIM}\nSET ADDRESS other@example.net"
    mails = judge.send("fan@example.net", f"SIGNON Owar1 fanpw\n{moves}")
    code = judge.confirm_code(VICTIM)
    [ack] = [m for m in mails if m.to == ["fan@example.net"]]
    assert ack.body == (
        "Line 1: SIGNON Owar1 ****\n"
        "  Signed on to war1 as observer.\n"
        "Line 2: SET ADDRESS victim@example.com\n"
        "  Your address of record for war1 is now victim@example.com.\n"
        "  It gets none of the game's mail until it confirms: a code was mailed to\n"
        "  it, to be sent back from there (CONFIRM war1 code).\n"
        "Line 3: SET ADDRESS other@example.net\n"  # one move, one code mail
        "  ERROR: Your observer seat of war1 is not confirmed yet: mail\n"
        "  CONFIRM war1 code, with the code mailed to its address.\n"
    )
    assert _to(mails, "other@example.net") == []
    [asked] = _to(mails, VICTIM)
    assert asked.subject == "TEST:war1 - S1901M confirm that you observe the game"
    assert asked.body == (
        "An observer of war1 has given this address as theirs.\n"
        "You get none of the game's mail until you confirm that this address asked\n"
        "for it: mail the judge this line, from this address, within 7 days:\n"
        f"  CONFIRM war1 {dashed(code)}\n"
        "If you did not ask for it, ignore this mail: you get nothing more.\n"
    )
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS")
    assert _to(mails, VICTIM) == [] and _to(mails, "fan@example.net") == []
    judge.confirm(VICTIM)
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS")
    assert [m.subject for m in _to(mails, VICTIM)] == ["TEST:war1 - F1901M Results"]


def test_observers_seated_before_the_migration_stay_confirmed(tmp_path: Path) -> None:
    """A store of version 18: its observer keeps getting mail (no code asked of it), and
    its games are counted as created by their first master."""
    db = sqlite_utils.Database(sqlite3.connect(str(tmp_path / "old.db")))
    migrate(db, MIGRATIONS[:18])
    at = "2026-01-01T00:00:00.000000+00:00"
    db.execute(
        "INSERT INTO games (id, name, variant, state, settings, created_at) "
        "VALUES (1, 'old1', 'standard', 'active', '{}', ?)",
        [at],
    )
    for role, address in (("master", "gm@example.org"), ("observer", "fan@example.net")):
        db.execute(
            "INSERT INTO seats (game_id, role, address, password_hash, joined_at) "
            "VALUES (1, ?, ?, 'x', ?)",
            [role, address, at],
        )
    db.conn.commit()
    migrate(db)
    game = games.find_game(db, "old1")
    assert game is not None
    observers = games.seats(db, game, games.OBSERVER)
    assert [(s.address, s.unconfirmed) for s in observers] == [("fan@example.net", False)]
    assert db.execute("SELECT created_by FROM games").fetchall() == [("gm@example.org",)]


def test_one_address_creates_a_bounded_number_of_games(tmp_path: Path) -> None:
    """Anyone may CREATE games, each a master seat that processes and terminates at will:
    one address has at most MAX_FORMING_CREATED forming, and creates at most
    MAX_CREATED_PER_DAY a day; another address is not held back by it."""
    assert (MAX_FORMING_CREATED, MAX_CREATED_PER_DAY) == (5, 10)
    judge = Judge(tmp_path)
    for n in range(MAX_FORMING_CREATED):
        [ack] = judge.send(MASTER, f"CREATE ?g{n} pw{n}")
        assert "is created and you are its master" in ack.body
    [refused] = judge.send(MASTER, "CREATE ?g5 pw5")
    assert refused.body == (
        "Line 1: CREATE ?g5 ****\n"
        "  ERROR: You have 5 games forming already, the most one address may have:\n"
        "  the game was not created. Create it once one of them has started.\n"
    )
    assert games.find_game(judge.db, "g5") is None
    [other] = judge.send("other@example.org", "CREATE ?g5 pw5")
    assert "is created and you are its master" in other.body
    # Started games do not count as forming; a day's games count whatever their state.
    judge.db.execute("UPDATE games SET state = 'finished' WHERE created_by = ?", [MASTER])
    judge.db.conn.commit()
    for n in range(6, 6 + MAX_CREATED_PER_DAY - MAX_FORMING_CREATED):
        [ack] = judge.send(MASTER, f"CREATE ?g{n} pw{n}")
        assert "is created and you are its master" in ack.body
    judge.db.execute("UPDATE games SET state = 'finished' WHERE created_by = ?", [MASTER])
    judge.db.conn.commit()
    [refused] = judge.send(MASTER, "CREATE ?late pw")
    assert refused.body == (
        "Line 1: CREATE ?late ****\n"
        "  ERROR: You have created 10 games in the last day, the most one address may:\n"
        "  the game was not created. Try again tomorrow.\n"
    )
    rows = judge.db.execute("SELECT COUNT(*) FROM games WHERE created_by = ?", [MASTER])
    assert rows.fetchone() == (MAX_CREATED_PER_DAY,)
    judge.now += timedelta(days=1)
    [ack] = judge.send(MASTER, "CREATE ?late pw")
    assert "is created and you are its master" in ack.body


def test_only_views_and_counts_ask_for_unconfirmed_seats() -> None:
    """games.seats leaves unconfirmed seats out unless asked: every list of recipients
    is built from it, so no mail can forget the rule. The places that ask are the ones
    that show or count such seats and mail none of them: a new one here must be too."""
    root = Path(__file__).parent.parent / "judge"
    asking = sorted(
        f"{path.relative_to(root)}:{line.split('unconfirmed=')[1].split(')')[0]}"
        for path in root.rglob("*.py")
        if path.name != "games.py" or path.parent.name != "store"
        for line in path.read_text(encoding="utf-8").splitlines()
        if "unconfirmed=" in line
    )
    assert asking == [
        "commands/information.py:observers",  # WHOGAME FULL shows them, marked
        "commands/master.py:True",  # EJECT address frees them
        "commands/master.py:True",  # PROMOTE counts them toward MAX_MASTERS
        "commands/player.py:True",  # OBSERVE counts them; CONFIRM finds the sender's
        "commands/player.py:True",
        "commands/signon.py:True",  # SIGNON O finds the seat, then refuses it
        "ops/games.py:True",  # the operator's view, marked
    ]


def test_a_code_copied_in_two_pieces_confirms(tmp_path: Path) -> None:
    """The code read as a reader may copy it: split by a space, in any case."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.send(VICTIM, "OBSERVE war1 forgedpw")
    code = judge.confirm_code(VICTIM)
    [confirmed] = judge.send(VICTIM, f"CONFIRM war1 {code[:4].lower()} {code[4:]}")
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: you observe war1, and get its mail.\n"
        "  Sign on with SIGNON Owar1 password.\n"
    )
    assert _seat_row(judge, VICTIM) == (None, None)


def test_nothing_after_an_unconfirmed_observe_acts_in_the_address_name(tmp_path: Path) -> None:
    """A forged OBSERVE opens no seat for the lines after it: a BROADCAST (observers
    may send press in this game) and a new password wait for the address's CONFIRM."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET OBSERVER PRESS YES")
    mails = judge.send(
        VICTIM,
        "OBSERVE war1 forgedpw\nBROADCAST\nI give up, take my centres.\nENDPRESS\n"
        "SET PASSWORD other",
    )
    [answer] = mails
    code = judge.confirm_code(VICTIM)
    refused = (
        "Your observer seat of war1 is not confirmed yet: mail\n"
        "  CONFIRM war1 code, with the code mailed to its address.\n"
    )
    assert answer.to == [VICTIM]
    assert answer.body.startswith("Line 1: OBSERVE war1 ****\n" + observing("war1", code))
    assert answer.body.count(refused) == 2
    assert "Broadcast" not in answer.subject
    [confirmed] = judge.send(VICTIM, f"CONFIRM war1 {code}")
    assert "Confirmed: you observe war1" in confirmed.body
    mails = judge.send(VICTIM, "SIGNON Owar1 forgedpw\nBROADCAST\nHello.\nENDPRESS")
    assert len([m for m in mails if "Broadcast" in m.subject]) == 8  # 7 players, the master
