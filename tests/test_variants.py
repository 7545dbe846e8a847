"""Map variants: DATC 2.4 sections 11 and 12 (tests/datc/variants.toml), the games for
fewer players of the 1992 rulebook XV.3, and the variant file format (maps/README.md)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from datc_cases import load_cases, play
from datc_cases import units_by_power as _units_by_power

from judge.engine.adjudication import adjudicate
from judge.engine.board import Position, parse_unit, starting_position
from judge.engine.geography import MapError, build_map
from judge.engine.phase import Phase
from judge.engine.validation import check_orders, orders_due
from judge.variants import maps
from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import load_map, map_names
from judge.variants.problem_text import reason_text

DATC_VARIANTS = Path(__file__).parent / "datc" / "variants.toml"
STANDARD = load_map("standard")
FEWER = ["standard-6", "standard-5", "standard-4", "standard-3a", "standard-3b", "standard-2"]
VARIANTS = ["standard-anycenter", "standard-1898", *FEWER]


# -- DATC sections 11 and 12, from the data file -------------------------------------------


CASES = load_cases(DATC_VARIANTS.parent, DATC_VARIANTS.name)


def test_every_variant_case_is_there() -> None:
    assert [c["id"] for c in CASES] == ["11.A", "12.A", "12.B", "12.C", "12.D"]


def _case_position(case: dict) -> Position:
    gm = load_map(case["map"])
    start = starting_position(gm)
    phase = Phase.parse(case["phase"][0]["phase"])
    if "units" in case:
        units = tuple(
            parse_unit(gm, power, text) for power, texts in case["units"].items() for text in texts
        )
    else:
        units = start.units
    if "centers" in case:
        centers = {p: frozenset(c) for p, c in case["centers"].items()}
    else:
        centers = dict(start.centers)
    return Position(gm, phase, units, centers)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc_variant_case(case: dict) -> None:
    play(case, _case_position(case))


# -- the variant files ----------------------------------------------------------------------


def test_every_variant_is_listed_and_loads_on_the_standard_map() -> None:
    assert {"standard", *VARIANTS} <= set(map_names())
    titles = set()
    for name in VARIANTS:
        gm = load_map(name)
        assert gm.name == name and gm.base == "standard"
        assert gm.provinces is not STANDARD.provinces and gm.provinces == STANDARD.provinces
        titles.add(gm.title)
    assert len(titles) == len(VARIANTS) and STANDARD.title not in titles


def test_map_names_are_read_case_insensitively_and_safely() -> None:
    assert load_map("Standard-1898") is load_map("standard-1898")
    for bad in ("../standard", "standard_drawing", "standard-9", ""):
        with pytest.raises(MapError):
            load_map(bad)


def test_the_standard_map_keeps_the_standard_rules() -> None:
    gm = STANDARD
    assert gm.base is None and not gm.build_anywhere and not gm.victory_by_player
    assert gm.neutral_powers == frozenset() and gm.neutral_until is None
    assert gm.closed_in(Phase.parse("S1901M")) == frozenset()
    assert gm.player_groups == tuple((p,) for p in gm.powers)
    for p in gm.powers.values():
        assert p.starting_centers == p.home_centers


def _data(name: str) -> dict:
    with (maps.MAPS_DIR / f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def test_a_variant_overrides_only_what_it_names(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "standard.toml").write_bytes((maps.MAPS_DIR / "standard.toml").read_bytes())
    (tmp_path / "crowded.toml").write_text(
        'base = "standard"\ntitle = "Ruhr a centre"\n'
        "[provinces.RUH]\nsupply_center = true\n"
        '[powers.ITALY]\nunits = ["F NAP", "A ROM"]\n'
    )
    (tmp_path / "crowded-six.toml").write_text(
        'base = "crowded"\ntitle = "Ruhr, six players"\nneutral_powers = ["ITALY"]\n'
    )
    (tmp_path / "untitled.toml").write_text('base = "standard"\n')
    (tmp_path / "loop.toml").write_text('base = "loop2"\ntitle = "a"\n')
    (tmp_path / "loop2.toml").write_text('base = "loop"\ntitle = "b"\n')
    monkeypatch.setattr(maps, "MAPS_DIR", tmp_path)
    gm = build_map(maps._map_data("crowded-six", ()))
    assert gm.name == "crowded-six" and gm.base == "standard" and gm.title == "Ruhr, six players"
    assert "RUH" in gm.supply_centers and len(gm.supply_centers) == 35
    assert gm.provinces["RUH"].name == "Ruhr" and gm.army_moves == STANDARD.army_moves
    assert gm.powers["ITALY"].units == ("F NAP", "A ROM")
    assert gm.powers["ITALY"].home_centers == STANDARD.powers["ITALY"].home_centers
    assert gm.neutral_powers == {"ITALY"}
    with pytest.raises(MapError, match="its own title"):
        maps._map_data("untitled", ())
    with pytest.raises(MapError, match="bad base"):
        maps._map_data("loop", ())


@pytest.mark.parametrize(
    "change, message",
    [
        ({"powers": {"GERMANY": {"starting_centers": ["BUR"]}}}, "not a supply centre"),
        ({"powers": {"GERMANY": {"starting_centers": ["PAR"]}}}, "both FRANCE and GERMANY"),
        ({"powers": {"GERMANY": {"units": ["F MUN"]}}}, "cannot stand there"),
        ({"neutral_powers": ["PRUSSIA"]}, "unknown power"),
        ({"closed_provinces": ["VEN"]}, "neutral_powers"),
        ({"neutral_powers": ["ITALY"], "players": [["ITALY"]]}, "played by nobody"),
        ({"players": [["ENGLAND"], ["ENGLAND", "FRANCE"]]}, "at most one"),
        ({"neutral_until": "S1915"}, "not a phase"),
        ({"victory_centers": 35}, "victory_centers"),
    ],
)
def test_inconsistent_variant_data_is_refused(change: dict, message: str) -> None:
    data = maps._overlay(_data("standard"), change)
    with pytest.raises(MapError, match=message):
        build_map(data)


# -- 1898 -----------------------------------------------------------------------------------


def test_1898_starts_with_one_unit_and_one_centre_each() -> None:
    gm = load_map("standard-1898")
    start = starting_position(gm)
    assert str(start.phase) == "S1899M"
    assert _units_by_power(start) == {
        "AUSTRIA": ["A TRI"],
        "ENGLAND": ["F EDI"],
        "FRANCE": ["A BRE"],
        "GERMANY": ["A KIE"],
        "ITALY": ["A NAP"],
        "RUSSIA": ["A STP"],
        "TURKEY": ["A SMY"],
    }
    assert start.centers == {
        "AUSTRIA": {"TRI"},
        "ENGLAND": {"EDI"},
        "FRANCE": {"BRE"},
        "GERMANY": {"KIE"},
        "ITALY": {"NAP"},
        "RUSSIA": {"STP"},
        "TURKEY": {"SMY"},
    }
    for power in gm.powers:  # the home centres are the standard map's
        assert gm.powers[power].home_centers == STANDARD.powers[power].home_centers


def test_1898_builds_in_a_captured_home_centre_only() -> None:
    gm = load_map("standard-1898")
    units = (parse_unit(gm, "GERMANY", "A KIE"), parse_unit(gm, "GERMANY", "A HOL"))
    centers = {"GERMANY": frozenset({"KIE", "MUN", "HOL", "DEN", "WAR"})}
    position = Position(gm, Phase.parse("W1900A"), units, centers)
    assert orders_due(position, "GERMANY") == (set(), 1)  # Munich only: Kiel is occupied
    checked = check_orders(position, "GERMANY", ["Build A Berlin", "Build A Den", "Build A Mun"])
    assert [c.accepted for c in checked] == [False, False, True]
    assert "not one of your home" in reason_text(checked[1].error or "")
    outcome = adjudicate(position, {"GERMANY": ["Build A Berlin", "Build A Munich"]})
    assert [r.result for r in outcome.results] == ["void", "ok"]
    assert "A MUN" in _units_by_power(outcome.position)["GERMANY"]


# -- build in any supply centre ---------------------------------------------------------------


def _germany_with_a_free_holland(name: str, phase: str) -> Position:
    gm = load_map(name)
    texts = ["A BER", "F KIE", "A MUN", "A DEN"]
    units = tuple(parse_unit(gm, "GERMANY", t) for t in texts)
    centers = {"GERMANY": frozenset({"BER", "KIE", "MUN", "HOL", "DEN"})}
    return Position(gm, Phase.parse(phase), units, centers)


def test_any_centre_builds_are_due_where_home_builds_are_not() -> None:
    # Germany owns five centres with four units; its home centres are all occupied and
    # Holland is free: a phase of builds on the any-centre map only.
    standard = adjudicate(_germany_with_a_free_holland("standard", "F1901M"), {})
    assert str(standard.position.phase) == "S1902M" and standard.builds == {}
    anywhere = adjudicate(_germany_with_a_free_holland("standard-anycenter", "F1901M"), {})
    assert str(anywhere.position.phase) == "W1901A" and anywhere.builds == {"GERMANY": 1}


def test_any_centre_builds_go_in_any_owned_centre() -> None:
    position = _germany_with_a_free_holland("standard-anycenter", "W1901A")
    assert orders_due(position, "GERMANY") == (set(), 1)
    outcome = adjudicate(position, {"GERMANY": ["Build F Belgium", "Build F Holland"]})
    assert [r.result for r in outcome.results] == ["void", "ok"]
    assert "F HOL" in _units_by_power(outcome.position)["GERMANY"]
    standard = _germany_with_a_free_holland("standard", "W1901A")
    assert [r.result for r in adjudicate(standard, {"GERMANY": ["Build F Holland"]}).results] == [
        "void"
    ]


# -- the games for fewer players --------------------------------------------------------------

GROUPS = {
    "standard-6": [["AUSTRIA"], ["ENGLAND"], ["FRANCE"], ["GERMANY"], ["RUSSIA"], ["TURKEY"]],
    "standard-5": [["AUSTRIA"], ["ENGLAND"], ["FRANCE"], ["RUSSIA"], ["TURKEY"]],
    "standard-4": [["ENGLAND"], ["AUSTRIA", "FRANCE"], ["GERMANY", "TURKEY"], ["ITALY", "RUSSIA"]],
    "standard-3a": [["RUSSIA"], ["ENGLAND", "FRANCE", "GERMANY"], ["AUSTRIA", "ITALY", "TURKEY"]],
    "standard-3b": [["ENGLAND", "GERMANY", "AUSTRIA"], ["RUSSIA", "ITALY"], ["FRANCE", "TURKEY"]],
    "standard-2": [["ENGLAND", "FRANCE", "RUSSIA"], ["AUSTRIA", "GERMANY", "TURKEY"]],
}
NEUTRAL = {"standard-6": {"ITALY"}, "standard-5": {"ITALY", "GERMANY"}, "standard-2": {"ITALY"}}


@pytest.mark.parametrize("name", FEWER)
def test_fewer_players_start_as_the_standard_game(name: str) -> None:
    gm = load_map(name)
    start, standard = starting_position(gm), starting_position(STANDARD)
    assert start.units == standard.units and start.centers == standard.centers
    assert start.phase == Phase(1914 if name == "standard-2" else 1901, "S", "M")
    assert [list(g) for g in gm.player_groups] == GROUPS[name]
    assert gm.neutral_powers == NEUTRAL.get(name, set())
    assert gm.victory_centers == (24 if name == "standard-2" else 18)
    assert gm.victory_by_player == (
        name in ("standard-4", "standard-3a", "standard-3b", "standard-2")
    )
    # every power is played by exactly one player or neutral
    played = [p for g in gm.player_groups for p in g]
    assert sorted(played + sorted(gm.neutral_powers - set(played))) == sorted(gm.powers)


def _position(name: str, phase: str, units: dict[str, list[str]], centers=None) -> Position:
    gm = load_map(name)
    us = tuple(parse_unit(gm, p, t) for p, ts in units.items() for t in ts)
    if centers is None:
        centers = {p: pw.home_centers for p, pw in gm.powers.items()}
    return Position(gm, Phase.parse(phase), us, {p: frozenset(c) for p, c in centers.items()})


def _results(outcome, power: str) -> list[tuple[str, str]]:
    return [(r.order, r.result) for r in outcome.results if r.power == power]


@pytest.mark.parametrize("name", ["standard-6", "standard-5", "standard-2"])
def test_a_neutral_power_is_never_ordered(name: str) -> None:
    position = starting_position(load_map(name))
    assert orders_due(position, "ITALY") == (set(), 0)
    checked = check_orders(position, "ITALY", ["A Ven - Tyr"])
    assert not checked[0].accepted and "Italy is neutral" in reason_text(checked[0].error or "")
    outcome = adjudicate(position, {"ITALY": ["A Ven - Tyr", "F Nap - Ion"]})
    italian = [r for r in outcome.results if r.power == "ITALY"]
    assert [r.result for r in italian if r.given] == ["void", "void"]
    assert all("neutral" in reason_text(r.error or "") for r in italian if r.given)
    assert _units_by_power(outcome.position)["ITALY"] == ["A ROM", "A VEN", "F NAP"]


def test_on_the_standard_map_a_power_that_orders_nothing_holds_and_disbands() -> None:
    # The same treatment as civil disorder: no orders -> hold; dislodged -> no retreat
    # ordered -> disbanded in the retreat phase.
    position = _position("standard", "S1901M", {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"]})
    outcome = adjudicate(position, {"AUSTRIA": ["A Tyr - Ven", "A Tri S A Tyr - Ven"]})
    assert _results(outcome, "ITALY") == [("A VEN H", "dislodged")]
    assert str(outcome.position.phase) == "S1901R"
    retreat = adjudicate(outcome.position, {})
    assert _results(retreat, "ITALY") == [("A VEN D", "disband")]
    assert "ITALY" not in _units_by_power(retreat.position)


def test_a_dislodged_neutral_unit_is_disbanded_without_a_retreat() -> None:
    position = _position(
        "standard-6",
        "S1901M",
        {
            "ITALY": ["A VEN"],
            "AUSTRIA": ["A TRI", "A TYR"],
            "FRANCE": ["A BUR"],
            "GERMANY": ["A MUN", "A RUH"],
        },
    )
    orders = {
        "AUSTRIA": ["A Tyr - Ven", "A Tri S A Tyr - Ven"],
        "GERMANY": ["A Mun - Bur", "A Ruh S A Mun - Bur"],
    }
    outcome = adjudicate(position, orders)
    assert _results(outcome, "ITALY") == [("A VEN H", "dislodged")]
    gone = {str(d.unit): d.retreats for d in outcome.dislodged}
    assert gone["A VEN"] == () and gone["A BUR"]  # France may retreat, Italy may not
    assert str(outcome.position.phase) == "S1901R"
    assert [str(d.unit) for d in outcome.position.dislodged] == ["A BUR"]
    assert "ITALY" not in _units_by_power(outcome.position)
    retreat = adjudicate(outcome.position, {})  # nobody orders anything
    assert "ITALY" not in _units_by_power(retreat.position)
    assert str(retreat.position.phase) == "F1901M"
    # with only the Italian unit dislodged there is no retreat phase at all
    alone = adjudicate(position, {"AUSTRIA": orders["AUSTRIA"]})
    assert str(alone.position.phase) == "F1901M"
    assert _units_by_power(alone.position)["AUSTRIA"] == ["A TRI", "A VEN"]


def test_another_powers_support_to_a_neutral_units_hold_counts() -> None:
    units = {"ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI", "A TYR"], "FRANCE": ["A PIE"]}
    position = _position("standard-6", "S1901M", units)
    attack = ["A Tyr - Ven", "A Tri S A Tyr - Ven"]
    outcome = adjudicate(position, {"AUSTRIA": attack, "FRANCE": ["A Pie S A Ven"]})
    assert _results(outcome, "FRANCE") == [("A PIE S A VEN", "ok")]
    assert ("A TYR - VEN", "bounce") in _results(outcome, "AUSTRIA")
    assert "A VEN" in _units_by_power(outcome.position)["ITALY"]
    # the Italian units do not support each other: an order for one is void
    outcome = adjudicate(position, {"AUSTRIA": attack, "ITALY": ["A Rom S A Ven"]})
    italian = [(r.given, r.result) for r in outcome.results if r.power == "ITALY" and r.given]
    assert italian == [("A Rom S A Ven", "void")]
    assert _units_by_power(outcome.position)["ITALY"] == ["A ROM"]


def test_a_neutral_power_builds_nothing_but_loses_units() -> None:
    # Italy owns four centres with three units: no build phase for it.
    centers = {"ITALY": {"NAP", "ROM", "VEN", "TUN"}, "FRANCE": {"PAR"}}
    units = {"ITALY": ["A VEN", "A ROM", "F ION"], "FRANCE": ["A PAR"]}
    outcome = adjudicate(_position("standard-6", "F1901M", units, centers), {})
    assert outcome.builds == {} and str(outcome.position.phase) == "S1902M"
    standard = adjudicate(_position("standard", "F1901M", units, centers), {})
    assert standard.builds == {"ITALY": 1} and str(standard.position.phase) == "W1901A"
    # Italy owns two centres with three units: one is removed by the civil-disorder rule.
    centers = {"ITALY": {"NAP", "ROM"}, "FRANCE": {"PAR", "VEN"}}
    position = _position("standard-6", "W1901A", units, centers)
    removal = adjudicate(position, {})
    assert _results(removal, "ITALY") == [("F ION D", "disband")]  # the farthest from home


# -- World War I ------------------------------------------------------------------------------


def test_wwi_italian_territory_is_closed_until_italy_joins() -> None:
    gm = load_map("standard-2")
    italy = {"PIE", "VEN", "TUS", "ROM", "NAP", "APU"}
    for phase in ("S1914M", "S1914R", "F1914M", "F1914R", "W1914A"):
        assert gm.closed_in(Phase.parse(phase)) == italy
        assert gm.neutral_in(Phase.parse(phase)) == {"ITALY"}
    for phase in ("S1915M", "F1916M", "W1915A"):
        assert gm.closed_in(Phase.parse(phase)) == frozenset()
        assert gm.neutral_in(Phase.parse(phase)) == frozenset()
    assert gm.neutral_joins == "coin_flip" and str(gm.neutral_until) == "S1915M"


def _wwi(phase: str) -> Position:
    units = {
        "AUSTRIA": ["A TRI", "A TYR", "F ADR"],
        "FRANCE": ["A MAR", "F LYO", "A SPA"],
        "ITALY": ["A ROM", "F NAP"],
    }
    return _position("standard-2", phase, units)


def test_wwi_no_move_support_or_convoy_into_italy_in_1914() -> None:
    orders = {
        "AUSTRIA": ["A Tri - Ven", "A Tyr S A Tri - Ven", "F Adr - Apu"],
        "FRANCE": ["A Mar - Pie", "A Spa - Tus", "F Lyo C A Spa - Tus"],
    }
    outcome = adjudicate(_wwi("S1914M"), orders)
    for power in ("AUSTRIA", "FRANCE"):
        got = [r for r in outcome.results if r.power == power]
        assert [r.result for r in got] == ["void"] * 3
        assert all(
            "may not be entered while Italy is neutral" in reason_text(r.error or "") for r in got
        )
    assert _units_by_power(outcome.position) == _units_by_power(_wwi("S1914M"))
    checked = check_orders(_wwi("F1914M"), "AUSTRIA", ["A Tri - Ven", "A Tri - Alb"])
    assert [c.accepted for c in checked] == [False, True]


def test_wwi_italy_opens_in_1915() -> None:
    orders = {
        "AUSTRIA": ["A Tri - Ven", "A Tyr S A Tri - Ven", "F Adr - Apu"],
        "FRANCE": ["A Mar - Pie", "A Spa - Tus", "F Lyo C A Spa - Tus"],
    }
    outcome = adjudicate(_wwi("S1915M"), orders)
    assert [r.result for r in outcome.results if r.power == "AUSTRIA"] == ["ok"] * 3
    assert [r.result for r in outcome.results if r.power == "FRANCE"] == ["ok"] * 3
    assert _units_by_power(outcome.position)["AUSTRIA"] == ["A TYR", "A VEN", "F APU"]
    # and Italy, now on a side, is ordered like anyone else
    italy = adjudicate(_wwi("S1915M"), {"ITALY": ["A Rom - Tus"]})
    assert _results(italy, "ITALY")[0] == ("A ROM - TUS", "ok")


def test_wwi_no_retreat_into_italy_in_1914() -> None:
    units = {"AUSTRIA": ["A TRI", "A BUD"], "RUSSIA": ["A SER", "F ADR"], "ITALY": ["A ROM"]}
    orders = {"RUSSIA": ["A Ser - Tri", "F Adr S A Ser - Tri"]}
    for phase, ven in (("S1914M", False), ("S1915M", True)):
        outcome = adjudicate(_position("standard-2", phase, units), orders)
        (d,) = outcome.dislodged
        assert str(d.unit) == "A TRI" and ("VEN" in d.retreats) == ven
        assert "ALB" in d.retreats


def _centres(counts: dict[str, int]) -> dict[str, set[str]]:
    """`counts` supply centres per power, dealt from the map's centres."""
    pool = sorted(STANDARD.supply_centers)
    out = {}
    for power, n in counts.items():
        out[power], pool = set(pool[:n]), pool[n:]
    return out


