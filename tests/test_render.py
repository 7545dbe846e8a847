"""The board picture: SVG structure over several positions and order sets, and PNG output."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from judge.adjudicate import adjudicate_line, position_from_json
from judge.engine.adjudication import adjudicate
from judge.engine.board import starting_position
from judge.engine.geography import load_map
from judge.render.board_svg import load_drawing, render_svg
from judge.render.png import PNG_SIGNATURE, PngUnavailable, png_size, svg_to_png

SVG = "{http://www.w3.org/2000/svg}"

SPRING = {
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
    "centers": {
        "FRANCE": ["BRE", "MAR", "PAR"],
        "GERMANY": ["BER", "KIE", "MUN"],
        "ENGLAND": ["EDI", "LON", "LVP"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "AUSTRIA": ["BUD", "TRI", "VIE"],
        "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
        "TURKEY": ["ANK", "CON", "SMY"],
    },
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


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def attr_elements(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.attrib]


def spring_results() -> dict:
    out = adjudicate_line(json.dumps(SPRING))
    assert "error" not in out, out
    return out


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
    assert len({p.pattern for p in dr.powers.values()}) == len(gm.powers)
    assert len({p.letter for p in dr.powers.values()}) == len(gm.powers)


def test_opening_position():
    gm = load_map()
    pos = starting_position(gm)
    root = parse(render_svg(pos, date="1 January 1901"))
    provinces = {e.get("data-province") for e in attr_elements(root, "data-province")}
    assert provinces == set(gm.provinces)
    units = sorted(e.get("data-unit") for e in attr_elements(root, "data-unit"))
    assert units == sorted(str(u) for u in pos.units)
    assert "F STP/SC" in units
    # owned centres tinted and patterned by owner
    par = next(e for e in attr_elements(root, "data-province") if e.get("data-province") == "PAR")
    assert par.get("data-owner") == "FRANCE"
    assert any(e.get("fill") == "url(#pat-FRANCE)" for e in root.iter(SVG + "path"))
    centers = {e.get("data-center") for e in attr_elements(root, "data-center")}
    assert centers == set(gm.supply_centers)
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None
    text = "".join(legend.itertext())
    assert "Spring 1901 Movement" in text and "1 January 1901" in text
    counts = {
        e.get("data-power"): e.get("data-centers") for e in attr_elements(legend, "data-centers")
    }
    assert counts == {p: str(len(pos.centers[p])) for p in gm.powers}
    assert not attr_elements(root, "data-order")


def test_spring_results_orders_failures_and_dislodgement():
    out = spring_results()
    assert out["retreats"]["AUSTRIA"], "A TRI should be dislodged"
    position = position_from_json(SPRING)[0]
    for pos in (position, SPRING):  # a Position or the Contract 1 JSON
        root = parse(render_svg(pos, out))
        orders = {e.get("data-order"): e for e in attr_elements(root, "data-order")}
        expected = {r["order"]: r["result"] for rs in out["results"].values() for r in rs}
        assert set(orders) == set(expected)
        for text, result in expected.items():
            assert orders[text].get("data-result") == result
            assert (orders[text].get("data-failed") == "true") == (result != "ok")
        assert orders["A MUN - BUR"].get("data-result") == "bounce"
        assert orders["A VIE - GAL"].get("data-failed") == "true"
        assert "F NTH C A LON - BEL" in orders and "A MAR S A PAR - BUR" in orders
        units = {e.get("data-unit"): e for e in attr_elements(root, "data-unit")}
        assert set(units) == {u for us in SPRING["units"].values() for u in us}
        assert units["A TRI"].get("data-dislodged") == "true"
        assert units["A PAR"].get("data-dislodged") is None


def test_orders_without_results_and_retreat_and_adjustment_phases():
    gm = load_map()
    pos = starting_position(gm)
    plain = {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "ENGLAND": ["F LON H"]}
    root = parse(render_svg(pos, plain))
    orders = attr_elements(root, "data-order")
    assert {e.get("data-order") for e in orders} == {"A PAR - BUR", "F BRE - MAO", "F LON H"}
    assert not any(e.get("data-failed") for e in orders)

    position, orders_in, rules = position_from_json(SPRING)
    after = adjudicate(position, orders_in, rules).position  # S1901R with A TRI dislodged
    results = {"AUSTRIA": [{"order": "A TRI R ALB", "result": "ok"}]}
    root = parse(render_svg(after, results))
    units = {e.get("data-unit"): e for e in attr_elements(root, "data-unit")}
    assert units["A TRI"].get("data-dislodged") == "true"
    assert units["A TRI"].get("data-dislodged") == "true"
    assert "A VEN" not in units and "A TRI" in units
    assert [e.get("data-order") for e in attr_elements(root, "data-order")] == ["A TRI R ALB"]

    winter = dict(SPRING, phase="W1901A", orders={})
    winter["units"] = {"FRANCE": ["A PAR"], "RUSSIA": ["A WAR", "A MOS"]}
    results = {
        "FRANCE": [{"order": "F BRE B", "result": "ok"}, {"order": "WAIVE", "result": "ok"}],
        "RUSSIA": [{"order": "A MOS D", "result": "ok"}],
    }
    root = parse(render_svg(winter, results))
    texts = {e.get("data-order") for e in attr_elements(root, "data-order")}
    assert texts == {"F BRE B", "WAIVE", "A MOS D"}
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert "Winter 1901 Adjustments" in "".join(legend.itertext())


def _png(svg: str) -> bytes:
    """The PNG; its absence is a failure: make test installs cairosvg and libcairo2."""
    try:
        return svg_to_png(svg)
    except PngUnavailable as e:
        pytest.fail(f"{e} (make test installs them)")


def test_png_of_a_full_opening_year(tmp_path):
    """Adjudicate Spring, Fall and Winter 1901 and write a PNG of each phase."""
    position, orders, rules = position_from_json(SPRING)
    fall_orders = {
        "FRANCE": ["A Bur - Mun", "A Mar S A Bur - Mun"],
        "ENGLAND": ["A Bel H", "F NWG - NWY"],
        "GERMANY": ["A Mun H", "F Hol S A Bel"],
        "RUSSIA": ["F Bot - Swe", "A War - Gal"],
    }
    phases = [(position, orders)]
    pos = adjudicate(position, orders, rules).position
    if pos.phase.kind == "R":
        phases.append((pos, {"AUSTRIA": ["A Tri - Alb"]}))
        pos = adjudicate(pos, {"AUSTRIA": ["A Tri - Alb"]}, rules).position
    phases.append((pos, fall_orders))
    pos = adjudicate(pos, fall_orders, rules).position
    while pos.phase.kind != "A":
        pos = adjudicate(pos, {}, rules).position
    phases.append((pos, {}))
    written = []
    for p, o in phases:
        outcome = adjudicate(p, o, rules)
        results = {
            "results": {
                power: [
                    {"order": r.order, "result": r.result}
                    for r in outcome.results
                    if r.power == power
                ]
                for power in p.game_map.powers
            }
        }
        svg = render_svg(p, results, date=f"{p.phase}")
        png = _png(svg)
        assert png.startswith(PNG_SIGNATURE)
        root = parse(svg)
        assert png_size(png) == (int(root.get("width")), int(root.get("height")))
        path = tmp_path / f"{p.phase}.png"
        path.write_bytes(png)
        written.append(path)
    assert len(written) >= 3
    assert all(f.stat().st_size > 10_000 for f in written)


def test_judge_map_writes_the_board_of_a_stored_game(tmp_path, monkeypatch, capsys) -> None:
    """`judge map NAME [PHASE]` from a game played through the real handling path."""
    from judge_harness import Judge

    from judge.cli import main

    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar S A Par-Bur")
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nPROCESS")
    config = tmp_path / "judge.toml"
    config.write_text(f'[judge]\ndatabase = "{judge.config.database}"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["--config", str(config), "map", "war1"]) == 0
    assert capsys.readouterr().out == "wrote war1-S1901M.png (S1901M)\n"
    assert (tmp_path / "war1-S1901M.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["--config", str(config), "map", "war1", "S1901M", "-o", "b.svg"]) == 0
    svg = (tmp_path / "b.svg").read_text()
    assert 'data-order="A PAR - BUR"' in svg and 'data-unit="A MAR"' in svg
    assert main(["--config", str(config), "map", "war1", "F1905M"]) == 1
