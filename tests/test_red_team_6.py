"""The red team's attacks on what landed for issue 16's amplification limits, the refusal
of a game whose map is gone, the pause of a game nobody plays, and the daemon's pacing.
Each test is an attack by mail (a stranger's, a forger's or a careless master's) and
asserts the promise the limit made, measured as the judge sends it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from judge_harness import Judge, observing
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

from judge.commands.master import MAX_MASTERS
from judge.commands.player import MAX_OBSERVERS
from judge.config import Config
from judge.game.diaries import MAIL_BYTES
from judge.mail import compose
from judge.mail.body_size import body_bytes
from judge.store import diary, games

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
POWER_NAMES = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _raw_sizes(judge: Judge, subject: str, after: int) -> list[int]:
    """The size in bytes, as queued to send, of each mail after `after` whose Subject
    header contains `subject`."""
    rows = judge.db.execute("SELECT raw FROM outbound WHERE id > ? ORDER BY id", [after])
    return [len(raw) for (raw,) in rows if f"Subject: {subject}".encode() in raw]


# -- the Diaries mail: its bound is the mail's bytes, not the text's ---------------------


def test_the_diaries_mail_of_non_ascii_entries_is_within_its_bound_as_sent(
    tmp_path: Path,
) -> None:
    """MAIL_BYTES counted the entries' UTF-8, but a mail with any character outside ASCII
    is sent quoted-printable, three bytes for each byte of '€': thirty entries of '€' by
    France (and one of '=' by Germany, each '=' three bytes too) made a Diaries mail of
    about 3 MB to every seat. It is now within MAIL_BYTES as sent."""
    judge = Judge(tmp_path)
    judge.start_game()
    game = judge.game()
    seats = {s.power: s for s in games.seats(judge.db, game, games.PLAYER)}
    for _ in range(30):
        diary.record(judge.db, game, seats["FRANCE"], "€" * 20_000, judge.now)
    diary.record(judge.db, game, seats["GERMANY"], "=" * 20_000, judge.now)
    judge.db.conn.commit()
    before = judge._last()
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nTERMINATE")
    diaries = [m for m in mails if m.subject == "TEST:war1 - S1901M Diaries"]
    assert len(diaries) == 8  # the master and the seven players, one mail each
    sizes = _raw_sizes(judge, "TEST:war1 - S1901M Diaries", before)
    assert len(sizes) == 8
    assert max(sizes) <= MAIL_BYTES
    # France's entries are 187,503 bytes each as sent (with their heading 187,553) and
    # Germany's 62,502 (62,553): Germany's and France's first four fit in 998,000.
    body = diaries[0].body
    assert body.count("Diary of France, entry #") == 4
    assert "Diary of Germany, entry #1:\n" + "=" * 20_000 + "\n" in body
    assert body.endswith(
        "\n26 more entries were left out, to keep this mail within 1000000 bytes: each\n"
        "writer can still read their own, signed on to the game, with DIARY LIST and\n"
        "DIARY READ n.\n"
    )


def test_body_bytes_is_never_less_than_the_body_as_built() -> None:
    """body_bytes bounds what compose.build makes of a text, 7-bit or quoted-printable,
    for texts of every kind of byte it escapes (a fixed seed: the same texts each run)."""
    config = Config(name="TEST", address="judge@example.org")
    rnd = random.Random(6)
    alphabet = "ab =\t\n€é\x01.~"
    for _ in range(300):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 2_000)))
        for body in (text, text.replace("€", "e").replace("é", "e")):  # also plain ASCII
            raw = compose.build(config, ["p@example.org"], "s", body, NOW, "<1@example.org>")
            built = len(raw.partition(b"\r\n\r\n")[2])
            assert built <= body_bytes(body), (body, built)


# -- observers: a list filled by forged addresses can be cleared -------------------------


def test_the_master_ejects_forged_observers_and_the_seat_is_free_again(tmp_path: Path) -> None:
    """Fifty forged From: addresses OBSERVE a game (one mail each): its observer list is
    full, and each of them gets its results. An observer cannot RESIGN and EJECT took only
    a power, so the list stayed full for good, a real observer refused. EJECT address
    (njudge's) frees the seat; the address is not told (it may be a stranger's)."""
    judge = Judge(tmp_path)
    judge.start_game()
    for i in range(MAX_OBSERVERS):
        judge.send(f"forged{i}@victim.example", f"OBSERVE war1 pw{i}")
    [refused] = judge.send("fan@example.net", "OBSERVE war1 fanpw")
    assert "The observer list of war1 is full" in refused.body
    [ack] = judge.send(
        MASTER,
        "SIGNON Mwar1 masterpw\nEJECT Forged7@Victim.Example\nEJECT nobody@example.net",
    )
    assert ack.to == [MASTER]
    assert ack.body == (
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master.\n"
        "Line 2: EJECT Forged7@Victim.Example\n"
        "  The observer forged7@victim.example is ejected from war1, and not told.\n"
        "Line 3: EJECT nobody@example.net\n"
        "  ERROR: nobody@example.net is not an observer of war1.\n"
        "\n"
        "Orders on file in war1, power by power:\n"
        + "".join(f"  {power}: none\n" for power in POWER_NAMES)
    )
    seated = games.seats(judge.db, judge.game(), games.OBSERVER, unconfirmed=True)
    observers = [s.address for s in seated]
    assert "forged7@victim.example" not in observers
    assert len(observers) == MAX_OBSERVERS - 1
    [seated_now] = judge.send("fan@example.net", "OBSERVE war1 fanpw")
    code = judge.confirm_code("fan@example.net")
    assert seated_now.body == "Line 1: OBSERVE war1 ****\n" + observing("war1", code)


def test_eject_of_an_observer_is_the_masters_alone(tmp_path: Path) -> None:
    """A player (or an observer) cannot eject an observer."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send("watcher@example.net", "OBSERVE war1 wpw")
    [ack] = judge.send(players["F"], "SIGNON Fwar1 pw2\nEJECT watcher@example.net")
    assert ack.body.startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "Line 2: EJECT watcher@example.net\n"
        "  ERROR: only the game's master may use EJECT.\n"
        "\nFrance in war1, Movement for Spring of 1901:\n"
    )
    seated = games.seats(judge.db, judge.game(), games.OBSERVER, unconfirmed=True)
    assert [s.address for s in seated] == ["watcher@example.net"]


