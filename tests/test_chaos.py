"""The Chaos variant (maps/chaos.toml): 34 powers, one home centre each, builds in any
owned centre; and the power initials it needs, one letter or digit each
(maps/README.md, "Power initials")."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from judge.commands.powers import power_key, powers_named
from judge.engine.board import starting_position
from judge.engine.geography import MapError, build_map, is_initial
from judge.game.assignment import decode_preference, parse_preference
from judge.game.errors import CommandError
from judge.render import load_drawing, render_svg
from judge.variants import maps
from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import load_map


def _standard_with(initials: dict[str, str]) -> dict:
    with (maps.MAPS_DIR / "standard.toml").open("rb") as f:
        data = tomllib.load(f)
    for key, initial in initials.items():
        data["powers"][key]["initial"] = initial
    return data


# -- initials: one letter or digit ---------------------------------------------------------


def test_an_initial_is_one_ascii_letter_or_digit() -> None:
    assert [is_initial(t) for t in ("A", "z", "0", "9")] == [True] * 4
    assert [is_initial(t) for t in ("", "AB", "Ank", "-", "?", "É", "٣", " ")] == [False] * 8


@pytest.mark.parametrize("bad", ["EN", "", "É", "?", "1a"])
def test_a_map_with_an_initial_of_other_than_one_letter_or_digit_is_refused(bad: str) -> None:
    message = f"ENGLAND: initial {bad!r} is not one letter or digit"
    with pytest.raises(MapError, match=re.escape(message)):
        build_map(_standard_with({"ENGLAND": bad}))


def test_a_digit_initial_is_a_power_for_signon_press_and_preferences() -> None:
    gm = build_map(_standard_with({"ENGLAND": "1", "FRANCE": "2"}))
    assert power_key(gm, "1") == "ENGLAND" and power_key(gm, "2") == "FRANCE"
    assert powers_named(gm, "12G, russia") == ["ENGLAND", "FRANCE", "GERMANY", "RUSSIA"]
    with pytest.raises(CommandError):
        powers_named(gm, "13")
    initials = {key: p.initial for key, p in gm.powers.items()}
    stored = parse_preference("2 [1 G] Russia", initials, names=gm.power_names)
    assert stored == "2[1G]R"
    assert decode_preference(stored, initials) == (
        ("FRANCE",),
        ("ENGLAND", "GERMANY"),
        ("RUSSIA",),
    )


def test_every_bundled_map_keeps_its_letters() -> None:
    letters = {
        name: "".join(p.initial for p in load_map(name).powers.values())
        for name in ("standard", "duel", "decapolis", "archipelago")
    }
    assert letters == {
        "standard": "AEFGIRT",
        "duel": "OV",
        "decapolis": "ABCDEFGHIJ",
        "archipelago": "HBL",
    }


# -- the map -------------------------------------------------------------------------------

# njudge's letters for the 34 powers (maps/chaos.toml), each the power of one centre.
LETTERS = {
    "A": "ANK", "B": "BEL", "C": "BER", "D": "BRE", "E": "BUD", "F": "BUL", "G": "CON",
    "H": "DEN", "I": "EDI", "J": "GRE", "K": "HOL", "L": "KIE", "N": "LVP", "P": "LON",
    "Q": "MAR", "R": "MOS", "S": "MUN", "T": "NAP", "U": "NWY", "V": "PAR", "W": "POR",
    "X": "ROM", "Y": "RUM", "Z": "SER", "0": "SEV", "1": "SMY", "2": "SPA", "3": "STP",
    "4": "SWE", "5": "TRI", "6": "TUN", "7": "VEN", "8": "VIE", "9": "WAR",
}  # fmt: skip

# The starting unit of each power (by its centre): the standard game's where it has one,
# otherwise an army.
FLEETS = {"ANK", "BRE", "EDI", "KIE", "LON", "NAP", "SEV", "STP/SC", "TRI"}


def test_chaos_has_34_powers_one_home_centre_each() -> None:
    gm = load_map("chaos")
    standard = load_map("standard")
    assert (gm.base, gm.build_anywhere, gm.victory_centers, gm.first_year) == (
        "standard",
        True,
        18,
        1901,
    )
    assert gm.provinces == standard.provinces and gm.supply_centers == standard.supply_centers
    assert {p.initial: min(p.home_centers) for p in gm.powers.values()} == LETTERS
    assert list(gm.powers)[:3] == ["ANKARA", "BELGIUM", "BERLIN"]
    for key, power in gm.powers.items():
        [home] = power.home_centers
        assert power.starting_centers == {home}
        assert power.name == gm.provinces[home].name == power.adjective
        assert key == power.name.upper().replace(" ", "_")
        [unit] = power.units
        loc = unit[2:]
        assert unit == (f"F {loc}" if loc in FLEETS else f"A {loc}") and loc[:3] == home
    assert power_key(gm, "z") == "SERBIA" and power_key(gm, "3") == "ST_PETERSBURG"
    assert power_key(gm, "Nor") == "NORWAY" and power_key(gm, "St Petersburg") is None
    assert powers_named(gm, "Z05, Rome") == ["SERBIA", "SEVASTOPOL", "TRIESTE", "ROME"]
    initials = {key: p.initial for key, p in gm.powers.items()}
    assert parse_preference("9 z Ank [Nwy 3]", initials, names=gm.power_names) == "9ZA[U3]"
    with pytest.raises(CommandError) as refused:
        parse_preference("M", initials, names=gm.power_names)
    assert refused.value.code == "preference_no_initial"


def test_a_variant_replaces_a_table_whole_only_where_it_says_so(tmp_path, monkeypatch) -> None:
    (tmp_path / "standard.toml").write_bytes((maps.MAPS_DIR / "standard.toml").read_bytes())
    (tmp_path / "two.toml").write_text(
        'base = "standard"\ntitle = "Two"\nreplace = ["powers"]\n'
        '[powers.NORTH]\nname = "North"\nadjective = "Northern"\ninitial = "N"\n'
        'home_centers = ["STP"]\nunits = ["A STP"]\n'
        '[powers.SOUTH]\nname = "South"\nadjective = "Southern"\ninitial = "S"\n'
        'home_centers = ["SMY"]\nunits = ["A SMY"]\n'
    )
    (tmp_path / "bad.toml").write_text('base = "standard"\ntitle = "B"\nreplace = ["provinces"]\n')
    (tmp_path / "empty.toml").write_text('base = "standard"\ntitle = "E"\nreplace = ["powers"]\n')
    monkeypatch.setattr(maps, "MAPS_DIR", tmp_path)
    gm = build_map(maps._map_data("two", ()))
    assert list(gm.powers) == ["NORTH", "SOUTH"]
    assert gm.provinces == load_map("standard").provinces
    with pytest.raises(MapError, match=re.escape("replace may list only ['powers']")):
        maps._map_data("bad", ())
    with pytest.raises(MapError, match=re.escape("replace lists powers but gives no [powers]")):
        maps._map_data("empty", ())


# -- two years through Contract 1 (`judge adjudicate`'s JSON) ------------------------------


def _start() -> dict[str, list[str]]:
    """Each power's units at the start, by the letters above."""
    gm = load_map("chaos")
    return {key: list(p.units) for key, p in gm.powers.items()}


