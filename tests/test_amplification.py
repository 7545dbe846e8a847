"""One mail must not make the judge send many: anyone can mail it, and a From: line can be
forged, so each way one stranger's mail multiplied the judge's mail has a limit (README's
limits table): observer seats of a game, press a mail and a seat an hour, the size of
the end-of-game Diaries mail. Each refusal is a clear line of the answer, and an honest
player never loses press silently: every press refused is named in the reply.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from judge_harness import HOLDS, Judge, observing
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

from judge.commands.information import MAX_LISTED
from judge.commands.player import MAX_OBSERVERS
from judge.commands.press import PRESS_MAX_CHARS, PRESS_PER_HOUR, PRESS_PER_MAIL
from judge.game.diaries import fitting
from judge.service.handling import handle_waiting
from judge.store import diary, games, inbox

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
FULL = (
    "  ERROR: The observer list of war1 is full: a game has at most 50 observers,\n"
    "  so you were not added.\n"
)


def _seat_observers(judge: Judge, count: int) -> list[str]:
    """`count` observers of war1 seated directly (their passwords never used), as a game
    could have them; their addresses."""
    game = judge.game()
    addresses = [f"obs{i}@example.net" for i in range(count)]
    for address in addresses:
        games.add_seat(judge.db, game, games.OBSERVER, address, "unused", judge.now)
    judge.db.conn.commit()
    return addresses


def _observers(judge: Judge) -> list[str]:
    """The observers' addresses, those not yet confirmed too (they count to the cap)."""
    seated = games.seats(judge.db, judge.game(), games.OBSERVER, unconfirmed=True)
    return [s.address for s in seated]


# -- observers --------------------------------------------------------------------------


def test_the_observer_list_of_a_game_is_capped(tmp_path: Path, scrypt_calls: list[bytes]) -> None:
    """Every observer gets every results mail, and OBSERVE seats the From: address, which
    can be forged: 200 OBSERVEs made a game send 224 mails a phase. The 50th observer is
    seated; the 51st is refused before its password is hashed, in words that say why."""
    assert MAX_OBSERVERS == 50
    judge = Judge(tmp_path)
    judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS - 1)
    [answer] = judge.send("last@example.net", "OBSERVE war1 pw50")
    assert answer.to == ["last@example.net"]
    code = judge.confirm_code("last@example.net")
    assert answer.body == "Line 1: OBSERVE war1 ****\n" + observing("war1", code)
    scrypt_calls.clear()
    mails = judge.send("late@example.net", "OBSERVE war1 pw51\nOBSERVE war1 pw52")
    assert [(m.to, m.body) for m in mails] == [
        (
            ["late@example.net"],
            "Line 1: OBSERVE war1 ****\n" + FULL + "Line 2: OBSERVE war1 ****\n" + FULL,
        )
    ]
    assert scrypt_calls == []  # refused before any hash
    assert _observers(judge) == [*seated, "last@example.net"]


def test_observers_of_mails_handled_in_one_commit_count_each_other(tmp_path: Path) -> None:
    """Mails read ahead are handled in one commit: with one seat left, the first OBSERVE
    takes it and the next mail's is refused, uncommitted as the first seat is."""
    judge = Judge(tmp_path)
    judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS - 1)
    for n in range(3):
        judge.now += timedelta(seconds=1)
        raw = (
            f"From: w{n}@example.net\r\nTo: judge@example.org\r\nSubject: watch\r\n"
            f"Message-ID: <watch{n}@example.org>\r\n\r\nOBSERVE war1 pw{n}\r\n"
        ).encode()
        inbox.ingest(judge.db, raw, "smtp", judge.now)
    before = judge.db.execute("SELECT MAX(id) FROM outbound").fetchone()[0]
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    rows = judge.db.execute(
        "SELECT recipients FROM outbound WHERE id > ? ORDER BY id", [before]
    ).fetchall()
    assert rows == [(json.dumps([f"w{n}@example.net"]),) for n in range(3)]
    assert _observers(judge) == [*seated, "w0@example.net"]
    last = judge.db.execute("SELECT raw FROM outbound ORDER BY id DESC LIMIT 1").fetchone()[0]
    assert b"The observer list of war1 is full" in last


