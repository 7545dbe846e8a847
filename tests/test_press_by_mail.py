"""njudge's press options and settings by mail: who receives each message, the first
line each reader sees, the master's truthful copy, and each refusal by its rule."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from judge_harness import POWERS, Judge, Mail

MASTER = "gm@example.org"
LIST = "dip-results@lists.example.org"
WATCHER = "watcher@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(tmp_path, broadcast=LIST)


def _address(initial: str) -> str:
    return f"p{POWERS.index(initial)}@example.org"


def _from(initial: str, body: str, judge: Judge) -> list[Mail]:
    return judge.send(_address(initial), f"SIGNON {initial}war1 pw{POWERS.index(initial)}\n{body}")


def _master(judge: Judge, *lines: str) -> Mail:
    return judge.send(MASTER, "\n".join(["SIGNON Mwar1 masterpw", *lines]))[0]


def _first_lines(mails: list[Mail]) -> dict[str, str]:
    """Each recipient's first line of the press mails (the acknowledgement left out)."""
    out: dict[str, str] = {}
    for m in mails[1:]:
        if _is_press(m):
            for address in m.to:
                assert address not in out, address  # one mail each
                out[address] = m.body.split("\n")[0]
    return out


def _is_press(m: Mail) -> bool:
    """A press mail, by njudge's subject (`CODE:game - PHASE Press ...`, `... Broadcast`)."""
    return re.search(r" - \S+ (Press|Broadcast)\b", m.subject) is not None


FRANCE = _address("F")
WHITE_TO_EG = f"Message from {FRANCE} as France to England, Germany in 'war1':"


def _others(*initials: str) -> list[str]:
    return [_address(i) for i in POWERS if i not in initials]


@pytest.mark.parametrize("options", ["TO EG", "+EG", "to e g", "TO England Germany", "+ EG"])
def test_press_to_some_powers_reaches_them_and_the_master(judge: Judge, options: str) -> None:
    judge.start_game()
    mails = _from("F", f"PRESS {options}\nShall we?\nENDPRESS", judge)
    assert _first_lines(mails) == {
        _address("E"): WHITE_TO_EG,
        _address("G"): WHITE_TO_EG,
        MASTER: WHITE_TO_EG,
    }
    assert f"Line 2: PRESS {options}\n  Message sent to England, Germany.\n" in mails[0].body
    assert all(LIST not in m.to for m in mails)


@pytest.mark.parametrize("options", ["TO ALL BUT EG", "-EG", "TO ALL BUT England Germany"])
def test_press_to_all_but_some_reaches_the_others_and_the_observers(
    judge: Judge, options: str
) -> None:
    judge.start_game()
    judge.observe(WATCHER, "seepw")
    mails = _from("F", f"PRESS {options}\nNot you two.\nENDPRESS", judge)
    line = f"Message from {FRANCE} as France to all but England, Germany in 'war1':"
    readers = [*_others("E", "G", "F"), WATCHER, MASTER]
    assert _first_lines(mails) == dict.fromkeys(readers, line)
    assert "  Message sent to all but England, Germany.\n" in mails[0].body


def test_broadcast_reaches_everyone_and_the_lists(judge: Judge) -> None:
    judge.start_game()
    mails = _from("F", "BROADCAST\nHello all.\nENDPRESS", judge)
    line = f"Broadcast message from {FRANCE} as France in 'war1':"
    assert _first_lines(mails) == dict.fromkeys([*_others("F"), MASTER, LIST], line)
    assert "Line 2: BROADCAST\n  Broadcast message sent.\n" in mails[0].body


def test_press_alone_is_refused_and_its_text_discarded(judge: Judge) -> None:
    judge.start_game()
    mails = _from("F", "PRESS\nA Par-Bur\nENDPRESS", judge)
    assert mails[0].body.split("\n")[2:5] == [
        "Line 2: PRESS",
        "  ERROR: You have specified no options. If you want to send a plain message to",
        "  everyone, please use the BROADCAST command.",
    ]
    assert len(mails) == 1 and judge.effective("war1", "france") == []