def test_wwi_victory_is_24_centres_of_a_players_powers_together() -> None:
    units = {"ENGLAND": ["F NTH"]}
    win = _centres({"ENGLAND": 10, "FRANCE": 8, "RUSSIA": 6, "AUSTRIA": 4, "TURKEY": 3})
    outcome = adjudicate(_position("standard-2", "F1916M", units, win), {})
    assert outcome.winners == ("ENGLAND", "FRANCE", "RUSSIA")
    assert outcome.winner == "ENGLAND+FRANCE+RUSSIA"
    short = _centres({"ENGLAND": 10, "FRANCE": 8, "RUSSIA": 5, "ITALY": 3, "AUSTRIA": 4})
    outcome = adjudicate(_position("standard-2", "F1916M", units, short), {})
    assert outcome.winner is None and outcome.winners == ()
    # once the coin has given Italy to England/France/Russia, its centres count for them
    players = [["ENGLAND", "FRANCE", "RUSSIA", "ITALY"], ["AUSTRIA", "GERMANY", "TURKEY"]]
    outcome = adjudicate(_position("standard-2", "F1916M", units, short), {}, players=players)
    assert outcome.winners == ("ENGLAND", "FRANCE", "RUSSIA", "ITALY")
    # one power with 18 is no victory in this game
    alone = _centres({"ENGLAND": 18})
    assert adjudicate(_position("standard-2", "F1916M", units, alone), {}).winner is None
    assert adjudicate(_position("standard", "F1916M", units, alone), {}).winner == "ENGLAND"


