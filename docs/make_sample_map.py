"""Draw docs/images/sample-game-fall-1901.png: the board after Fall 1901 of the sample
game in the 1992 Diplomacy rulebook ("Opening Moves in a Sample Game"), with the Fall
orders drawn, as the judge's results mail would show it.

    .venv/bin/python docs/make_sample_map.py [output.png]

The rulebook's orders are copied below as data. The script checks that the judge's
adjudication agrees with the rulebook's account of each phase before drawing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from judge.game.pictures import after_of
from judge.render import render_png
from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import load_map

OUT = Path(__file__).resolve().parent / "images" / "sample-game-fall-1901.png"

SPRING_1901 = {
    "ENGLAND": ["A Liv-York", "F Lon-Nth", "F Edi-Nrg"],
    "GERMANY": ["A Ber-Kiel", "A Mun-Ruhr", "F Kiel-Den"],
    "RUSSIA": ["A Mos-Ukr", "A War-Gal", "F StP-Bot", "F Sev-Bla"],
    "TURKEY": ["A Con-Bul", "A Smy-Con", "F Ank-Bla"],
    "AUSTRIA": ["A Vie-Tri", "A Bud-Gal", "F Tri-Alb"],
    "ITALY": ["A Ven-Pied", "A Rome-Ven", "F Nap-Ion"],
    "FRANCE": ["A Par-Bur", "A Mar-Spa", "F Bre-Pic"],
}
# "All these moves succeed, except that the two pieces ordered to the Black Sea and the
# two ordered to Galicia do not move."
SPRING_FAILS = {"F SEV - BLA", "F ANK - BLA", "A WAR - GAL", "A BUD - GAL"}

FALL_1901 = {
    "ENGLAND": ["A York-Nwy", "F Nth C A Yor-Nwy", "F Nrg-Bar"],
    "GERMANY": ["A Kiel-Hol", "A Ruhr-Bel", "F Den Holds"],
    "RUSSIA": ["A Ukr S F Sev-Rum", "A War-Gal", "F Bot-Swe", "F Sev-Rum"],
    "TURKEY": ["A Bul-Ser", "A Con-Bul", "F Ank-Bla"],
    "AUSTRIA": ["A Tri Hold", "A Bud-Ser", "F Alb-Gre"],
    "ITALY": ["A Ven Holds", "A Pied-Mar", "F Ion-Tun"],
    "FRANCE": ["A Bur-Mar", "A Spa-Port", "F Pic-Bel"],
}
# "The pieces ordered to Belgium, Marseilles and Serbia do not move due to conflicts, and
# the move Con-Bul does not succeed. Retreats: None."
FALL_FAILS = {
    "A RUH - BEL",
    "F PIC - BEL",
    "A PIE - MAR",
    "A BUR - MAR",
    "A BUL - SER",
    "A BUD - SER",
    "A CON - BUL",
}


def play(position: dict, orders: dict, fails: set[str]) -> dict:
    results = adjudicate_line(json.dumps({**position, "orders": orders}))
    if "error" in results:
        raise SystemExit(results["error"])
    failed = {r["order"] for rs in results["results"].values() for r in rs if r["result"] != "ok"}
    if failed != fails or results["retreats"]:
        raise SystemExit(f"{position['phase']}: the rulebook says {sorted(fails)} fail; {results}")
    return results


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    gm = load_map()
    spring = {
        "phase": "S1901M",
        "units": {p: list(gm.powers[p].units) for p in gm.powers},
        "centers": {p: sorted(gm.powers[p].home_centers) for p in gm.powers},
    }
    fall = after_of(spring, play(spring, SPRING_1901, SPRING_FAILS))
    results = play(fall, FALL_1901, FALL_FAILS)
    caption = "The 1992 rulebook's\nsample game"
    png = render_png(fall, results, after=after_of(fall, results), caption=caption)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png)
    print(f"wrote {out} ({len(png) // 1024} KiB)")


if __name__ == "__main__":
    main()