def _with(units: dict[str, list[str]], changes: dict[str, list[str]]) -> dict[str, list[str]]:
    """`units` with some powers' units changed (an empty list: the power has none)."""
    out = {**units, **changes}
    return {p: sorted(us) for p, us in sorted(out.items()) if us}


def _orders(units: dict[str, list[str]], given: dict[str, list[str]]) -> dict[str, list[str]]:
    """Every power's orders: those `given`, and a hold for each unit of every other power,
    so that all 34 powers order in every movement phase."""
    out = {p: [f"{u} H" for u in us] for p, us in units.items()}
    return {**out, **given}


def _phase(state: dict, phase: str, orders: dict[str, list[str]]) -> dict:
    """One phase through `judge adjudicate`'s JSON; the results of the orders given, each
    as (given, result), are checked by the caller from the output."""
    out = adjudicate_line(json.dumps({**state, "map": "chaos", "phase": phase, "orders": orders}))
    assert "error" not in out, out
    return out


def _results(out: dict, powers: list[str]) -> dict[str, list[tuple[str, str]]]:
    return {p: [(r["given"], r["result"]) for r in out["results"][p]] for p in powers}


def _home_centres() -> dict[str, list[str]]:
    gm = load_map("chaos")
    return {key: sorted(p.home_centers) for key, p in gm.powers.items()}


def _next(out: dict) -> dict:
    return {k: out[k] for k in ("units", "centers", "retreats")}


