"""Rule options of DATC 4.B, 4.D.7-4.D.9 and 4.E under their non-preferred choices where
no DATC section 6 case describes the outcome (docs/rule-options.md, "Choices without a
DATC case"), and the finer points of the choices the option cases cover."""

from __future__ import annotations

import tomllib

import pytest
from datc_cases import DATC_DIR, GM, load_cases
from datc_cases import position as datc_position
from datc_cases import units_by_power as _units_by_power

from judge.engine.adjudication import Adjudication, adjudicate
from judge.engine.board import Dislodged, Position, parse_unit
from judge.engine.geography import MapError, build_map
from judge.engine.phase import Phase
from judge.engine.rules import DEFAULT_RULES, OPTIONS, Rules
from judge.engine.validation import check_orders
from judge.variants.maps import MAPS_DIR, load_map
from judge.variants.problem_text import reason_text


def _position(
    units: dict[str, list[str]],
    phase: str = "S1901M",
    centers: dict[str, list[str]] | None = None,
    dislodged: tuple[Dislodged, ...] = (),
) -> Position:
    board = tuple(parse_unit(GM, p, text) for p, texts in units.items() for text in texts)
    owned = (
        {p: frozenset(c) for p, c in centers.items()}
        if centers is not None
        else {p: pw.home_centers for p, pw in GM.powers.items()}
    )
    return Position(GM, Phase.parse(phase), board, owned, dislodged)


def _run(
    units: dict[str, list[str]],
    orders: dict[str, list[str]],
    rules: dict | None = None,
    **kw,
) -> Adjudication:
    return adjudicate(_position(units, **kw), orders, Rules.from_json(rules))


def _result(outcome: Adjudication, given: str) -> str:
    (found,) = [r.result for r in outcome.results if r.given == given]
    return found


def _after(outcome: Adjudication) -> dict[str, list[str]]:
    return _units_by_power(outcome.position)


# -- 4.B: coasts ----------------------------------------------------------------------------


def test_default_coast_is_taken_where_it_is_the_only_one_reachable() -> None:
    """4.B.2 b: Norway reaches only St Petersburg's north coast, its default coast; the
    Gulf of Bothnia only the south coast, so there the move fails (as 6.B.2 shows)."""
    rules = {"missing_coast_when_one_possible": "default_coast"}
    out = _run({"RUSSIA": ["F NWY", "F BOT"]}, {"RUSSIA": ["F Nwy - StP", "F Bot - StP"]}, rules)
    assert _result(out, "F Nwy - StP") == "ok"
    assert _result(out, "F Bot - StP") == "void"
    assert _after(out) == {"RUSSIA": ["F BOT", "F STP/NC"]}


def test_poorly_written_support_of_another_powers_fleet_needs_its_coast() -> None:
    """4.B.4 c: the support without coast stands for an own fleet (6.B.7), not for
    another power's fleet that could go to either coast (Calhamer's second example)."""
    units = {"ENGLAND": ["F POR"], "FRANCE": ["F MAO"], "ITALY": ["F LYO", "F WES"]}
    orders = {
        "ENGLAND": ["F Portugal Supports F Mid-Atlantic Ocean - Spain"],
        "FRANCE": ["F Mid-Atlantic Ocean - Spain(nc)"],
        "ITALY": [
            "F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)",
            "F Western Mediterranean - Spain(sc)",
        ],
    }
    out = _run(units, orders, {"coast_in_support": "poorly_written"})
    assert _result(out, "F Portugal Supports F Mid-Atlantic Ocean - Spain") == "void"
    assert _result(out, "F Western Mediterranean - Spain(sc)") == "ok"
    preferred = _run(units, orders)
    assert _result(preferred, "F Western Mediterranean - Spain(sc)") == "bounce"