def test_four_player_victory_counts_the_pair_together() -> None:
    units = {"FRANCE": ["A PAR"]}
    pair = _centres({"AUSTRIA": 9, "FRANCE": 9, "ENGLAND": 5})
    outcome = adjudicate(_position("standard-4", "F1905M", units, pair), {})
    assert outcome.winners == ("AUSTRIA", "FRANCE") and outcome.winner == "AUSTRIA+FRANCE"
    assert adjudicate(_position("standard", "F1905M", units, pair), {}).winner is None
    three = _centres({"FRANCE": 9, "ENGLAND": 9})  # not one player's powers
    assert adjudicate(_position("standard-4", "F1905M", units, three), {}).winner is None


# -- Contract 1 -------------------------------------------------------------------------------


def test_judge_adjudicate_takes_a_variant_by_name() -> None:
    line = {
        "map": "standard-1898",
        "phase": "W1899A",
        "units": {"GERMANY": ["A KIE"]},
        "centers": {"GERMANY": ["KIE", "MUN", "WAR"]},
        "orders": {"GERMANY": ["Build A War", "Build A Mun"]},
    }
    out = adjudicate_line(json.dumps(line))
    assert [r["result"] for r in out["results"]["GERMANY"]] == ["void", "ok"]
    assert out["units"] == {"GERMANY": ["A KIE", "A MUN"]} and out["next_phase"] == "S1900M"


def test_judge_adjudicate_takes_the_players_of_a_grouped_game() -> None:
    short = _centres({"ENGLAND": 10, "FRANCE": 8, "RUSSIA": 5, "ITALY": 3, "AUSTRIA": 4})
    line = {
        "map": "standard-2",
        "phase": "F1916M",
        "units": {"ENGLAND": ["F NTH"]},
        "centers": {p: sorted(c) for p, c in short.items()},
    }
    assert adjudicate_line(json.dumps(line))["winner"] is None
    line["players"] = [["ENGLAND", "FRANCE", "RUSSIA", "ITALY"], ["AUSTRIA", "GERMANY", "TURKEY"]]
    assert adjudicate_line(json.dumps(line))["winner"] == "ENGLAND+FRANCE+RUSSIA+ITALY"
    line["players"] = [["ENGLAND", "PRUSSIA"]]
    assert "PRUSSIA" in adjudicate_line(json.dumps(line))["error"]
    line["map"] = "standard-1066"
    assert adjudicate_line(json.dumps(line)) == {"error": "unknown map 'standard-1066'"}
