"""Reasons the engine gives as codes and values (judge/engine/problems.py), and their
words from templates/problems/<code>.txt: in the engine's results, in Contract 1's
output and in the reply to a power's orders, word for word as before the codes (the
sentences here are the engine's own from before). Every reason and note is a code: why
an order cannot be read (notation) or be valid (legality, coasts, adjustments,
retreats), what a game's DATC section 4 choices make of it (kept orders wrapping the
reason, civil disorder, proxies, implicit orders), and why a support or convoy did not
match."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from judge_harness import Judge

import judge
from judge.engine.adjudication import adjudicate
from judge.engine.board import Dislodged, Position, Unit, starting_position
from judge.engine.notation import NotationError, parse_order
from judge.engine.phase import Phase
from judge.engine.problems import Problem
from judge.engine.results import REPLACED
from judge.engine.rules import Rules
from judge.engine.validation import check_orders, orders_due
from judge.store import games
from judge.variants.json_contract import adjudicate_line, position_to_json
from judge.variants.maps import load_map
from judge.variants.problem_text import reason_text

GM = load_map("standard")
ROOT = Path(judge.__file__).parent
PROBLEMS = ROOT.parent / "templates" / "problems"

# Fall 1901 retreats: the French army dislodged from Burgundy may go to Gascony or
# Picardy; the French fleet dislodged from the Gulf of Lyon may go nowhere.
FRENCH_A_BUR = Unit("FRANCE", "A", "BUR")
FRENCH_F_LYO = Unit("FRANCE", "F", "LYO")
RETREATS = Position(
    GM,
    Phase.parse("F1901R"),
    (Unit("GERMANY", "A", "BUR"), Unit("ITALY", "F", "LYO"), Unit("FRANCE", "A", "PAR")),
    {p: pw.home_centers for p, pw in GM.powers.items()},
    (Dislodged(FRENCH_A_BUR, ("GAS", "PIC")), Dislodged(FRENCH_F_LYO, ())),
)
LINES = ["A Bur - Mun", "A Par - Pic", "F Lyo - Spa", "A Bur H"]
WORDS = [
    "A BUR cannot retreat to Munich; it may retreat to Gascony, Picardy.",
    "You have no dislodged unit in Paris.",
    "F LYO cannot retreat to Spain; it may retreat to nowhere: it must disband.",
    "Only retreats and disbands are ordered in a retreat phase.",
]


def test_the_engine_gives_a_code_and_values_not_words() -> None:
    checked = check_orders(RETREATS, "FRANCE", LINES)
    assert [c.error for c in checked] == [
        Problem(
            "retreat_not_allowed",
            {"unit": "A BUR", "place": "Munich", "places": ("Gascony", "Picardy")},
        ),
        Problem("no_dislodged_unit", {"place": "Paris"}),
        Problem("retreat_not_allowed", {"unit": "F LYO", "place": "Spain", "places": ()}),
        Problem("not_a_retreat_order"),
    ]


def test_each_problem_reads_as_the_engine_used_to_say_it() -> None:
    checked = check_orders(RETREATS, "FRANCE", LINES)
    assert [reason_text(c.error) for c in checked if c.error is not None] == WORDS
    assert reason_text(Problem("retreats_clash")) == (
        "Another unit retreated there too; both disband."
    )
    assert reason_text("A reason not yet given a code.") == "A reason not yet given a code."


def test_a_coast_out_of_reach_of_a_retreat() -> None:
    # The French fleet dislodged from the Mid-Atlantic may go to Spain's south coast only.
    position = Position(
        GM,
        Phase.parse("F1901R"),
        (Unit("ENGLAND", "F", "MAO"),),
        {p: pw.home_centers for p, pw in GM.powers.items()},
        (Dislodged(Unit("FRANCE", "F", "MAO"), ("POR", "SPA/SC")),),
    )
    checked = check_orders(position, "FRANCE", ["F Mao - Spa(nc)", "F Mao - Spa"])
    problem = Problem("retreat_coast", {"unit": "F MAO", "place": "Spain (north coast)"})
    assert [c.error for c in checked] == [problem, None]
    assert reason_text(problem) == "F MAO cannot retreat to Spain (north coast)."
    assert checked[1].order == "F MAO R SPA/SC"  # the one coast it may reach (DATC 4.B.2)


def test_two_retreats_to_one_place_clash_in_contract_1_output() -> None:
    position = Position(
        GM,
        Phase.parse("F1901R"),
        (Unit("GERMANY", "A", "BUR"), Unit("ENGLAND", "A", "RUH")),
        {p: pw.home_centers for p, pw in GM.powers.items()},
        (
            Dislodged(FRENCH_A_BUR, ("GAS", "PIC")),
            Dislodged(Unit("ENGLAND", "A", "BEL"), ("HOL", "PIC")),
        ),
    )
    data = {
        **position_to_json(position),
        "orders": {"FRANCE": ["A Bur - Pic", "A Par - Gas"], "ENGLAND": ["A Bel - Pic"]},
    }
    out = adjudicate_line(json.dumps(data))
    assert out["results"] == {
        "FRANCE": [
            {
                "order": "A BUR R PIC",
                "given": "A Bur - Pic",
                "result": "bounce",
                "error": "Another unit retreated there too; both disband.",
            },
            {
                "order": "A PAR R GAS",
                "given": "A Par - Gas",
                "result": "void",
                "error": "You have no dislodged unit in Paris.",
            },
        ],
        "ENGLAND": [
            {
                "order": "A BEL R PIC",
                "given": "A Bel - Pic",
                "result": "bounce",
                "error": "Another unit retreated there too; both disband.",
            }
        ],
    }


def test_the_reply_to_retreat_orders_gives_the_words(judge: Judge) -> None:
    judge.start_game()
    game = games.find_game(judge.db, "war1")
    assert game is not None
    games.add_phase(
        judge.db, game, "F1901R", position_to_json(RETREATS), game.deadline or "", judge.now
    )
    games.update_game(judge.db, game, judge.now, phase="F1901R")
    judge.db.conn.commit()
    ack = judge.send("p2@example.org", "SIGNON Fwar1 pw2\n" + "\n".join(LINES))[0]
    assert (
        "  A Bur - Mun                  ERROR: A BUR cannot retreat to Munich; it may\n"
        "    retreat to Gascony, Picardy.\n"
        "  A Par - Pic                  ERROR: You have no dislodged unit in Paris.\n"
        "  F Lyo - Spa                  ERROR: F LYO cannot retreat to Spain; it may\n"
        "    retreat to nowhere: it must disband.\n"
        "  A Bur H                      ERROR: Only retreats and disbands are ordered\n"
        "    in a retreat phase.\n"
    ) in ack.body
    sets = judge.db.execute("SELECT lines FROM order_sets ORDER BY id").fetchall()
    assert [x["error"] for x in json.loads(sets[-1][0])] == WORDS  # stored in words too


# Spring 1901: a support and a convoy for orders not given, and a support to hold for a
# unit that moves.
UNMATCHED = Position(
    GM,
    Phase.parse("S1901M"),
    (
        Unit("ENGLAND", "F", "NTH"),
        Unit("ENGLAND", "A", "YOR"),
        Unit("FRANCE", "A", "PAR"),
        Unit("FRANCE", "A", "BUR"),
        Unit("GERMANY", "A", "MUN"),
        Unit("GERMANY", "A", "BER"),
    ),
    {p: pw.home_centers for p, pw in GM.powers.items()},
)
UNMATCHED_ORDERS = {
    "ENGLAND": ["F Nth C A Yor - Nwy", "A Yor - Lon"],
    "FRANCE": ["A Par - Pic", "A Bur S A Par"],
    "GERMANY": ["A Mun S A Ber - Kie", "A Ber - Pru"],
}


def test_a_void_support_or_convoy_says_which_order_it_did_not_match() -> None:
    outcome = adjudicate(UNMATCHED, UNMATCHED_ORDERS)
    assert [(r.given, r.error) for r in outcome.results if r.result == "void"] == [
        ("F Nth C A Yor - Nwy", Problem("convoy_unmatched", {"army": "A YOR", "dest": "NWY"})),
        ("A Bur S A Par", Problem("support_hold_unmatched", {"supported": "A PAR"})),
        (
            "A Mun S A Ber - Kie",
            Problem("support_move_unmatched", {"supported": "A BER", "dest": "KIE"}),
        ),
    ]
    data = {**position_to_json(UNMATCHED), "orders": UNMATCHED_ORDERS}
    out = adjudicate_line(json.dumps(data))
    assert [(r["given"], r.get("error")) for rs in out["results"].values() for r in rs] == [
        ("F Nth C A Yor - Nwy", "A YOR was not ordered to NWY by a route through this fleet."),
        ("A Yor - Lon", None),
        ("A Par - Pic", None),
        ("A Bur S A Par", "A PAR moved, so the support to hold did not match."),
        ("A Mun S A Ber - Kie", "A BER was not ordered to KIE; the support did not match."),
        ("A Ber - Pru", None),
    ]


# Proxy orders in the order set (DATC 4.E.5 b): England orders its own fleet, so
# Germany's proxy order for it is not used; Germany and France both order the Italian
# army, so neither is.
PROXIES = Position(
    GM,
    Phase.parse("S1901M"),
    (Unit("ENGLAND", "F", "LON"), Unit("ITALY", "A", "ROM")),
    {p: pw.home_centers for p, pw in GM.powers.items()},
)
PROXY_ORDERS = {
    "ENGLAND": ["F London Hold"],
    "GERMANY": ["F London - North Sea", "A Rome - Tuscany"],
    "FRANCE": ["A Rome - Apulia"],
}


def test_a_proxy_order_not_used_says_why() -> None:
    rules = Rules.from_json({"proxy_orders": "in_order_set"})
    outcome = adjudicate(PROXIES, PROXY_ORDERS, rules)
    assert [(r.given, r.error) for r in outcome.results if r.result == "void"] == [
        ("F London - North Sea", Problem("proxy_overridden", {"adjective": "English"})),
        ("A Rome - Tuscany", Problem("proxy_contested")),
        ("A Rome - Apulia", Problem("proxy_contested")),
    ]
    data = {
        **position_to_json(PROXIES),
        "orders": PROXY_ORDERS,
        "rules": {"proxy_orders": "in_order_set"},
    }
    out = adjudicate_line(json.dumps(data))
    assert [(r["given"], r.get("error")) for rs in out["results"].values() for r in rs] == [
        ("F London Hold", None),
        (
            "F London - North Sea",
            "The English unit was ordered by its own power, whose order counts.",
        ),
        ("A Rome - Tuscany", "Several powers ordered this unit, so none of their orders is used."),
        ("A Rome - Apulia", "Several powers ordered this unit, so none of their orders is used."),
        ("", None),
    ]


def test_a_retreat_replaced_by_a_later_one_is_a_warning() -> None:
    checked = check_orders(RETREATS, "FRANCE", ["A Bur - Gas", "A Bur - Pic"])
    assert [(c.order, c.error, c.replaced) for c in checked] == [
        ("A BUR R GAS", REPLACED, True),
        ("A BUR R PIC", None, False),
    ]
    assert reason_text(REPLACED) == "A later order for the same unit replaces this one."


def test_the_reply_shows_a_replaced_retreat_as_replaced(judge: Judge) -> None:
    judge.start_game()
    game = games.find_game(judge.db, "war1")
    assert game is not None
    games.add_phase(
        judge.db, game, "F1901R", position_to_json(RETREATS), game.deadline or "", judge.now
    )
    games.update_game(judge.db, game, judge.now, phase="F1901R")
    judge.db.conn.commit()
    ack = judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Bur - Gas\nA Bur - Pic")[0]
    assert "  A BUR R GAS" + " " * 18 + "(replaced by a later order for the same unit)\n" in (
        ack.body
    )
    assert "ERROR" not in ack.body


# Spring 1901, the opening position.
OPENING = starting_position(GM)


def test_an_illegal_order_is_a_code_and_the_reason_it_wraps_is_one_too() -> None:
    checked = check_orders(OPENING, "FRANCE", ["A Par - Pie", "A Mar S A Par - Pie", "F Bre - Lyo"])
    no_border = Problem("not_adjacent", {"origin": "Paris", "dest": "Piedmont"})
    assert [c.error for c in checked] == [
        no_border,
        Problem(
            "supported_cannot_move", {"target": "A PAR", "place": "Piedmont", "why": no_border}
        ),
        Problem("fleet_unreachable", {"origin": "Brest", "place": "Gulf of Lyon"}),
    ]
    assert [reason_text(c.error) for c in checked if c.error is not None] == [
        "Paris does not border Piedmont.",
        "A PAR cannot move to Piedmont, so it cannot be supported there: "
        "Paris does not border Piedmont.",
        "A fleet in Brest cannot reach Gulf of Lyon.",
    ]


def test_a_kept_order_of_a_looser_4e1_choice_wraps_the_reason_in_contract_1_output() -> None:
    data = {
        **position_to_json(OPENING),
        "orders": {"FRANCE": ["A Par - Pie", "A Mar S A Par - Pie"]},
        "rules": {"illegal_orders": "valid_places"},
    }
    out = adjudicate_line(json.dumps(data))
    assert [r.get("error") for r in out["results"]["FRANCE"][:2]] == [
        "Paris does not border Piedmont. The order is still legal in this game (DATC 4.E.1 b): "
        "it counts as a move, so the unit stays and cannot be supported to hold.",
        "A PAR cannot move to Piedmont, so it cannot be supported there: Paris does not border "
        "Piedmont. The order is still legal in this game (DATC 4.E.1 b), and void.",
    ]


def test_what_the_reader_cannot_read_is_a_code_quoting_the_words_written() -> None:
    cases = {
        "A o'neil - Bur": (
            Problem("unknown_word", {"word": "o'neil"}),
            "I don't know the word or place \"o'neil\".",
        ),
        "A Hodl - Bur": (
            Problem(
                "ambiguous_word",
                {"word": "hodl", "names": ("Holland", "hold"), "words": ("hold",)},
            ),
            "'hodl' could be Holland or the word 'hold': please write the name out.",
        ),
        " F Nth C A Lon ": (
            Problem("convoy_without_move", {"text": "F Nth C A Lon"}),
            "'F Nth C A Lon': a convoy names the army's move, 'F Nth C A Lon - Bel'.",
        ),
        "Build": (
            Problem("unit_expected", {"text": "Build", "what": "built"}),
            "'Build': expected the unit to build, like 'A Par'.",
        ),
    }
    for text, (problem, words) in cases.items():
        try:
            parse_order(text, GM, "M")
        except NotationError as e:
            assert (e.problem, reason_text(e.problem)) == (problem, words), text
        else:
            raise AssertionError(f"{text!r} was read")
    parsed = parse_order("A Pariz - Bur", GM, "M")
    assert parsed.notes == (Problem("read_as_place", {"shown": "pariz", "place": "Paris"}),)
    assert reason_text(parsed.notes[0]) == "read 'pariz' as Paris"


def test_adjustment_refusals_are_codes() -> None:
    position = Position(
        GM,
        Phase.parse("W1901A"),
        (Unit("FRANCE", "A", "PAR"),),
        {"FRANCE": frozenset({"PAR", "BRE", "MAR", "SPA"}), "RUSSIA": frozenset({"STP"})},
    )
    assert orders_due(position, "FRANCE") == (set(), 2)
    checked = check_orders(position, "FRANCE", ["Build A Par", "Build Mar", "Build F Spa"])
    assert [c.error for c in checked] == [
        Problem("build_site_occupied", {"place": "Paris"}),
        Problem("build_kind_needed", {"place": "Marseilles"}),
        Problem("not_a_home_centre", {"place": "Spain"}),
    ]
    assert [reason_text(c.error) for c in checked if c.error is not None] == [
        "Paris is occupied.",
        "Say whether to build an army or a fleet in Marseilles.",
        "Spain is not one of your home supply centres.",
    ]
    russia = check_orders(position, "RUSSIA", ["Build F StP"])
    assert russia[0].error == Problem(
        "build_coast_needed",
        {"places": ("St Petersburg (north coast)", "St Petersburg (south coast)")},
    )
    assert reason_text(russia[0].error) == (
        "Say on which coast to build the fleet: "
        "St Petersburg (north coast) or St Petersburg (south coast)."
    )


def _codes_in_engine() -> set[str]:
    """Every code the engine's source gives a Problem (its first argument, a literal),
    and the judge's own proxy screen (judge/game/proxies.py, DATC 4.E.5 a)."""
    codes = set()
    for path in [*(ROOT / "engine").glob("*.py"), ROOT / "game" / "proxies.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Problem"
            ):
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{path.name}:{node.lineno}"
                codes.add(first.value)
    return codes


def test_every_problem_code_has_its_template_and_every_template_a_code() -> None:
    codes = _codes_in_engine()
    files = {p.stem for p in PROBLEMS.glob("*.txt")}
    assert sorted(codes - files) == [], "codes without templates/problems/<code>.txt"
    assert sorted(files - codes) == [], "templates/problems/ files no code names"