def test_retreat_without_coast_takes_the_default_coast() -> None:
    """4.B.1 b applies to a retreat order too: both coasts of Spain are open to the
    fleet from the Mid-Atlantic Ocean, and Spain's default coast is the south one."""
    unit = parse_unit(GM, "FRANCE", "F MAO")
    dislodged = (Dislodged(unit, ("POR", "SPA/NC", "SPA/SC")),)
    position = _position({"ENGLAND": ["F MAO"]}, "S1901R", dislodged=dislodged)
    orders = {"FRANCE": ["F Mid-Atlantic Ocean - Spain"]}
    preferred = adjudicate(position, orders)
    assert _result(preferred, "F Mid-Atlantic Ocean - Spain") == "void"
    rules = Rules.from_json({"missing_coast_when_two_possible": "default_coast"})
    out = adjudicate(position, orders, rules)
    assert _result(out, "F Mid-Atlantic Ocean - Spain") == "ok"
    assert "F SPA/SC" in _after(out)["FRANCE"]


def test_map_default_coasts_are_read_and_checked() -> None:
    assert {k: p.default_coast for k, p in GM.provinces.items() if p.coasts} == {
        "BUL": "EC",
        "SPA": "SC",
        "STP": "NC",
    }
    with (MAPS_DIR / "standard.toml").open("rb") as f:
        data = tomllib.load(f)
    data["provinces"]["SPA"]["default_coast"] = "EC"
    with pytest.raises(MapError, match="default_coast"):
        build_map(data)


# -- 4.D.7: waiving builds -----------------------------------------------------------------


def test_builds_cannot_be_waived_when_the_game_says_so() -> None:
    """4.D.7 b: WAIVE is void; the build is not made either (the judge never chooses a
    unit for a player)."""
    units = {"RUSSIA": ["A MOS", "F SEV", "A WAR"]}
    centers = {"RUSSIA": ["MOS", "SEV", "STP", "WAR"]}
    out = _run(
        units, {"RUSSIA": ["Waive"]}, {"waiving_builds": False}, phase="W1901A", centers=centers
    )
    (waive,) = [r for r in out.results if r.given == "Waive"]
    assert waive.result == "void" and "cannot be waived" in reason_text(waive.error or "")
    assert _after(out) == {"RUSSIA": ["A MOS", "A WAR", "F SEV"]}
    allowed = _run(units, {"RUSSIA": ["Waive"]}, phase="W1901A", centers=centers)
    assert _result(allowed, "Waive") == "ok"


# -- 4.D.8: civil disorder removals ----------------------------------------------------------


@pytest.mark.parametrize(
    ("choice", "left"),
    [("convoy_own_fleets", ["A SIL"]), ("convoy_any_fleets", ["A GRE"])],
)
def test_civil_disorder_convoys_through_whose_fleets(choice: str, left: list[str]) -> None:
    """4.D.8 b against c: a Turkish fleet in the Ionian Sea may convoy Italy's army in
    Greece only under choice c, which makes Greece one move from Naples (6.J.11 with a
    foreign fleet). Under b Greece is three moves away, as far as Silesia, and goes first
    alphabetically."""
    units = {"ITALY": ["A GRE", "A SIL"], "TURKEY": ["F ION"]}
    centers = {"ITALY": ["NAP"], "TURKEY": ["ANK", "CON", "SMY"]}
    rules = {"civil_disorder_removal_distance": choice}
    out = _run(units, {}, rules, phase="W1901A", centers=centers)
    assert _after(out)["ITALY"] == left


# -- 4.D.9: hold support for a power in civil disorder ----------------------------------------

_CD_UNITS = {"AUSTRIA": ["A BUD"], "RUSSIA": ["F RUM"], "TURKEY": ["F BLA", "A BUL"]}
_CD_ORDERS = {
    "AUSTRIA": ["A Budapest Supports F Rumania"],
    "TURKEY": ["F Black Sea - Rumania", "A Bulgaria Supports F Black Sea - Rumania"],
}


def test_hold_support_for_a_power_in_civil_disorder_fails() -> None:
    """4.D.9 a: Russia sent no orders, so the Austrian support fails and the Russian
    fleet is dislodged; under b (preferred) the support holds it."""
    rules = {"hold_support_for_civil_disorder": False}
    out = _run(_CD_UNITS, _CD_ORDERS, rules)
    support = [r for r in out.results if r.given == "A Budapest Supports F Rumania"][0]
    assert support.result == "void" and "civil disorder" in reason_text(support.error or "")
    assert [str(d.unit) for d in out.dislodged] == ["F RUM"]
    assert _run(_CD_UNITS, _CD_ORDERS).dislodged == ()


