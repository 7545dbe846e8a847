"""Reasons the engine gives as codes and values (judge/engine/problems.py), and their
words from templates/problems/<code>.txt: in the engine's results, in Contract 1's
output and in the reply to a power's orders, word for word as before the codes (the
sentences here are the engine's own from before). So far: the retreat phase's reasons,
why a support or convoy did not match, and why a proxy order is not used."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from judge_harness import Judge

import judge
from judge.engine.adjudication import adjudicate
from judge.engine.board import Dislodged, Position, Unit
from judge.engine.phase import Phase
from judge.engine.problems import Problem
from judge.engine.rules import Rules
from judge.engine.validation import check_orders
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
    for line, words in zip(LINES, WORDS, strict=True):
        assert f"  {line:<28s} ERROR: {words}\n" in ack.body
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