def test_a_full_game_refuses_an_observer_joining_by_signon(tmp_path: Path) -> None:
    """SIGNON ?war1 on a started game with no free power seats an observer: the cap
    holds there too."""
    judge = Judge(tmp_path)
    judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS)
    [answer] = judge.send("late@example.net", "SIGNON ?war1 pw51")
    assert answer.body == "Line 1: SIGNON ?war1 ****\n" + FULL
    assert _observers(judge) == seated


def test_a_game_over_the_cap_keeps_its_observers(tmp_path: Path) -> None:
    """A game seated more observers before the cap: none is dropped, each still gets
    the results; it just takes no more. An observer already seated is told so first."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS + 5)
    [answer] = judge.send("obs3@example.net", "OBSERVE war1 again")
    assert answer.body == (
        "Line 1: OBSERVE war1 ****\n"
        "  ERROR: you already observe war1 (SIGNON Owar1 password acts as its\n"
        "  observer).\n"
    )
    [answer] = judge.send("late@example.net", "OBSERVE war1 pw")
    assert answer.body == "Line 1: OBSERVE war1 ****\n" + FULL
    mails: list = []
    for i, initial in enumerate("AEFGIRT"):
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    results = [m for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    reached = sorted(a for m in results for a in m.to)
    assert reached == sorted([MASTER, *players.values(), *seated])


# -- press ------------------------------------------------------------------------------

PER_MAIL = (
    "  ERROR: A mail may send at most 10 press messages: this one was not sent.\n"
    "  Send it in another mail.\n"
)
PER_HOUR = (
    "  ERROR: You have sent 60 press messages in war1 within the last hour, the\n"
    "  most there may be: this one was not sent. Send it again later.\n"
)


def _press(count: int, to: str = "G", first: int = 0) -> str:
    """`count` press blocks to `to`, numbered from `first`."""
    return "".join(f"PRESS TO {to}\nNote {first + i}\nENDPRESS\n" for i in range(count))


def _stored_press(judge: Judge) -> list[str]:
    return [t for (t,) in judge.db.execute("SELECT text FROM press ORDER BY id").fetchall()]


def _sent(count: int, first_line: int) -> str:
    """The answer's lines for `count` press blocks to Germany sent, from `first_line`."""
    return "".join(
        f"Line {first_line + 3 * i}: PRESS TO G\n  Message sent to Germany.\n" for i in range(count)
    )


