"""The standard board's picture as players saw it (issue 19, item 6): each fault fixed,
checked on the drawing's content (the SVG's elements, their positions and styles).

- a dislodged unit is drawn beside the unit that beat it, clear of it, in a red ring;
- a convoyed move runs through the convoying fleets' seas, in order;
- a removal has its own mark, not a failed order's red cross;
- where several lines end in one province, their ends are spread apart;
- Britain's and Iberia's outlines follow the coast, each unit point inside its province;
- the legend shows every power of a 34-power map inside the picture.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET

from render_cases import CENTERS

from judge.game.pictures import after_of
from judge.render import render_svg
from judge.variants.json_contract import adjudicate_line

SVG = "{http://www.w3.org/2000/svg}"
FAIL = "#d00000"


def adjudicated(position: dict, orders: dict) -> dict:
    out = adjudicate_line(json.dumps({**position, "orders": orders}))
    assert "error" not in out, out
    return out


def svg_of(position: dict, orders: dict, *, after: bool = True) -> ET.Element:
    """The picture of `position` with `orders` adjudicated, as its results mail draws it
    (after=True) or on the board they were given on."""
    out = adjudicated(position, orders)
    board = after_of(position, out) if after else None
    return ET.fromstring(render_svg(position, out, after=board))


def units(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    return {
        (e.get("data-power"), e.get("data-unit")): e for e in root.iter() if "data-unit" in e.attrib
    }


def orders(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-order"): e for e in root.iter() if "data-order" in e.attrib}


def centre(element: ET.Element) -> tuple[float, float]:
    """Where a unit element stands: its army's disc, or its fleet's letter."""
    for e in element.iter(SVG + "circle"):
        if e.get("r") == "9.5":
            return float(e.get("cx")), float(e.get("cy"))
    text = next(element.iter(SVG + "text"))
    return float(text.get("x")), float(text.get("y")) - 6.5


def marks(element: ET.Element, kind: str) -> list[ET.Element]:
    return [e for e in element.iter() if e.get("data-mark") == kind]


def points(d: str) -> list[tuple[float, float]]:
    """The points of SVG path data made by the canvas (`M x,y L x,y ...`)."""
    return [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


# -- 1. a dislodged unit beside the one that beat it ------------------------------------

SPRING = {
    "phase": "S1901M",
    "units": {
        "ITALY": ["A VEN", "A TYR"],
        "AUSTRIA": ["A TRI", "F ALB"],
        "TURKEY": ["F AEG", "F ION"],
        "ENGLAND": ["F GRE"],
    },
    "centers": CENTERS,
}


def test_a_dislodged_unit_is_drawn_clear_of_the_unit_that_beat_it() -> None:
    """Army beaten by an army (Trieste) and fleet by a fleet (Greece): on the results
    picture, the dislodged unit's red ring clears the winner standing in its province."""
    root = svg_of(
        SPRING,
        {
            "ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"],
            "AUSTRIA": ["A Tri H", "F Alb H"],
            "TURKEY": ["F Aeg - Gre", "F Ion S F Aeg - Gre"],
            "ENGLAND": ["F Gre H"],
        },
    )
    drawn = units(root)
    for loser, winner in (
        (("AUSTRIA", "A TRI"), ("ITALY", "A TRI")),
        (("ENGLAND", "F GRE"), ("TURKEY", "F GRE")),
    ):
        beaten = drawn[loser]
        assert beaten.get("data-dislodged") == "true"
        (ring,) = marks(beaten, "dislodged")
        assert ring.get("stroke") == FAIL and ring.get("r") == "14"
        at = float(ring.get("cx")), float(ring.get("cy"))
        assert centre(beaten) == at  # the unit inside its ring
        w = centre(drawn[winner])
        assert drawn[winner].get("data-dislodged") is None
        # ring (14) and the winner (a fleet's hull reaches 14 from its point) never touch
        assert math.dist(at, w) >= 14 + 14 + 2, (loser, at, w)
        assert at[0] > w[0] and at[1] > w[1]  # down and right of it


# -- 3. removals have their own mark -----------------------------------------------------


