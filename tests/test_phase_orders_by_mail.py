"""Orders for later phases by mail (njudge.md section 4): PHASE holds the orders below it,
IF/ELSE IF/ELSE/ENDIF choose among them on the position at the start of that phase, CLEAR
after PHASE clears them, and the held orders are entered when their phase comes."""

from __future__ import annotations

from judge_harness import HOLDS, POWERS, Judge

from judge.game.report import format_deadline
from judge.store import games

GERMANY = "SIGNON Gwar1 pw3"


def _others_hold(judge: Judge, players: dict[str, str]) -> list[str]:
    """Every power but Germany holds; the mails the last of those orders caused."""
    out = []
    for i, initial in enumerate(POWERS):
        if initial != "G":
            out = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    return [m.body for m in out]


def _germany(body: str) -> list[str]:
    """Germany's results lines of a results mail (before the ownership of centres)."""
    orders = body.split("Ownership of supply centres:")[0]
    return [line for line in orders.splitlines() if line.startswith("Germany: ")]


def test_orders_held_for_the_next_two_phases_are_adjudicated(judge: Judge) -> None:
    players = judge.start_game()
    ack = judge.send(
        players["G"],
        f"{GERMANY}\nA Mun - Ruh\nF Kie - Den\nA Ber - Kie\n"
        "PHASE Fall 1901 Movement\n"
        "IF German Army Ruhr AND NOT (French Burgundy OR French Belgium) THEN\n"
        "  A Ruh - Bel\nELSE\n  A Ruh - Hol\nENDIF\nF Den H\nA Kie - Hol\n"
        "PHASE Winter 1901 Build\nBuild A Ber\nBuild F Kie\nBuild A Mun\n",
    )[0].body
    assert (
        "Line 5: PHASE Fall 1901 Movement\n"
        "  Orders below held for Fall 1901 Movement (F1901M), to the next PHASE.\n"
    ) in ack
    assert ack.endswith(
        "----- Pending orders in war1:\n"
        "  Fall 1901 Movement (F1901M):\n"
        "    IF German Army Ruhr AND NOT (French Burgundy OR French Belgium) THEN\n"
        "      A Ruh - Bel\n    ELSE\n      A Ruh - Hol\n    ENDIF\n    F Den H\n    A Kie - Hol\n"
        "  Winter 1901 Adjustments (W1901A):\n"
        "    Build A Ber\n    Build F Kie\n    Build A Mun\n"
    )
    _others_hold(judge, players)  # Spring 1901: Germany's mail's orders
    assert judge.game().phase == "F1901M"
    assert judge.effective("war1", "GERMANY") == ["A RUH - BEL", "F DEN H", "A KIE - HOL"]
    fall = judge.send(players["A"], "SIGNON Awar1 pw0\nA Vie H")  # a later reply lists them
    assert "----- Pending orders in war1:" not in fall[0].body
    mails = judge.send(players["G"], f"{GERMANY}\nSET WAIT\nSET NOWAIT")  # Germany sends no orders
    assert "----- Pending orders in war1:\n  Winter 1901 Adjustments (W1901A):\n" in mails[0].body
    bodies = _others_hold(judge, players)
    results = next(b for b in bodies if "Movement results for Fall of 1901." in b)
    assert _germany(results) == [
        "Germany: Army Ruhr -> Belgium.",
        "Germany: Fleet Denmark HOLD.",
        "Germany: Army Kiel -> Holland.",
    ]
    assert judge.game().phase == "W1901A"
    winter = judge.at(judge.now)  # Germany's held builds were all that was due
    assert _germany(winter[0].body) == [
        "Germany: Build Army Berlin.",
        "Germany: Build Fleet Kiel.",
        "Germany: Build Army Munich.",
    ]
    assert judge.game().phase == "S1902M"