# -- a game whose map is gone: another game's orders in the same mail stay ---------------


def test_a_line_naming_a_game_without_its_map_keeps_the_open_blocks_orders(
    tmp_path: Path,
) -> None:
    """France's orders for war1, with a LIST of war2 (whose map file was removed) among
    them: the LIST is refused, but war1's block was dropped with it, its first order gone
    without a line of the answer and the next refused as needing a SIGNON. Now only the
    LIST is refused; war1's orders are stored."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(MASTER, "CREATE ?war2 masterpw")
    judge.db.execute("UPDATE games SET variant = 'removed_map' WHERE name = 'war2'")
    judge.db.conn.commit()
    [ack] = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par H\nLIST war2\nA Mar H")
    assert ack.body == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "Line 3: LIST war2\n"
        "  ERROR: war2 cannot be played just now: its map, removed_map, is no longer\n"
        "  among the judge's maps. Nothing of this is stored.\n"
        "  The judge's keeper is told.\n"
        "\n"
        "France in war1, Movement for Spring of 1901:\n"
        "  A PAR H\n"
        "  A MAR H\n"
        "  Orders on file now:\n"
        "    Army Paris HOLD\n"
        "    Army Marseilles HOLD\n"
        "  Still without orders: Fleet Brest.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:08 UTC.\n"
    )
    stored = judge.db.execute("SELECT phase, power FROM order_sets").fetchall()
    assert stored == [("S1901M", "FRANCE")]
    assert judge.game("war1").state == "active"


def test_a_line_naming_a_game_that_does_not_read_keeps_the_open_blocks_orders(
    tmp_path: Path,
) -> None:
    """The same for a game whose row does not read (red team 3's refusal): LIST war1 among
    France's orders for war2 dropped war2's block, its first order lost without a word."""
    judge = Judge(tmp_path)
    players = judge.start_game("war1")
    judge.start_game("war2")
    judge.db.execute("UPDATE games SET settings = '{not json' WHERE name = 'war1'")
    judge.db.conn.commit()
    [ack, notice] = judge.send(players["F"], "SIGNON Fwar2 pw2\nA Mar H\nLIST war1\nA Par H")
    assert ack.body == (
        "Line 1: SIGNON Fwar2 ****\n"
        "  Signed on to war2 as France.\n"
        "Line 3: LIST war1\n"
        "  ERROR: war1 cannot be read from the judge's store (a fault on its disk or a\n"
        "  hand edit): the game is paused, and its master and the judge's keeper are\n"
        "  told. Nothing of this is stored.\n"
        "\n"
        "France in war2, Movement for Spring of 1901:\n"
        "  A MAR H\n"
        "  A PAR H\n"
        "  Orders on file now:\n"
        "    Army Marseilles HOLD\n"
        "    Army Paris HOLD\n"
        "  Still without orders: Fleet Brest.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:16 UTC.\n"
    )
    assert notice.to == [MASTER]
    assert judge.effective("war2", "FRANCE") == ["A MAR H", "A PAR H"]


# -- masters: PROMOTE is no way past the observers' cap ---------------------------------


def test_promote_is_capped_and_never_seats_a_master_twice(tmp_path: Path) -> None:
    """Anyone may CREATE a game and forge its players; its master PROMOTEd any number of
    addresses (four a mail), each then getting every results mail and all press: the
    observers' cap was no cap. A game has at most MAX_MASTERS masters, and PROMOTE of a
    master already refused (it seated the address again, one more password mailed)."""
    assert MAX_MASTERS == 10
    judge = Judge(tmp_path)
    judge.start_game()
    signon = "SIGNON Mwar1 masterpw\n"
    mails = judge.send(MASTER, signon + "PROMOTE victim@example.net\nPROMOTE victim@example.net")
    assert [m.to for m in mails] == [[MASTER], ["victim@example.net"]]
    assert mails[0].body.startswith(
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master.\n"
        "Line 2: PROMOTE victim@example.net\n"
        "  victim@example.net is now a master of war1 and gets a password by mail.\n"
        "  The new master gets none of the game's mail until they confirm, with the\n"
        "  code mailed to them.\n"
        "Line 3: PROMOTE victim@example.net\n"
        "  ERROR: victim@example.net is a master of war1 already.\n"
    )
    for first in range(0, 8, 4):  # the passwords' budget: four PROMOTEs a mail
        lines = "".join(f"PROMOTE v{i}@example.net\n" for i in range(first, first + 4))
        judge.send(MASTER, signon + lines)
    # Unconfirmed seats count toward the cap (else forged PROMOTEs grew the table).
    masters = games.seats(judge.db, judge.game(), games.MASTER, unconfirmed=True)
    assert len(masters) == MAX_MASTERS  # gm, victim and v0..v7
    mails = judge.send(MASTER, signon + "PROMOTE v8@example.net")
    assert [m.to for m in mails] == [[MASTER]]
    assert mails[0].body.startswith(
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master.\n"
        "Line 2: PROMOTE v8@example.net\n"
        "  ERROR: war1 has 10 masters, the most a game may have: no one was promoted.\n"
    )
    assert len(games.seats(judge.db, judge.game(), games.MASTER, unconfirmed=True)) == MAX_MASTERS


# -- a game no one plays at all is paused too ---------------------------------------------

NO_POWER_PLAYED = (
    "No one plays any power still in war1: none was taken, or each\n"
    "player left it, and Movement, Spring of 1901 was processed in civil\n"
    "disorder. So that the game is not played out so for ever, mailing its\n"
    "master and observers every phase, the judge has paused it: the clock is\n"
    "stopped and nothing is processed. The time left to the deadline is kept.\n"
    "\n"
    "Anyone not playing in war1 may still take a power over, and a\n"
    "player who abandoned one may come back to it. Sign on as master and send RESUME\n"
    "to play on (if nobody comes back, the game is paused again after the next\n"
    "phase), or TERMINATE to end the game.\n"
)


def test_a_game_begun_with_no_player_is_paused_after_its_first_phase(tmp_path: Path) -> None:
    """Anyone may CREATE a game, FORCE BEGIN it with no player, set 1-minute phases and
    STALE and MAXYEARS off, and seat forged observers: no power was ever late, so the
    pause of a game nobody plays never came, and it was played out every minute for ever,
    each phase's results to its master and every observer (measured: 6 years, 24 mails,
    nothing paused). Now it is paused after its first phase, its master told."""
    judge = Judge(tmp_path)
    judge.send(MASTER, "CREATE ?war1 masterpw")
    settings = "SET MOVE LENGTH 1m\nSET STALE OFF\nSET MAXYEARS OFF\nFORCE BEGIN"
    judge.send(MASTER, "SIGNON Mwar1 masterpw\n" + settings)
    judge.observe("victim@example.net", "obspw")
    game = judge.game()
    mails = judge.at(datetime.fromisoformat(game.deadline or ""))
    assert [(m.to, m.subject) for m in mails] == [
        ([MASTER], "TEST:war1 - S1901M Results"),
        (["victim@example.net"], "TEST:war1 - S1901M Results"),
        ([MASTER], "TEST:war1 - F1901M Game Paused: no power played"),
    ]
    assert mails[-1].body == NO_POWER_PLAYED
    game = judge.game()
    assert (game.phase, game.state, game.paused_remaining) == ("F1901M", games.PAUSED, 60.0)
    assert judge.at(judge.now + timedelta(days=30)) == []  # nothing more, ever


def test_a_game_no_one_plays_with_a_stale_draw_is_played_out_to_it(tmp_path: Path) -> None:
    """With STALE on (7 years, the default) such a game ends by the stale-position draw,
    as before: it is not paused (tests/test_stale_ending.py, which the pause of an
    abandoned game had broken, plays out a game whose players all left to that draw)."""
    judge = Judge(tmp_path)
    judge.send(MASTER, "CREATE ?war1 masterpw")
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET STALE 1\nFORCE BEGIN")
    for _ in range(6):
        judge.at(judge.now + timedelta(days=4))
    game = judge.game()
    assert game.state == games.FINISHED
    assert [p for p, *_ in games.processed_phases(judge.db, game)] == [
        "S1901M",
        "F1901M",
        "S1902M",
        "F1902M",
    ]


# -- press: the hour's limit is a power's, not a seat's ----------------------------------


def test_resign_and_take_over_again_does_not_reset_the_press_limit(tmp_path: Path) -> None:
    """France's player sends the hour's 60 press and RESIGNs; a stranger takes France over
    (one mail, any From:): a new seat, whose count of press an hour started at nought, so
    a RESIGN and a takeover (one a phase, one a minute at the shortest) gave 60 press
    more each time. A power's seats now count together."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    ten = "".join(f"PRESS TO G\nmessage {i}\nENDPRESS\n" for i in range(10))
    for _ in range(6):
        judge.send(players["F"], f"SIGNON Fwar1 pw2\n{ten}")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    assert judge.db.execute("SELECT COUNT(*) FROM press").fetchone() == (60,)
    mails = judge.send("stranger@example.net", "SIGNON ?war1 pwx\nPRESS TO G\nmore\nENDPRESS")
    assert not [m for m in mails if "Press from" in m.subject]
    assert mails[0].body == (
        "Line 1: SIGNON ?war1 ****\n"
        "  Take over of abandoned France allowed.\n"
        "  You now play France in war1,\n"
        "  with the password of this line.\n"
        "  Wait has been set automatically for you - send 'set nowait' to clear.\n"
        "Line 2: PRESS TO G\n"
        "  ERROR: 60 press messages were sent as France in war1 within the last hour,\n"
        "  by you and whoever played it before you, the most there may be: this one was\n"
        "  not sent. Send it again later.\n"
        "\n"
        "France in war1, Movement for Spring of 1901:\n"
        "  No orders on file.\n"
        "  Still without orders: Army Marseilles, Army Paris, Fleet Brest.\n"
        "  WAIT is set. Deadline: Monday 23 November 2026 12:16 UTC.\n"
    )
    assert judge.db.execute("SELECT COUNT(*) FROM press").fetchone() == (60,)
    # Germany's own seat counts alone: it may still press.
    [ack, *_] = judge.send(players["G"], "SIGNON Gwar1 pw3\nPRESS TO F\nhello\nENDPRESS")
    assert "  Message sent to France.\n" in ack.body


