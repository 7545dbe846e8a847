"""Maps the team wrote for issue 19 (maps/duel.toml: two powers; maps/decapolis.toml: ten;
maps/archipelago.toml: a province of three coasts and a chain of seas), played through
their DATC-style case files (tests/datc/<map>.toml) by the engine and by Contract 1."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest
from datc_cases import DATC_DIR, load_cases, play

from judge.engine.adjudication import adjudicate
from judge.engine.board import Position, parse_unit, starting_position
from judge.engine.geography import GameMap, MapError, build_map
from judge.engine.notation import parse_order
from judge.engine.orders import order_text
from judge.engine.phase import Phase
from judge.engine.rules import Rules
from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import MAPS_DIR, load_map
from judge.variants.problem_text import reason_text

TEAM_MAPS = ["duel", "archipelago", "decapolis"]
CASES = [case for name in TEAM_MAPS for case in load_cases(DATC_DIR, f"{name}.toml")]
IDS = [c["id"] for c in CASES]


def _start(case: dict) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The case's units and centres before its first phase, by power (the map's start
    where the case leaves them out)."""
    gm = load_map(case["map"])
    start = starting_position(gm)
    if "units" in case:
        units = {p: list(us) for p, us in case["units"].items()}
    else:
        units = {}
        for u in start.units:
            units.setdefault(u.power, []).append(str(u))
    if "centers" in case:
        centers = {p: list(cs) for p, cs in case["centers"].items()}
    else:
        centers = {p: sorted(cs) for p, cs in start.centers.items() if cs}
    return units, centers


def _position(case: dict) -> Position:
    gm = load_map(case["map"])
    units, centers = _start(case)
    parsed = tuple(parse_unit(gm, p, text) for p, texts in units.items() for text in texts)
    owned = {p: frozenset(cs) for p, cs in centers.items()}
    return Position(gm, Phase.parse(case["phase"][0]["phase"]), parsed, owned)


def test_each_team_map_has_its_cases() -> None:
    assert {c["map"] for c in CASES} == set(TEAM_MAPS)
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_by_the_engine(case: dict) -> None:
    play(case, _position(case), Rules.from_json(case.get("rules")))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_by_contract_1(case: dict) -> None:
    """The same case line by line through `judge adjudicate`'s JSON, each phase's output
    (units, centres, retreats) the next phase's input."""
    units, centers = _start(case)
    fixed = {"map": case["map"], "rules": case.get("rules", {})}  # the same in every phase
    state: dict = {**fixed, "units": units, "centers": centers, "retreats": {}}
    steps = case["phase"]
    for step, after in zip(steps, [*steps[1:], None], strict=True):
        orders = {p: [text for text, _ in lines] for p, lines in step.get("orders", {}).items()}
        out = adjudicate_line(json.dumps({**state, "phase": step["phase"], "orders": orders}))
        assert "error" not in out, out
        for power, lines in step.get("orders", {}).items():
            got = [(r["given"], r["result"]) for r in out["results"][power] if r["given"]]
            assert got == [tuple(x) for x in lines]
        expect = step["expect"]
        assert out["units"] == {p: sorted(us) for p, us in expect["units"].items() if us}
        retreats = {
            u: places for by_unit in out["retreats"].values() for u, places in by_unit.items()
        }
        if "dislodged" in expect:  # Contract 1 lists a dislodged unit only with a place to go
            nowhere = {u for u, places in expect.get("retreats", {}).items() if not places}
            assert sorted(retreats) == sorted(set(expect["dislodged"]) - nowhere)
        for unit, places in expect.get("retreats", {}).items():
            assert retreats.get(unit, []) == sorted(places)
        if after is not None:  # the engine's next phase, and the builds due in it
            assert out["next_phase"] == after["phase"]
            if "builds" in after["expect"]:
                assert out["builds"] == after["expect"]["builds"]
        state = {**fixed, **{k: out[k] for k in ("units", "centers", "retreats")}}