def test_a_mail_sends_at_most_ten_press_messages(tmp_path: Path) -> None:
    """One mail of 100 press blocks sent about 700 mails, and the reply limits do not
    count press. The 11th press of a mail is refused, press to the master alone and a
    broadcast alike, each named in the answer; its text goes nowhere."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    body = (
        "SIGNON Fwar1 pw2\n" + _press(10) + "PRESS TO G\nEleven\nENDPRESS\n"
        "PRESS TO M\nTwelve\nENDPRESS\nBROADCAST\nThirteen\nENDPRESS\n"
        "DIARY\nNot press.\nENDPRESS\n"
    )
    mails = judge.send(players["F"], body)
    ack, *press = mails
    assert ack.to == [players["F"]]
    assert ack.subject == "Re: [Error Flag] TEST:war1 - S1901M orders"
    assert ack.body.startswith(
        "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n"
        + _sent(10, 2)
        + "Line 32: PRESS TO G\n"
        + PER_MAIL
        + "Line 35: PRESS TO M\n"
        + PER_MAIL
        + "Line 38: BROADCAST\n"
        + PER_MAIL
        + "Line 41: DIARY\n  Diary entry #1 recorded for war1.\n"
    )
    # Germany's copy and the master's (SET ALL PRESS, the default) of each of the ten
    assert [(m.to, m.subject, m.body) for m in press] == [
        (
            [to],
            "TEST:war1 - S1901M Press from France to Germany",
            f"Message from p2@example.org as France to Germany in 'war1':\n\nNote {i}\n",
        )
        for i in range(10)
        for to in (players["G"], MASTER)
    ]
    assert _stored_press(judge) == [f"Note {i}" for i in range(10)]


def test_a_press_longer_than_a_diary_entry_is_refused(tmp_path: Path) -> None:
    """A press goes to every seat, observer and list: one as long as a mail (1 MB) was
    some 58 MB of mail. A text of 20,000 characters goes; one more is refused, named in
    the answer, and sent to no one."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    # lines of 100 characters (a mail's line is cut at 10,000), the line breaks counted
    longest = ("x" * 99 + "\n") * (PRESS_MAX_CHARS // 100 - 1) + "x" * 100
    longer = longest + "y"
    assert len(longest) == PRESS_MAX_CHARS
    body = f"SIGNON Fwar1 pw2\nPRESS TO G\n{longest}\nENDPRESS\nPRESS TO G\n{longer}\nENDPRESS\n"
    ack, *press = judge.send(players["F"], body)
    assert ack.body.startswith(
        "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n"
        + _sent(1, 2)
        + "Line 204: PRESS TO G\n"
        "  ERROR: The press is too long: at most 20000 characters. It was not sent.\n"
    )
    assert [(m.to, m.body.split("\n\n", 1)[1]) for m in press] == [
        ([players["G"]], longest + "\n"),
        ([MASTER], longest + "\n"),
    ]
    assert _stored_press(judge) == [longest]


def test_a_seat_sends_at_most_sixty_press_messages_an_hour(tmp_path: Path) -> None:
    """Across mails, one seat sends 60 press messages an hour, counted from the press
    stored: the daemon restarted counts them still. Press to the master alone is
    refused no sooner, a DIARY entry is not press, another power is not held back, and
    an hour after the first the seat may press again."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    first = judge.now
    for n in range(6):
        [ack, *press] = judge.send(players["F"], "SIGNON Fwar1 pw2\n" + _press(10, first=10 * n))
        assert len(press) == 20  # Germany's and the master's
    restarted = Judge(tmp_path)  # a new life of the judge on the same store
    restarted.now = judge.now
    body = "SIGNON Fwar1 pw2\nPRESS TO M\nLate\nENDPRESS\nBROADCAST\nAll\nENDPRESS\n"
    body += "DIARY\nStill mine.\nENDPRESS\n"
    [ack] = restarted.send(players["F"], body)
    assert ack.body == (
        "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n"
        "Line 2: PRESS TO M\n" + PER_HOUR + "Line 5: BROADCAST\n" + PER_HOUR + "Line 8: DIARY\n"
        "  Diary entry #1 recorded for war1.\n"
        "\n"
        "France in war1, Movement for Spring of 1901:\n"
        "  No orders on file.\n"
        "  Still without orders: Army Marseilles, Army Paris, Fleet Brest.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:08 UTC.\n"
    )
    [ack, press, _] = restarted.send(players["G"], "SIGNON Gwar1 pw3\nPRESS TO F\nHi\nENDPRESS")
    assert (press.to, press.subject) == (
        [players["F"]],
        "TEST:war1 - S1901M Press from Germany to France",
    )
    # The first mail's ten, an hour old (send() moves the clock a minute on), free ten.
    restarted.now = first + timedelta(hours=1)
    [ack, *press] = restarted.send(players["F"], "SIGNON Fwar1 pw2\n" + _press(11, first=60))
    assert ack.body.startswith(
        "Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n"
        + _sent(10, 2)
        + "Line 32: PRESS TO G\n"
        + PER_MAIL
        + "\n"
    )
    assert len(press) == 20
    assert len(_stored_press(judge)) == 60 + 1 + 10


def test_press_of_mails_handled_in_one_commit_is_counted(tmp_path: Path) -> None:
    """Mails read ahead are handled in one commit: the press of the mails before counts
    for the next, uncommitted as it is."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    for n in range(7):
        judge.now += timedelta(seconds=1)
        raw = (
            f"From: {players['F']}\r\nTo: judge@example.org\r\nSubject: press {n}\r\n"
            f"Message-ID: <ahead{n}@example.org>\r\n\r\nSIGNON Fwar1 pw2\r\n"
            + _press(10, first=10 * n).replace("\n", "\r\n")
        ).encode()
        inbox.ingest(judge.db, raw, "smtp", judge.now)
    before = judge.db.execute("SELECT MAX(id) FROM outbound").fetchone()[0]
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    rows = judge.db.execute(
        "SELECT recipients FROM outbound WHERE id > ? ORDER BY id", [before]
    ).fetchall()
    to_germany = [r for (r,) in rows if r == json.dumps([players["G"]])]
    assert len(to_germany) == 60
    assert len(_stored_press(judge)) == 60
    last = judge.db.execute("SELECT raw FROM outbound ORDER BY id DESC LIMIT 1").fetchone()[0]
    assert last.count(b"ERROR: You have sent 60 press messages in war1") == 10


# -- the Diaries mail -------------------------------------------------------------------

ENTRY = "é" * 20_000  # the longest entry, two bytes a character


def test_the_diaries_mail_is_bounded_and_says_what_it_left_out(tmp_path: Path) -> None:
    """A seat may hold 200 entries of 20,000 characters, and the Diaries mail went whole
    to every seat: up to 13.4 MB each. It holds at most 1,000,000 bytes; what does not
    fit is left out and counted, and one writer's great diary written first does not
    crowd the others' out: each writer's first entries go first."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    game = judge.game()
    [france] = [s for s in games.seats(judge.db, game) if s.power == "FRANCE"]
    for _ in range(30):
        diary.record(judge.db, game, france, ENTRY, judge.now)
    [watcher] = _seat_observers(judge, 1)
    judge.send(players["G"], "SIGNON Gwar1 pw3\nDIARY\nGreetings\nENDPRESS")
    [observer] = games.seats(judge.db, game, games.OBSERVER)
    diary.record(judge.db, game, observer, "Watching", judge.now)
    judge.db.conn.commit()
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nTERMINATE")
    diaries = [m for m in mails if m.subject == "TEST:war1 - S1901M Diaries"]
    assert sorted(a for m in diaries for a in m.to) == sorted([MASTER, *players.values(), watcher])
    # 998,000 bytes for the entries as sent, each its text (quoted-printable: 125,001
    # bytes for France's, mail/body_size.py), writer and number and 40 bytes: Germany's
    # (63), the observer's (66), France's first 7 (125,051 each), in rounds; France's
    # last 23 left out.
    kept = "".join(f"\nDiary of France, entry #{n}:\n{ENTRY}\n" for n in range(1, 8))
    assert diaries[0].body == (
        "The diaries of game 'war1', now that it has ended:\n"
        + kept
        + "\nDiary of Germany, entry #1:\nGreetings\n"
        "\nDiary of an observer, entry #1:\nWatching\n"
        "\n"
        "23 more entries were left out, to keep this mail within 1000000 bytes: each\n"
        "writer can still read their own, signed on to the game, with DIARY LIST and\n"
        "DIARY READ n.\n"
    )
    assert all(len(m.full.encode()) <= 1_000_000 for m in diaries)


def test_entries_fit_a_round_at_a_time() -> None:
    """Each writer's first entry, then each one's second: one too large for what is
    left is skipped, and a smaller one after it still goes."""
    costs = [(1, 50), (1, 50), (2, 30), (1, 10), (2, 30)]
    assert fitting(costs, 100) == {0, 2, 3}
    assert fitting(costs, 1_000) == {0, 1, 2, 3, 4}
    assert fitting(costs, 0) == set()


# -- what a game's diaries hold ---------------------------------------------------------

FULL_ENTRY = "x" * 20_000


def _held(judge: Judge) -> dict[str, int]:
    """The characters the diary rows of war1 hold, by the writers' role."""
    rows = judge.db.execute(
        "SELECT s.role, SUM(length(d.text)) FROM diary d JOIN seats s ON s.id = d.seat_id "
        "GROUP BY s.role"
    ).fetchall()
    return dict(rows)


def _fill(judge: Judge, seat: games.Seat, chars: int) -> None:
    """Rows of the seat's holding `chars` characters, full entries and one shorter."""
    game = judge.game()
    for _ in range(chars // 20_000):
        diary.record(judge.db, game, seat, FULL_ENTRY, judge.now)
    if chars % 20_000:
        diary.record(judge.db, game, seat, "x" * (chars % 20_000), judge.now)
    judge.db.conn.commit()


def test_observers_diaries_have_a_share_of_their_own(tmp_path: Path) -> None:
    """Anyone may observe a game, and each of 50 observers could keep 200 entries of
    20,000 characters: 200 million characters a game from strangers. The observers'
    entries together hold at most 400,000; past it an observer's entry is refused, in
    words that say why, and a player's is still recorded."""
    assert (diary.GAME_CHARS, diary.OBSERVERS_CHARS) == (2_000_000, 400_000)
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.observe("watcher@example.net", "opw")
    [watcher] = games.seats(judge.db, judge.game(), games.OBSERVER)
    _fill(judge, watcher, 399_990)
    body = "SIGNON Owar1 opw\nDIARY\n" + "y" * 11 + "\nENDPRESS\nDIARY\n" + "y" * 10
    [answer] = judge.send("watcher@example.net", body)
    assert answer.body == (
        "Line 1: SIGNON Owar1 ****\n"
        "  Signed on to war1 as observer.\n"
        "Line 2: DIARY\n"
        "  ERROR: This entry was not recorded: the observers' diaries\n"
        "  of war1 may hold 400000 characters together, 10 left.\n"
        "Line 5: DIARY\n"
        "  Diary entry #21 recorded for war1.\n"
    )
    [answer] = judge.send(players["F"], "SIGNON Fwar1 pw2\nDIARY\nMine.")
    assert "  Diary entry #1 recorded for war1.\n" in answer.body
    assert _held(judge) == {"observer": 400_000, "player": 5}
    # A second observer finds the observers' share as full.
    judge.observe("late@example.net", "lpw")
    [answer] = judge.send("late@example.net", "SIGNON Owar1 lpw\nDIARY\nz")
    assert answer.body.endswith(
        "  ERROR: This entry was not recorded: the observers' diaries\n"
        "  of war1 may hold 400000 characters together, 0 left.\n"
    )
    assert _held(judge) == {"observer": 400_000, "player": 5}


def test_a_games_diaries_are_bounded_and_a_deleted_entry_frees_its_room(
    tmp_path: Path,
) -> None:
    """The players' and masters' entries together hold at most 1,600,000 characters (the
    game's 2,000,000 less the observers' share): past it an entry is refused, and an
    entry deleted gives its room back (its row kept, its number never used again)."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    seats = {s.power: s for s in games.seats(judge.db, judge.game(), games.PLAYER)}
    _fill(judge, seats["FRANCE"], 1_599_995)
    [answer] = judge.send(players["G"], "SIGNON Gwar1 pw3\nDIARY\nSix ch")
    assert (
        "  Signed on to war1 as Germany.\n"
        "Line 2: DIARY\n"
        "  ERROR: This entry was not recorded: the players' and masters' diaries\n"
        "  of war1 may hold 1600000 characters together, 5 left.\n"
        "\nGermany in war1"
    ) in answer.body
    [answer] = judge.send(players["F"], "SIGNON Fwar1 pw2\nDIARY DELETE 80\nDIARY\nSix ch")
    assert (
        "  Signed on to war1 as France.\n"
        "Line 2: DIARY DELETE 80\n  Diary entry #80 deleted.\n"
        "Line 3: DIARY\n  Diary entry #81 recorded for war1.\n"
        "\nFrance in war1"
    ) in answer.body
    assert _held(judge) == {"player": 1_599_995 - 19_995 + 6}
    rows = judge.db.execute(
        "SELECT number, length(text), deleted FROM diary WHERE number >= 79 ORDER BY number"
    ).fetchall()
    assert rows == [(79, 20_000, 0), (80, 0, 1), (81, 6, 0)]


def test_the_press_help_file_states_the_limits_in_force() -> None:
    """GET press states the limits on press: the numbers are the code's."""
    text = (Path(__file__).resolve().parents[1] / "templates/files/press.txt").read_text()
    assert (
        f"A mail sends at most {PRESS_PER_MAIL} press messages, and each power (or master, "
        f"observer)\nat most {PRESS_PER_HOUR} an hour, press to the master counted alike, each "
        f"at most {PRESS_MAX_CHARS}\ncharacters"
    ) in text


# -- questions: what one mail may ask to be told -----------------------------------------

WHO_PLAYS = (
    "  Who plays war1:\n"
    "    master               gm@example.org\n"
    "    Austria              p0@example.org\n"
    "    England              p1@example.org\n"
    "    France               p2@example.org\n"
    "    Germany              p3@example.org\n"
    "    Italy                p4@example.org\n"
    "    Russia               p5@example.org\n"
    "    Turkey               p6@example.org\n"
)
ABOVE = "  ERROR: Answered above, at line {}: one mail is answered once for each\n  question.\n"


def test_a_question_asked_again_in_one_mail_is_answered_once(tmp_path: Path) -> None:
    """The answer goes to the From: address, which can be forged: a hundred HELP lines
    (500 bytes) made an answer of 380 KB, a hundred WHOGAME war1 FULL one of 250 KB. The
    same question asked again, however it is spelt, is answered by a line (here 14 KB in
    all)."""
    judge = Judge(tmp_path)
    judge.start_game()
    body = "WHOGAME war1\nwhogame War1\n" + "HELP\n" * 98  # 100 lines: all read
    [answer] = judge.send("you@example.net", body)
    assert answer.to == ["you@example.net"]
    help_text = answer.body.split("Line 3: HELP\n")[1].split("Line 4: HELP\n")[0]
    assert answer.body == (
        "Line 1: WHOGAME war1\n"
        + WHO_PLAYS
        + "Line 2: whogame War1\n"
        + ABOVE.format(1)
        + "Line 3: HELP\n"
        + help_text
        + "".join(f"Line {n}: HELP\n" + ABOVE.format(3) for n in range(4, 101))
    )
    assert help_text.startswith("  Commands, one per line, in capitals or not:\n")


def test_one_mail_is_answered_at_most_ten_questions(tmp_path: Path) -> None:
    """Different questions are answered up to ten a mail; the eleventh and later are
    refused, each with the limit named, and nothing else of the mail is held back."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    questions = [
        "WHOGAME war1",
        "WHOGAME war1 FULL",
        "SUMMARY war1",
        "LIST war1",
        "LIST",
        "LIST FULL",
        "HISTORY war1",
        "HELP",
        "VERSION",
        "DIARY LIST",
        "SUMMARY war2",
        "WHOGAME war2",
    ]
    body = "SIGNON Fwar1 pw2\n" + "\n".join(questions) + "\nA Par-Bur"
    mails = judge.send(players["F"], body)
    answer = mails[0]
    limit = (
        "  ERROR: Only 10 questions (LIST, WHOGAME, SUMMARY, HISTORY, HELP, VERSION,\n"
        "  DIARY LIST or READ) are answered for one mail; ask this one in another.\n"
    )
    assert "Line 12: SUMMARY war2\n" + limit + "Line 13: WHOGAME war2\n" + limit in answer.body
    assert answer.body.count("ERROR:") == 2
    assert "Line 11: DIARY LIST\n  No diary entries in war1.\n" in answer.body
    assert "  A PAR - BUR\n" in answer.body  # the orders after them are taken
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    assert [m.subject for m in mails[1:]] == ["TEST:war1 - S1901M history"]


def test_one_mail_gets_one_history_of_a_game(tmp_path: Path) -> None:
    """Each HISTORY is a mail of up to 1,000 lines: the same game's asked again in one
    mail, for other dates or lines, is answered by a line; another game's is sent."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.start_game("war2")
    body = (
        "HISTORY war1\nHISTORY war1 LINES 999\nHISTORY war2 FROM Jan 1 2026\n"
        "HISTORY War1 EXCLSTART S1901M"
    )
    mails = judge.send("you@example.net", body)
    assert [m.subject for m in mails] == [
        "Re: [Error Flag] TEST orders",
        "TEST:war1 - S1901M history",
        "TEST:war2 - S1901M history",
    ]
    assert mails[0].body == (
        "Line 1: HISTORY war1\n  The history of war1 (0 phases) is in a separate mail.\n"
        "Line 2: HISTORY war1 LINES 999\n"
        + ABOVE.format(1)
        + "Line 3: HISTORY war2 FROM Jan 1 2026\n"
        "  The history of war2 (0 phases) is in a separate mail.\n"
        "Line 4: HISTORY War1 EXCLSTART S1901M\n" + ABOVE.format(1)
    )


def test_one_mails_answer_shows_at_most_two_whole_diary_entries(tmp_path: Path) -> None:
    """A seat may read its entries of 20,000 characters, and a signed-on sender's answer
    is never held back: a hundred DIARY READ 1 made an answer of a megabyte, ten different
    entries one of 200 KB. One mail's answer shows at most 40,000 characters of them."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    game = judge.game()
    [france] = [s for s in games.seats(judge.db, game) if s.power == "FRANCE"]
    for letter in "abc":
        diary.record(judge.db, game, france, letter * 20_000, judge.now)
    diary.record(judge.db, game, france, "short", judge.now)
    judge.db.conn.commit()
    body = "SIGNON Fwar1 pw2\nDIARY READ 1\nDIARY READ 3\nDIARY READ 2\nDIARY READ 1"
    [answer] = judge.send(players["F"], body)
    read = "  Reading entry {} ...\n{}\n  End of entry\n"
    assert answer.body.split("\n\nFrance in war1")[0] == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "Line 2: DIARY READ 1\n" + read.format(1, "a" * 20_000) + "Line 3: DIARY READ 3\n"
        "" + read.format(3, "c" * 20_000) + "Line 4: DIARY READ 2\n"
        "  ERROR: One mail's answer shows at most 40000 characters of diary entries;\n"
        "  read this one in another mail.\n"
        "Line 5: DIARY READ 1\n" + ABOVE.format(2).rstrip("\n")
    )


def test_list_shows_at_most_300_games_and_counts_the_rest(tmp_path: Path) -> None:
    """Anyone may CREATE games, and every game made each LIST longer, whoever asked it
    for (a forged From: too): 10,000 games made a LIST of 480 KB from a mail of 4 bytes.
    LIST shows the first 300 by name and counts the rest; LIST name still shows each."""
    assert MAX_LISTED == 300
    judge = Judge(tmp_path)
    for i in range(302):
        games.create_game(judge.db, f"g{i:03d}", "standard", judge.now)
    judge.db.conn.commit()
    [answer] = judge.send("you@example.net", "LIST\nLIST g301")
    shown = [line.split()[0] for line in answer.body.splitlines() if line.startswith("    g")]
    assert shown == [f"g{i:03d}" for i in range(300)]
    assert "    g299         forming   0 players signed on\n" in answer.body
    assert (
        "    g299         forming   0 players signed on\n"
        "    and 2 more, not listed here (LIST name shows one)\n"
        "  Variants" in answer.body
    )
    assert "Line 2: LIST g301\n" in answer.body
    assert "g301" in answer.body.split("Line 2: LIST g301\n")[1]


def test_an_answer_to_another_address_than_the_seats_is_held_back_as_any_reply(
    tmp_path: Path,
) -> None:
    """An answer to a mail that signed on with a right password is never held back, so
    that a forger cannot silence a player; but anyone may observe a game, and the From:
    can be forged: a stranger's own observer password, in mails from the addresses he
    chose, had each answered in full (30 KB for 131 bytes), every mail, however many. From
    another address than the seat's, the answers are held back as any others; from the
    seat's own, never."""
    judge = Judge(tmp_path, replies_per_hour=2)
    judge.start_game()
    judge.send("me@example.net", "OBSERVE war1 opw")
    judge.now += timedelta(hours=1)  # the answer to OBSERVE counts no more, CONFIRM's does
    judge.confirm("me@example.net")
    sent = [
        (m.to, m.subject)
        for _ in range(4)
        for m in judge.send("victim@example.com", "SIGNON Owar1 opw\nVERSION")
    ]
    answer, held = "Re: TEST:war1 - S1901M orders", "Re: TEST orders (too many replies)"
    assert sent == [
        (["victim@example.com"], answer),
        (["me@example.net"], answer),  # the copy to the seat's address, held back alike
        (["victim@example.com"], answer),
        (["me@example.net"], held),
        (["victim@example.com"], held),
    ]
    for _ in range(4):
        [answer] = judge.send("me@example.net", "SIGNON Owar1 opw\nVERSION")
        assert answer.to == ["me@example.net"]
        assert answer.body.startswith("Line 1: SIGNON Owar1 ****\n  Signed on to war1 as observer.")