def test_a_power_that_sent_any_order_is_not_in_civil_disorder() -> None:
    rules = {"hold_support_for_civil_disorder": False}
    out = _run(_CD_UNITS, {**_CD_ORDERS, "RUSSIA": ["F Rumania Hold"]}, rules)
    assert _result(out, "A Budapest Supports F Rumania") == "ok"
    assert out.dislodged == ()


# -- 4.E.1: illegal orders ------------------------------------------------------------------

# Rod Walker's example (DATC 4.E.1 b): GER A Mun-Mos, A Ruh S A Mun; RUS A Sil-Mun,
# A Boh S A Sil-Mun.
_WALKER_UNITS = {"GERMANY": ["A MUN", "A RUH"], "RUSSIA": ["A SIL", "A BOH"]}
_WALKER_RUSSIA = ["A Sil - Mun", "A Boh S A Sil - Mun"]


@pytest.mark.parametrize(
    ("choice", "move", "dislodged"),
    [
        ("any_format", "A Mun - Oz", True),  # a move to no place is still a move
        ("valid_places", "A Mun - Oz", False),  # not a place: illegal, the army holds
        ("valid_places", "A Mun - Mos", True),  # an impossible move is a move
        ("valid_geography", "A Mun - Mos", False),  # never possible: illegal
        ("invalid_in_current_position", "A Mun - Mos", False),
    ],
)
def test_an_impossible_move_refuses_hold_support(choice: str, move: str, dislodged: bool) -> None:
    orders = {"GERMANY": [move, "A Ruh S A Mun"], "RUSSIA": _WALKER_RUSSIA}
    out = _run(_WALKER_UNITS, orders, {"illegal_orders": choice})
    assert [str(d.unit) for d in out.dislodged] == (["A MUN"] if dislodged else [])
    assert _result(out, "A Ruh S A Mun") == ("void" if dislodged else "ok")


def test_an_order_of_any_format_is_shown_as_given() -> None:
    orders = {"GERMANY": ["A Mun - Oz"], "RUSSIA": []}
    out = _run(_WALKER_UNITS, orders, {"illegal_orders": "any_format"})
    (line,) = [r for r in out.results if r.given == "A Mun - Oz"]
    assert (line.order, line.result) == ("A Mun - Oz", "void")
    assert "4.E.1 a" in reason_text(line.error or "")


@pytest.mark.parametrize(
    ("choice", "black_sea"),
    [
        ("valid_places", "F BLA"),
        ("valid_geography", "F ANK"),
        ("invalid_in_current_position", "F ANK"),
    ],
)
def test_a_legal_impossible_order_replaces_an_earlier_one(choice: str, black_sea: str) -> None:
    """6.D.31 with a second order: where the impossible support is legal (b) it is the
    last legal order and counts (DATC 4.D.3); where it is illegal (c, d) it is ignored
    and the earlier move is carried out."""
    units = {"AUSTRIA": ["A RUM"], "TURKEY": ["F BLA"]}
    orders = {
        "AUSTRIA": ["A Rumania - Armenia"],
        "TURKEY": ["F Black Sea - Ankara", "F Black Sea Supports A Rumania - Armenia"],
    }
    out = _run(units, orders, {"illegal_orders": choice})
    assert _after(out)["TURKEY"] == [black_sea]


def test_the_reply_accepts_a_legal_impossible_order_with_a_note() -> None:
    position = _position({"RUSSIA": ["F RUM"]})
    (strict,) = check_orders(position, "RUSSIA", ["F Rumania - Holland"])
    assert not strict.accepted
    rules = Rules.from_json({"illegal_orders": "valid_places"})
    (loose,) = check_orders(position, "RUSSIA", ["F Rumania - Holland"], rules)
    assert loose.accepted and loose.order == "F RUM - HOL"
    assert any("4.E.1 b" in reason_text(note) for note in loose.notes)


# -- 4.E.3: implicit orders -----------------------------------------------------------------

_IMPLICIT = {"implicit_orders": True}


def _implicit_lines(out: Adjudication) -> list[tuple[str, str]]:
    return [
        (r.order, r.result)
        for r in out.results
        if not r.given and "implicit" in " ".join(map(reason_text, r.notes)).lower()
    ]