# -- coasts of the map's own naming ---------------------------------------------------------


def _map_data(name: str) -> dict:
    with (MAPS_DIR / f"{name}.toml").open("rb") as f:
        return tomllib.load(f)


def _renamed_coasts() -> GameMap:
    """The archipelago with Tridentia's west and east coasts named SW and SE, as a map
    may name them (nothing in the format says a coast is north, south, east or west)."""
    data = _map_data("archipelago")
    tri = data["provinces"]["TRD"]
    tri["coasts"] = {"NC": tri["coasts"]["NC"], "SW": {"fleet": ["STR"]}, "SE": {"fleet": ["DEP"]}}
    data["provinces"]["STR"]["fleet"] = ["WAP", "DEP", "TRD/SW", "MRK"]
    data["provinces"]["DEP"]["fleet"] = ["STR", "EAP", "TRD/SE", "MRK"]
    data["powers"]["BOREAS"]["units"] = ["F TRD/SW", "A NOR", "F NPT"]
    data["name"] = "archipelago-coasts"
    return build_map(data)


@pytest.mark.parametrize(
    "text, order",
    [
        ("F Trd/sw - Str", "F TRD/SW - STR"),
        ("F Tridentia (SW) - The Strait", "F TRD/SW - STR"),
        ("F Tridentia sw coast - Strait", "F TRD/SW - STR"),
        ("F Deep - Tridentia se", "F DEP - TRD/SE"),
        ("F Strait S F Deep - Trident (se)", "F STR S F DEP - TRD/SE"),
        ("F Npt - Trd nc", "F NPT - TRD/NC"),
    ],
)
def test_a_coast_the_map_names_itself_is_read(text: str, order: str) -> None:
    assert order_text(parse_order(text, _renamed_coasts(), "M").order) == order


def test_a_move_to_a_coast_the_map_names_itself_is_adjudicated() -> None:
    """Archipelago.4 on the renamed coasts: the supported fleet (2) reaches the SE coast
    and dislodges the fleet on the SW coast, whose move cannot be made from there (void:
    it holds, with 1)."""
    gm = _renamed_coasts()
    units = (parse_unit(gm, "LEVANT", "F DEP"), parse_unit(gm, "HESPER", "F STR"))
    units += (parse_unit(gm, "BOREAS", "F TRD/SW"),)
    position = Position(gm, Phase.parse("S1901M"), units, {})
    orders = {
        "LEVANT": ["F Open Deep - Tridentia (se)"],
        "HESPER": ["F Strait S F Deep - Tridentia"],
        "BOREAS": ["F Tridentia sw - Open Deep"],
    }
    outcome = adjudicate(position, orders)
    assert [(r.power, r.order, r.result) for r in outcome.results] == [
        ("LEVANT", "F DEP - TRD/SE", "ok"),
        ("HESPER", "F STR S F DEP - TRD", "ok"),
        ("BOREAS", "F TRD/SW - DEP", "dislodged"),
    ]


@pytest.mark.parametrize("initial", ["A", "a"])
def test_two_powers_with_one_initial_are_refused(initial: str) -> None:
    """With ten powers initials run close: SIGNON by initial must name one power."""
    data = _map_data("decapolis")
    data["powers"]["JORVIK"]["initial"] = initial
    with pytest.raises(MapError, match="ASTRA and JORVIK have one initial 'A'"):
        build_map(data)


@pytest.mark.parametrize("name", TEAM_MAPS)
def test_a_team_map_starts_balanced_and_holds_a_year_without_orders(name: str) -> None:
    """Every power starts with as many units as centres, the victory count is more than
    half the centres, and a year in which nobody orders changes no unit (neutral centres
    under a unit are taken in the Fall, as Violet's Eastfold is)."""
    gm = load_map(name)
    start = starting_position(gm)
    assert len(gm.powers) == {"duel": 2, "archipelago": 3, "decapolis": 10}[name]
    for power in gm.powers.values():
        assert len(power.units) == len(power.starting_centers)
    assert len(gm.supply_centers) // 2 < gm.victory_centers <= len(gm.supply_centers)
    position = start
    for phase in ("S1901M", "F1901M"):
        assert str(position.phase) == phase
        position = adjudicate(position, {}).position
    assert sorted(map(str, position.units)) == sorted(map(str, start.units))