def test_removals_have_their_own_mark_not_a_failed_orders_cross() -> None:
    """A disband in the adjustments, a unit destroyed because it has nowhere to retreat,
    and a disband in the retreats carry the removal mark (a dark struck ring); a failed
    order carries the red cross; neither carries the other's mark."""
    winter = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR"], "RUSSIA": ["A WAR", "A MOS", "F SEV", "A UKR"]},
        "centers": {"FRANCE": ["BRE", "MAR", "PAR", "SPA"], "RUSSIA": ["MOS", "STP", "WAR"]},
    }
    root = svg_of(winter, {"FRANCE": ["F Bre B"], "RUSSIA": ["A Mos D"]})
    disband = orders(root)["A MOS D"]
    (mark,) = marks(disband, "removed")
    assert not marks(disband, "failed") and not _red(disband)
    ring = next(mark.iter(SVG + "circle"))
    assert ring.get("stroke") == "#fff"  # the halo, then the dark ring and its slash
    strokes = {e.get("stroke") for e in mark.iter() if e.get("stroke") not in (None, "#fff")}
    assert strokes == {"#222"}
    assert not marks(orders(root)["F BRE B"], "removed")

    # Trieste beaten, Albania, Budapest, Serbia, Vienna and Tyrolia all held: it is gone
    trapped = {
        "phase": "S1901M",
        "units": {
            "ITALY": ["A VEN", "A TYR"],
            "AUSTRIA": ["A TRI", "A VIE", "A BUD", "A SER", "F ALB"],
            "TURKEY": ["A BUL"],
        },
        "centers": CENTERS,
    }
    out = {
        "ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"],
        "AUSTRIA": ["A Tri H", "A Vie H", "A Bud H", "A Ser H", "F Alb H"],
        "TURKEY": ["A Bul - Ser"],
    }
    root = svg_of(trapped, out)
    gone = units(root)[("AUSTRIA", "A TRI")]
    assert gone.get("data-destroyed") == "true" and len(marks(gone, "removed")) == 1
    bounce = orders(root)["A BUL - SER"]
    assert bounce.get("data-failed") == "true"
    assert len(marks(bounce, "failed")) == 1 and not marks(bounce, "removed")
    assert _red(bounce)

    retreat = {
        "phase": "F1901R",
        "units": {"ENGLAND": ["A BEL"], "FRANCE": ["A PAR"]},
        "centers": CENTERS,
        "retreats": {"GERMANY": {"A BUR": ["GAS", "MAR"], "F HOL": ["HEL", "KIE"]}},
    }
    root = svg_of(retreat, {"GERMANY": ["A Bur R Mar", "F Hol D"]}, after=False)
    assert len(marks(orders(root)["F HOL D"], "removed")) == 1
    assert not marks(orders(root)["A BUR R MAR"], "removed")


def _red(element: ET.Element) -> bool:
    return any(e.get("stroke") == FAIL for e in element.iter())


# -- 2. a convoyed move runs through the convoying fleets' seas --------------------------


def _path_of(order: ET.Element) -> list[tuple[float, float]]:
    """The points of an order's line (its first path: the black outline under it)."""
    return points(next(order.iter(SVG + "path")).get("d"))