def test_a_move_is_deduced_from_an_own_support() -> None:
    units = {"GERMANY": ["A MUN", "A RUH"]}
    orders = {"GERMANY": ["A Ruh S A Mun - Bur"]}
    out = _run(units, orders, _IMPLICIT)
    assert _implicit_lines(out) == [("A MUN - BUR", "ok")]
    assert _result(out, "A Ruh S A Mun - Bur") == "ok"
    assert _after(out) == {"GERMANY": ["A BUR", "A RUH"]}
    preferred = _run(units, orders)
    assert _after(preferred) == {"GERMANY": ["A MUN", "A RUH"]}


def test_a_move_is_deduced_from_an_own_convoy() -> None:
    out = _run({"ENGLAND": ["F NTH", "A LON"]}, {"ENGLAND": ["F Nth C A Lon - Bel"]}, _IMPLICIT)
    assert _after(out) == {"ENGLAND": ["A BEL", "F NTH"]}


def test_an_explicit_order_wins_over_an_implicit_one() -> None:
    units = {"GERMANY": ["A MUN", "A RUH"]}
    out = _run(units, {"GERMANY": ["A Ruh S A Mun - Bur", "A Mun H"]}, _IMPLICIT)
    assert _implicit_lines(out) == []
    assert _after(out) == {"GERMANY": ["A MUN", "A RUH"]}


def test_nothing_is_deduced_from_another_powers_orders() -> None:
    units = {"GERMANY": ["A MUN"], "FRANCE": ["A RUH"]}
    out = _run(units, {"FRANCE": ["A Ruh S A Mun - Bur"]}, _IMPLICIT)
    assert _after(out)["GERMANY"] == ["A MUN"]


def test_disagreeing_supports_deduce_nothing() -> None:
    units = {"GERMANY": ["A MUN", "A RUH", "A BOH"]}
    orders = {"GERMANY": ["A Ruh S A Mun - Bur", "A Boh S A Mun - Tyr"]}
    out = _run(units, orders, _IMPLICIT)
    assert _after(out)["GERMANY"] == ["A BOH", "A MUN", "A RUH"]


# -- 4.E.5 b: proxy orders in the order set ---------------------------------------------------

_PROXY = {"proxy_orders": "in_order_set"}


def test_the_owners_own_order_wins_over_a_proxy_order() -> None:
    orders = {"ENGLAND": ["F London Hold"], "GERMANY": ["F London - North Sea"]}
    out = _run({"ENGLAND": ["F LON"]}, orders, _PROXY)
    assert _result(out, "F London - North Sea") == "void"
    assert _after(out) == {"ENGLAND": ["F LON"]}


def test_proxy_orders_of_two_powers_cancel() -> None:
    orders = {"GERMANY": ["F London - North Sea"], "FRANCE": ["F London - English Channel"]}
    out = _run({"ENGLAND": ["F LON"]}, orders, _PROXY)
    assert _result(out, "F London - North Sea") == "void"
    assert _result(out, "F London - English Channel") == "void"
    assert _after(out) == {"ENGLAND": ["F LON"]}


def test_a_proxy_ordered_unit_is_reported_dislodged() -> None:
    units = {"ENGLAND": ["F LON"], "FRANCE": ["F ENG", "F WAL", "F NTH"]}
    orders = {
        "GERMANY": ["F London - North Sea"],
        "FRANCE": ["F Eng - Lon", "F Wal S F Eng - Lon"],
    }
    out = _run(units, orders, _PROXY)
    assert _result(out, "F London - North Sea") == "dislodged"


def test_the_reply_accepts_a_proxy_order_with_a_note() -> None:
    position = _position({"ENGLAND": ["F LON"]})
    (refused,) = check_orders(position, "GERMANY", ["F London - North Sea"])
    assert not refused.accepted
    (proxy,) = check_orders(position, "GERMANY", ["F London - North Sea"], Rules.from_json(_PROXY))
    assert proxy.accepted and any("4.E.5 b" in reason_text(note) for note in proxy.notes)


# -- every choice on every DATC case: nothing breaks --------------------------------------

