"""The board picture: the drawing data, the SVG's structure over several positions and
order sets, and the PNG (drawn straight onto Cairo, judge/render/png.py).

The SVG is read as XML: every unit is an element with `data-unit`, every order one with
`data-order` (and `data-result`, `data-failed`), dislodged units carry `data-dislodged`,
the legend `data-phase` and per-power `data-centers`/`data-units`.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from render_cases import CENTERS, SPRING

from judge.engine.board import starting_position
from judge.engine.geography import IMPASSABLE, SEA, build_map
from judge.game.pictures import after_of
from judge.render import load_drawing, render_png, render_svg
from judge.render.png import PNG_SIGNATURE, PngUnavailable, png_size
from judge.variants import maps
from judge.variants.json_contract import adjudicate_line, position_from_json
from judge.variants.maps import load_map

SVG = "{http://www.w3.org/2000/svg}"


# A full opening year from the standard start, phase by phase: Spring 1901 (bounces),
# Fall 1901 (a supported attack dislodges the Austrian army in Galicia, a convoy to
# Norway, Sevastopol left open to Turkey), the Fall retreat, and the Winter builds.
OPENING_YEAR = {
    "S1901M": {
        "AUSTRIA": ["A Vie-Gal", "A Bud-Ser", "F Tri-Alb"],
        "ENGLAND": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"],
        "FRANCE": ["F Bre-Mao", "A Par-Bur", "A Mar S A Par-Bur"],
        "GERMANY": ["F Kie-Den", "A Ber-Kie", "A Mun-Bur"],
        "ITALY": ["F Nap-Ion", "A Rom-Apu", "A Ven H"],
        "RUSSIA": ["F StP/sc-Bot", "A Mos-Ukr", "A War H", "F Sev-Bla"],
        "TURKEY": ["F Ank-Bla", "A Con-Bul", "A Smy-Arm"],
    },
    "F1901M": {
        "AUSTRIA": ["A Gal H", "A Ser S F Alb-Gre", "F Alb-Gre"],
        "ENGLAND": ["F Nth C A Yor-Nwy", "A Yor-Nwy", "F Nwg-Bar"],
        "FRANCE": ["F Mao-Por", "A Bur-Bel", "A Mar-Spa"],
        "GERMANY": ["F Den H", "A Kie-Hol", "A Mun-Ruh"],
        "ITALY": ["F Ion-Tun", "A Apu H", "A Ven H"],
        "RUSSIA": ["F Bot-Swe", "A Ukr S A War-Gal", "A War-Gal", "F Sev-Rum"],
        "TURKEY": ["F Ank-Con", "A Bul-Gre", "A Arm-Sev"],
    },
    "F1901R": {"AUSTRIA": ["A Gal R Boh"]},
    "W1901A": {
        "AUSTRIA": ["A Vie B", "F Tri B"],
        "ENGLAND": ["F Edi B"],
        "FRANCE": ["F Mar B", "A Par B", "F Bre B"],
        "GERMANY": ["A Ber B", "F Kie B"],
        "ITALY": ["F Nap B"],
        "RUSSIA": ["A Mos B"],
        "TURKEY": ["A Smy B", "F Ank B"],
    },
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def attr_elements(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.attrib]


def by_attr(root: ET.Element, name: str) -> dict[str, ET.Element]:
    return {e.get(name): e for e in attr_elements(root, name)}


def legend_text(root: ET.Element) -> str:
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None
    return " ".join(t for t in legend.itertext())


def png(*args, **kwargs) -> bytes:
    """The PNG; its absence is a failure: make test installs cairocffi and libcairo2."""
    try:
        return render_png(*args, **kwargs)
    except PngUnavailable as e:
        pytest.fail(f"{e} (make test installs them)")


def adjudicated(position: dict, orders: dict) -> dict:
    out = adjudicate_line(json.dumps({**position, "orders": orders}))
    assert "error" not in out, out
    return out


def opening_year() -> list[tuple[dict, dict]]:
    """(position, results) for each phase of OPENING_YEAR, from the standard start."""
    gm = load_map()
    position = {
        "phase": "S1901M",
        "units": {p: list(gm.powers[p].units) for p in gm.powers},
        "centers": CENTERS,
    }
    out = []
    while position["phase"] in OPENING_YEAR:
        results = adjudicated(position, OPENING_YEAR[position["phase"]])
        out.append((position, results))
        position = after_of(position, results)
    assert [p["phase"] for p, _ in out] == list(OPENING_YEAR)
    return out


# -- the drawing data -------------------------------------------------------------------


def _inside(point, rings) -> bool:
    x, y = point
    hit = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                hit = not hit
    return hit


def _distance(point, rings) -> float:
    """From `point` to the nearest edge of `rings` (0 inside them)."""
    if _inside(point, rings):
        return 0.0
    best = math.inf
    px, py = point
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            dx, dy = x2 - x1, y2 - y1
            t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy or 1)))
            best = min(best, math.hypot(px - x1 - t * dx, py - y1 - t * dy))
    return best


def test_drawing_covers_every_province_and_coast():
    gm = load_map()
    dr = load_drawing("standard")
    assert set(dr.provinces) == set(gm.provinces)
    for key, prov in gm.provinces.items():
        assert dr.provinces[key].path.startswith("M")
        if prov.supply_center:
            assert dr.provinces[key].center is not None, key
        assert set(dr.provinces[key].coasts) == set(prov.coasts), key
    assert set(dr.powers) == set(gm.powers)
    # hue is never the only cue: a pattern and a letter per power, all different
    assert len({p.pattern for p in dr.powers.values()}) == len(gm.powers)
    assert len({p.letter for p in dr.powers.values()}) == len(gm.powers)


def test_units_centres_and_coasts_are_drawn_on_their_province():
    gm = load_map()
    dr = load_drawing("standard")
    seas = [k for k, p in gm.provinces.items() if p.kind == SEA]
    for key, prov in gm.provinces.items():
        pd = dr.provinces[key]
        if prov.kind != IMPASSABLE:
            assert _inside(pd.unit, pd.rings), f"{key}: unit point {pd.unit} is off the province"
        if pd.center is not None:
            assert _inside(pd.center, pd.rings), f"{key}: centre {pd.center} is off the province"
        for coast, point in pd.coasts.items():
            assert _inside(point, pd.rings), f"{key}/{coast}: {point} is off the province"
            # the fleet stands by the sea it sails to: the nearest sea is one of its coast's
            nearest = min(seas, key=lambda s, point=point: _distance(point, dr.provinces[s].rings))
            assert nearest in gm.fleet_moves[f"{key}/{coast}"], (key, coast, nearest)


def test_land_borders_drawn_are_the_maps_borders():
    """Two land provinces share a drawn border exactly when an army may move between them
    (Munich-Silesia, Galicia-Vienna, Serbia-Greece, Wales-Yorkshire, Moscow-Warsaw; not
    Berlin-Bohemia or Albania-Bulgaria)."""
    gm = load_map()
    dr = load_drawing("standard")
    land = [k for k, p in gm.provinces.items() if p.kind not in (SEA, IMPASSABLE)]
    edges = {
        k: {
            frozenset(edge)
            for ring in dr.provinces[k].rings
            for edge in zip(ring, ring[1:] + ring[:1], strict=True)
        }
        for k in land
    }
    drawn = {
        frozenset(pair)
        for pair in itertools.combinations(land, 2)
        if edges[pair[0]] & edges[pair[1]]
    }
    borders = {frozenset((a, b)) for a in land for b in gm.army_moves[a]}
    assert sorted(map(sorted, drawn - borders)) == []
    assert sorted(map(sorted, borders - drawn)) == []


# -- SVG structure ---------------------------------------------------------------------


def test_opening_position():
    gm = load_map()
    pos = starting_position(gm)
    root = parse(render_svg(pos, caption="Game war1"))
    provinces = {e.get("data-province") for e in attr_elements(root, "data-province")}
    assert provinces == set(gm.provinces)
    units = sorted(e.get("data-unit") for e in attr_elements(root, "data-unit"))
    assert units == sorted(str(u) for u in pos.units)
    assert "F STP/SC" in units
    # owned centres tinted and patterned by owner
    assert by_attr(root, "data-province")["PAR"].get("data-owner") == "FRANCE"
    assert any(e.get("fill") == "url(#pat-FRANCE)" for e in root.iter(SVG + "path"))
    centers = {
        e.get("data-center"): e.get("data-owner") for e in attr_elements(root, "data-center")
    }
    assert set(centers) == set(gm.supply_centers)
    assert centers["BEL"] is None and centers["MOS"] == "RUSSIA"
    text = legend_text(root)
    assert "Spring 1901 Movement" in text and "Game war1" in text
    legend = root.find(f".//{SVG}g[@id='legend']")
    counts = {
        e.get("data-power"): e.get("data-centers") for e in attr_elements(legend, "data-centers")
    }
    assert counts == {p: str(len(pos.centers[p])) for p in gm.powers}
    assert not attr_elements(root, "data-order")


def test_spring_results_drawn_on_the_board_they_were_given_on():
    out = adjudicated(SPRING, SPRING["orders"])
    assert out["retreats"]["AUSTRIA"], "A TRI should be dislodged"
    position = position_from_json(SPRING)[0]
    for pos in (position, SPRING):  # a Position or the Contract 1 JSON
        root = parse(render_svg(pos, out))
        orders = by_attr(root, "data-order")
        expected = {r["order"]: r["result"] for rs in out["results"].values() for r in rs}
        assert set(orders) == set(expected)
        for text, result in expected.items():
            assert orders[text].get("data-result") == result
            assert (orders[text].get("data-failed") == "true") == (result != "ok")
        assert orders["A MUN - BUR"].get("data-result") == "bounce"
        assert orders["A VIE - GAL"].get("data-failed") == "true"
        assert "F NTH C A LON - BEL" in orders and "A MAR S A PAR - BUR" in orders
        units = by_attr(root, "data-unit")
        assert set(units) == {u for us in SPRING["units"].values() for u in us}
        assert units["A TRI"].get("data-dislodged") == "true"
        assert units["A PAR"].get("data-dislodged") is None
        # a failed order carries a red cross; a successful one does not
        assert _has_cross(orders["A MUN - BUR"]) and not _has_cross(orders["A PAR - BUR"])
        failed = sum(r["result"] != "ok" for rs in out["results"].values() for r in rs)
        assert f"{len(expected)} orders, {failed} failed" in legend_text(root)


def _has_cross(element: ET.Element) -> bool:
    return any(e.get("stroke") == "#d00000" for e in element.iter(SVG + "path"))


def test_the_results_mail_picture_shows_the_board_after_the_phase():
    """With `after`: units where they now stand (the dislodged one displaced beside its
    province), centres as now owned, the arrows of how it got there, the next phase."""
    out = adjudicated(SPRING, SPRING["orders"])
    root = parse(render_svg(SPRING, out, after=after_of(SPRING, out), caption="Game war1"))
    units = {(e.get("data-power"), e.get("data-unit")): e for e in attr_elements(root, "data-unit")}
    now = {(p, u) for p, us in out["units"].items() for u in us}
    assert set(units) == now | {("AUSTRIA", "A TRI")}
    assert {("FRANCE", "A BUR"), ("ENGLAND", "A BEL"), ("ITALY", "A TRI")} <= now
    assert ("FRANCE", "A PAR") not in units
    assert units[("AUSTRIA", "A TRI")].get("data-dislodged") == "true"
    assert all(units[u].get("data-dislodged") is None for u in now)
    orders = by_attr(root, "data-order")
    assert set(orders) == {r["order"] for rs in out["results"].values() for r in rs}
    phases = {e.get("data-legend"): e.get("data-phase") for e in attr_elements(root, "data-phase")}
    assert phases["phase"] == "S1901M" and phases["next"] == "S1901R"
    assert "Now: Spring 1901 Retreats" in legend_text(root)


def test_every_kind_of_order_is_drawn():
    """Holds, moves, moves by convoy, supports to hold and to move, convoys; then a
    retreat, a disband, builds, a removal and a waived build."""
    position = {
        "phase": "F1901M",
        "units": {
            "ENGLAND": ["A LON", "F NTH", "F ENG", "A WAL"],
            "FRANCE": ["A PAR", "F BRE", "A BUR"],
            "GERMANY": ["A MUN", "A RUH", "F HOL"],
        },
        "centers": CENTERS,
    }
    orders = {
        "ENGLAND": ["A Lon-Bel via convoy", "F Nth C A Lon-Bel", "F Eng S F Bre", "A Wal H"],
        "FRANCE": ["A Par-Pic", "F Bre H", "A Bur S A Par-Pic"],
        "GERMANY": ["A Mun-Bur", "A Ruh S A Mun-Bur", "F Hol S A Lon-Bel"],
    }
    out = adjudicated(position, orders)
    root = parse(render_svg(position, out))
    drawn = by_attr(root, "data-order")
    assert set(drawn) == {r["order"] for rs in out["results"].values() for r in rs}
    assert "A LON - BEL VIA" in drawn and drawn["A LON - BEL VIA"].get("data-result") == "ok"
    assert drawn["A MUN - BUR"].get("data-result") == "ok"
    assert drawn["A BUR S A PAR - PIC"].get("data-failed") == "true"  # dislodged
    assert by_attr(root, "data-unit")["A BUR"].get("data-dislodged") == "true"
    for text, element in drawn.items():  # every order is drawn, not only listed
        assert list(element.iter(SVG + "path")) or list(element.iter(SVG + "circle")), text

    retreat = {
        "phase": "F1901R",
        "units": {"ENGLAND": ["A BEL"], "FRANCE": ["A PAR"]},
        "centers": CENTERS,
        "retreats": {"GERMANY": {"A BUR": ["GAS", "MAR"], "F HOL": ["HEL", "KIE"]}},
    }
    out = adjudicated(retreat, {"GERMANY": ["A Bur R Mar", "F Hol D"]})
    root = parse(render_svg(retreat, out))
    units = by_attr(root, "data-unit")
    assert units["A BUR"].get("data-dislodged") == "true"
    assert units["F HOL"].get("data-dislodged") == "true"
    assert set(by_attr(root, "data-order")) == {"A BUR R MAR", "F HOL D"}
    assert "Fall 1901 Retreats" in legend_text(root)

    winter = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR"], "RUSSIA": ["A WAR", "A MOS", "F SEV", "A UKR"]},
        "centers": {"FRANCE": ["BRE", "MAR", "PAR", "SPA"], "RUSSIA": ["MOS", "STP", "WAR"]},
    }
    orders = {"FRANCE": ["F Bre B", "WAIVE"], "RUSSIA": ["A Mos D"]}
    out = adjudicated(winter, orders)
    root = parse(render_svg(winter, out, after=after_of(winter, out)))
    drawn = by_attr(root, "data-order")
    assert set(drawn) == {"F BRE B", "WAIVE", "A MOS D"}
    units = by_attr(root, "data-unit")
    assert "F BRE" in units and "A MOS" not in units  # built; removed
    assert "Winter 1901 Adjustments" in legend_text(root)


def test_a_variant_is_drawn_with_its_base_maps_drawing():
    gm = load_map("standard-6")
    root = parse(render_svg(starting_position(gm)))
    assert root.get("data-map") == "standard-6"
    assert sorted(by_attr(root, "data-unit")) == sorted(str(u) for u in starting_position(gm).units)


def test_a_second_map_needs_only_its_own_data_files(tmp_path, monkeypatch):
    """A made-up map of three provinces, two powers: its map file and its drawing file
    are all it takes to draw it (nothing in the renderer names a province)."""
    (tmp_path / "isles.toml").write_text(
        'name = "isles"\ntitle = "The Isles"\nfirst_year = 1801\nvictory_centers = 2\n'
        '[powers.NORTH]\nname = "North"\nadjective = "Northern"\ninitial = "N"\n'
        'home_centers = ["AAA"]\nunits = ["F AAA"]\n'
        '[powers.SOUTH]\nname = "South"\nadjective = "Southern"\ninitial = "S"\n'
        'home_centers = ["CCC"]\nunits = ["A CCC"]\n'
        '[provinces.AAA]\nname = "Aland"\nkind = "coast"\nsupply_center = true\n'
        'army = ["CCC"]\nfleet = ["BBB"]\n'
        '[provinces.BBB]\nname = "Big Sea"\nkind = "sea"\nfleet = ["AAA", "CCC"]\n'
        '[provinces.CCC]\nname = "Cland"\nkind = "coast"\nsupply_center = true\n'
        'army = ["AAA"]\nfleet = ["BBB"]\n'
    )
    (tmp_path / "isles_drawing.toml").write_text(
        "width = 300\nheight = 200\n"
        '[powers.NORTH]\ncolor = "#0072B2"\npattern = "grid"\nletter = "N"\n'
        '[powers.SOUTH]\ncolor = "#E69F00"\npattern = "dots"\nletter = "S"\n'
        "[provinces.AAA]\nshape = [[[0, 0], [150, 0], [150, 100], [0, 100]]]\n"
        "unit = [75, 50]\ncenter = [100, 70]\n"
        "[provinces.BBB]\nshape = [[[150, 0], [300, 0], [300, 200], [150, 200]]]\n"
        "unit = [225, 100]\n"
        "[provinces.CCC]\nshape = [[[0, 100], [150, 100], [150, 200], [0, 200]]]\n"
        "unit = [75, 150]\ncenter = [100, 170]\n"
    )
    monkeypatch.setattr(maps, "MAPS_DIR", tmp_path)
    gm = build_map(maps._map_data("isles", ()))
    position = starting_position(gm)
    results = {"NORTH": ["F AAA - BBB"], "SOUTH": ["A CCC - AAA"]}
    root = parse(render_svg(position, results))
    assert root.get("width") == str(300 + 220)  # the map and the legend beside it
    assert set(by_attr(root, "data-unit")) == {"F AAA", "A CCC"}
    assert set(by_attr(root, "data-order")) == {"F AAA - BBB", "A CCC - AAA"}
    assert "The Isles" in legend_text(root) and "Spring 1801 Movement" in legend_text(root)
    assert png_size(png(position, results)) == (520, 200)


# -- PNG -------------------------------------------------------------------------------


def test_png_of_a_full_opening_year(tmp_path):
    """Each phase of an opening year as its results mail draws it, as PNG: the size of
    the SVG, and different pictures for different phases. Set RENDER_OUT=dir to keep the
    files and look at them."""
    out_dir = Path(os.environ.get("RENDER_OUT") or tmp_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for position, results in opening_year():
        after = after_of(position, results)
        data = png(position, results, after=after, caption="Game war1")
        assert data.startswith(PNG_SIGNATURE)
        root = parse(render_svg(position, results, after=after, caption="Game war1"))
        assert png_size(data) == (int(root.get("width")), int(root.get("height")))
        # the Fall picture: A GAL dislodged and displaced; the retreat picture: it went to Boh
        if position["phase"] == "F1901M":
            assert by_attr(root, "data-unit")["A GAL"].get("data-dislodged") == "true"
            assert by_attr(root, "data-order")["A WAR - GAL"].get("data-result") == "ok"
        if position["phase"] == "F1901R":
            assert by_attr(root, "data-order")["A GAL R BOH"].get("data-result") == "ok"
            assert "A BOH" in by_attr(root, "data-unit")
        if position["phase"] == "W1901A":
            built = by_attr(root, "data-order")
            assert len(built) == sum(len(o) for o in OPENING_YEAR["W1901A"].values()) == 12
            assert {e.get("data-result") for e in built.values()} == {"ok"}
            assert {"F EDI", "A MOS", "F ANK"} <= set(by_attr(root, "data-unit"))
        path = out_dir / f"{position['phase']}.png"
        path.write_bytes(data)
        written.append(data)
    assert len(set(written)) == 4
    assert png_size(png(SPRING, None, scale=2.0)) == (2 * 1220, 2 * 800)


def test_judge_map_writes_the_board_of_a_stored_game(tmp_path, monkeypatch, capsys) -> None:
    """`judge map NAME [PHASE]` from a game played through the real handling path: a
    processed phase is drawn as its results mail's picture, the current one as it stands."""
    from judge_harness import Judge

    from judge.ops.cli import main

    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar S A Par-Bur")
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    config = tmp_path / "judge.toml"
    config.write_text(f'[judge]\ndatabase = "{judge.config.database}"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["--config", str(config), "map", "war1"]) == 0
    assert capsys.readouterr().out == "wrote war1-S1901M.png (S1901M)\n"
    assert (tmp_path / "war1-S1901M.png").read_bytes()[:8] == PNG_SIGNATURE
    assert main(["--config", str(config), "map", "war1", "S1901M", "-o", "b.svg"]) == 0
    svg = (tmp_path / "b.svg").read_text()
    assert 'data-order="A PAR - BUR"' in svg and 'data-unit="A BUR"' in svg
    assert 'data-unit="A PAR"' not in svg  # the board after Spring: Paris is empty
    assert main(["--config", str(config), "map", "war1", "F1901M", "-o", "c.svg"]) == 0
    svg = (tmp_path / "c.svg").read_text()
    assert 'data-unit="A BUR"' in svg and "data-order" not in svg
    assert main(["--config", str(config), "map", "war1", "F1905M"]) == 1
