"""Fleet Rome (maps/fleet_rome.toml): the standard game with Italy's army in Rome a
fleet, played through `judge adjudicate`'s JSON (Contract 1) from Spring 1901 to the
builds of Winter 1901."""

from __future__ import annotations

import json

from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import load_map

START = {
    "AUSTRIA": ["A BUD", "A VIE", "F TRI"],
    "ENGLAND": ["A LVP", "F EDI", "F LON"],
    "FRANCE": ["A MAR", "A PAR", "F BRE"],
    "GERMANY": ["A BER", "A MUN", "F KIE"],
    "ITALY": ["A VEN", "F NAP", "F ROM"],
    "RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/SC"],
    "TURKEY": ["A CON", "A SMY", "F ANK"],
}


def _units(name: str) -> dict[str, list[str]]:
    gm = load_map(name)
    return {key: sorted(p.units) for key, p in gm.powers.items()}


def _centres() -> dict[str, list[str]]:
    gm = load_map("fleet_rome")
    return {key: sorted(p.home_centers) for key, p in gm.powers.items()}


def _phase(state: dict, phase: str, orders: dict[str, list[str]]) -> dict:
    line = {**state, "map": "fleet_rome", "phase": phase, "orders": orders}
    out = adjudicate_line(json.dumps(line))
    assert "error" not in out, out
    return out


def _results(out: dict) -> dict[str, list[tuple[str, str]]]:
    return {p: [(r["given"], r["result"]) for r in rs] for p, rs in out["results"].items()}


def _next(out: dict) -> dict:
    return {k: out[k] for k in ("units", "centers", "retreats")}


def test_fleet_rome_differs_from_the_standard_game_in_romes_unit_only() -> None:
    gm, standard = load_map("fleet_rome"), load_map("standard")
    assert (gm.title, gm.base) == ("Fleet Rome: Italy starts with a fleet in Rome", "standard")
    assert _units("fleet_rome") == START
    assert _units("standard") == {**START, "ITALY": ["A ROM", "A VEN", "F NAP"]}
    assert gm.provinces == standard.provinces and gm.victory_centers == 18
    assert {k: p.home_centers for k, p in gm.powers.items()} == {
        k: p.home_centers for k, p in standard.powers.items()
    }
    assert (gm.build_anywhere, gm.neutral_powers, gm.player_groups) == (
        False,
        frozenset(),
        standard.player_groups,
    )


SPRING = {
    "AUSTRIA": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    "FRANCE": ["F Bre - Mao", "A Par - Bur", "A Mar - Spa"],
    "GERMANY": ["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"],
    "ITALY": ["F Rom - Tys", "F Nap - Ion", "A Ven - Pie"],
    "RUSSIA": ["F StP/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Bla"],
    "TURKEY": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}
FALL = {
    "AUSTRIA": ["F Alb - Gre", "A Ser S F Alb - Gre", "A Vie - Bud"],
    "ENGLAND": ["F Nwg - Nwy", "F Nth C A Yor - Bel", "A Yor - Bel"],
    "FRANCE": ["F Mao - Por", "A Spa H", "A Bur - Bel"],
    "GERMANY": ["F Den H", "A Kie - Hol", "A Ruh - Mun"],
    "ITALY": ["F Ion - Tun", "F Tys S F Ion - Tun", "A Pie - Mar"],
    "RUSSIA": ["F Bot - Swe", "A Ukr - Rum", "A War - Gal", "F Sev S A Ukr - Rum"],
    "TURKEY": ["F Ank - Con", "A Bul H", "A Arm H"],
}
WINTER = {
    "AUSTRIA": ["Build A Vie", "Build F Tri"],
    "ENGLAND": ["Build F Lon"],
    "FRANCE": ["Build F Bre"],
    "GERMANY": ["Build F Kie", "Build A Ber"],
    "ITALY": ["Build F Nap", "Build F Rom"],
    "RUSSIA": ["Build A Mos", "Build F StP/nc"],
    "TURKEY": ["Build F Smy"],
}


def _all_ok(orders: dict[str, list[str]], **other: dict[str, str]) -> dict:
    """Each order's (given, result): "ok", or the result `other` names by power."""
    return {p: [(o, other.get(p, {}).get(o, "ok")) for o in lines] for p, lines in orders.items()}


