"""The schematic board (judge/render/schematic.py, issue 19 item 5): a picture for every map
with no drawing file, laid out from the map's adjacency by judge/render/layout.py.

Every bundled map's schematic and an imported map's are checked for what a reader needs:
each province's name inside the picture and clear of every other name (the boxes measured
with Cairo in the board's font), land and sea told apart, coasts marked, centres and home
centres shown; and the picture is the same bytes however often, in whichever process, it
is drawn.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import cairocffi as cairo
import pytest
from judge_harness import Judge
from PIL import Image
from render_cases import ARCHIPELAGO

from judge.engine.board import starting_position
from judge.engine.geography import IMPASSABLE, SEA, GameMap, build_map
from judge.game.pictures import after_of
from judge.render.board import render_svg
from judge.render.canvas import FONT
from judge.render.drawing import Drawing, Mark, Word, has_drawing
from judge.render.layout import clear_edges, distances, lay_out
from judge.render.legend import legend_width
from judge.render.png import PNG_SIGNATURE, render_png
from judge.render.schematic import (
    FLEET_LINK,
    LABEL_SIZE,
    SEA_FILL,
    picture_drawing,
    schematic_drawing,
)
from judge.variants.import_dpjudge import read_dpjudge
from judge.variants.json_contract import adjudicate_line
from judge.variants.maps import MAPS_DIR, load_map

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.stem for p in MAPS_DIR.glob("*.toml") if not p.stem.endswith("_drawing"))
TRI = (Path(__file__).parent / "maps_import" / "dpjudge" / "tri.map").read_text()

Box = tuple[float, float, float, float]


def imported() -> GameMap:
    """The team's DPjudge test map, read as `judge import-map` reads it."""
    return build_map(read_dpjudge(TRI, "tri"))


def measured(at: tuple[float, float], text: str, size: float, italic: bool = False) -> Box:
    """The ink of a centred word as Cairo draws it in the board's font, halo included."""
    ctx = cairo.Context(cairo.ImageSurface(cairo.FORMAT_RGB24, 1, 1))
    slant = cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL
    ctx.select_font_face(FONT, slant, cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(size)
    xb, yb, w, h, advance, _ = ctx.text_extents(text)
    x, y = at[0] - advance / 2, at[1]
    return (x + xb - 1.3, y + yb - 1.3, x + xb + w + 1.3, y + yb + h + 1.3)


def label_boxes(gm: GameMap, dr: Drawing) -> dict[str, Box]:
    """Every name on the schematic: each province's, and each coast's (as KEY/nc)."""
    boxes = {}
    for key, pd in dr.provinces.items():
        text = pd.label_text or key
        boxes[key] = measured(pd.label, text, LABEL_SIZE, gm.provinces[key].kind == SEA)
    words = [m for m in dr.over if isinstance(m, Word)]
    coasts = [f"{k}/{c}" for k in sorted(dr.provinces) for c in sorted(dr.provinces[k].coasts)]
    rocks = sorted(k for k, p in gm.provinces.items() if p.kind == IMPASSABLE)
    assert len(words) == len(coasts) + len(rocks)
    for where, w in zip(coasts, words, strict=False):
        boxes[where] = measured(w.at, w.text, w.size)
    # The board leaves impassable provinces unnamed; the schematic names them itself.
    named = {(w.at, w.text) for w in words[len(coasts) :]}
    assert named == {(dr.provinces[k].label, dr.provinces[k].label_text) for k in rocks}
    return boxes


def overlapping(boxes: dict[str, Box]) -> list[tuple[str, str]]:
    items = sorted(boxes.items())
    return [
        (a, b)
        for n, (a, p) in enumerate(items)
        for b, q in items[n + 1 :]
        if p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]
    ]


def maps_to_check() -> list[tuple[str, GameMap]]:
    return [(name, load_map(name)) for name in BUNDLED] + [("imported tri", imported())]