def test_grey_press_per_message_when_the_game_allows_both(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET WHITE/GREY")
    assert "Line 2: SET WHITE/GREY\n  war1: press is now white/grey.\n" in ack.body
    mails = _from("F", "PRESS TO R GREY\nBeware.\nENDPRESS", judge)
    assert _first_lines(mails) == {
        _address("R"): "Message to Russia in 'war1':",
        MASTER: f"Message to Russia in 'war1': [from {FRANCE} as France]",
    }
    assert "  Message sent to Russia, without your name (grey press).\n" in mails[0].body
    for spelling in ("GRAY", "ANONYMOUS", "ANONYMOUSLY"):
        mails = _from("F", f"BROADCAST {spelling}\nWho am I?\nENDPRESS", judge)
        assert _first_lines(mails)[_address("R")] == "Broadcast message in 'war1':"
    mails = _from("F", "PRESS TO R\nSigned.\nENDPRESS", judge)  # WHITE is the default
    assert _first_lines(mails)[_address("R")].startswith(f"Message from {FRANCE} as France")


def test_grey_is_refused_in_a_white_game_and_white_in_a_grey_one(judge: Judge) -> None:
    judge.start_game()
    ack = _from("F", "PRESS TO R GREY\nx\nENDPRESS", judge)[0]
    assert "  ERROR: Game 'war1' does not allow grey press.\n" in ack.body
    _master(judge, "SET GREY")
    mails = _from("F", "PRESS TO R\nx\nENDPRESS", judge)  # grey by default now
    assert _first_lines(mails)[_address("R")] == "Message to Russia in 'war1':"
    for white in ("WHITE", "UNANONYMOUS", "UNANONYMOUSLY"):
        ack = _from("F", f"PRESS TO R {white}\nx\nENDPRESS", judge)[0]
        assert "  ERROR: Game 'war1' does not allow white press.\n" in ack.body
    _master(judge, "SET GREY/WHITE")
    mails = _from("F", "PRESS TO R\nx\nENDPRESS", judge)
    assert _first_lines(mails)[_address("R")] == "Message to Russia in 'war1':"
    mails = _from("F", "PRESS WHITE TO R\nx\nENDPRESS", judge)
    assert (
        _first_lines(mails)[_address("R")]
        == f"Message from {FRANCE} as France to Russia in 'war1':"
    )
    _master(judge, "SET NO GREY")
    ack = _from("F", "PRESS TO R GREY\nx\nENDPRESS", judge)[0]
    assert "  ERROR: Game 'war1' does not allow grey press.\n" in ack.body


def test_fake_press_is_refused_unless_the_game_allows_it(judge: Judge) -> None:
    judge.start_game()
    ack = _from("F", "PRESS TO R FAKE\nx\nENDPRESS", judge)[0]
    assert "  ERROR: Game 'war1' does not allow fake press.\n" in ack.body
    ack = _master(judge, "SET PARTIAL MAY BE FAKED")
    assert "  war1: fake press is now allowed (partial press may be faked).\n" in ack.body


def test_partial_press_faked_as_a_broadcast(judge: Judge) -> None:
    judge.start_game()
    _master(judge, "SET PARTIAL MAY BE FAKED")
    for options in ("TO R FAKE", "TO R FAKE BROADCAST", "+R FAKE"):
        mails = _from("F", f"PRESS {options}\nOnly you.\nENDPRESS", judge)
        shown = f"Broadcast message from {FRANCE} as France in 'war1':"
        assert _first_lines(mails) == {
            _address("R"): shown,
            MASTER: f"{shown} [really to Russia]",
        }
        assert "  Message sent to Russia, shown as a broadcast.\n" in mails[0].body


def test_a_broadcast_faked_as_partial_press(judge: Judge) -> None:
    judge.start_game()
    _master(judge, "SET PARTIAL MAY BE FAKED", "SET WHITE/GREY")
    mails = _from("F", "PRESS FAKE TO RG\nJust us three.\nENDPRESS", judge)
    shown = f"Message from {FRANCE} as France to Russia, Germany in 'war1':"
    assert _first_lines(mails) == dict.fromkeys(_others("F"), shown) | {
        MASTER: f"{shown} [really to everyone]",
        LIST: shown,
    }
    assert "  Broadcast message sent, shown as to Russia, Germany.\n" in mails[0].body
    mails = _from("F", "PRESS TO E GREY FAKE PARTIAL TO ALL BUT G\nx\nENDPRESS", judge)
    assert _first_lines(mails) == {
        _address("E"): "Message to all but Germany in 'war1':",
        MASTER: f"Message to all but Germany in 'war1': [from {FRANCE} as France] "
        "[really to England]",
    }


def test_partial_fakes_broadcast_by_default_unless_no_fake(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET GREY/WHITE, PARTIAL FAKES BROADCAST BY DEFAULT")
    assert "Line 2: SET GREY/WHITE\n  war1: press is now grey/white.\n" in ack.body
    mails = _from("F", "PRESS TO R\nx\nENDPRESS", judge)
    assert _first_lines(mails) == {
        _address("R"): "Broadcast message in 'war1':",
        MASTER: f"Broadcast message in 'war1': [from {FRANCE} as France] [really to Russia]",
    }
    mails = _from("F", "PRESS TO R NO FAKE\nx\nENDPRESS", judge)
    assert _first_lines(mails)[_address("R")] == "Message to Russia in 'war1':"
    mails = _from("F", "PRESS TO M\nx\nENDPRESS", judge)  # the master's: never faked
    assert _first_lines(mails) == {
        MASTER: f"Message from {FRANCE} as France to the master in 'war1':"
    }


def test_press_option_order_and_repeats_are_refused(judge: Judge) -> None:
    judge.start_game()
    _master(judge, "SET PARTIAL MAY BE FAKED")
    cases = {
        "PRESS FAKE BROADCAST TO R": (
            "TO after FAKE: the real readers come first, then FAKE and the ones\n"
            "  shown (PRESS TO FRG FAKE, PRESS FAKE TO FRG)."
        ),
        "PRESS TO R TO G": "The press option TO is given twice; each option may be given once.",
        "PRESS WHITE GREY TO R": "The press option GREY is given twice; each option may be "
        "given once.",
        "PRESS TO Q": "I don't know the power 'Q'.",
        "PRESS TO": (
            "TO names no readers: give the powers' letters run together (TO FRG),\n"
            "  M for the master, O for the observers."
        ),
        "PRESS LOUDLY": (
            "LOUDLY is no press option: WHITE, GREY, TO letters, TO ALL BUT\n"
            "  letters, +letters, -letters, FAKE [BROADCAST], NO FAKE, FAKE TO letters."
        ),
        "PRESS FAKE PARTIAL": (
            "FAKE PARTIAL must be followed by TO letters, TO ALL BUT letters,\n"
            "  +letters or -letters."
        ),
    }
    for line, error in cases.items():
        mails = _from("F", f"{line}\nx\nENDPRESS", judge)
        assert f"Line 2: {line}\n  ERROR: {error}\n" in mails[0].body, mails[0].body
        assert len(mails) == 1


def test_press_to_the_master_is_always_allowed_white_and_never_faked(judge: Judge) -> None:
    judge.start_game()
    _master(judge, "SET GREY", "SET NO PRESS")
    ack = _from("F", "BROADCAST\nx\nENDPRESS", judge)[0]
    assert "  ERROR: war1 has no press.\n" in ack.body
    mails = _from("F", "PRESS TO M FAKE\nHelp!\nENDPRESS", judge)
    assert _first_lines(mails) == {
        MASTER: f"Message from {FRANCE} as France to the master in 'war1':"
    }
    assert (
        "Line 2: PRESS TO M FAKE\n  Press to the master is never faked: FAKE was left out.\n"
        "Line 2: PRESS TO M FAKE\n  Message sent to the master.\n"
    ) in mails[0].body
    _master(judge, "PAUSE")
    ack = _from("F", "PRESS TO R\nx\nENDPRESS", judge)[0]
    assert (
        "  ERROR: Game 'war1' is paused: only press to the master (PRESS TO M) is\n  allowed.\n"
    ) in ack.body
    assert _first_lines(_from("F", "PRESS +M\nStill there?\nENDPRESS", judge)) == {
        MASTER: f"Message from {FRANCE} as France to the master in 'war1':"
    }


def test_the_masters_press_is_always_allowed(judge: Judge) -> None:
    players = judge.start_game()
    _master(judge, "SET NO PRESS")
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPRESS TO F\nA word.\nENDPRESS")
    assert _first_lines(mails) == {
        players["F"]: f"Message from {MASTER} as the master to France in 'war1':"
    }


def test_press_to_the_observers_and_the_observer_settings(judge: Judge) -> None:
    judge.start_game()
    judge.observe(WATCHER, "seepw")
    mails = _from("F", "PRESS TO O\nWatch this.\nENDPRESS", judge)
    line = f"Message from {FRANCE} as France to the observers in 'war1':"
    assert _first_lines(mails) == {WATCHER: line, MASTER: line}
    watching = "SIGNON Owar1 seepw\n"
    ack = judge.send(WATCHER, watching + "BROADCAST\nx\nENDPRESS")[0]
    assert "  ERROR: observers may not send press in war1.\n" in ack.body
    ack = _master(judge, "SET OBSERVER WHITE")
    assert "  war1: observers' press is now white only.\n" in ack.body
    ack = judge.send(WATCHER, watching + "BROADCAST GREY\nx\nENDPRESS")[0]
    assert "  ERROR: Game 'war1' allows observers only white press.\n" in ack.body
    mails = judge.send(WATCHER, watching + "BROADCAST\nHi.\nENDPRESS")
    line = f"Broadcast message from {WATCHER} as an observer in 'war1':"
    assert _first_lines(mails)[_address("F")] == line
    _master(judge, "SET WHITE/GREY", "SET OBSERVER ANY")
    mails = judge.send(WATCHER, watching + "BROADCAST GREY\nHi.\nENDPRESS")
    assert _first_lines(mails)[_address("F")] == "Broadcast message in 'war1':"
    _master(judge, "SET OBSERVER NONE")
    ack = judge.send(WATCHER, watching + "BROADCAST\nx\nENDPRESS")[0]
    assert "  ERROR: observers may not send press in war1.\n" in ack.body


def test_no_partial_press_leaves_broadcasts_and_press_to_the_master(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET NO PARTIAL")
    assert "  war1: partial press is now off.\n" in ack.body
    ack = _from("F", "PRESS TO E\nhi\nENDPRESS", judge)[0]
    assert "ERROR: war1 allows only press to everyone (BROADCAST)." in ack.body
    assert MASTER in _first_lines(_from("F", "PRESS TO M\nhi\nENDPRESS", judge))
    _master(judge, "SET PARTIAL")
    assert _address("E") in _first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))


def test_normal_press_sends_the_master_only_broadcasts_and_press_to_the_master(
    judge: Judge,
) -> None:
    judge.start_game()
    ack = _master(judge, "SET NORMAL PRESS")
    assert "  war1: the master's copy of all partial press is now off.\n" in ack.body
    assert set(_first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))) == {_address("E")}
    assert MASTER in _first_lines(_from("F", "PRESS TO EM\nhi\nENDPRESS", judge))
    assert MASTER in _first_lines(_from("F", "BROADCAST\nhi\nENDPRESS", judge))
    _master(judge, "SET ALL PRESS")
    assert MASTER in _first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))


