"""Issue 17, item 4: the master and moderation, by mail, as njudge has them (PROCESS with
a phase, UNSTART, SET [NO] MANUAL PROCESS/START, SET [NO] STRICT WAIT, SET [UN]MODERATED,
BECOME MASTER, the parameters-changed notice and njudge's deadline spellings), through
the real handling path with a clock the test moves."""

from __future__ import annotations

from datetime import datetime, timedelta

from judge_harness import HOLDS, POWERS, Judge, Mail

from judge.store import games

GM = "gm@example.org"
MASTER = "SIGNON Mwar1 masterpw"


def _ack(mails: list[Mail], to: str = GM) -> str:
    """The acknowledgement's body: the first mail to `to`."""
    return next(m for m in mails if m.to == [to]).body


def test_process_naming_another_phase_is_ignored_with_njudges_line(judge: Judge) -> None:
    judge.start_game()
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS Fall 1905 Retreat"))
    assert (
        "Line 2: PROCESS Fall 1905 Retreat\n"
        "  ERROR: Current phase is S1901M, process command ignored.\n"
        "  (Fall 1905 Retreats (F1905R) is not the current phase; nothing was changed.)\n"
    ) in body
    assert judge.game().phase == "S1901M"


def test_process_in_the_adjustments_names_them_as_njudge_does(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par - Bur")
    judge.send(GM, f"{MASTER}\nPROCESS S1901M")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Bur - Bel")
    judge.send(GM, f"{MASTER}\nPROCESS F1901M")
    assert judge.game().phase == "W1901A"
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS F1901M"))
    assert "  ERROR: Current phase is F1901B, process command ignored.\n" in body
    assert judge.game().phase == "W1901A"
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS F1901B"))
    assert "war1 has been processed; the results are mailed to everyone." in body
    assert judge.game().phase == "S1902M"


def test_unstart_takes_the_game_back_to_forming_and_makes_it_manual_start(
    judge: Judge,
) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par - Bur")
    mails = judge.send(GM, f"{MASTER}\nUNSTART")
    assert (
        "Line 2: UNSTART\n"
        "  war1 is forming again, with no powers assigned; it starts\n"
        "  when you send FORCE BEGIN (or PROCESS). Everyone is told.\n"
    ) in _ack(mails)
    notices = [m for m in mails if m.subject == "TEST:war1 - S1901M Game Unstarted"]
    assert sorted(a for m in notices for a in m.to) == sorted([GM, *players.values()])
    assert all(len(m.to) == 1 for m in notices)  # one mail each
    game = judge.game()
    assert (game.state, game.phase, game.deadline) == ("forming", None, None)
    assert game.settings.manual_start
    assert {s.power for s in games.seats(judge.db, game, games.PLAYER)} == {None}
    # The game is full but waits for its master; a player's mail does not start it.
    judge.send(players["F"], "SIGNON Fwar1 pw2\nSET PREFERENCE F")
    assert judge.game().state == "forming"
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS"))
    assert "The game war1 is full and has started" in body
    game = judge.game()
    assert (game.state, game.phase) == ("active", "S1901M")
    assert judge.effective("war1", "F") == []  # the orders before UNSTART are gone


def test_unstart_after_a_phase_is_processed_is_refused(judge: Judge) -> None:
    judge.start_game()
    judge.send(GM, f"{MASTER}\nPROCESS")
    body = _ack(judge.send(GM, f"{MASTER}\nUNSTART"))
    assert (
        "Line 2: UNSTART\n"
        "  ERROR: war1 cannot be unstarted: a phase has been processed, and it is now\n"
        "  in F1901M. ROLLBACK 1 takes it back to its first phase.\n"
    ) in body
    assert judge.game().phase == "F1901M"
    body = _ack(judge.send(GM, f"{MASTER}\nUNSTART now"))
    assert "Line 2: UNSTART now\n  ERROR: Expected UNSTART on its own line.\n" in body
    player = "p2@example.org"
    body = _ack(judge.send(player, "SIGNON Fwar1 pw2\nUNSTART"), player)
    assert "Line 2: UNSTART\n  ERROR: only the game's master may use UNSTART.\n" in body


def _all_hold(judge: Judge, players: dict[str, str]) -> list[Mail]:
    mails = []
    for i, initial in enumerate(POWERS):
        mails += judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    return mails


def test_a_manual_process_game_waits_for_its_master_and_says_so_daily(judge: Judge) -> None:
    players = judge.start_game()
    body = _ack(judge.send(GM, f"{MASTER}\nSET MANUAL PROCESS"))
    assert "Line 2: SET MANUAL PROCESS\n  war1: manual process is now on.\n" in body
    mails = _all_hold(judge, players)  # every order in: it would go now
    assert judge.game().phase == "S1901M"
    assert not [m for m in mails if "Results" in m.subject]
    everyone = sorted([GM, *players.values()])
    mails = judge.at(judge.now)
    assert {m.subject for m in mails} == {"TEST:war1 - S1901M Turn Waiting"}
    assert sorted(a for m in mails for a in m.to) == everyone  # one mail each
    waiting = mails[0]
    assert waiting.body == "Game 'war1' is waiting for master to process turn.\n"
    first = judge.now
    assert judge.at(first + timedelta(hours=23, minutes=59)) == []
    again = judge.at(first + timedelta(days=1))
    assert [m.body for m in again] == [waiting.body] * 8
    # The deadline and the end of grace pass (first + 2 days + 8 minutes is the
    # deadline): one mail a day, nothing processed.
    later = judge.at(first + timedelta(days=2, hours=1))
    assert [m.body for m in later] == [waiting.body] * 8
    assert judge.at(first + timedelta(days=2, hours=23)) == []
    assert [m.body for m in judge.at(first + timedelta(days=3))] == [waiting.body] * 8
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS"))
    assert "war1 has been processed; the results are mailed to everyone." in body
    assert judge.game().phase == "F1901M"


def test_a_manual_process_game_waits_at_its_deadline_and_set_auto_process_ends_it(
    judge: Judge,
) -> None:
    judge.start_game()
    judge.send(GM, f"{MASTER}\nSET NO MANUAL PROCESS\nSET MANUAL PROCESS")
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    mails = judge.at(deadline + timedelta(hours=24))  # the end of grace: it would go
    assert judge.game().phase == "S1901M"
    assert [m.subject for m in mails if "Turn Waiting" in m.subject] == [
        "TEST:war1 - S1901M Turn Waiting"
    ] * 8
    body = _ack(judge.send(GM, f"{MASTER}\nSET AUTO PROCESS"))
    assert "Line 2: SET AUTO PROCESS\n  war1: manual process is now off.\n" in body
    judge.at(judge.now)
    assert judge.game().phase == "F1901M"
    body = _ack(judge.send(GM, f"{MASTER}\nSET MANUAL\nSET MANUAL PRESS"))
    expected = (
        "Expected SET MANUAL PROCESS or SET MANUAL START (SET NO MANUAL or SET\n  AUTO to undo)."
    )
    assert f"Line 2: SET MANUAL\n  ERROR: {expected}\n" in body
    assert f"Line 3: SET MANUAL PRESS\n  ERROR: {expected}\n" in body
    assert not judge.game().settings.manual_process


def test_a_manual_start_game_waits_for_its_master_when_full(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    body = _ack(judge.send(GM, f"{MASTER}\nSET MANUAL START"))
    assert "Line 2: SET MANUAL START\n  war1: manual start is now on.\n" in body
    mails: list[Mail] = []
    for i, initial in enumerate(POWERS):
        mails = judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    assert judge.game().state == "forming"
    waiting = [m for m in mails if "Waiting" in m.subject]
    assert {m.subject for m in waiting} == {"TEST:war1 - S1901M Start Waiting"}
    assert {m.body for m in waiting} == {"Game 'war1' is waiting for master to start.\n"}
    assert len({a for m in waiting for a in m.to}) == 8 == len(waiting)
    assert not [m for m in judge.send("p0@example.org", "SIGNON Awar1 pw0") if "Wait" in m.subject]
    # SET AUTO START on a full game starts it, as its last JOIN would have.
    body = _ack(judge.send(GM, f"{MASTER}\nSET AUTO START"))
    assert (
        "Line 2: SET AUTO START\n  war1: manual start is now off.\n\n"
        "The game war1 is full and has started"
    ) in body
    assert judge.game().phase == "S1901M"


def _fill_manual_start_game(judge: Judge) -> datetime:
    """A manual-start war1 with all its players; the moment its last JOIN filled it."""
    judge.send(GM, "CREATE ?war1 masterpw")
    judge.send(GM, f"{MASTER}\nSET MANUAL START")
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    return judge.now


def _start_waiting(mails: list[Mail]) -> list[Mail]:
    return [m for m in mails if m.subject == "TEST:war1 - S1901M Start Waiting"]


def test_a_full_manual_start_game_repeats_start_waiting_daily_until_it_starts(
    judge: Judge,
) -> None:
    filled = _fill_manual_start_game(judge)
    day = timedelta(days=1)
    assert games.earliest_event(judge.db) is None  # not looked at yet: due at once
    assert _start_waiting(judge.at(filled)) == []  # the JOIN that filled it sent today's
    assert games.earliest_event(judge.db) == filled + day
    assert _start_waiting(judge.at(filled + day - timedelta(seconds=1))) == []
    waiting = _start_waiting(judge.at(filled + day))
    assert {m.body for m in waiting} == {"Game 'war1' is waiting for master to start.\n"}
    everyone = {GM} | {f"p{i}@example.org" for i in range(len(POWERS))}
    assert sorted(a for m in waiting for a in m.to) == sorted(everyone)
    assert _start_waiting(judge.at(filled + day + timedelta(hours=1))) == []  # once a day
    assert games.earliest_event(judge.db) == filled + 2 * day
    assert len(_start_waiting(judge.at(filled + 2 * day))) == len(everyone)
    judge.send(GM, f"{MASTER}\nFORCE BEGIN")
    assert judge.game().state == "active"
    mails = judge.at(filled + 3 * day)
    assert _start_waiting(mails) == []


def test_start_waiting_stops_after_process_or_set_auto_start(judge: Judge) -> None:
    filled = _fill_manual_start_game(judge)
    judge.at(filled)
    judge.send(GM, f"{MASTER}\nPROCESS")
    assert judge.game().state == "active"
    assert _start_waiting(judge.at(filled + timedelta(days=1))) == []


def test_start_waiting_stops_after_set_auto_start(judge: Judge) -> None:
    filled = _fill_manual_start_game(judge)
    judge.send(GM, f"{MASTER}\nSET AUTO START")
    assert judge.game().state == "active"
    assert _start_waiting(judge.at(filled + timedelta(days=1))) == []


def test_with_strict_wait_only_players_owing_orders_may_set_wait(judge: Judge) -> None:
    players = judge.start_game()
    body = _ack(judge.send(GM, f"{MASTER}\nSET STRICT WAIT"))
    assert "Line 2: SET STRICT WAIT\n  war1: strict wait is now on.\n" in body
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par - Bur")
    judge.send(GM, f"{MASTER}\nPROCESS")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Bur - Bel")
    judge.send(GM, f"{MASTER}\nPROCESS")
    assert judge.game().phase == "W1901A"  # only France has something to do: a build
    body = _ack(judge.send(players["E"], "SIGNON Ewar1 pw1\nSET WAIT"), players["E"])
    assert "Line 2: SET WAIT\n  ERROR: You are not allowed to set wait!\n" in body
    waiting = "Line 2: SET WAIT\n  WAIT is set: war1 will not be processed before its deadline.\n"
    body = _ack(judge.send(players["F"], "SIGNON Fwar1 pw2\nSET WAIT"), players["F"])
    assert waiting in body
    judge.send(GM, f"{MASTER}\nSET NO STRICT WAIT")
    body = _ack(judge.send(players["E"], "SIGNON Ewar1 pw1\nSET WAIT"), players["E"])
    assert waiting in body
    body = _ack(judge.send(GM, f"{MASTER}\nSET STRICT GRACE\nSET STRICT"))
    assert (
        "Line 2: SET STRICT GRACE\n"
        "  ERROR: SET STRICT GRACE is an njudge setting this judge does not have;\n"
        "  nothing was changed.\n"
        "Line 3: SET STRICT\n"
        "  ERROR: Expected SET STRICT WAIT or SET NO STRICT WAIT.\n"
    ) in body


def test_in_an_unmoderated_game_players_change_its_settings_but_not_its_course(
    judge: Judge,
) -> None:
    players = judge.start_game()
    france = "SIGNON Fwar1 pw2"
    body = _ack(judge.send(players["F"], f"{france}\nSET GRACE 12h"), players["F"])
    assert "Line 2: SET GRACE 12h\n  ERROR: only the game's master may use SET GRACE.\n" in body
    body = _ack(judge.send(GM, f"{MASTER}\nSET UNMODERATED"))
    assert "Line 2: SET UNMODERATED\n  war1: moderated is now off.\n" in body
    body = _ack(
        judge.send(players["F"], f"{france}\nSET GRACE 12h\nSET NMR\nPAUSE\nRESUME"), players["F"]
    )
    assert (
        "Line 2: SET GRACE 12h\n  war1: grace is now 12 hours.\n"
        "Line 3: SET NMR\n  war1: nmr is now processed with the orders on file.\n"
    ) in body
    assert "Line 4: PAUSE\n  ERROR" not in body and "Line 5: RESUME\n  ERROR" not in body
    assert judge.game().settings.grace_hours == 12
    assert judge.game().state == "active"
    lines = ["PROCESS", "ROLLBACK", "PREDICT", "FORCE BEGIN", "BECOME G", "UNSTART"]
    lines += ["PROMOTE x@example.org", "SET MODERATED", "SET MANUAL PROCESS"]
    body = _ack(judge.send(players["F"], "\n".join([france, *lines])), players["F"])
    for n, line in enumerate(lines, start=2):
        name = line.split()[0] if n < 9 else " ".join(line.split()[:2])
        name = "FORCE BEGIN" if line == "FORCE BEGIN" else name
        name = "SET MANUAL" if line == "SET MANUAL PROCESS" else name
        assert f"Line {n}: {line}\n  ERROR: only the game's master may use {name}.\n" in body
    assert judge.game().phase == "S1901M"
    # Observers are no players: they change nothing.
    judge.observe("watcher@example.org", "wpw")
    body = _ack(
        judge.send("watcher@example.org", "SIGNON Owar1 wpw\nSET GRACE 1h"), "watcher@example.org"
    )
    assert "  ERROR: only the game's master may use SET GRACE.\n" in body
    body = _ack(judge.send(GM, f"{MASTER}\nSET MODERATE"))
    assert "Line 2: SET MODERATE\n  war1: moderated is now on.\n" in body
    body = _ack(judge.send(players["F"], f"{france}\nSET GRACE 6h"), players["F"])
    assert "Line 2: SET GRACE 6h\n  ERROR: only the game's master may use SET GRACE.\n" in body


def test_the_sole_player_of_a_forming_game_may_become_its_master(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    body = _ack(judge.send("p0@example.org", "SIGNON ?war1 pw0\nBECOME MASTER"), "p0@example.org")
    assert (
        "Line 2: BECOME MASTER\n"
        "  You are now the master of war1\n"
        "  (sign on as Mwar1 with your password); it is moderated.\n"
    ) in body
    body = _ack(
        judge.send("p0@example.org", "SIGNON Mwar1 pw0\nSET MANUAL START"), "p0@example.org"
    )
    assert "war1: manual start is now on." in body
    judge.send("p1@example.org", "SIGNON ?war1 pw1")
    body = _ack(judge.send("p2@example.org", "SIGNON ?war1 pw2\nBECOME MASTER"), "p2@example.org")
    assert (
        "Line 2: BECOME MASTER\n"
        "  ERROR: Only the sole player of a game that is still forming may BECOME\n"
        "  MASTER of it; war1 is not such a game for you.\n"
    ) in body


def test_a_mails_sets_are_announced_to_the_game_once_with_the_new_values(
    judge: Judge,
) -> None:
    players = judge.start_game()
    mails = judge.send(
        GM,
        f"{MASTER}\nSET GRACE 12h\nSET NONMR\nSET DAYS Mon-Fri\nSET MANUAL PROCESS"
        "\nSET PRESS GREY\nSET MODERATED",  # already moderated: no change, not announced
    )
    notices = [m for m in mails if m.subject == "TEST:war1 - S1901M Parameters Changed"]
    assert sorted(a for m in notices for a in m.to) == sorted([GM, *players.values()])
    assert len({m.body for m in notices}) == 1
    assert notices[0].body == (
        "Parameters for game 'war1' changed to:\n"
        "  Deadlines on: Monday, Tuesday, Wednesday, Thursday, Friday\n"
        "  Grace: 12 hours\n"
        "  Missing orders at the end of grace: wait for the master\n"
        "  Press: grey\n"
        "  Phases processed by: the master's PROCESS\n"
    )
    # A player's own SETs, and a SET that changes nothing, are not announced.
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nSET WAIT\nSET NOWAIT\nSET PASSWORD new")
    mails += judge.send(players["F"], "SIGNON Fwar1 new\nSET DRAW\nSET ADDRESS f@example.org")
    mails += judge.send(GM, f"{MASTER}\nSET GRACE 12h\nSET GRACE 1x")
    assert not [m for m in mails if "Parameters Changed" in m.subject]


def test_njudges_deadline_settings_set_ours(judge: Judge) -> None:
    judge.start_game()
    body = _ack(
        judge.send(
            GM,
            f"{MASTER}\nSET MOVE CLOCK 1200 MIN 24 NEXT 72 GRACE 12 DELAY 0.5 DAYS -MTWTF-"
            "\nSET RETREAT NEXT 36.5\nSET ADJUST CLOCK -1 DAYS SMTWTFS",
        )
    )
    assert (
        "Line 2: SET MOVE CLOCK 1200 MIN 24 NEXT 72 GRACE 12 DELAY 0.5 DAYS -MTWTF-\n"
        "  war1: time is now 20:00.\n"
        "Line 2: SET MOVE CLOCK 1200 MIN 24 NEXT 72 GRACE 12 DELAY 0.5 DAYS -MTWTF-\n"
        "  war1: move length is now 3 days.\n"
    ) in body
    assert "  war1: grace is now 12 hours.\n" in body
    assert "  war1: delay is now 30 minutes.\n" in body
    assert "  war1: days is now Monday, Tuesday, Wednesday, Thursday, Friday.\n" in body
    assert (
        "Line 3: SET RETREAT NEXT 36.5\n  war1: retreat length is now 1 day 12 hours 30 minutes.\n"
        in body
    )
    assert "  war1: time is now any time of day.\n" in body
    s = judge.game().settings
    assert (s.move_hours, s.retreat_hours, s.grace_hours, s.delay_minutes) == (72, 36.5, 12, 30)
    assert (s.deadline_time, s.weekdays) == (None, None)


def test_a_part_of_njudges_deadline_setting_we_cannot_represent_is_refused_by_name(
    judge: Judge,
) -> None:
    judge.start_game()
    before = judge.game().settings
    cases = {
        "SET MOVE NEXT 24 MIN 48": (
            "MIN 48 cannot be set here: a phase lasts at least NEXT hours, so MIN\n"
            "  may not be longer than NEXT."
        ),
        "SET MOVE DAYS -MtWTF-": (
            "DAYS -MtWTF- cannot be set here: a lower-case day (after noon only)\n"
            "  has no equal in this judge; write the day in capitals or -."
        ),
        "SET MOVE DAYS MTWTFSS": (
            "DAYS MTWTFSS is not njudge's day list: seven letters SMTWTFS, each a\n"
            "  capital or - (e.g. -MTWTF-)."
        ),
        "SET MOVE DAYS -------": "DAYS ------- allows no day at all.",
        "SET MOVE CLOCK 1440": (
            "CLOCK 1440 is not minutes past midnight: write 0 to 1439, or -1 for\n  any time."
        ),
        "SET MOVE CLOCK 600 CLOCK 700": "CLOCK is given twice.",
        "SET MOVE CLOCK": "CLOCK needs a value after it.",
        "SET MOVE NEXT 24 LATER 5": (
            "LATER is not a part of njudge's deadline setting; the parts are\n"
            "  CLOCK, MIN, NEXT, GRACE, DELAY and DAYS."
        ),
        "SET MOVE NEXT 24 MIN x" + "9" * 60: "MIN x9999999999999999... is not a number of hours.",
        "SET ADJUST GRACE 9999": "A length of time can be at most 30 days; write it like 48h"
        " or 2d.",
    }
    body = _ack(judge.send(GM, "\n".join([MASTER, *cases])))
    for n, (line, error) in enumerate(cases.items(), start=2):
        assert f"Line {n}: {line}\n  ERROR: {error}\n" in body
    assert judge.game().settings == before  # all or nothing


def test_set_grace_takes_a_length_or_njudges_date(judge: Judge) -> None:
    judge.start_game()
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    assert deadline.isoformat() == "2026-11-23T12:08:00+00:00"
    body = _ack(
        judge.send(GM, f"{MASTER}\nSET GRACE 36\nSET GRACE Nov 25 10:00\nSET GRACE Mon 9:00")
    )
    assert "Line 2: SET GRACE 36\n  war1: grace is now 1 day 12 hours.\n" in body
    assert (
        "Line 3: SET GRACE Nov 25 10:00\n"
        "  war1: the grace of this phase ends Wednesday 25 November 2026 10:00 UTC; later phases"
        " keep the game's grace.\n"
    ) in body
    assert (
        "Line 4: SET GRACE Mon 9:00\n"
        "  ERROR: The grace cannot end before the deadline, Monday 23 November 2026\n"
        "  12:08 UTC.\n"
    ) in body
    # Neither a length nor a date: the length's error, as before njudge's dates.
    body = _ack(judge.send(GM, f"{MASTER}\nSET GRACE 2 dayz"))
    assert (
        "Line 2: SET GRACE 2 dayz\n"
        "  ERROR: I could not read '2 dayz' as a length of time; write it like 48h, 2d,\n"
        "  1d12h or 90m.\n"
    ) in body
    # Late: the late notices name the grace's end; nothing is processed before it.
    mails = judge.at(deadline + timedelta(minutes=1))
    assert any("Wednesday 25 November 2026 10:00" in m.body for m in mails)
    judge.at(datetime(2026, 11, 25, 9, 59, tzinfo=deadline.tzinfo))
    assert judge.game().phase == "S1901M"
    judge.at(datetime(2026, 11, 25, 10, 0, tzinfo=deadline.tzinfo))
    assert judge.game().phase == "F1901M"
    # The next phase has the game's grace again: 36 hours.
    s = judge.game().settings
    assert (s.grace_hours, s.grace_phase) == (36, "S1901M")


def test_set_start_date_holds_a_full_game_until_then_and_starts_it(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    body = _ack(judge.send(GM, f"{MASTER}\nSET START Nov 23 12:00\nSET START someday"))
    assert (
        "Line 2: SET START Nov 23 12:00\n  war1 starts Monday 23 November 2026 12:00 UTC if all"
        " its players have joined by then; if not, when its last player joins.\n"
    ) in body
    assert "Line 3: SET START someday\n  ERROR: " in body
    start = datetime.fromisoformat("2026-11-23T12:00:00+00:00")
    assert judge.game().settings.start_at == "2026-11-23T12:00:00.000000+00:00"
    mails: list[Mail] = []
    for i, initial in enumerate(POWERS):
        mails = judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    assert judge.game().state == "forming"  # full, but held until its start
    assert len(_start_waiting(mails)) == len(POWERS) + 1
    assert judge.at(judge.now) == []
    assert games.earliest_event(judge.db) == judge.now + timedelta(days=1)  # Start Waiting
    assert len(_start_waiting(judge.at(judge.now + timedelta(days=1)))) == len(POWERS) + 1
    assert games.earliest_event(judge.db) == start
    assert judge.at(start - timedelta(seconds=1)) == []
    assert judge.game().state == "forming"
    mails = judge.at(start)
    assert [m.subject for m in mails] == ["TEST:war1 - S1901M Game Starting"] * (len(POWERS) + 1)
    game = judge.game()
    assert (game.state, game.phase) == ("active", "S1901M")
    assert game.deadline == "2026-11-25T12:00:00.000000+00:00"  # 48 hours from the start
    body = _ack(judge.send(GM, f"{MASTER}\nSET START Dec 1 12:00"))
    assert (
        "Line 2: SET START Dec 1 12:00\n"
        "  ERROR: war1 has started already; SET DEADLINE date moves the current\n"
        "  deadline.\n"
    ) in body


def test_a_game_not_full_at_its_start_date_starts_when_it_fills(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    body = _ack(judge.send(GM, f"{MASTER}\nSET START 2026-11-21 11:00\nSET START Nov 22 12:00"))
    assert (
        "Line 2: SET START 2026-11-21 11:00\n"
        "  ERROR: That time has already passed (Saturday 21 November 2026 11:00 UTC);\n"
        "  give a moment that is still ahead.\n"
    ) in body
    for i, initial in enumerate(POWERS[:-1]):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    assert judge.at(datetime.fromisoformat("2026-11-22T12:00:00+00:00")) == []
    assert judge.game().state == "forming"
    assert games.earliest_event(judge.db) is None  # not full: nothing timed
    last = len(POWERS) - 1
    mails = judge.send(f"p{last}@example.org", f"SIGNON ?war1 pw{last}")
    assert _start_waiting(mails) == []
    assert judge.game().state == "active"
