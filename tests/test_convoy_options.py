"""The convoy rule options of DATC 4.A beyond the section 6 cases.

No DATC case writes a convoy path (4.A.6), so paths are tested here on the position of
6.F.13, "the unwanted alternative", which issue 4.A.6 itself gives as the reason for
paths. Then random positions are adjudicated under every combination of the 4.A
choices, checking the same invariants as tests/test_properties.py.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import PROFILE, Case, check_movement, movement_orders, movement_positions

from judge.engine.adjudication import adjudicate
from judge.engine.board import Position, parse_unit
from judge.engine.notation import parse_order
from judge.engine.orders import order_text
from judge.engine.phase import Phase
from judge.engine.rules import DEFAULT_RULES, OPTIONS, RULE_SETS, Rules
from judge.engine.validation import check_orders
from judge.variants.maps import load_map
from judge.variants.problem_text import reason_text

GM = load_map("standard")
ALLOWED = Rules.from_json({"convoy_path_specification": "allowed"})
REQUIRED = Rules.from_json({"convoy_path_specification": "required"})


def _position(units: dict[str, list[str]]) -> Position:
    board = tuple(parse_unit(GM, power, u) for power, texts in units.items() for u in texts)
    centers = {p: pw.home_centers for p, pw in GM.powers.items()}
    return Position(GM, Phase.parse("S1901M"), board, centers)


def _results(position: Position, orders: dict[str, list[str]], rules: Rules) -> dict[str, str]:
    outcome = adjudicate(position, orders, rules)
    return {r.given: r.result for r in outcome.results if r.given}


def _units(position: Position, orders: dict[str, list[str]], rules: Rules) -> set[str]:
    return {str(u) for u in adjudicate(position, orders, rules).position.units}


# 6.F.13: England convoys through the North Sea, which Germany dislodges; France offers
# the unwanted alternative through the English Channel.
UNWANTED = _position(
    {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F ENG"], "GERMANY": ["F HOL", "F DEN"]}
)


def _unwanted_orders(army: str) -> dict[str, list[str]]:
    return {
        "ENGLAND": [army, "F North Sea Convoys A London - Belgium"],
        "FRANCE": ["F English Channel Convoys A London - Belgium"],
        "GERMANY": ["F Holland Supports F Denmark - North Sea", "F Denmark - North Sea"],
    }


# -- 4.A.6: written convoy paths ------------------------------------------------------------


def test_a_path_is_read_only_when_the_rules_read_paths() -> None:
    """4.A.6 a: ignored (the move reads as a VIA move); b, c: kept, in order, and
    written back in the same form."""
    for text in ("A Yorkshire - North Sea - Belgium", "A Yor - Bel via Nth"):
        assert order_text(parse_order(text, GM, "M").order) == "A YOR - BEL VIA"
        assert order_text(parse_order(text, GM, "M", paths=True).order) == "A YOR - NTH - BEL"
    long = parse_order("A Lon - Eng - Mao - Por", GM, "M", paths=True).order
    assert long.path == ("ENG", "MAO") and long.via_convoy
    assert parse_order(order_text(long), GM, "M", paths=True).order == long


def test_checked_orders_keep_the_path_only_under_the_option() -> None:
    """What the judge answers on arrival (and stores) is the path form exactly when the
    game reads paths, so the path survives until the deadline."""
    line = "A London - North Sea - Belgium"
    (default,) = check_orders(UNWANTED, "ENGLAND", [line])
    (allowed,) = check_orders(UNWANTED, "ENGLAND", [line], ALLOWED)
    assert default.order == "A LON - BEL VIA" and default.accepted
    assert allowed.order == "A LON - NTH - BEL" and allowed.accepted


def test_a_written_path_is_the_only_route_when_allowed() -> None:
    """4.A.6 b: England names the North Sea, so the French convoy is no alternative: the
    North Sea fleet is dislodged and the army stays home, as England wanted. With the
    path ignored (4.A.6 a, the default) the army is carried off through the Channel."""
    orders = _unwanted_orders("A London - North Sea - Belgium")
    allowed = _results(UNWANTED, orders, ALLOWED)
    assert allowed["A London - North Sea - Belgium"] == "disrupted"
    assert allowed["F English Channel Convoys A London - Belgium"] == "void"
    assert "A LON" in _units(UNWANTED, orders, ALLOWED)
    ignored = _results(UNWANTED, orders, DEFAULT_RULES)
    assert ignored["A London - North Sea - Belgium"] == "ok"
    assert "A BEL" in _units(UNWANTED, orders, DEFAULT_RULES)


def test_without_a_path_any_route_serves_when_allowed() -> None:
    """4.A.6 b: a path may be given, it need not be: 6.F.13 as the DATC has it."""
    orders = _unwanted_orders("A London - Belgium")
    assert _results(UNWANTED, orders, ALLOWED)["A London - Belgium"] == "ok"
    assert "A BEL" in _units(UNWANTED, orders, ALLOWED)


def test_a_path_is_needed_when_required() -> None:
    """4.A.6 c: a convoyed move without its path has no convoy; with it, it goes."""
    position = _position({"ENGLAND": ["A YOR", "F NTH"]})
    with_path = {"ENGLAND": ["A Yor - Nth - Bel", "F Nth C A Yor - Bel"]}
    without = {"ENGLAND": ["A Yor - Bel", "F Nth C A Yor - Bel"]}
    assert _results(position, with_path, REQUIRED)["A Yor - Nth - Bel"] == "ok"
    assert _results(position, without, REQUIRED)["A Yor - Bel"] == "no convoy"
    assert _results(position, without, ALLOWED)["A Yor - Bel"] == "ok"


def test_a_move_to_a_neighbour_without_a_path_goes_by_land_when_required() -> None:
    """4.A.6 c with 4.A.3 d: with no path there is no convoy route, so an army ordered
    to a place it borders takes the land route, whatever its own fleets are ordered."""
    position = _position({"ENGLAND": ["A NWY", "F SKA"], "RUSSIA": ["A SWE"]})
    orders = {"ENGLAND": ["A Nwy - Swe", "F Ska C A Nwy - Swe"], "RUSSIA": ["A Swe - Nwy"]}
    assert _results(position, orders, DEFAULT_RULES)["A Nwy - Swe"] == "ok"  # 6.G.1: swap
    assert _results(position, orders, REQUIRED)["A Nwy - Swe"] == "bounce"  # head to head


def test_a_path_must_be_a_chain_of_fleets() -> None:
    """A path through a place that is no sea, or a sea with no fleet, or seas that do
    not join up, cannot be valid in the position (4.E.1 d): the order is void and says
    why. A path whose fleets do not all convoy has no route."""
    position = _position({"ENGLAND": ["A LON", "F NTH", "F IRI"]})
    convoy = "F Nth C A Lon - Bel"
    for bad in ("A Lon - Eng - Bel", "A Lon - Iri - Bel", "A Lon - Yor - Bel"):
        outcome = adjudicate(position, {"ENGLAND": [bad, convoy]}, ALLOWED)
        (result,) = [r for r in outcome.results if r.given == bad]
        assert result.result == "void" and "chain of fleets" in reason_text(result.error or ""), bad
    orders = {"ENGLAND": ["A Lon - Nth - Bel"]}  # the fleet in the North Sea holds
    assert _results(position, orders, ALLOWED)["A Lon - Nth - Bel"] == "no convoy"


# -- rule sets ------------------------------------------------------------------------------


def test_the_alexander_rule_set() -> None:
    """The Alexander Rules: IV.5.e (land unless VIA) and IV.5.f (their paradox rule),
    the DATC's preferences elsewhere."""
    alexander = Rules.from_json({"set": "alexander"})
    assert alexander == RULE_SETS["alexander"]
    assert alexander == replace(
        DEFAULT_RULES, convoy_paradox="alexander", convoy_to_adjacent_place="land_unless_via"
    )
    # 6.G.9 under IV.5.e: no VIA, so by land; the Russian army is dislodged.
    position = _position({"ENGLAND": ["A NWY", "F SKA", "F FIN"], "RUSSIA": ["A SWE"]})
    orders = {
        "ENGLAND": ["A Nwy - Swe", "F Ska C A Nwy - Swe", "F Fin S A Nwy - Swe"],
        "RUSSIA": ["A Swe - Nwy"],
    }
    assert _results(position, orders, alexander)["A Swe - Nwy"] == "dislodged"
    orders["ENGLAND"][0] = "A Nwy - Swe VIA"  # with VIA, by convoy: the armies swap
    assert _units(position, orders, alexander) >= {"A SWE", "A NWY"}


# -- every combination on random positions -------------------------------------------------

CONVOY_OPTIONS = sorted(k for k, o in OPTIONS.items() if o.issue.startswith("4.A."))
any_convoy_rules = st.fixed_dictionaries(
    {k: st.sampled_from(list(OPTIONS[k].choices)) for k in CONVOY_OPTIONS}
)


@st.composite
def cases(draw) -> Case:
    position = draw(movement_positions())
    return Case((position, movement_orders(draw, position), draw(any_convoy_rules)))


@settings(max_examples=600, **PROFILE)
@given(cases())
def test_any_convoy_rules_keep_the_invariants(case: Case) -> None:
    """One unit per province, nothing created or lost but by dislodgement, every unit
    where its result says, retreats only to free neighbouring places: under any choice
    of the 4.A options."""
    position, orders, choices = case
    outcome = adjudicate(position, orders, Rules.from_json(choices))
    check_movement(position, orders, outcome)
