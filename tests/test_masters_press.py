"""Masters, press, observers, the listserv, draws and the information commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_harness import POWERS, Judge, Mail, observing

from judge.store import games

LIST = "dip-results@lists.example.org"
GAME_LIST = "war1-list@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(tmp_path, broadcast=LIST)


def _to(mails: list[Mail], subject_part: str) -> list[list[str]]:
    return [sorted(m.to) for m in mails if subject_part in m.subject]


def _all_to(mails: list[Mail], subject_part: str) -> list[str]:
    """Every address the mails with `subject_part` in their subject went to (one each)."""
    assert all(len(m.to) == 1 for m in mails if subject_part in m.subject)
    return sorted(m.to[0] for m in mails if subject_part in m.subject)


def test_an_observer_joins_a_started_game_and_gets_results_and_broadcasts(judge: Judge) -> None:
    players = judge.start_game()
    ack = judge.send("watcher@example.org", "SIGNON ?war1 seepw")[0]
    code = judge.confirm_code("watcher@example.org")
    assert ack.body == "Line 1: SIGNON ?war1 ****\n" + observing("war1", code)
    # Not confirmed yet: no broadcast, and no SIGNON as the observer.
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nBROADCAST\nNot yet.\nENDPRESS")
    assert not [m for m in mails if "watcher@example.org" in m.to]
    [refused] = judge.send("watcher@example.org", "SIGNON Owar1 seepw")
    assert refused.body == (
        "Line 1: SIGNON Owar1 ****\n"
        "  ERROR: Your observer seat of war1 is not confirmed yet: mail\n"
        "  CONFIRM war1 code, with the code mailed to its address.\n"
    )
    [confirmed] = judge.send("watcher@example.org", f"CONFIRM war1 {code.lower()}")
    assert confirmed.body == (
        "Line 1: CONFIRM war1 ****\n"
        "  Confirmed: you observe war1, and get its mail.\n"
        "  Sign on with SIGNON Owar1 password.\n"
    )
    assert (
        "Signed on to war1 as observer."
        in judge.send("watcher@example.org", "SIGNON Owar1 seepw")[0].body
    )
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nBROADCAST\nPeace in our time.\nENDPRESS")
    [broadcast] = [m for m in mails if "watcher@example.org" in m.to]
    assert "watcher@example.org" in broadcast.to and players["F"] not in broadcast.to
    assert "Peace in our time." in broadcast.body
    # Results reach the observer too.
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    rows = judge.db.execute("SELECT recipients FROM outbound WHERE kind = 'results'").fetchall()
    assert any("watcher@example.org" in r[0] for r in rows)


def test_private_press_reaches_only_its_powers_and_never_the_lists(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nPRESS TO E G\nShall we?\nENDPRESS")
    press = [m for m in mails if "Press from France to England, Germany" in m.subject]
    assert sorted(m.to for m in press) == sorted(  # one mail each
        [["gm@example.org"], [players["E"]], [players["G"]]]
    )
    assert all(LIST not in m.to for m in mails)
    [to_players, *_] = [m for m in press if "gm@example.org" not in m.to]
    assert to_players.body == (
        f"Message from {players['F']} as France to England, Germany in 'war1':\n\nShall we?\n"
    )
    assert "  Message sent to England, Germany." in mails[0].body


def test_grey_press_hides_the_sender_except_from_the_master(judge: Judge) -> None:
    players = judge.start_game()
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET PRESS GREY")
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nPRESS TO R\nBeware of Germany.\nENDPRESS")
    [to_russia] = [m for m in mails if m.to == [players["R"]]]
    [to_master] = [m for m in mails if m.to == ["gm@example.org"]]
    assert to_russia.subject == "TEST:war1 - S1901M Press to Russia"
    assert "France" not in to_russia.body
    assert to_russia.body.startswith("Message to Russia in 'war1':\n")
    assert to_master.body.startswith(
        f"Message to Russia in 'war1': [from {players['F']} as France]\n"
    )
    assert "without your name (grey press)" in mails[0].body


def test_no_press_and_no_partial_press(judge: Judge) -> None:
    players = judge.start_game()
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET PARTIAL NO")
    ack = judge.send(players["F"], "SIGNON Fwar1 pw2\nPRESS TO E\nhi\nENDPRESS")[0]
    assert "ERROR: war1 allows only press to everyone (BROADCAST)." in ack.body
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET PRESS NONE")
    ack = judge.send(players["F"], "SIGNON Fwar1 pw2\nBROADCAST\nhi\nENDPRESS")[0]
    assert "ERROR: war1 has no press." in ack.body
    # The master may always write.
    mails = judge.send(
        "gm@example.org", "SIGNON Mwar1 masterpw\nBROADCAST\nDeadline soon.\nENDPRESS"
    )
    assert [a for a in _all_to(mails, "Broadcast from the master") if a != LIST] == sorted(
        players.values()
    )


def test_public_mail_goes_to_the_game_list_with_list_headers(judge: Judge) -> None:
    players = judge.start_game()
    judge.send("gm@example.org", f"SIGNON Mwar1 masterpw\nSET LIST {GAME_LIST}")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nBROADCAST\nHello all.\nENDPRESS")
    row = judge.db.execute(
        "SELECT recipients, raw FROM outbound WHERE kind = 'public' ORDER BY id DESC LIMIT 1"
    ).fetchone()
    assert row[0] == f'["{LIST}", "{GAME_LIST}"]'
    assert b"List-Id: TEST war1 <war1.example.org>" in row[1]
    assert b"Precedence: list" in row[1]


def test_the_lists_get_the_start_and_every_result(judge: Judge) -> None:
    judge.start_game()
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    subjects = [
        r[0]
        for r in judge.db.execute(
            "SELECT raw FROM outbound WHERE kind = 'public' ORDER BY id"
        ).fetchall()
    ]
    assert any(b"Subject: TEST:war1 - S1901M Game Starting" in raw for raw in subjects)
    assert any(b"Subject: TEST:war1 - S1901M Results" in raw for raw in subjects)
    assert all(b"You are the master" not in raw for raw in subjects)


def test_every_master_command_is_refused_to_players_and_wrong_passwords(judge: Judge) -> None:
    players = judge.start_game()
    commands = [
        "PROCESS",
        "PREDICT",
        "PAUSE",
        "RESUME",
        "TERMINATE",
        "EJECT F",
        "REPLACE F x@example.org",
        "BECOME F",
        "PROMOTE x@example.org",
        "ROLLBACK",
        "FORCE BEGIN",
        "SET PRESS GREY",
        "SET PARTIAL NO",
        f"SET LIST {GAME_LIST}",
        "SET DEADLINE +3d",
        "SET GRACE 12h",
        "SET NONMR",
        "SET ORDERS MERGE",
        "SET MOVE LENGTH 24h",
    ]
    for command in commands:
        ack = judge.send(players["F"], f"SIGNON Fwar1 pw2\n{command}")[0]
        assert "ERROR: only the game's master may use" in ack.body, command
        ack = judge.send("gm@example.org", f"SIGNON Mwar1 wrong\n{command}")[0]
        assert "ERROR: not used, because the SIGNON before it was refused." in ack.body, command
    assert judge.game().state == games.ACTIVE and judge.game().phase == "S1901M"


def test_predict_goes_to_the_master_alone(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar S A Par-Bur")
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPREDICT")
    [prediction] = [m for m in mails if "PREDICTION" in m.subject]
    assert prediction.to == ["gm@example.org"]
    assert "France: Army Paris -> Burgundy.\n" in prediction.body
    assert judge.game().phase == "S1901M"


def test_replace_hands_a_power_to_a_new_player(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nREPLACE F new@example.org")
    [letter] = [m for m in mails if m.to == ["new@example.org"]]
    password = letter.body.split("SIGNON Fwar1 ")[1].split()[0]
    assert "signon refused" in judge.send(players["F"], "SIGNON Fwar1 pw2")[0].body
    ack = judge.send("new@example.org", f"SIGNON Fwar1 {password}\nA Par-Bur")[0]
    assert "Signed on to war1 as France." in ack.body and "  A PAR - BUR\n" in ack.body


def test_rollback_restores_the_previous_phase_and_tells_everyone(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    assert judge.game().phase == "F1901M"
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nROLLBACK")
    assert judge.game().phase == "S1901M"
    notices = [m.to for m in mails if "Rollback to S1901M" in m.subject and LIST not in m.to]
    assert sorted(notices) == sorted([["gm@example.org"], *([p] for p in players.values())])
    # The position is Spring's again: Paris is French and can be ordered anew.
    ack = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Pic")[0]
    assert "  A PAR - PIC\n" in ack.body


def test_a_draw_by_the_vote_of_every_surviving_power(judge: Judge) -> None:
    players = judge.start_game()
    for i, initial in enumerate(POWERS[:-1]):
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\nSET DRAW")
        assert not any("Draw Declared" in m.subject for m in mails)
    mails = judge.send(players["T"], "SIGNON Twar1 pw6\nSET DRAW")
    everybody = "Austria, England, France, Germany, Italy, Russia, Turkey"
    over = f"TEST:war1 - S1901M Draw Declared: {everybody}"
    [end, *_] = [m for m in mails if m.subject == over and LIST not in m.to]
    assert "The draw is shared by: Austria, England, France, Germany, Italy, Russia, Turkey." in (
        end.body
    )
    assert judge.game().state == games.FINISHED
    assert _to(mails, "Draw Declared").count([LIST]) == 1


def test_terminate_eject_promote_become(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nBECOME F\nA Par-Bur")
    assert [sorted(m.to) for m in mails[:2]] == [["gm@example.org"], [players["F"]]]
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROMOTE co@example.org")
    [letter] = [m for m in mails if m.to == ["co@example.org"]]
    password = letter.body.split("SIGNON Mwar1 ")[1].split()[0]
    judge.confirm("co@example.org")
    assert "as master" in judge.send("co@example.org", f"SIGNON Mwar1 {password}")[0].body
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nEJECT G")
    assert [m.to for m in mails if "no longer play Germany" in m.subject] == [[players["G"]]]
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nTERMINATE")
    assert judge.game().state == games.FINISHED
    assert any("The master has terminated war1." in m.body for m in mails)


def test_force_begin_starts_with_the_players_seated(judge: Judge) -> None:
    judge.send("gm@example.org", "CREATE ?small masterpw")
    for i in range(3):
        judge.send(f"q{i}@example.org", f"SIGNON ?small pw{i}")
    mails = judge.send("gm@example.org", "SIGNON Msmall masterpw\nFORCE BEGIN")
    starts = [m for m in mails if m.subject.endswith(" Game Starting") and m.to[0].startswith("q")]
    assert len(starts) == 3
    game = judge.game("small")
    assert game.state == games.ACTIVE
    assert len([s for s in games.seats(judge.db, game, games.PLAYER) if s.power]) == 3


def test_information_commands(judge: Judge) -> None:
    players = judge.start_game()
    judge.send("gm@example.org", "CREATE ?forming pw")
    body = judge.send("anyone@example.org", "LIST")[0].body
    assert "    forming      forming   0 players signed on\n" in body
    assert "    war1         active    Movement, Spring of 1901\n" in body
    body = judge.send("anyone@example.org", "WHOGAME war1")[0].body
    assert f"    France               {players['F']}\n" in body
    body = judge.send("anyone@example.org", "LIST war1")[0].body
    assert "Game 'war1' order #001 (S1901M) has a deadline of " in body  # njudge's report
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")  # Spring
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")  # Fall -> Winter skipped?
    body = judge.send("anyone@example.org", "SUMMARY war1")[0].body
    assert "    Year  Aus Eng Fra Ger Ita Rus Tur\n    1901    3   3   3   3   3   4   3\n" in body
    mails = judge.send("anyone@example.org", "HISTORY war1")
    [history] = [m for m in mails if m.subject.endswith(" history")]
    assert "Movement results for Spring of 1901 (processed " in history.body
    assert "  France: Army Paris HOLD.\n" in history.body


def test_seven_years_without_a_centre_changing_hands_end_in_a_draw(judge: Judge) -> None:

    from judge.engine.board import starting_position
    from judge.variants.json_contract import position_to_json
    from judge.variants.maps import load_map

    judge.start_game()
    game = judge.game()
    start = starting_position(load_map("standard"))
    centers = {p: sorted(c) for p, c in start.centers.items()}
    # Seven quiet years of history (1901-1907), then Fall 1908 with every unit holding.
    for year in range(1901, 1908):
        for phase in (f"S{year}M", f"F{year}M"):
            if phase == "S1901M":
                continue
            games.add_phase(judge.db, game, phase, {"phase": phase}, game.deadline or "", judge.now)
        games.finish_phase(judge.db, game, f"S{year}M", {"centers": centers}, judge.now)
        games.finish_phase(judge.db, game, f"F{year}M", {"centers": centers}, judge.now)
    fall = position_to_json(start) | {"phase": "F1908M"}
    games.add_phase(judge.db, game, "F1908M", fall, game.deadline or "", judge.now)
    games.update_game(judge.db, game, judge.now, phase="F1908M")
    judge.db.conn.commit()
    mails = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [
        m for m in mails if m.subject == "TEST:war1 - F1908M Results" and m.to == ["gm@example.org"]
    ]
    assert (
        "The game is over: no supply centre has changed hands for seven years, so it ends in a "
        "draw between" in results.body.replace("\n", " ")
    )
    assert judge.game().state == games.FINISHED


def test_a_concession_by_every_other_surviving_power(judge: Judge) -> None:
    players = judge.start_game()
    for i, initial in enumerate(POWERS):
        if initial in "FT":
            continue
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\nSET CONCEDE F")
        assert "You concede war1 to France." in mails[0].body
    assert judge.game().state == games.ACTIVE  # Turkey has not conceded
    mails = judge.send(players["T"], "SIGNON Twar1 pw6\nSET CONCEDE France")
    assert "the game is over, and France wins" in mails[0].body.replace("\n", " ")
    over = "TEST:war1 - S1901M Victory: France"
    [end, *_] = [m for m in mails if m.subject == over and LIST not in m.to]
    assert "conceded war1 to France" in end.body
    assert judge.game().state == games.FINISHED


def test_observer_press_is_off_until_the_master_allows_it(judge: Judge) -> None:
    judge.start_game()
    judge.send("w@example.org", "SIGNON ?war1 wpw")
    judge.confirm("w@example.org")
    ack = judge.send("w@example.org", "SIGNON Owar1 wpw\nBROADCAST\nhello\nENDPRESS")[0]
    assert "ERROR: observers may not send press in war1." in ack.body
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET OBSERVER PRESS YES")
    mails = judge.send("w@example.org", "SIGNON Owar1 wpw\nBROADCAST\nhello\nENDPRESS")
    assert any(m.subject == "TEST:war1 - S1901M Broadcast from an observer" for m in mails)