def test_a_convoyed_move_runs_through_each_convoying_fleets_sea_in_order() -> None:
    """Liverpool to Brest by the Irish Sea and the Channel: the arrow passes through the
    two fleets' points, in order; a fleet ordered to convoy another move is not on it."""
    from judge.render import load_drawing

    dr = load_drawing("standard")
    position = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["A LVP", "F IRI", "F ENG", "F MAO", "A YOR", "F NTH"]},
        "centers": CENTERS,
    }
    given = {
        "ENGLAND": [
            "A Lvp - Bre",
            "F Iri C A Lvp - Bre",
            "F Eng C A Lvp - Bre",
            "F Mao H",
            "A Yor - Nwy",
            "F Nth C A Yor - Nwy",
        ]
    }
    root = svg_of(position, given)
    drawn = orders(root)
    chain = _path_of(drawn["A LVP - BRE"])
    iri, eng, mao = dr.point("IRI"), dr.point("ENG"), dr.point("MAO")
    assert chain[1:-1] == [iri, eng]  # from Liverpool, through the two seas, to Brest
    assert mao not in chain
    assert math.dist(chain[0], dr.point("LVP")) <= 12.5
    assert math.dist(chain[-1], dr.point("BRE")) <= 13 + 11 + 0.5  # up to the head's base
    # dashed as a move by convoy; one fleet's chain too
    assert next(drawn["A LVP - BRE"].iter(SVG + "path")).get("stroke-dasharray") == "9,4"
    assert _path_of(drawn["A YOR - NWY"])[1:-1] == [dr.point("NTH")]
    # a move by land stays straight
    plain = svg_of(position, {"ENGLAND": ["A Yor - Lvp"]})
    assert len(_path_of(orders(plain)["A YOR - LVP"])) == 2


def test_the_route_drawn_is_the_chain_of_fleets_that_held() -> None:
    """Two chains ordered from London to Portugal (the Channel, or the Irish Sea), and the
    Channel's fleet dislodged: the arrow goes the way the convoy could still go."""
    from judge.render import load_drawing

    dr = load_drawing("standard")
    position = {
        "phase": "S1901M",
        "units": {
            "ENGLAND": ["A WAL", "F ENG", "F IRI", "F MAO"],
            "FRANCE": ["F BRE", "F PIC", "A PAR"],
        },
        "centers": CENTERS,
    }
    given = {
        "ENGLAND": [
            "A Wal - Por",
            "F Eng C A Wal - Por",
            "F Iri C A Wal - Por",
            "F Mao C A Wal - Por",
        ],
        "FRANCE": ["F Bre - Eng", "F Pic S F Bre - Eng", "A Par H"],
    }
    root = svg_of(position, given)
    drawn = orders(root)
    assert drawn["F ENG C A WAL - POR"].get("data-result") == "dislodged"
    assert drawn["A WAL - POR"].get("data-result") == "ok"
    assert _path_of(drawn["A WAL - POR"])[1:-1] == [dr.point("IRI"), dr.point("MAO")]


# -- 4. crowded places: the ends of their lines spread apart -----------------------------

# A made-up Spring 1901 with a crowded North Sea (two moves into it, two supports of the
# fleet there, three of the German attack) and a crowded Bulgaria (two moves, two
# supports of the Turkish army, one of each attack), a convoy and a dislodgement.
CROWDED = {
    "phase": "S1901M",
    "centers": CENTERS,
    "units": {
        "ENGLAND": ["F NTH", "F EDI", "F LON", "A LVP", "F IRI", "F ENG"],
        "GERMANY": ["F HEL", "F DEN", "F HOL", "A MUN"],
        "FRANCE": ["F BEL", "A BRE", "A PAR"],
        "RUSSIA": ["F NWY", "A RUM", "F AEG"],
        "TURKEY": ["A BUL", "F BLA", "A CON"],
        "AUSTRIA": ["A SER", "A BUD", "F GRE"],
    },
}
CROWDED_ORDERS = {
    "ENGLAND": [
        "F Nth H",
        "F Edi S F Nth",
        "F Lon S F Nth",
        "A Lvp - Bre",
        "F Iri C A Lvp - Bre",
        "F Eng C A Lvp - Bre",
    ],
    "GERMANY": ["F Hel - Nth", "F Den S F Hel - Nth", "F Hol S F Hel - Nth", "A Mun - Bur"],
    "FRANCE": ["F Bel - Nth", "A Bre - Pic", "A Par - Bur"],
    "RUSSIA": ["F Nwy S F Hel - Nth", "A Rum - Bul", "F Aeg S A Rum - Bul"],
    "TURKEY": ["A Bul H", "F Bla S A Bul", "A Con S A Bul"],
    "AUSTRIA": ["A Ser - Bul", "A Bud - Rum", "F Gre S A Ser - Bul"],
}