def test_two_years_of_chaos_by_contract_1_end_with_a_build_in_a_captured_centre() -> None:
    """Spring 1901: Serbia, supported by Rumania (one power supports another's unit),
    dislodges Budapest, which retreats to Galicia; Paris and Marseilles bounce in Burgundy;
    Munich leaves for Tyrolia. Fall: Berlin walks into Munich. Winter: Berlin (Berlin and
    Munich, one unit) builds at home, Serbia (Serbia and Budapest) too, Munich and Budapest,
    with no centre left, remove their units. 1902: Berlin leaves Munich for Bohemia and
    takes Kiel, which Kiel's fleet left for Helgoland: three centres, two units, and the
    build goes in Munich, an owned centre that is no home of Berlin's."""
    start = _start()
    state: dict = {"units": start, "centers": _home_centres(), "retreats": {}}
    given = {
        "SERBIA": ["A Ser - Bud"],
        "RUMANIA": ["A Rum S A Ser - Bud"],
        "PARIS": ["A Par - Bur"],
        "MARSEILLES": ["A Mar - Bur"],
        "MUNICH": ["A Mun - Tyr"],
        "LONDON": ["F Lon - Eng"],
        "ST_PETERSBURG": ["F StP/sc - Bot"],
    }
    out = _phase(state, "S1901M", _orders(start, given))
    assert len(out["results"]) == 34
    assert _results(out, [*given, "BUDAPEST"]) == {
        "SERBIA": [("A Ser - Bud", "ok")],
        "RUMANIA": [("A Rum S A Ser - Bud", "ok")],
        "PARIS": [("A Par - Bur", "bounce")],
        "MARSEILLES": [("A Mar - Bur", "bounce")],
        "MUNICH": [("A Mun - Tyr", "ok")],
        "LONDON": [("F Lon - Eng", "ok")],
        "ST_PETERSBURG": [("F StP/sc - Bot", "ok")],
        "BUDAPEST": [("A BUD H", "dislodged")],
    }
    units = _with(
        start,
        {
            "SERBIA": ["A BUD"],
            "BUDAPEST": [],
            "MUNICH": ["A TYR"],
            "LONDON": ["F ENG"],
            "ST_PETERSBURG": ["F BOT"],
        },
    )
    assert (out["next_phase"], out["units"]) == ("S1901R", units)
    # Vienna, Trieste and Rumania are held, Serbia is where the attack came from.
    assert out["retreats"] == {"BUDAPEST": {"A BUD": ["GAL"]}}

    out = _phase(_next(out), "S1901R", {"BUDAPEST": ["A Bud - Gal"]})
    units = _with(units, {"BUDAPEST": ["A GAL"]})
    assert (out["next_phase"], out["units"], out["retreats"]) == ("F1901M", units, {})

    out = _phase(_next(out), "F1901M", _orders(units, {"BERLIN": ["A Ber - Mun"]}))
    assert _results(out, ["BERLIN", "MUNICH"]) == {
        "BERLIN": [("A Ber - Mun", "ok")],
        "MUNICH": [("A TYR H", "ok")],
    }
    units = _with(units, {"BERLIN": ["A MUN"]})
    centres = {**_home_centres(), "BERLIN": ["BER", "MUN"], "SERBIA": ["BUD", "SER"]}
    del centres["BUDAPEST"], centres["MUNICH"]
    assert (out["next_phase"], out["units"], out["centers"]) == ("W1901A", units, centres)
    assert out["builds"] == {"BERLIN": 1, "BUDAPEST": -1, "MUNICH": -1, "SERBIA": 1}

    given = {
        "BERLIN": ["Build A Mun", "Build A Ber"],  # Munich: Berlin's, but its army is there
        "SERBIA": ["Build F Ser", "Build A Ser"],  # Serbia has no coast
        "BUDAPEST": ["Remove A Gal"],
        "MUNICH": ["Remove A Tyr"],
    }
    out = _phase(_next(out), "W1901A", given)
    assert _results(out, list(given)) == {
        "BERLIN": [("Build A Mun", "void"), ("Build A Ber", "ok")],
        "SERBIA": [("Build F Ser", "void"), ("Build A Ser", "ok")],
        "BUDAPEST": [("Remove A Gal", "ok")],
        "MUNICH": [("Remove A Tyr", "ok")],
    }
    units = _with(
        units,
        {"BERLIN": ["A BER", "A MUN"], "SERBIA": ["A BUD", "A SER"], "BUDAPEST": [], "MUNICH": []},
    )
    assert (out["next_phase"], out["units"], out["centers"]) == ("S1902M", units, centres)

    given = {"BERLIN": ["A Mun - Boh", "A Ber H"], "KIEL": ["F Kie - Hel"]}
    out = _phase(_next(out), "S1902M", _orders(units, given))
    assert _results(out, list(given)) == {
        "BERLIN": [("A Mun - Boh", "ok"), ("A Ber H", "ok")],
        "KIEL": [("F Kie - Hel", "ok")],
    }
    units = _with(units, {"BERLIN": ["A BER", "A BOH"], "KIEL": ["F HEL"]})
    assert (out["next_phase"], out["units"]) == ("F1902M", units)

    out = _phase(_next(out), "F1902M", _orders(units, {"BERLIN": ["A Ber - Kie", "A Boh H"]}))
    units = _with(units, {"BERLIN": ["A BOH", "A KIE"]})
    centres = {**centres, "BERLIN": ["BER", "KIE", "MUN"]}
    del centres["KIEL"]
    assert (out["next_phase"], out["units"], out["centers"]) == ("W1902A", units, centres)
    assert out["builds"] == {"BERLIN": 1, "KIEL": -1}

    given = {"BERLIN": ["Build F Mun", "Build A Mun"], "KIEL": ["Remove F Hel"]}
    out = _phase(_next(out), "W1902A", given)
    assert _results(out, list(given)) == {
        "BERLIN": [("Build F Mun", "void"), ("Build A Mun", "ok")],
        "KIEL": [("Remove F Hel", "ok")],
    }
    units = _with(units, {"BERLIN": ["A BOH", "A KIE", "A MUN"], "KIEL": []})
    assert (out["next_phase"], out["units"], out["centers"]) == ("S1903M", units, centres)
    assert out["winner"] is None