def test_the_judge_adjudicate_command_gives_the_same_answers() -> None:
    """The first phase of every case, as lines to the real `judge adjudicate` command:
    each answer is the one Contract 1 gave in test_case_by_contract_1."""
    lines = []
    for case in CASES:
        units, centers = _start(case)
        step = case["phase"][0]
        orders = {p: [text for text, _ in ls] for p, ls in step.get("orders", {}).items()}
        data = {"map": case["map"], "phase": step["phase"], "units": units}
        lines.append(json.dumps({**data, "centers": centers, "orders": orders}))
    proc = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert [json.loads(out) for out in proc.stdout.splitlines()] == [
        adjudicate_line(line) for line in lines
    ]
    assert proc.stderr == ""


def test_a_fleet_built_in_three_coast_province_needs_its_coast() -> None:
    """DATC 4.B.7 a (the preferred choice) on Tridentia: the reason names all three."""
    gm = load_map("archipelago")
    position = Position(gm, Phase.parse("W1901A"), (), {"BOREAS": frozenset({"TRD"})})
    outcome = adjudicate(position, {"BOREAS": ["Build F Tridentia", "Build F Tridentia wc"]})
    [bare, west] = outcome.results
    assert (bare.order, bare.result, west.order, west.result) == (
        "F TRD B",
        "void",
        "F TRD/WC B",
        "ok",
    )
    assert bare.error is not None
    assert reason_text(bare.error) == (
        "Say on which coast to build the fleet: Tridentia (east coast), "
        "Tridentia (north coast) or Tridentia (west coast)."
    )


def _capital_named_violet() -> GameMap:
    """The duel with Viohaven renamed Violet, as many maps name a power's capital after
    it (Egypt, Spain, Rome)."""
    data = _map_data("duel")
    data["provinces"]["VHA"]["name"] = "Violet"
    data["name"] = "duel-violet"
    return build_map(data)


@pytest.mark.parametrize(
    "text, order",
    [
        ("Violet: A Violet - Midmarch", "A VHA - MID"),
        ("Violet F Violet - South Bay", "F VHA - SBY"),
        ("A Violet - Midmarch", "A VHA - MID"),
        ("Violet - Midmarch", "VHA - MID"),
        ("Violet H", "VHA H"),
        ("Orange: A Orport S A Violet - Midmarch", "A OPO S A VHA - MID"),
        ("Violet: Build A Violet", "A VHA B"),
    ],
)
def test_a_place_named_like_a_power_is_read_after_the_powers_name(text: str, order: str) -> None:
    assert order_text(parse_order(text, _capital_named_violet()).order) == order


def test_victory_is_the_maps_own_count() -> None:
    """Decapolis: 21 of 40 centres win; Astra has 20 and takes Amberlea in the Fall."""
    gm = load_map("decapolis")
    twenty = sorted(gm.supply_centers - {"NAT"})[:20]
    assert "NAT" not in twenty and "ASB" in twenty
    line = {
        "map": "decapolis",
        "phase": "F1901M",
        "units": {"ASTRA": ["A ASB"]},
        "centers": {"ASTRA": twenty},
        "orders": {"ASTRA": ["A Asterby - Amberlea"]},
    }
    out = adjudicate_line(json.dumps(line))
    assert (len(out["centers"]["ASTRA"]), out["winner"]) == (21, "ASTRA")
    line["orders"] = {"ASTRA": ["A Asterby H"]}
    out = adjudicate_line(json.dumps(line))
    assert (len(out["centers"]["ASTRA"]), out["winner"]) == (20, None)
