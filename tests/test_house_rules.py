"""The master's house rules by mail: SET RULES before the start, shown in LIST and in
every results header; the end of a game (SET VICTORY, SET END, SET STALE, SET MAXYEARS);
the scoring table in SUMMARY."""

from __future__ import annotations

import pytest
from error_words import words
from judge_harness import POWERS, Judge

from judge.engine.rules import Rules
from judge.game.errors import CommandError
from judge.game.rules import read_rules_text
from judge.store import games
from judge.store.result import GameResult

GM = "gm@example.org"


def _master(judge: Judge, body: str) -> str:
    return judge.send(GM, f"SIGNON Mwar1 masterpw\n{body}")[0].body


def _fill(judge: Judge) -> dict[str, str]:
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    return {initial: f"p{i}@example.org" for i, initial in enumerate(POWERS)}


def test_set_rules_by_name_issue_and_letter_and_shown_in_list(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    ack = _master(judge, "SET RULES 4.A.2=b waiving_builds=no")
    assert (
        "  war1 is now played under these rules, and the DATC's\n"
        "  preferred choices on every other point:\n"
        "    DATC 4.A.2 (choice b): 1982 rule: no cut of a support into water holding a "
        "convoying fleet\n"
        "    DATC 4.D.7 (choice b): builds may not be waived\n"
    ) in ack
    assert judge.game().settings.rules == {"convoy_paradox": "1982", "waiving_builds": False}
    listing = judge.send("someone@example.org", "LIST war1")[0].body
    assert (  # njudge's full report (issue 17)
        "  Ends:      a power (or player) with 18 supply centres wins; a draw after 7\n"
        "             years with no supply centre changing hands; a draw after 35\n"
        "             game years.\n"
        "  Rules:     the DATC's preferred choices, except:\n"
        "             DATC 4.A.2 (choice b): 1982 rule: no cut of a support into\n"
        "               water holding a convoying fleet\n"
        "             DATC 4.D.7 (choice b): builds may not be waived\n"
    ) in listing


def test_a_rule_set_then_options_and_back_to_the_datc(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    ack = _master(judge, "SET RULES ALEXANDER 4.B.4 = e")
    assert "    DATC 4.A.2 (not a DATC choice): Alexander Rules IV.5.f\n" in ack
    assert (
        "    DATC 4.A.3 (not a DATC choice): land route unless VIA, land if all convoys fail "
        "(Alexander)\n"
    ) in ack
    assert "    DATC 4.B.4 (choice e): coasts in supports are ignored (DPTG)\n" in ack
    assert judge.game().settings.rules == {
        "convoy_paradox": "alexander",
        "convoy_to_adjacent_place": "land_unless_via",
        "coast_in_support": "ignored",
    }
    ack = _master(judge, "SET RULES DATC")
    assert "  war1 now follows the DATC's preferred choice on every point.\n" in ack
    assert judge.game().settings.rules == {}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "4.A.2=z",
            "z is not a choice for convoy_paradox (4.A.2); choose 1971 (a), 1982\n"
            "  (b), 2000 (c), szykman (d), all_hold (e), dptg (f), alexander.",
        ),
        ("paradox=1982", "paradox is not a rule option. Send SET RULES alone for the list."),
        ("HOUSE", "HOUSE is not a rule set (DATC, ALEXANDER) and not an option=choice\n  pair."),
        ("4.D.7=b ALEXANDER", "Name the rule set first, then the options that differ."),
    ],
)
def test_bad_rules_get_a_clear_error_and_change_nothing(
    judge: Judge, text: str, error: str
) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    ack = _master(judge, f"SET RULES {text}")
    assert f"  ERROR: {error}\n" in ack
    assert judge.game().settings.rules == {}


def test_rules_text_with_nothing_in_it_is_refused() -> None:
    # SET RULES alone lists the options; the reader itself still refuses empty text.
    with pytest.raises(CommandError) as raised:
        read_rules_text("  ", Rules())
    assert words(raised.value) == "Write a rule set (DATC or ALEXANDER) or option=choice pairs."