def test_chaos_civil_disorder_removes_the_unit_farthest_from_any_owned_centre() -> None:
    """Berlin owns Berlin and Munich, both build sites under the Chaos rule, and has
    three armies: civil disorder removes Kiel's, one move from an owned centre, not
    Munich's, which stands on one. Budapest, owning nothing, loses its army."""
    line = {
        "map": "chaos",
        "phase": "W1901A",
        "units": {"BUDAPEST": ["A GAL"], "BERLIN": ["A MUN", "A KIE", "A BER"]},
        "centers": {"BERLIN": ["BER", "MUN"]},
        "orders": {},
    }
    out = adjudicate_line(json.dumps(line))
    assert _results(out, ["BERLIN", "BUDAPEST"]) == {
        "BERLIN": [("", "disband")],
        "BUDAPEST": [("", "disband")],
    }
    assert [r["order"] for p in ("BERLIN", "BUDAPEST") for r in out["results"][p]] == [
        "A KIE D",
        "A GAL D",
    ]
    assert out["units"] == {"BERLIN": ["A BER", "A MUN"]}


def test_chaos_is_drawn_with_a_style_for_each_of_its_34_powers() -> None:
    """The standard board's provinces, and per power a colour and pattern no other power
    has both of, and its letter: the results mails' pictures can be drawn."""
    gm = load_map("chaos")
    chaos, standard = load_drawing("chaos"), load_drawing("standard")
    assert chaos.provinces == standard.provinces and chaos.decor == standard.decor
    assert list(chaos.powers) == list(gm.powers)
    assert [s.letter for s in chaos.powers.values()] == [p.initial for p in gm.powers.values()]
    assert len({(s.color, s.pattern) for s in chaos.powers.values()}) == 34
    svg = render_svg(starting_position(gm))
    assert all(f">{p.initial}</text>" in svg for p in gm.powers.values())


def test_eighteen_centres_win_chaos() -> None:
    """Berlin owns 17 centres and walks into an 18th, Kiel, in the Fall: it wins."""
    seventeen = sorted(load_map("chaos").supply_centers - {"KIE"})[:17]
    assert "BER" in seventeen and "KIE" not in seventeen
    line = {
        "map": "chaos",
        "phase": "F1901M",
        "units": {"BERLIN": ["A BER"]},
        "centers": {"BERLIN": seventeen},
        "orders": {"BERLIN": ["A Ber - Kie"]},
    }
    out = adjudicate_line(json.dumps(line))
    assert (len(out["centers"]["BERLIN"]), out["winner"]) == (18, "BERLIN")
    line["orders"] = {"BERLIN": ["A Ber H"]}
    out = adjudicate_line(json.dumps(line))
    assert (len(out["centers"]["BERLIN"]), out["winner"]) == (17, None)


def test_a_map_has_at_most_34_powers() -> None:
    data = _standard_with({})
    data["powers"] = {
        f"P{i}": {**data["powers"]["ENGLAND"], "initial": "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[i]}
        for i in range(35)
    }
    for power in data["powers"].values():
        power["units"], power["home_centers"], power["starting_centers"] = [], [], []
    with pytest.raises(MapError, match="a map has 1 to 34 powers, not 35"):
        build_map(data)
    data["powers"] = dict(list(data["powers"].items())[:34])
    assert len(build_map(data).powers) == 34
    data["powers"] = {}
    with pytest.raises(MapError, match="a map has 1 to 34 powers, not 0"):
        build_map(data)