_OPTIONS_HERE = (
    "missing_coast_when_two_possible",
    "missing_coast_when_one_possible",
    "impossible_coast",
    "coast_in_support",
    "missing_coast_in_build",
    "waiving_builds",
    "civil_disorder_removal_distance",
    "hold_support_for_civil_disorder",
    "illegal_orders",
    "implicit_orders",
    "proxy_orders",
)
_CHOICES = [
    {key: value}
    for key in _OPTIONS_HERE
    for value in OPTIONS[key].choices
    if value != getattr(DEFAULT_RULES, key) and (key, value) != ("proxy_orders", "notified")
]
_ALL_AT_ONCE = {
    "missing_coast_when_two_possible": "default_coast",
    "missing_coast_when_one_possible": "default_coast",
    "impossible_coast": "possible_coast",
    "coast_in_support": "poorly_written",
    "missing_coast_in_build": "default_coast",
    "waiving_builds": False,
    "civil_disorder_removal_distance": "convoy_own_fleets",
    "hold_support_for_civil_disorder": False,
    "illegal_orders": "any_format",
    "implicit_orders": True,
    "proxy_orders": "in_order_set",
}
_CODES = {"ok", "bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband"}


@pytest.mark.parametrize("choice", [*_CHOICES, _ALL_AT_ONCE], ids=str)
def test_every_datc_case_adjudicates_under_the_choice(choice: dict) -> None:
    """Each phase of every DATC case, with the later phases' orders as written (they may
    no longer fit): every line gets a result, and no unit is lost or doubled."""
    rules = Rules.from_json(choice)
    for case in load_cases(DATC_DIR, "6*.toml"):
        position = datc_position(case, case["phase"][0]["phase"])
        for step in case["phase"]:
            orders = {p: [t for t, _ in lines] for p, lines in step.get("orders", {}).items()}
            out = adjudicate(position, orders, rules)
            given = [t for lines in orders.values() for t in lines]
            assert sorted(r.given for r in out.results if r.given) == sorted(given), case["id"]
            assert {r.result for r in out.results} <= _CODES, case["id"]
            places = [u.province for u in out.position.units]
            assert len(places) == len(set(places)), case["id"]
            position = out.position


def test_any_format_reads_garbage_without_breaking() -> None:
    units = {"GERMANY": ["A MUN", "F KIE"], "FRANCE": ["A PAR"]}
    lines = ["A Mun -", "A Mun - ", "Mun - Oz", "F Kie S Oz", "F Kie C Oz", "A Par - Oz", "-", "S"]
    out = _run(units, {"GERMANY": lines}, {"illegal_orders": "any_format"})
    assert [r.result for r in out.results if r.given] == [
        "void",
        "void",
        "void",
        "void",
        "void",
        "void",
        "void",
        "void",
    ]
    assert _after(out) == {"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "F KIE"]}


def test_a_variants_neutral_units_stay_unordered_and_may_be_supported() -> None:
    """Neutral powers (maps/standard-6.toml: Italy) are not played: no proxy order or
    loosely read order moves their units, and they are not in civil disorder (4.D.9 a):
    anyone may support them to hold."""
    gm = load_map("standard-6")
    board = (
        parse_unit(gm, "ITALY", "A VEN"),
        parse_unit(gm, "AUSTRIA", "A TRI"),
        parse_unit(gm, "AUSTRIA", "A TYR"),
        parse_unit(gm, "GERMANY", "A PIE"),
    )
    centers = {p: pw.home_centers for p, pw in gm.powers.items()}
    position = Position(gm, Phase.parse("S1901M"), board, centers)
    orders = {
        "AUSTRIA": ["A Tri - Ven", "A Tyr S A Tri - Ven", "A Ven - Rom"],
        "GERMANY": ["A Pie S A Ven"],
        "ITALY": ["A Ven - Oz"],
    }
    rules = Rules.from_json(
        {
            "proxy_orders": "in_order_set",
            "illegal_orders": "any_format",
            "hold_support_for_civil_disorder": False,
        }
    )
    out = adjudicate(position, orders, rules)
    assert _result(out, "A Ven - Rom") == "void"
    assert _result(out, "A Ven - Oz") == "void"
    assert _result(out, "A Pie S A Ven") == "ok"
    assert out.dislodged == ()