def test_no_minor_press_refuses_press_in_retreat_and_build_phases(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET NO MINOR PRESS")
    assert "  war1: press in retreat and build phases is now off.\n" in ack.body
    assert _address("E") in _first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))
    _from("E", "F Lon-Nth", judge)
    _master(judge, "PROCESS")
    _from("E", "F Nth-Nwy", judge)
    _master(judge, "PROCESS")
    assert judge.game().phase == "W1901A"  # England builds
    ack = _from("F", "PRESS TO E\nhi\nENDPRESS", judge)[0]
    assert (
        "  ERROR: Game 'war1' does not allow press in retreat and build phases (NO\n"
        "  MINOR PRESS).\n"
    ) in ack.body
    assert MASTER in _first_lines(_from("F", "PRESS TO M\nhi\nENDPRESS", judge))
    _master(judge, "SET MINOR PRESS")
    assert _address("E") in _first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))


def test_no_late_press_refuses_players_without_orders_after_the_deadline(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET NO LATE PRESS")
    assert "  war1: press from late players is now off.\n" in ack.body
    deadline = judge.game().deadline
    assert deadline is not None
    judge.now = datetime.fromisoformat(deadline) + timedelta(hours=1)
    ack = _from("F", "PRESS TO E\nhi\nENDPRESS", judge)[0]
    assert (
        "  ERROR: Game 'war1' does not allow press from players whose orders are late\n"
        "  (NO LATE PRESS).\n"
    ) in ack.body
    _from("F", "A Par H", judge)  # orders are on file once their mail is read
    assert _address("E") in _first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))
    _master(judge, "SET LATE PRESS")
    _from("F", "CLEAR", judge)
    assert _address("E") in _first_lines(_from("F", "PRESS TO E\nhi\nENDPRESS", judge))