def test_fleet_rome_from_the_start_to_the_winter_builds() -> None:
    """Italy's fleet from Rome goes to the Tyrrhenian Sea and supports Naples's fleet into
    Tunis, while the army of Venice walks through Piedmont into Marseilles, left by
    France for Spain: five Italian centres and two fleets built, one again in Rome."""
    state = {"units": START, "centers": _centres(), "retreats": {}}
    out = _phase(state, "S1901M", SPRING)
    bounce = "bounce"
    assert _results(out) == _all_ok(
        SPRING,
        AUSTRIA={"A Vie - Gal": bounce},
        RUSSIA={"A War - Gal": bounce, "F Sev - Bla": bounce},
        TURKEY={"F Ank - Bla": bounce},
    )
    spring = {
        "AUSTRIA": ["A SER", "A VIE", "F ALB"],
        "ENGLAND": ["A YOR", "F NTH", "F NWG"],
        "FRANCE": ["A BUR", "A SPA", "F MAO"],
        "GERMANY": ["A KIE", "A RUH", "F DEN"],
        "ITALY": ["A PIE", "F ION", "F TYS"],
        "RUSSIA": ["A UKR", "A WAR", "F BOT", "F SEV"],
        "TURKEY": ["A ARM", "A BUL", "F ANK"],
    }
    assert (out["next_phase"], out["units"], out["retreats"]) == ("F1901M", spring, {})

    out = _phase(_next(out), "F1901M", FALL)
    assert _results(out) == _all_ok(
        FALL, ENGLAND={"A Yor - Bel": bounce}, FRANCE={"A Bur - Bel": bounce}
    )
    fall = {
        "AUSTRIA": ["A BUD", "A SER", "F GRE"],
        "ENGLAND": ["A YOR", "F NTH", "F NWY"],
        "FRANCE": ["A BUR", "A SPA", "F POR"],
        "GERMANY": ["A HOL", "A MUN", "F DEN"],
        "ITALY": ["A MAR", "F TUN", "F TYS"],
        "RUSSIA": ["A GAL", "A RUM", "F SEV", "F SWE"],
        "TURKEY": ["A ARM", "A BUL", "F CON"],
    }
    centres = {
        "AUSTRIA": ["BUD", "GRE", "SER", "TRI", "VIE"],
        "ENGLAND": ["EDI", "LON", "LVP", "NWY"],
        "FRANCE": ["BRE", "PAR", "POR", "SPA"],
        "GERMANY": ["BER", "DEN", "HOL", "KIE", "MUN"],
        "ITALY": ["MAR", "NAP", "ROM", "TUN", "VEN"],
        "RUSSIA": ["MOS", "RUM", "SEV", "STP", "SWE", "WAR"],
        "TURKEY": ["ANK", "BUL", "CON", "SMY"],
    }
    assert (out["next_phase"], out["units"], out["centers"]) == ("W1901A", fall, centres)
    assert out["builds"] == {
        "AUSTRIA": 2,
        "ENGLAND": 1,
        "FRANCE": 1,
        "GERMANY": 2,
        "ITALY": 2,
        "RUSSIA": 2,
        "TURKEY": 1,
    }

    out = _phase(_next(out), "W1901A", WINTER)
    assert _results(out) == _all_ok(WINTER)
    assert (out["next_phase"], out["units"], out["centers"]) == (
        "S1902M",
        {
            "AUSTRIA": ["A BUD", "A SER", "A VIE", "F GRE", "F TRI"],
            "ENGLAND": ["A YOR", "F LON", "F NTH", "F NWY"],
            "FRANCE": ["A BUR", "A SPA", "F BRE", "F POR"],
            "GERMANY": ["A BER", "A HOL", "A MUN", "F DEN", "F KIE"],
            "ITALY": ["A MAR", "F NAP", "F ROM", "F TUN", "F TYS"],
            "RUSSIA": ["A GAL", "A MOS", "A RUM", "F SEV", "F STP/NC", "F SWE"],
            "TURKEY": ["A ARM", "A BUL", "F CON", "F SMY"],
        },
        centres,
    )
    assert out["winner"] is None


def test_on_the_standard_board_romes_army_cannot_go_to_sea() -> None:
    """The one difference, seen in an order: F Rom - Tys is Italy's in Fleet Rome only."""
    line = {"map": "standard", "phase": "S1901M", "orders": {"ITALY": ["F Rom - Tys"]}}
    out = adjudicate_line(json.dumps({**line, "units": _units("standard"), "centers": _centres()}))
    assert out["units"]["ITALY"] == ["A ROM", "A VEN", "F NAP"]
    assert out["results"]["ITALY"][0] == {
        "order": "F ROM - TYS",
        "given": "F Rom - Tys",
        "result": "void",
        "error": "An army cannot move into a sea (Tyrrhenian Sea).",
    }
