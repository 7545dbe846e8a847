"""The command table (judge/commands/table.py): the dispatcher's commands, HELP and the
command language agree, and HELP lists every command the dispatcher runs."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

from judge.commands import language
from judge.commands.language import read_commands
from judge.commands.table import (
    BY_NAME,
    COMMANDS,
    MASTER,
    MASTERS,
    PLAYERS,
    SETTER,
    SIGNED_ON,
    help_lines,
    help_rows,
)
from judge.config import Config
from judge.mail import compose

CONFIG = Config(name="TEST", address="judge@example.org", timezone="UTC")

# The HELP mail's text: every command of the table, the players' in two columns, the
# master's as lists.
HELP = (
    "  Commands, one per line, in capitals or not:\n"
    "    CREATE ?name password       create a game; you become its master\n"
    "    SIGNON ?name password       join a game that is forming\n"
    "    OBSERVE name password       watch a game as an observer\n"
    "    CONFIRM name code           confirm an address with the code mailed to\n"
    "                                it (OBSERVE, PROMOTE, REPLACE, SET ADDRESS)\n"
    "    SET PREFERENCE FGR          the powers you want, best first (* any)\n"
    "    SIGNON Xname password       act in a game: X your power's initial,\n"
    "                                M for the master\n"
    "    A Par - Bur                 orders, one per line, after SIGNON, e.g. also\n"
    "    F Nth C A Lon - Bel           A Mun S A Par - Bur, A Mun H, Build A Par\n"
    "    CLEAR                       discard this phase's orders, or a PHASE's\n"
    "    PHASE F1905M                the orders below are held for that later phase\n"
    "    IF place / ELSE / ENDIF     after PHASE: orders if a unit stands there\n"
    "    MERGE / REPLACE             this mail's orders add to / replace the last\n"
    "    SET WAIT / SET NOWAIT       wait for the deadline / go when all are in\n"
    "    PRESS [TO powers]           press to the powers named, or to all:\n"
    "    BROADCAST                     the lines after it, up to ENDPRESS\n"
    "    DIARY / DIARY LIST          your private notes, mailed to all at the end\n"
    "    SET PROXY unit TO power     that power orders the unit this phase\n"
    "                                (SET PROXY NONE takes them all back)\n"
    "    SET PASSWORD new            change your password\n"
    "    SET ADDRESS you@example.org change your address of record\n"
    "    SET ABSENCE <from> TO <to>  deadlines in it are pushed (within limits)\n"
    "    SET NOABSENCE <date>        cancel your absence that includes the date\n"
    "    SET DRAW / SET NODRAW       vote for a draw of all survivors, or withdraw\n"
    "    SET CONCEDE X / NOCONCEDE   concede the game to power X, or withdraw\n"
    "    RESIGN                      leave the game\n"
    "    LIST [name or FULL]         the games here, or one game (all) in full\n"
    "    WHOGAME name [FULL]         who plays which power (FULL: observers)\n"
    "    SUMMARY name                centres by year; who played what, from when\n"
    "    HISTORY [name] [FROM date]  a game's results and broadcasts, the last\n"
    "      [TO date] [LINES n]         7 days unless you say (or EXCLSTART S1902M)\n"
    "    VERSION                     this judge's software, users and games\n"
    "    GET name (or SEND name)     mail the help file name (GET index: all)\n"
    "    REGISTER ... END            register: Name:, Country:, Level: ... one\n"
    "                                  a line, then END\n"
    "    WHOIS address               a registered player's entry\n"
    "    I AM ALSO address           this address too is that registered player\n"
    "    HELP                        this list\n"
    '    SIGNOFF                     end of commands (so does a "-- " signature)\n'
    "  The master also has:\n"
    "    PROCESS [phase], PAUSE, RESUME, SET ORDERS MERGE / REPLACE,\n"
    "    SET DEADLINE <date>, SET MOVE / RETREAT / ADJUST LENGTH 48h,\n"
    "    SET GRACE 24h, SET DELAY 30m, SET REMINDER 12h, SET TIME 23:30,\n"
    "    SET DAYS Mon-Fri, SET NMR / SET NONMR, SET PRESS WHITE/GREY/NONE,\n"
    "    SET PARTIAL YES/NO, SET OBSERVER PRESS YES/NO, SET [NO] LIST, SET COMMENT,\n"
    "    SET LIST address, SET MAP ON/OFF (the board picture on results),\n"
    "    PREDICT, EJECT X, REPLACE X address, BECOME X, PROMOTE address,\n"
    "    TERMINATE, ROLLBACK [phase/n], FORCE BEGIN (start short of players),\n"
    "    SET RULES [set] [option=choice ...] (alone: the list),\n"
    "    SET VICTORY n, SET END year DRAW/MOST, SET STALE n, SET MAXYEARS n,\n"
    "    UNSTART, SET [NO] MANUAL PROCESS/START, SET [NO] STRICT WAIT,\n"
    "    SET START date, SET [UN]MODERATED, SET PLAYERS n,\n"
    "    SET WHITE/GREY ... (GET press),\n"
    "    SET [NO] APPROVAL, SET [NOT] APPROVE X,\n"
    "    SET VARIANT [variant] [GUNBOAT], SET [NO] REVEAL / SHOW / QUIET / SECRET\n"
    "  Dates: 2026-12-01 23:30, Tue 23:30, Dec 1 23:30, +36h (in the judge's zone).\n"
)


def _help_text() -> str:
    event = {"kind": "help", "line": 1, "text": "help"}
    event |= {"players": help_rows(), "masters": help_lines()}
    sub = SimpleNamespace(subject="help")
    subject, body = compose.render(
        "acknowledgement", CONFIG, sub=sub, events=[event], errors=False, head=None, time_left=None
    )
    assert subject == "Re: TEST help"
    return body.removeprefix("\n:: Judge: TEST  \n\n").removeprefix("Line 1: help\n")


def test_help_is_rendered_from_the_table() -> None:
    assert _help_text() == HELP


def test_every_command_is_in_help() -> None:
    text = _help_text()
    for spec in COMMANDS:
        assert spec.syntax.split("\n")[0] in text, spec.name
    assert all(spec.section in (PLAYERS, MASTERS) for spec in COMMANDS)
    # The master's section lists master commands only, the players' section none.
    assert {s.section for s in COMMANDS if s.who == MASTER} == {MASTERS}
    assert {s.who for s in COMMANDS if s.section == MASTERS} == {MASTER, SETTER}


def test_one_entry_per_command() -> None:
    assert len(BY_NAME) == len(COMMANDS)


def test_the_table_has_every_command_the_language_reads() -> None:
    assert set(BY_NAME) == language.NAMES
    # Each command word, alone or with words after it, reads as a command of the table
    # (or as an ERROR saying what was expected).
    words = ["CREATE", "SIGNON", "CLEAR", "RESIGN", "HELP", "MERGE", "REPLACE", "PROCESS"]
    words += ["PAUSE", "RESUME", "PREDICT", "TERMINATE", "EJECT", "ROLLBACK", "FORCE"]
    words += ["PROMOTE", "BECOME", "OBSERVE", "CONFIRM", "LIST", "WHOGAME", "SUMMARY", "HISTORY"]
    words += ["PRESS", "BROADCAST", "ENDPRESS", "VERSION", "GET", "SEND", "SEND ME"]
    words += ["REGISTER", "WHOIS", "I AM ALSO", "DIARY"]
    words += ["PHASE", "IF", "ELSE", "ENDIF"]
    words += ["UNSTART", "SET MANUAL PROCESS", "SET STRICT WAIT", "SET UNMODERATED"]
    words += ["SET VARIANT GUNBOAT"]
    words += [f"SET {name.removeprefix('SET ')}" for name in BY_NAME if name.startswith("SET ")]
    read = set()
    for word in words:
        rests = ("", " ?g", " ?g pw", " Fg pw", " BEGIN", " F a@example.org", " MERGE", " x")
        for rest in (*rests, " a@example.org"):  # SET LIST address: one word (njudge's SET LIST)
            read |= {c.name for c in read_commands(f"{word}{rest}")}
    read |= {c.name for c in read_commands("A Par - Bur")}
    assert read - {"ERROR"} == set(BY_NAME)


def test_the_commands_that_check_or_hash_a_password() -> None:
    # Each spends one of the mail's `passwords_per_mail` (a SIGNON, one per check).
    assert {spec.name for spec in COMMANDS if spec.password} == {
        "SIGNON",
        "CREATE",
        "JOIN",
        "OBSERVE",
        "CONFIRM",  # checks a code mailed to an address, a guess as a password is
        "SET PASSWORD",
        "REPLACE POWER",
        "PROMOTE",
    }


def test_who_may_use_a_command_is_what_its_handler_checks() -> None:
    # The master's commands, and only they, refuse anyone but the master (need_master);
    # those of any seat ask for a SIGNON (need_block) and for no particular seat.
    for spec in COMMANDS:
        source = inspect.getsource(spec.handler)
        assert ("need_master(" in source) == (spec.who in (MASTER, SETTER)), spec.name
        if spec.who == SIGNED_ON:
            assert "need_block(" in source and "need_player(" not in source, spec.name