def test_njudge_press_settings_this_judge_has_not_are_refused_by_name(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET MUST ORDER")
    assert (
        "Line 2: SET MUST ORDER\n"
        "  ERROR: SET MUST ORDER is an njudge setting this judge does not have; nothing\n"
        "  was changed.\n"
    ) in ack.body


def test_press_settings_are_announced_to_the_game(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET PARTIAL MAY BE FAKED, NO MINOR PRESS")
    notices = [m for m in mails if "Parameters Changed" in m.subject]
    assert players["F"] in [a for m in notices for a in m.to]
    notice = notices[0]
    assert notice.body == (
        "Parameters for game 'war1' changed to:\n"
        "  Fake press: may\n"
        "  Press in retreat and build phases: no\n"
    )


def test_a_diary_is_private_until_the_game_ends_then_mailed_to_everyone(judge: Judge) -> None:
    players = judge.start_game()
    mails = _from("F", "DIARY\nEngland trusts me.\nENDPRESS\nDIARY RECORD\nNot for long.", judge)
    assert len(mails) == 1  # nobody else is told
    assert (
        "Line 2: DIARY\n  Diary entry #1 recorded for war1.\n"
        "Line 5: DIARY RECORD\n  Diary entry #2 recorded for war1.\n"
    ) in mails[0].body
    ack = _from("F", "DIARY DELETE 1\nDIARY\nA third.\nENDPRESS\nDIARY LIST", judge)[0]
    assert (
        "Line 2: DIARY DELETE 1\n  Diary entry #1 deleted.\n"
        "Line 3: DIARY\n  Diary entry #3 recorded for war1.\n"
        "Line 6: DIARY LIST\n"
        "  Entry #2: modified Saturday 21 November 2026 12:09 UTC\n"
        "  Entry #3: modified Saturday 21 November 2026 12:10 UTC\n"
    ) in ack.body
    ack = _from("F", "DIARY READ 2\nDIARY READ 1\nDIARY READ x", judge)[0]
    assert (
        "Line 2: DIARY READ 2\n"
        "  Reading entry 2 ...\n"
        "Not for long.\n"
        "  End of entry\n"
        "Line 3: DIARY READ 1\n"
        "  ERROR: You have no diary entry #1 (DIARY LIST lists them).\n"
        "Line 4: DIARY READ x\n"
        "  ERROR: Expected DIARY [RECORD] (the entry below it, up to ENDPRESS), DIARY\n"
        "  LIST, DIARY READ n or DIARY DELETE n.\n"
    ) in ack.body
    ack = _from("E", "DIARY READ 2\nDIARY LIST", judge)[0]  # another power's: none
    assert "  ERROR: You have no diary entry #2" in ack.body
    assert "Line 3: DIARY LIST\n  No diary entries in war1.\n" in ack.body
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nTERMINATE")
    diaries_each = [m for m in mails if m.subject == "TEST:war1 - S1901M Diaries"]
    assert sorted(a for m in diaries_each for a in m.to) == sorted([*players.values(), MASTER])
    diaries = diaries_each[0]
    assert diaries.body == (
        "The diaries of game 'war1', now that it has ended:\n\n"
        "Diary of France, entry #2:\nNot for long.\n\n"
        "Diary of France, entry #3:\nA third.\n"
    )


def test_diary_limits(judge: Judge) -> None:
    judge.start_game()
    long = "\n".join(["x" * 99] * 201)  # 20,100 characters with the line ends
    ack = _from("F", f"DIARY\n{long}\nENDPRESS\nDIARY\n\nENDPRESS", judge)[0]
    assert "  ERROR: The diary entry is too long: at most 20000 characters.\n" in ack.body
    assert "  ERROR: The diary entry has no text.\n" in ack.body
    ack = _from("F", "DIARY READ 1234567", judge)[0]
    assert "Line 2: DIARY READ 1234567\n  ERROR: Expected DIARY" in ack.body


def test_postal_press_is_held_and_mailed_with_the_results(judge: Judge) -> None:
    judge.start_game()
    mails = _from("F", "POSTAL PRESS\nSee you after the moves.\nENDPRESS", judge)
    assert _first_lines(mails) == {}  # held: nobody has it yet
    assert (
        "Line 2: POSTAL PRESS\n"
        "  Broadcast message sent; held until the phase is processed (postal press).\n"
    ) in mails[0].body
    ack = _master(judge, "SET POSTAL PRESS")
    assert "  war1: postal press is now on.\n" in ack.body
    assert _first_lines(_from("F", "PRESS TO E\nLater.\nENDPRESS", judge)) == {}
    assert MASTER in _first_lines(_from("F", "PRESS TO M\nNow.\nENDPRESS", judge))
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS")
    press = [m for m in mails if _is_press(m)]
    line = f"Broadcast message from {FRANCE} as France in 'war1':"
    to_england = f"Message from {FRANCE} as France to England in 'war1':"
    assert [(m.to, m.body.split("\n")[0]) for m in press] == [
        *(([a], line) for a in _others("F")),  # one mail each
        ([MASTER], line),
        ([LIST], line),
        ([_address("E")], to_england),
        ([MASTER], to_england),
    ]
    results = [i for i, m in enumerate(mails) if m.subject == "TEST:war1 - S1901M Results"]
    assert results and max(results) < mails.index(press[0])  # after every results mail
    assert _first_lines(_from("F", "PRESS TO M\nAfter.\nENDPRESS", judge)) == {
        MASTER: f"Message from {FRANCE} as France to the master in 'war1':"
    }


def test_a_diary_line_carrying_a_password_is_kept_masked(judge: Judge) -> None:
    judge.start_game()
    _from("F", "DIARY\nmy other game: SIGNON Fwar2 hunter2\nENDPRESS", judge)
    ack = _from("F", "DIARY READ 1", judge)[0]
    assert "  Reading entry 1 ...\nmy other game: SIGNON ****\n  End of entry\n" in ack.body
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nTERMINATE")
    assert all("hunter2" not in m.body for m in mails)