def heads(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Each order's line end: an arrow's tip, a support's or convoy's little circle."""
    out = {}
    for text, element in orders(root).items():
        for e in element.iter():
            if e.get("data-head"):
                if e.tag == SVG + "circle":
                    out[text] = (float(e.get("cx")), float(e.get("cy")))
                else:
                    out[text] = points(e.get("d"))[0]
    return out


def test_the_ends_of_lines_meeting_in_a_crowded_place_are_spread_apart() -> None:
    for after in (True, False):
        root = svg_of(CROWDED, CROWDED_ORDERS, after=after)
        ends = heads(root)
        assert len(ends) == 20  # every move, support and convoy (all but the 2 holds)
        close = [
            (a, b, round(math.dist(ends[a], ends[b]), 1))
            for a, b in itertools.combinations(sorted(ends), 2)
            if math.dist(ends[a], ends[b]) < 7
        ]
        assert close == []
    # the lines into the North Sea end around its point, each towards where it comes from
    from judge.render import load_drawing

    nth = load_drawing("standard").point("NTH")
    into = ["F HEL - NTH", "F BEL - NTH", "F EDI S F NTH", "F LON S F NTH"]
    for text in into:
        assert 16 <= math.dist(ends[text], nth) <= 18, text
    assert ends["F HEL - NTH"][0] > nth[0] and ends["F EDI S F NTH"][0] < nth[0]
    assert ends["F BEL - NTH"][1] > nth[1]
    # the three supports of the German attack meet its line at three points
    support_ends = [ends[f"F {p} S F HEL - NTH"] for p in ("DEN", "HOL", "NWY")]
    assert len(set(support_ends)) == 3


def test_spread_keeps_the_order_around_the_circle_and_the_gap() -> None:
    from judge.render.ends import GAP, spread

    angles = [0.0, 0.05, 0.1, 3.0]
    moved = spread(angles)
    assert moved[0] < moved[1] < moved[2]  # same order around the circle
    assert all(b - a >= GAP - 1e-9 for a, b in itertools.pairwise(moved[:3]))
    assert math.isclose(sum(moved[:3]) / 3, 0.05)  # centred where the lines are
    assert moved[3] == 3.0  # a line alone keeps its angle
    assert spread([1.0]) == [1.0]
    twelve = sorted(spread([0.0] * 12))  # too many for the gap: an even share of the circle
    gaps = [b - a for a, b in itertools.pairwise(twelve)]
    assert all(math.isclose(g, math.tau / 12) for g in gaps)


# -- 6. the legend shows every power, even 34 ---------------------------------------------


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` as the PNG draws it (Cairo, DejaVu Sans)."""
    import cairocffi as cairo

    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, 1, 1)
    ctx = cairo.Context(surface)
    weight = cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
    ctx.set_font_face(cairo.ToyFontFace("DejaVu Sans", cairo.FONT_SLANT_NORMAL, weight))
    ctx.set_font_size(size)
    return float(ctx.text_extents(text)[4])


def test_the_legend_of_chaos_shows_every_power_inside_the_picture() -> None:
    from judge.engine.board import starting_position
    from judge.variants.maps import load_map

    gm = load_map("chaos")
    root = ET.fromstring(render_svg(starting_position(gm), caption="Game chaos1"))
    width, height = int(root.get("width")), int(root.get("height"))
    legend = root.find(f".//{SVG}g[@id='legend']")
    names = {}
    for row in legend.iter():
        if "data-power" in row.attrib:
            (name,) = [t for t in row.iter(SVG + "text") if t.get("data-legend") == "power"]
            names[row.get("data-power")] = name
    assert list(names) == list(gm.powers)  # every power, Warsaw too, in the map's order
    boxes = []
    for key, text in names.items():
        assert text.text == gm.powers[key].name
        x, y, size = float(text.get("x")), float(text.get("y")), float(text.get("font-size"))
        assert size >= 9
        assert x > 1000 and x + _text_width(text.text, size) < width, key
        assert size <= y <= height - 4, key
        boxes.append((x, y, x + _text_width(text.text, size), size))
    # no two names overlap
    for (x1, y1, r1, s1), (x2, y2, r2, s2) in itertools.combinations(boxes, 2):
        assert abs(y1 - y2) >= min(s1, s2) or r1 <= x2 or r2 <= x1
    # the title is whole, wrapped inside the panel
    title = [t.text for t in legend.iter(SVG + "text") if t.get("data-legend") == "title"]
    assert " ".join(title) == gm.title
    for t in legend.iter(SVG + "text"):
        if t.get("data-legend") == "title":
            assert float(t.get("x")) + _text_width(t.text, 15, bold=True) < width
    # and the key below the powers, inside the picture
    key_texts = [t for t in legend.iter(SVG + "text") if t.text == "Supply centre"]
    assert key_texts and float(key_texts[0].get("y")) < height