def test_set_rules_alone_lists_every_option(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    ack = _master(judge, "SET RULES")
    assert (
        "    4.A.1 multi_route_convoy_disruption = all_routes (b), the DATC's preference\n" in ack
    )
    assert "    4.E.5 proxy_orders = none (c), the DATC's preference\n" in ack
    assert ack.count(", the DATC's preference\n") == 19


def test_rules_only_by_the_master_and_only_before_the_start(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    ack = judge.send("p0@example.org", "SIGNON ?war1 pw0\nSET RULES 4.D.7=b")[0].body
    assert "  ERROR: only the game's master may use SET RULES.\n" in ack
    _fill(judge)
    ack = _master(judge, "SET RULES 4.D.7=b")
    assert "  ERROR: The rules can be changed only before the game starts.\n" in ack
    assert judge.game().settings.rules == {}


def test_the_rules_are_in_every_results_header_and_used(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    _master(judge, "SET RULES 4.D.7=b")
    players = _fill(judge)
    judge.send(players["E"], "SIGNON Ewar1 pw1\nF LON - NTH")
    spring = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    judge.send(players["E"], "SIGNON Ewar1 pw1\nF NTH - NWY")
    fall = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    results = [m for m in spring + fall if m.subject.endswith(" Results") and m.to == [GM]]
    assert len(results) == 2
    for mail in results:
        assert (
            "Rules: the DATC's preferred choices, except:\n"
            "  DATC 4.D.7 (choice b): builds may not be waived\n"
        ) in mail.body
    # The game's rule reaches the checking of orders: England may not waive its build.
    assert judge.game().phase == "W1901A"
    ack = judge.send(players["E"], "SIGNON Ewar1 pw1\nWAIVE")[0].body
    assert "Builds cannot be waived in this game." in ack
    assert judge.effective("war1", "ENGLAND") == []


def test_victory_count_ends_the_game_when_reached(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET VICTORY 5")
    assert "  war1: victory is now 5 supply centres.\n" in ack
    players = {i: f"p{n}@example.org" for n, i in enumerate(POWERS)}
    judge.send(players["R"], "SIGNON Rwar1 pw5\nF SEV - RUM")
    _master(judge, "PROCESS")
    assert judge.game().state == games.ACTIVE
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in mails if m.subject == "TEST:war1 - F1901M Results" and m.to == [GM]]
    assert "The game is over: Russia has won.\n" in results.body
    game = judge.game()
    assert game.state == games.FINISHED
    assert game.result == GameResult("victory", ("RUSSIA",))
    summary = judge.send("someone@example.org", "SUMMARY war1")[0].body
    assert "  Scores (Alexander Rules table VII.4):\n" in summary
    assert "    Russia   won         +360\n" in summary
    assert "    France   lost        -60\n" in summary


def test_a_set_last_year_with_the_most_centres_winning(judge: Judge) -> None:
    judge.start_game()
    ack = _master(judge, "SET END 1901 MOST")
    assert "  war1: end is now after the Fall of 1901, when the most supply centres wins.\n" in ack
    players = {i: f"p{n}@example.org" for n, i in enumerate(POWERS)}
    _master(judge, "PROCESS")
    judge.send(players["R"], "SIGNON Rwar1 pw5\nF SEV - RUM\nA WAR - GAL")
    judge.send(players["T"], "SIGNON Twar1 pw6\nA CON - BUL")
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in mails if m.subject == "TEST:war1 - F1901M Results" and m.to == [GM]]
    assert (
        "The game is over: Russia has won, with the most supply centres when the game ended."
        in (results.body.replace("\n", " "))
    )
    assert judge.game().result == GameResult("most_centres", ("RUSSIA",))


def test_a_set_last_year_drawn_and_the_dptg_rules_switched_off(judge: Judge) -> None:
    judge.start_game()
    _master(judge, "SET END 1901 DRAW\nSET STALE OFF\nSET MAXYEARS OFF")
    game = judge.game()
    assert (game.settings.stale_years, game.settings.max_years) == (None, None)
    _master(judge, "PROCESS")
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in mails if m.subject == "TEST:war1 - F1901M Results" and m.to == [GM]]
    assert (
        "The game is over: the game ended after the Fall of 1901, so it ends in a draw between "
        "Austria, England, France, Germany, Italy, Russia, Turkey."
    ) in results.body.replace("\n", " ")
    summary = judge.send("someone@example.org", "SUMMARY war1")[0].body
    assert "    England  7-way draw  0\n" in summary


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("SET VICTORY 40", "Expected a number from 1 to 34."),
        ("SET END 1800", "Expected SET END year [DRAW or MOST], the year 1901 or later."),
        ("SET END 1905 SOON", "Expected DRAW (the survivors draw) or MOST (most centres wins)."),
        ("SET STALE sometimes", "Expected a number from 1 to 1000."),
    ],
)
def test_bad_end_rules_get_a_clear_error(judge: Judge, line: str, error: str) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    ack = _master(judge, line)
    assert f"  ERROR: {error}\n" in ack