# -- takeovers: once a power a phase -------------------------------------------------------

TAKEN_AGAIN = (
    "  ERROR: France in war1 was taken over in this phase already:\n"
    "  it may be taken over again once the phase is processed.\n"
)


def test_a_power_is_taken_over_once_a_phase(tmp_path: Path) -> None:
    """France is free. A stranger's one mail, SIGNON ?war1 and RESIGN, made the judge send
    17 mails (New Player Signon to each seat, Deadline Advanced to each, the master's
    Resignation) and pushed the deadline a phase's length out; from the next forged
    address again, without end: a game held off for ever, and mail without limit. Now
    a power taken over and left again in a phase is free again only at the next one."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    mails = judge.send("a@example.net", "SIGNON ?war1 pwa\nRESIGN")
    assert len(mails) == 17  # the one takeover of the phase: as before
    deadline = judge.game().deadline
    mails = judge.send("b@example.net", "SIGNON ?war1 pwb\nRESIGN")
    assert [(m.to, m.body) for m in mails] == [
        (
            ["b@example.net"],
            "Line 1: SIGNON ?war1 ****\n" + TAKEN_AGAIN + "Line 2: RESIGN\n"
            "  ERROR: not used, because the SIGNON before it was refused.\n",
        )
    ]
    [ack] = judge.send("c@example.net", "SIGNON Fwar1 pwc")
    assert ack.body == "Line 1: SIGNON Fwar1 ****\n" + TAKEN_AGAIN
    assert judge.game().deadline == deadline
    assert [s.power for s in games.seats(judge.db, judge.game(), games.PLAYER)].count("FRANCE") == 0
    # The phase processed (everyone late: abandoned), a power is taken over again.
    judge.at(datetime.fromisoformat(deadline or "") + timedelta(days=2))
    assert judge.game().phase == "F1901M"
    [ack, *_] = judge.send("d@example.net", "SIGNON ?war1 pwd")
    assert ack.body.startswith(
        "Line 1: SIGNON ?war1 ****\n  Take over of abandoned Austria allowed.\n"
    )


def test_signon_query_takes_a_free_power_not_taken_over_this_phase(tmp_path: Path) -> None:
    """England and France are free; England was taken over and left again this phase:
    SIGNON ?war1 takes France, not refused for England."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["E"], "SIGNON Ewar1 pw1\nRESIGN")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    judge.send("a@example.net", "SIGNON ?war1 pwa\nRESIGN")  # England, and left again
    [ack, *_] = judge.send("b@example.net", "SIGNON ?war1 pwb")
    assert ack.body.startswith(
        "Line 1: SIGNON ?war1 ****\n  Take over of abandoned France allowed.\n"
    )
