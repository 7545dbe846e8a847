"""Board pictures of every kind, shared by the picture tests and benchmarks/render.py:
the standard opening, a Spring 1901 drawn before and after (the results mail's picture),
a retreat phase, a build phase, Chaos's 34 powers and a schematic map. Each case is the
arguments of `render_png(position, results, after=..., caption=..., scale=...)`."""

from __future__ import annotations

import json
from typing import Any

from judge.engine.board import starting_position
from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import load_map

CENTERS = {
    "AUSTRIA": ["BUD", "TRI", "VIE"],
    "ENGLAND": ["EDI", "LON", "LVP"],
    "FRANCE": ["BRE", "MAR", "PAR"],
    "GERMANY": ["BER", "KIE", "MUN"],
    "ITALY": ["NAP", "ROM", "VEN"],
    "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
    "TURKEY": ["ANK", "CON", "SMY"],
}

# Moves, supports, a convoy, bounces and a dislodgement (Trieste).
SPRING: dict[str, Any] = {
    "phase": "S1901M",
    "units": {
        "FRANCE": ["A PAR", "A MAR", "F BRE"],
        "GERMANY": ["A MUN", "F KIE", "A BER"],
        "ENGLAND": ["A LON", "F NTH", "F EDI"],
        "ITALY": ["A VEN", "F ROM", "A TYR"],
        "AUSTRIA": ["A TRI", "A VIE"],
        "RUSSIA": ["F STP/SC", "A WAR"],
        "TURKEY": ["F BUL/EC", "A CON"],
    },
    "centers": CENTERS,
    "orders": {
        "FRANCE": ["A Par-Bur", "A Mar S A Par - Bur", "F Bre H"],
        "GERMANY": ["A Mun-Bur", "F Kie-Hol", "A Ber S A Mun"],
        "ENGLAND": ["A Lon-Bel", "F NTH C A Lon - Bel", "F Edi - NWG"],
        "ITALY": ["A Ven - Tri", "F Rom - TYS", "A Tyr S A Ven - Tri"],
        "AUSTRIA": ["A Vie - Gal", "A Tri H"],
        "RUSSIA": ["F StP/sc - Bot", "A War - Gal"],
        "TURKEY": ["F Bul/ec - Bla", "A Con - Bul"],
    },
}

RETREAT = {
    "phase": "F1901R",
    "units": {"ENGLAND": ["A BEL"], "FRANCE": ["A PAR"]},
    "centers": CENTERS,
    "retreats": {"GERMANY": {"A BUR": ["GAS", "MAR"], "F HOL": ["HEL", "KIE"]}},
}

WINTER = {
    "phase": "W1901A",
    "units": {"FRANCE": ["A PAR"], "RUSSIA": ["A WAR", "A MOS", "F SEV", "A UKR"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR", "SPA"], "RUSSIA": ["MOS", "STP", "WAR"]},
}

ARCHIPELAGO = {
    "map": "archipelago",
    "phase": "S1901M",
    "units": {
        "BOREAS": ["F TRD/WC", "A NOR", "F NPT"],
        "LEVANT": ["F DEP", "A EHL", "F EBY"],
        "HESPER": ["F WBY", "A WHL", "A WPT"],
    },
    "centers": {
        "BOREAS": ["NOR", "NPT", "TRD"],
        "LEVANT": ["EBY", "EHL", "EPT"],
        "HESPER": ["WBY", "WHL", "WPT"],
    },
}


def _out(position: dict[str, Any], orders: dict[str, list[str]]) -> dict[str, Any]:
    out: dict[str, Any] = adjudicate_line(json.dumps({**position, "orders": orders}))
    assert "error" not in out, out
    return out


def _after(position: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """The board a phase led to (as judge/game/pictures.py `after_of` makes it)."""
    after = {
        "map": position.get("map", "standard"),
        "phase": out["next_phase"],
        "units": out.get("units", {}),
        "centers": out.get("centers", {}),
    }
    if out.get("retreats"):
        after["retreats"] = out["retreats"]
    return after


def _contract(gm_name: str) -> dict[str, Any]:
    """A map's opening as the Contract 1 position JSON."""
    gm = load_map(gm_name)
    return {
        "map": gm_name,
        "phase": str(starting_position(gm).phase),
        "units": {key: list(p.units) for key, p in gm.powers.items()},
        "centers": {key: sorted(p.home_centers) for key, p in gm.powers.items()},
    }


def cases() -> dict[str, tuple[tuple[Any, ...], dict[str, Any]]]:
    """name -> (args, keyword arguments) of `render_png`."""
    spring = {k: v for k, v in SPRING.items() if k != "orders"}
    spring_out = _out(spring, SPRING["orders"])
    retreat_out = _out(RETREAT, {"GERMANY": ["A Bur R Mar", "F Hol D"]})
    winter_out = _out(WINTER, {"FRANCE": ["F Bre B", "WAIVE"], "RUSSIA": ["A Mos D"]})
    chaos = _contract("chaos")
    chaos_orders = {p: [f"{u} H" for u in us] for p, us in chaos["units"].items()}
    chaos_out = _out(chaos, chaos_orders)
    arch_orders = {
        "BOREAS": ["F TRD/WC - STR", "A NOR - EBY", "F NPT - NSE"],
        "LEVANT": ["F EBY H", "A EHL S F EBY", "F DEP - TRD/EC"],
        "HESPER": ["F WBY - NSE", "A WPT - WBY", "A WHL H"],
    }
    arch_out = _out(ARCHIPELAGO, arch_orders)
    return {
        "opening": ((starting_position(load_map()),), {"caption": "Game war1"}),
        "spring 1901, before": ((spring, spring_out), {}),
        "spring 1901, after": (
            (spring, spring_out),
            {"after": _after(spring, spring_out), "caption": "Game war1"},
        ),
        "retreat": ((RETREAT, retreat_out), {"after": _after(RETREAT, retreat_out)}),
        "build": ((WINTER, winter_out), {"after": _after(WINTER, winter_out)}),
        "chaos opening": ((chaos,), {"caption": "Game chaos1"}),
        "chaos holds, after": (
            (chaos, chaos_out),
            {"after": _after(chaos, chaos_out), "caption": "Game chaos1\nSecond line"},
        ),
        "schematic, after": (
            (ARCHIPELAGO, arch_out),
            {"after": _after(ARCHIPELAGO, arch_out), "caption": "Game isles"},
        ),
        "spring 1901, after, half size": (
            (spring, spring_out),
            {"after": _after(spring, spring_out), "scale": 0.5},
        ),
    }