def test_perpetual_orders_repeat_a_powers_last_orders(judge: Judge) -> None:
    """DATC 4.E.4 a (no section 6 case): with perpetual orders, a power that sends
    nothing has its last movement orders used again, and is not in civil disorder."""
    judge.send(GM, "CREATE ?war1 masterpw")
    _master(judge, "SET RULES perpetual_orders=yes")
    players = _fill(judge)
    judge.send(players["E"], "SIGNON Ewar1 pw1\nF LON - ENG")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nF BRE - ENG")
    spring = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in spring if m.subject == "TEST:war1 - S1901M Results" and GM in m.to]
    assert "England: Fleet London -> English Channel.  (*bounce*)" in results.body
    judge.send(players["F"], "SIGNON Fwar1 pw2\nF BRE H")  # England sends nothing
    fall = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in fall if m.subject == "TEST:war1 - F1901M Results" and GM in m.to]
    assert "England: Fleet London -> English Channel.\n" in results.body
    assert "France: Fleet Brest HOLD.\n" in results.body
    # The powers that never ordered have no last orders: they are in civil disorder.
    assert (
        "In civil disorder (no orders received): Austria, Germany, Italy, Russia, Turkey.\n"
    ) in results.body


def test_proxy_orders_told_to_the_judge(judge: Judge) -> None:
    """DATC 4.E.5 a (no section 6 case): England hands F LON to France for one phase;
    France is told, France's order for it is used and England's refused."""
    judge.send(GM, "CREATE ?war1 masterpw")
    _master(judge, "SET RULES 4.E.5=a")
    players = _fill(judge)
    mails = judge.send(players["E"], "SIGNON Ewar1 pw1\nSET PROXY F LON TO FRANCE\nF LON - NTH")
    ack = mails[0].body
    assert "  F LON is handed to France for this phase of\n  war1: its order" in ack
    assert (
        "  F LON - NTH                  ERROR: You have handed this unit to another\n"
        "    power for this phase.\n"
    ) in ack
    [notice] = [m for m in mails if m.to == [players["F"]]]
    assert notice.subject == "TEST:war1 - S1901M England hands you F LON for S1901M"
    ack = judge.send(players["F"], "SIGNON Fwar1 pw2\nF LON - ENG\nF EDI - NTH")[0].body
    assert (  # Edinburgh
        "  F EDI - NTH                  ERROR: That unit has not been handed to you\n"
        "    (SET PROXY).\n"
    ) in ack
    assert judge.effective("war1", "FRANCE") == ["F LON - ENG"]
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in mails if m.subject == "TEST:war1 - S1901M Results" and GM in m.to]
    position = judge.db.execute("SELECT position FROM phases WHERE phase = 'F1901M'").fetchone()[0]
    assert '"F ENG"' in position and '"F LON"' not in position


def test_proxies_are_refused_unless_the_game_allows_them(judge: Judge) -> None:
    players = judge.start_game()
    ack = judge.send(players["E"], "SIGNON Ewar1 pw1\nSET PROXY F LON TO FRANCE")[0].body
    assert "  ERROR: Proxy orders are not allowed in this game.\n" in ack


def test_a_refused_rules_argument_of_thousands_is_repeated_cut(judge: Judge) -> None:
    # Repeated whole, a 5,000-character argument filled the answer with it.
    judge.send(GM, "CREATE ?war1 masterpw")
    long = "x" * 5_000
    for body, said in (
        (f"SET RULES {long}", f"ERROR: {'x' * 57}... is not a\n  rule set (DATC, ALEXANDER) and"),
        (f"SET RULES {long}=a", f"ERROR: {'x' * 57}... is not a\n  rule option. Send SET RULES"),
        (f"SET RULES 4.A.2={long}", f"ERROR: {'x' * 57}... is not a\n  choice for convoy_paradox"),
    ):
        ack = _master(judge, body)
        assert said in ack, ack
        assert "x" * 58 not in ack.split("ERROR:")[1]  # the line itself is echoed above it