@pytest.mark.parametrize(
    ("name", "gm"), maps_to_check(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_name_is_inside_the_picture_and_clear_of_every_other(name: str, gm: GameMap) -> None:
    dr = schematic_drawing(gm)
    boxes = label_boxes(gm, dr)
    assert set(gm.provinces) <= set(boxes)
    for where, (left, top, right, bottom) in boxes.items():
        assert 0 <= left < right <= dr.width and 0 <= top < bottom <= dr.height, (where, dr.width)
    assert overlapping(boxes) == []
    # The nodes themselves keep apart too: no two provinces' points closer than a node.
    points = sorted(pd.unit for pd in dr.provinces.values())
    for n, p in enumerate(points):
        for q in points[n + 1 :]:
            assert abs(p[0] - q[0]) >= 42 or abs(p[1] - q[1]) >= 42, (p, q)


def test_land_sea_coasts_centres_and_home_centres_are_marked() -> None:
    gm = load_map("archipelago")
    dr = schematic_drawing(gm)
    # Seas are circles (many points), land rounded squares (eight).
    for key, prov in gm.provinces.items():
        assert len(dr.provinces[key].rings[0]) == (28 if prov.kind == SEA else 8), key
    assert {k for k, pd in dr.provinces.items() if pd.center} == set(gm.supply_centers)
    # TRD's three coasts: three marks, apart from each other and from the node's point.
    trd = dr.provinces["TRD"]
    assert sorted(trd.coasts) == ["EC", "NC", "WC"]
    marks = set(trd.coasts.values())
    assert len(marks) == 3 and trd.unit not in marks
    assert dr.point("TRD/NC") == trd.coasts["NC"] and dr.point("TRD") == trd.unit
    assert sorted(w.text for w in dr.over if isinstance(w, Word)) == ["ec", "nc", "wc"]
    dots = [m for m in dr.over if isinstance(m, Mark) and m.fill == SEA_FILL]
    assert len(dots) == 3
    # Each home centre is ringed in its power's colour, nothing else is.
    rings = {m.rings[0][0]: m.stroke for m in dr.over if isinstance(m, Mark) and m.fill is None}
    expected = {
        dr.provinces[c].rings[0][0]: dr.powers[key].color
        for key, power in gm.powers.items()
        for c in power.home_centers
    }
    assert rings == expected
    # A fleet's move from a coast starts at its mark: TRD/NC's line to NSE.
    fleet_lines = {m.rings[0] for m in dr.under if m.stroke == FLEET_LINK}
    nse = dr.provinces["NSE"].unit
    assert tuple(sorted((trd.coasts["NC"], nse))) in fleet_lines


def test_a_map_with_a_drawing_keeps_it() -> None:
    standard = load_map("standard")
    assert has_drawing(standard) and picture_drawing(standard).name == "standard"
    duel = load_map("duel")
    assert not has_drawing(duel) and picture_drawing(duel) is schematic_drawing(duel)


def test_the_layout_keeps_boxes_apart_and_parts_of_the_graph_apart() -> None:
    # Two triangles not joined, one node alone, boxes 40 wide: none overlap (6 apart).
    edges = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]
    dist, part = distances(7, edges)
    assert dist[0][3] == 2.0 and part == [0, 0, 0, 1, 1, 1, 2]  # one past the farthest pair
    box = (-20.0, -20.0, 20.0, 20.0)
    layout = lay_out(7, edges, [box] * 7, 60.0, 10.0)
    pts = layout.points
    for n, p in enumerate(pts):
        assert 30 <= p[0] <= layout.width - 30 and 30 <= p[1] <= layout.height - 30
        for q in pts[n + 1 :]:
            assert abs(p[0] - q[0]) >= 46 or abs(p[1] - q[1]) >= 46
    assert lay_out(7, edges, [box] * 7, 60.0, 10.0) == layout
    assert lay_out(0, [], [], 60.0, 10.0).points == ()
    assert len(lay_out(1, [], [box], 60.0, 10.0).points) == 1


def decoded(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.mark.parametrize(
    ("name", "gm"), maps_to_check(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_map_renders_a_png_that_decodes(name: str, gm: GameMap) -> None:
    dr = picture_drawing(gm)
    png = render_png(starting_position(gm), caption="Game x")
    image = decoded(png)
    # the legend is 220 wide, 400 for a map of more than 12 powers (Chaos)
    assert image.size == (dr.width + legend_width(gm), dr.height)
    colours = image.getcolors(1 << 16)
    assert colours is not None and len(colours) > 20  # not blank: many colours drawn
    # Not blank: more than a twentieth of the picture is drawn on.
    background = image.getpixel((1, 1))
    plain = sum(n for n, c in colours if c == background)
    assert plain < 0.95 * image.size[0] * image.size[1]


def test_the_schematic_is_the_same_bytes_each_time_and_in_each_process() -> None:
    gm = load_map("decapolis")
    first = render_png(starting_position(gm))
    schematic_drawing.cache_clear()
    assert render_png(starting_position(gm)) == first
    script = (
        "import sys; from judge.engine.board import starting_position;"
        "from judge.variants.maps import load_map; from judge.render.png import render_png;"
        "sys.stdout.buffer.write(render_png(starting_position(load_map('decapolis'))))"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True, env=env, cwd=ROOT
    ).stdout
    assert other == first


# -- units and orders, drawn by judge/render/board.py on the schematic's points ----------

SVG = "{http://www.w3.org/2000/svg}"


def adjudicated(position: dict, orders: dict) -> dict:
    out = adjudicate_line(json.dumps({**position, "orders": orders}))
    assert "error" not in out, out
    return out


def by_attr(root: ET.Element, name: str) -> dict[str, ET.Element]:
    return {e.get(name): e for e in root.iter() if name in e.attrib}


def first_point(element: ET.Element) -> tuple[float, float]:
    """Where the first path of an order's group starts ("M x,y ...")."""
    path = next(element.iter(SVG + "path"))
    x, y = path.get("d", "")[1:].split()[0].split(",")
    return float(x), float(y)


def test_moves_supports_holds_and_bounces_are_drawn_from_the_schematic_points() -> None:
    orders = {
        "BOREAS": ["F TRD/WC - STR", "A NOR - EBY", "F NPT - NSE"],
        "LEVANT": ["F EBY H", "A EHL S F EBY", "F DEP - TRD/EC"],
        "HESPER": ["F WBY - NSE", "A WPT - WBY", "A WHL H"],
    }
    out = adjudicated(ARCHIPELAGO, orders)
    dr = schematic_drawing(load_map("archipelago"))
    root = ET.fromstring(render_svg(ARCHIPELAGO, out, after=after_of(ARCHIPELAGO, out)))
    drawn = by_attr(root, "data-order")
    assert set(drawn) == {o for os in orders.values() for o in os}
    for text, element in drawn.items():  # each drawn, not only listed
        assert list(element.iter(SVG + "path")) or list(element.iter(SVG + "circle")), text
    assert drawn["A NOR - EBY"].get("data-failed") == "true"  # bounced: crossed out
    assert drawn["F TRD/WC - STR"].get("data-result") == "ok"
    # The fleet's arrow leaves from its coast's mark, towards the Strait.
    x, y = first_point(drawn["F TRD/WC - STR"])
    wc, strait = dr.point("TRD/WC"), dr.point("STR")
    assert math.dist((x, y), wc) <= 12.5
    assert math.dist((x, y), strait) < math.dist(wc, strait)
    # The board after: the fleet that moved to TRD's east coast stands on that coast.
    units = by_attr(root, "data-unit")
    assert sorted(units) == sorted(u for us in out["units"].values() for u in us)
    assert units["F TRD/EC"].get("data-power") == "LEVANT"
    # PNG too, through the same drawing.
    assert decoded(render_png(ARCHIPELAGO, out, after=after_of(ARCHIPELAGO, out))).size == (
        dr.width + 220,
        dr.height,
    )


def test_retreats_disbands_and_builds_are_drawn_on_the_schematic() -> None:
    retreat = {
        **ARCHIPELAGO,
        "phase": "S1901R",
        "units": {"BOREAS": ["F WBY", "A NOR"], "LEVANT": ["F DEP"]},
        "retreats": {"HESPER": {"F WBY": ["WAP", "WPT"], "A WHL": ["WPT"]}},
    }
    out = adjudicated(retreat, {"HESPER": ["F WBY R WAP", "A WHL D"]})
    root = ET.fromstring(render_svg(retreat, out))
    units = by_attr(root, "data-unit")
    assert units["F WBY"].get("data-dislodged") == "true"  # Hesper's, beside Boreas's
    assert set(by_attr(root, "data-order")) == {"F WBY R WAP", "A WHL D"}
    winter = {
        **ARCHIPELAGO,
        "phase": "W1901A",
        "units": {"BOREAS": ["A NOR", "F NPT"], "LEVANT": ["F DEP", "A EHL", "F EBY"]},
    }
    out = adjudicated(winter, {"BOREAS": ["F TRD/NC B"], "LEVANT": ["WAIVE"]})
    root = ET.fromstring(render_svg(winter, out, after=after_of(winter, out)))
    assert set(by_attr(root, "data-order")) == {"F TRD/NC B", "WAIVE"}
    build = by_attr(root, "data-order")["F TRD/NC B"]
    [ring] = [c for c in build.iter(SVG + "circle") if c.get("stroke-dasharray")]
    nc = schematic_drawing(load_map("archipelago")).point("TRD/NC")
    assert (float(ring.get("cx", 0)), float(ring.get("cy", 0))) == pytest.approx(nc, abs=0.06)
    assert "F TRD/NC" in by_attr(root, "data-unit")


# -- by mail: a duel game's mails carry its schematic board ---------------------------------


def test_a_duel_games_results_mail_carries_its_schematic_board(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send("gm@example.org", "CREATE ?duel1 masterpw duel")
    judge.send("p0@example.org", "SIGNON ?duel1 pw0\nSET PREFERENCE O")
    judge.send("p1@example.org", "SIGNON ?duel1 pw1\nSET PREFERENCE V")
    judge.deliver()  # the start mails
    judge.send("p0@example.org", "SIGNON Oduel1 pw0\nA Orport - Westfold\nF Orhaven - North Bay")
    judge.send("p1@example.org", "SIGNON Vduel1 pw1\nA Eastfold H\nF Viohaven - South Bay")
    judge.send("gm@example.org", "SIGNON Mduel1 masterpw\nPROCESS")
    subject = "TEST:duel1 - S1901M Results"
    [results, *_] = [m for m in judge.deliver() if m["Subject"] == subject]
    assert results.get_content_type() == "multipart/mixed"
    text, image = results.iter_parts()
    assert text.get_content_type() == "text/plain"
    body = " ".join(text.get_content().split())
    assert (
        "is in the attached picture board-S1901M.png. Key: arrow move (dashed: convoyed), "
        "dashes support, dots convoy, ring hold, red X failed, red ring dislodged, "
        "struck ring removed, dashed ring built. The next phase of 'duel1' will be"
    ) in body
    assert image.get_content_type() == "image/png"
    assert image.get_filename() == "board-S1901M.png"
    assert image.get_content_disposition() == "inline"
    dr = schematic_drawing(load_map("duel"))
    png = image.get_content()
    assert decoded(png).size == (dr.width + 220, dr.height)
    # The picture is the board the phase led to with its orders, on the duel's schematic.
    spring = {
        "map": "duel",
        "phase": "S1901M",
        "units": {"ORANGE": ["F OHA", "A OPO", "A ORI"], "VIOLET": ["F VHA", "A VRI", "A EAS"]},
        "centers": {"ORANGE": ["OHA", "OPO", "ORI"], "VIOLET": ["VHA", "VPO", "VRI"]},
    }
    orders = {"ORANGE": ["A OPO - WES", "F OHA - NBY"], "VIOLET": ["A EAS H", "F VHA - SBY"]}
    out = adjudicated(spring, orders)
    drawn = render_png(spring, out, after=after_of(spring, out), caption="Game duel1")
    assert png == drawn


def test_long_and_non_ascii_names_are_cut_and_kept_apart() -> None:
    """An imported map may name its places as it likes: long keys are cut with "…", and
    names in other scripts are measured wide enough to stay clear of each other."""
    long = "ZUIDERZEEKUSTGEBIED"
    provinces = {
        long: {"name": "Zuiderzee", "kind": "coast", "army": ["ÅRHUS", "Ωμέγα"], "fleet": ["MER"]},
        "ÅRHUS": {"name": "Aarhus", "kind": "land", "supply_center": True, "army": [long, "Ωμέγα"]},
        "Ωμέγα": {"name": "Omega", "kind": "land", "army": [long, "ÅRHUS"]},
        "MER": {"name": "Mer", "kind": "sea", "fleet": [long]},
    }
    powers = {
        "NORD": {"name": "Nord", "adjective": "Nordic", "initial": "N", "home_centers": ["ÅRHUS"],
                 "units": ["A ÅRHUS"]},
    }  # fmt: skip
    gm = build_map({"name": "odd", "victory_centers": 1, "powers": powers, "provinces": provinces})
    dr = schematic_drawing(gm)
    assert dr.provinces[long].label_text == "ZUIDERZEE…"  # 10 characters
    assert dr.provinces["Ωμέγα"].label_text == "Ωμέγα"
    boxes = label_boxes(gm, dr)
    assert overlapping(boxes) == []
    assert all(b[0] >= 0 and b[2] <= dr.width for b in boxes.values())
    assert decoded(render_png(starting_position(gm))).size == (dr.width + 220, dr.height)


def test_a_node_on_an_edge_it_is_not_on_is_moved_off_it() -> None:
    # 0 - 2 is an edge; 1 lies on it, 2 and 3 are joined to it: 1 moves sideways only.
    points = [(0.0, 0.0), (50.0, 0.0), (100.0, 0.0), (50.0, 200.0)]
    moved = clear_edges(points, [(0, 2), (1, 3)], 30.0)
    assert moved[0] == (0.0, 0.0) and moved[2] == (100.0, 0.0) and moved[3] == (50.0, 200.0)
    assert moved[1][0] == 50.0 and abs(moved[1][1]) >= 30.0