def test_the_standard_legend_keeps_its_one_column() -> None:
    from judge.engine.board import starting_position
    from judge.variants.maps import load_map

    root = ET.fromstring(render_svg(starting_position(load_map())))
    assert root.get("width") == "1220"
    rows = [e for e in root.iter() if e.get("data-legend") == "power"]
    assert [r.text for r in rows][:2] == ["Austria", "England"]
    assert {r.get("x") for r in rows} == {"1042"} and {r.get("font-size") for r in rows} == {"12"}


def test_a_long_title_or_power_name_is_wrapped_or_cut_not_run_off() -> None:
    from judge.render.legend import NAME_CHARS, TITLE_LINES, _cut, _title_lines

    lines = _title_lines("Ü" * 500 + " an imported map's title", 220)
    assert len(lines) == TITLE_LINES and lines[-1].endswith("\u2026")
    assert all(_text_width(line, 15, bold=True) <= 220 - 24 for line in lines)
    assert _title_lines("Standard Diplomacy", 220) == ["Standard Diplomacy"]
    assert _cut("The Most Serene Republic of Venice") == "The Most Serene\u2026"
    assert len(_cut("x" * 100)) == NAME_CHARS and _cut("Constantinople") == "Constantinople"


# -- 5. Britain's and Iberia's outlines ----------------------------------------------------

COASTS = ("CLY", "EDI", "LVP", "YOR", "WAL", "LON", "POR", "SPA")


def _inside(point: tuple[float, float], rings) -> bool:
    x, y = point
    hit = False
    for ring in rings:
        for (x1, y1), (x2, y2) in itertools.pairwise([*ring, ring[0]]):
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                hit = not hit
    return hit


def test_britain_and_iberia_follow_the_coast_with_their_points_inside() -> None:
    """Drawn from the real coast (about 240 points for the eight provinces, where there
    were 93): Cornwall reaches west and south of Wales, Kintyre and Galloway south-west
    of Clyde's unit, Cape Wrath and Dunnet Head in the north, East Anglia east of London;
    Finisterre in the north-west of Spain; and every unit, centre and coast point inside
    its province."""
    from judge.render import load_drawing

    dr = load_drawing("standard")
    shapes = {k: dr.provinces[k] for k in COASTS}
    assert sum(len(r) for p in shapes.values() for r in p.rings) >= 200
    assert all(len(p.rings[0]) >= 15 for p in shapes.values())
    for key, p in shapes.items():
        for point in (p.unit, p.center, *p.coasts.values()):
            if point is not None:
                assert _inside(point, p.rings), (key, point)
    xs = {k: [x for x, _ in p.rings[0]] for k, p in shapes.items()}
    ys = {k: [y for _, y in p.rings[0]] for k, p in shapes.items()}
    wal, lon = shapes["WAL"], shapes["LON"]
    lands_end = min(wal.rings[0])
    assert lands_end[1] > wal.unit[1] + 30  # Cornwall: south of Wales
    assert max(xs["LON"]) > lon.unit[0] + 30  # East Anglia
    assert min(ys["CLY"]) < min(ys["EDI"])  # the north coast is Clyde's
    assert max(ys["CLY"]) > shapes["CLY"].unit[1] + 30  # Galloway
    assert min(xs["SPA"]) < min(xs["POR"]) + 15 and min(ys["SPA"]) < min(ys["POR"])