def test_the_pending_orders_mail_and_a_later_mail_replacing_them(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(
        players["G"],
        f"{GERMANY}\nA Mun H\nF Kie H\nA Ber H\n"
        "PHASE F1901M\nIF Russian Silesia\nA Ber H\nELSE IF Kiel\nF Kie - Den\nENDIF\n"
        "A Mun - Ruh\n",
    )
    _others_hold(judge, players)
    pending = judge._since(0)[-1]
    assert pending.to == [players["G"]]
    assert pending.subject == "TEST:war1 - F1901M Pending Orders"
    assert pending.body == (
        "Your orders held for Fall 1901 Movement (F1901M) are entered,\n"
        "as if mailed now. Later mails still replace them.\n"
        "\n"
        "Germany in war1, Movement for Fall of 1901:\n"
        "  F KIE - DEN\n"
        "  A MUN - RUH\n"
        "  Orders on file now:\n"
        "    Fleet Kiel -> Denmark\n"
        "    Army Munich -> Ruhr\n"
        "  Still without orders: Army Berlin.\n"
        f"  WAIT is not set. Deadline: {_deadline(judge)}.\n"
    )
    judge.send(players["G"], f"{GERMANY}\nF Kie H\nA Ber H")  # the game's orders REPLACE
    assert judge.effective("war1", "GERMANY") == ["F KIE H", "A BER H"]


def _deadline(judge: Judge) -> str:
    """The game's deadline as acknowledgements show it."""
    return format_deadline(judge.game().deadline, judge.config.timezone)


def test_refused_phases_and_conditions(judge: Judge) -> None:
    players = judge.start_game()
    ack = judge.send(
        players["G"],
        f"{GERMANY}\nIF Kiel\nPHASE F1900M\nA Mun H\nPHASE Fall 1907 Movement\nA Mun H\n"
        "PHASE password hunter2\nPHASE S1901M\nA Mun H\n"
        "PHASE F1902M\nA Mun - Nowhere\nA Mun H\nPHASE W1902A\nIF Atlantis\nBuild A Mun\n",
    )[0].body
    assert "hunter2" not in ack
    assert (
        "Line 2: IF Kiel\n"
        "  ERROR: Conditional orders (IF, ELSE, ENDIF) are only taken after a PHASE\n"
        "  line naming a later phase.\n"
        "Line 3: PHASE F1900M\n"
        "  ERROR: Invalid phase F1900M: the game is at Spring 1901 Movement (S1901M).\n"
        "  Phased orders will be ignored up to the next PHASE.\n"
        "Line 5: PHASE Fall 1907 Movement\n"
        "  ERROR: Invalid phase F1907M: orders may be held for at most 5 years\n"
        "  after Spring 1901 Movement (S1901M).\n"
        "  Phased orders will be ignored up to the next PHASE.\n"
        "Line 7: PHASE password ****\n"
        "  ERROR: Invalid phase password ****: write e.g. PHASE Fall 1905 Movement or\n"
        "  PHASE F1905M.\n"
        "  Phased orders will be ignored up to the next PHASE.\n"
        "Line 8: PHASE S1901M\n"
        "  The orders below are current ones (Spring 1901 Movement (S1901M)).\n"
    ) in ack
    assert (
        "  ERROR: Invalid phase order rejected: -> A Mun - Nowhere\n  (Fall 1902 Movement (F1902M):"
    ) in ack
    assert (
        "  ERROR: the orders of this mail for Winter 1902 Adjustments (W1902A) are not\n"
        "  kept:\n"
        '  "Atlantis" is not [power] [unit] province on this map.\n'
    ) in ack
    assert ack.endswith(
        "----- Pending orders in war1:\n  Fall 1902 Movement (F1902M):\n    A Mun H\n"
    )
    assert judge.effective("war1", "GERMANY") == ["A MUN H"]


def test_clear_after_phase_clears_that_phases_held_orders_only(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(
        players["G"], f"{GERMANY}\nA Mun H\nPHASE F1901M\nA Mun - Ruh\nPHASE F1902M\nF Kie H"
    )
    ack = judge.send(players["G"], f"{GERMANY}\nPHASE F1901M\nCLEAR\nA Mun - Boh")[0].body
    assert ("Line 3: CLEAR\n  Pending orders cleared for Fall 1901 Movement (F1901M).\n") in ack
    assert ack.endswith(
        "----- Pending orders in war1:\n"
        "  Fall 1901 Movement (F1901M):\n    A Mun - Boh\n"
        "  Fall 1902 Movement (F1902M):\n    F Kie H\n"
    )
    assert judge.effective("war1", "GERMANY") == ["A MUN H"]  # the current phase's stay
    judge.send(players["G"], f"{GERMANY}\nCLEAR")  # before any PHASE: ours, this phase's
    assert judge.effective("war1", "GERMANY") == []


def test_conditions_nested_too_deep_are_refused(judge: Judge) -> None:
    players = judge.start_game()
    four = judge.send(players["G"], f"{GERMANY}\nPHASE F1901M\nIF ((((Kiel))))\nF Kie H")
    assert four[0].body.endswith("    IF ((((Kiel))))\n      F Kie H\n")
    ifs = "\n".join(["IF Kiel"] * 5)
    ack = judge.send(players["G"], f"{GERMANY}\nPHASE F1902M\n{ifs}\nF Kie H\n")[0].body
    assert (
        "  ERROR: the orders of this mail for Fall 1902 Movement (F1902M) are not kept:\n"
        "  conditions may be nested at most 4 deep.\n"
    ) in ack
    deep = "IF (((((Kiel)))))"  # five brackets: one too many
    ack = judge.send(players["G"], f"{GERMANY}\nPHASE F1901M\n{deep}\nF Kie H\n")[0].body
    assert (
        "  ERROR: the orders of this mail for Fall 1901 Movement (F1901M) are not kept:\n"
        "  conditions may be nested at most 4 deep.\n"
    ) in ack
    assert "Fall 1902" not in ack.split("----- Pending orders")[1]


def test_a_wait_after_phase_waits_in_that_phase(judge: Judge) -> None:
    players = judge.start_game()
    ack = judge.send(
        players["G"],
        f"{GERMANY}\nA Mun H\nF Kie H\nA Ber H\nPHASE F1901M\nSET WAIT\nGermany:\nA Mun - Ruh",
    )[0].body
    assert "  WAIT is not set. Deadline: " in ack
    assert ack.endswith("    SET WAIT\n    Germany:\n    A Mun - Ruh\n")
    assert judge.effective("war1", "GERMANY") == ["A MUN H", "F KIE H", "A BER H"]
    _others_hold(judge, players)  # Spring is processed: Germany did not wait in it
    assert judge.game().phase == "F1901M"
    pending = judge._since(0)[-1]
    assert pending.subject == "TEST:war1 - F1901M Pending Orders"
    assert "  A MUN - RUH\n" in pending.body
    assert "  WAIT is set. Deadline: " in pending.body


def test_a_replacement_does_not_inherit_the_orders_held_by_the_player_before(
    judge: Judge,
) -> None:
    players = judge.start_game()
    judge.send(players["G"], f"{GERMANY}\nA Mun H\nF Kie H\nA Ber H\nPHASE F1901M\nA Mun - Ruh")
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nREPLACE G new@example.org")
    judge.confirm("new@example.org")
    germany = [s for s in games.seats(judge.db, judge.game()) if s.power == "GERMANY"]
    assert [s.address for s in germany] == ["new@example.org"]
    _others_hold(judge, players)
    assert judge.game().phase == "F1901M"
    assert not [m for m in judge._since(0) if "Pending Orders" in m.subject]
    assert judge.effective("war1", "GERMANY") == []


def test_a_held_line_too_long_to_read_is_echoed_by_its_first_60_characters(judge: Judge) -> None:
    players = judge.start_game()
    line = "A Mun - Ruh " + "x" * 9_988
    ack = judge.send(players["G"], f"{GERMANY}\nPHASE Fall 1901 Movement\n{line}\nF Kie H\n")[0]
    assert (
        "  ERROR: Invalid phase order rejected: -> A Mun - Ruh\n  "
        + "x" * 48
        + "...\n  (Fall 1901 Movement (F1901M): This line is 10000 characters long; an order\n"
    ) in ack.body
    assert "x" * 49 not in ack.body
    assert ack.body.endswith("  Fall 1901 Movement (F1901M):\n    F Kie H\n")  # held
