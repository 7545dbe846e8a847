"""`judge import-map map.X --format njudge --name NAME` (issue 19, part 2): the classic
judge's map file and its seed file written into the operator's map folder; a malformed
file refused with its line and the reason, and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_harness import run

from judge.variants import maps

SOURCES = Path(__file__).parent / "maps_import"
MAP = (SOURCES / "njudge" / "map.tri").read_text()
SEED = (SOURCES / "njudge" / "seed.tri").read_text()
TRI_POWERS = ["--powers", "R=Red:Reddish,G=Green:Greenish", "--powers", "U=Blue:Bluish"]


@pytest.fixture
def folder(map_folder: Path) -> Path:
    """An empty operator's map folder (conftest's map_folder)."""
    return map_folder


def _import(capsys, source: Path, folder: Path, name: str, *more: str):
    return run(
        capsys, "import-map", str(source), "--format", "njudge", "--name", name,
        "--maps", str(folder), *more,
    )  # fmt: skip


def test_the_njudge_map_and_seed_give_the_same_map_as_the_dpjudge_file(
    capsys, folder: Path
) -> None:
    status, out, err = _import(capsys, SOURCES / "njudge" / "map.tri", folder, "ntri", *TRI_POWERS)
    assert (status, err) == (0, "")
    assert out == [
        f"wrote {folder / 'ntri.toml'}: 10 provinces, 3 powers, 6 supply centres, 4 to win, "
        "first year 2001"
    ]
    dp = ["import-map", str(SOURCES / "dpjudge" / "tri.map"), "--format", "dpjudge"]
    assert run(capsys, *dp, "--name", "tri", "--maps", str(folder))[0] == 0
    maps.use_operator_folder(folder)
    ours, theirs = maps.load_map("ntri"), maps.load_map("tri")
    assert ours.army_moves == theirs.army_moves and ours.fleet_moves == theirs.fleet_moves
    assert {k: (p.name, p.kind, p.supply_center, p.coasts) for k, p in ours.provinces.items()} == {
        k: (p.name, p.kind, p.supply_center, p.coasts) for k, p in theirs.provinces.items()
    }
    assert ours.powers == theirs.powers  # names, adjectives, letters, centres, units
    assert (ours.first_year, ours.victory_centers) == (2001, 4)
    assert ours.names["harbour"] == "HAV" and ours.names["north"] == "NOS"


def test_the_standard_letters_are_named_and_others_must_be(
    capsys, tmp_path: Path, folder: Path
) -> None:
    (tmp_path / "map.two").write_text(MAP.replace(" R ", " E ").replace(" G ", " F "))
    (tmp_path / "seed.two").write_text(SEED.replace("R:", "E:").replace("G:", "F:"))
    status, out, err = _import(capsys, tmp_path / "map.two", folder, "two")
    assert (status, out) == (1, [])
    assert err == (
        f"judge: {tmp_path / 'map.two'}: line 12: the power U has no name: "
        "give --powers U=Name:Adjective\n"
    )
    status, out, err = _import(capsys, tmp_path / "map.two", folder, "two", "--powers", "U=Blue")
    assert err == "judge: --powers 'U=Blue': L=Name:Adjective, L a power's letter\n"
    status, out, err = _import(
        capsys, tmp_path / "map.two", folder, "two", "--powers", "U=Ivory Coast:Ivorian"
    )
    assert (status, err) == (0, "")
    maps.use_operator_folder(folder)
    gm = maps.load_map("two")
    assert list(gm.powers) == ["ENGLAND", "FRANCE", "IVORY_COAST"]
    assert (gm.powers["ENGLAND"].name, gm.powers["ENGLAND"].initial) == ("England", "E")
    assert gm.powers["IVORY_COAST"].units == ("F HAV",)


def test_the_seed_file_is_found_beside_the_map_or_given(
    capsys, tmp_path: Path, folder: Path
) -> None:
    (tmp_path / "tri.map").write_text(MAP)
    status, out, err = _import(capsys, tmp_path / "tri.map", folder, "tri", *TRI_POWERS)
    assert (status, err) == (
        1,
        f"judge: {tmp_path / 'tri.map'}: no seed file: the starting units are in seed.<variant>\n",
    )
    seed = tmp_path / "start.txt"
    seed.write_text(SEED.replace("S2001M", "S1901M").replace("U: F hav", "U: F cap/sc"))
    more = ["--seed", str(seed), *TRI_POWERS]
    status, out, err = _import(capsys, tmp_path / "tri.map", folder, "tri", *more)
    assert (status, err) == (0, "")
    maps.use_operator_folder(folder)
    assert maps.load_map("tri").powers["BLUE"].units == ("F CAP/SC",)
    assert maps.load_map("tri").first_year == 1901


# Each malformed map file: map.tri with one line replaced, the line, and the reason.
MALFORMED_MAPS = [
    ("nos-xc: bay cap/nc dun", "nos-xc: bay cap/nc", 24,
     "DUN abuts NOS for a fleet, but NOS does not abut DUN"),
    ("fen-mv: dun hav", "fen-mv: dun", 27, "HAV abuts FEN for an army, but FEN does not abut HAV"),
    ("fen-mv: dun hav", "fen-mv: dun hav xyz", 30, "'xyz' is no area of the map"),
    ("nos-xc: bay cap/nc dun", "nos-xc: bay cap dun", 16, "NOS moves to CAP: name its coast"),
    ("nos-xc: bay cap/nc dun", "nos-xc: bay cap/ec dun", 16, "CAP has no coast EC"),
    ("fen-mv: dun hav", "fen-mx: dun hav", 30, "the move type -mx is not supported"),
    ("fen-mv: dun hav", "fen-mv: dun hav/hx", 30, "the move modifier /hx is not supported"),
    ("fen-mv: dun hav", "fen moves to dun hav", 30,
     "a move line is `abb-mv: abb...` (or -xc, -nc, ...)"),
    ("Fen,        l fen", "Fen l fen", 11, "an area is `Full Name, type abbreviation...`"),
    ("Fen,        l fen", "Fen,        h fen", 11,
     "high seas (any number of fleets) are not supported"),
    ("Fen,        l fen", "Fen,        g fen", 11, "gateways are not supported"),
    ("Fen,        l fen", "Fen,        r fen", 11, "railways are not supported"),
    ("Fen,        l fen", "Fen,        v fen", 11,
     "arctic waters (iced in the fall) are not supported"),
    ("Fen,        l fen", "Fen,        lw fen", 11,
     "FEN: land fleets convoy through has one coast"),
    ("Fen,        l fen", "Fen,        T1f fen", 11,
     "the area type 'T1f': l, w, x or a power's letter"),
    ("Fen,        l fen", "Fen,        M fen", 11,
     "the area type 'M': l, w, x or a power's letter"),
    ("Fen,        l fen", "Fen,        l fen ../x", 11, "'../x' is not an abbreviation"),
    ("Fen,        l fen", "Fen,        l fen alps", 11, "'alps' is also ALP's"),
    ("Gap,        l gap", "Gap,        x gap", 13, "the supply centre GAP has no moves"),
    ("North Sea,  w nos north", "North Sea,  w nos north\nIsle,  w isl", 5,
     "ISL is water: no army moves there"),
    ("cap-sc: sos elm hav", "cap-sc: sos elm hav\ncap-xc: cap", 8,
     "CAP: one -xc line, or two coasts or more"),
    ("Center order for summary report:", "Hongkong settings", 33,
     "the option 'Hongkong settings' is not supported"),
    ("#end of center ordering\n-1", "#end of center ordering", 34,
     "each part (areas, moves, options) ends with a line -1"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "line", "reason"), MALFORMED_MAPS)
def test_a_malformed_map_file_is_refused_with_its_line(
    capsys, tmp_path: Path, folder: Path, old: str, new: str, line: int, reason: str
) -> None:
    assert old in MAP
    text = MAP.replace(old, new, 1)
    if "Isle" in new:  # a water area an army moves to
        text = text.replace("gap-mv: gap", "gap-mv: gap\nisl-mv: fen\nfen-mv: isl")
    (tmp_path / "map.tri").write_text(text)
    (tmp_path / "seed.tri").write_text(SEED)
    status, out, err = _import(capsys, tmp_path / "map.tri", folder, "tri", *TRI_POWERS)
    assert (status, out) == (1, [])
    assert err == f"judge: {tmp_path / 'map.tri'}: line {line}: {reason}\n"
    assert list(folder.iterdir()) == []


MALFORMED_SEEDS = [
    ("S2001M", "F2001M", 1, "a game that begins other than in Spring movement"),
    ("S2001M", "Spring 2001", 1, "the first line is the first phase, like S1901M"),
    ("R: F Bay", "R F Bay", 2, "a unit is `L: A Area` (L the power's letter)"),
    ("R: F Bay", "R: F Nowhere", 2, "'Nowhere' is no area of the map"),
    ("R: F Bay", "R: F Fen", 2, "the unit F FEN cannot stand there"),
    ("R: A Alpine", "R: A Bay", 3, "a second unit in BAY"),
    ("-1\n-1\n-1", "-1\n..RR\n-1\n-1", 7, "the record has 4 letters, not 10"),
    ("-1\n-1\n-1", "-1\n.......R..\n-1\n-1", 7, "FEN cannot be owned by 'R'"),
    ("-1\n-1\n-1", "", None, "the seed file is the first phase and units, then -1"),
]


@pytest.mark.parametrize(("old", "new", "line", "reason"), MALFORMED_SEEDS)
def test_a_malformed_seed_file_is_refused_with_its_line(
    capsys, tmp_path: Path, folder: Path, old: str, new: str, line: int | None, reason: str
) -> None:
    assert old in SEED
    (tmp_path / "map.tri").write_text(MAP)
    (tmp_path / "seed.tri").write_text(SEED.replace(old, new, 1))
    status, out, err = _import(capsys, tmp_path / "map.tri", folder, "tri", *TRI_POWERS)
    assert (status, out) == (1, [])
    where = f"line {line}: " if line else ""
    assert err == f"judge: {tmp_path / 'seed.tri'}: {where}{reason}\n"
    assert list(folder.iterdir()) == []


def test_the_seeds_record_gives_the_starting_centres(capsys, tmp_path: Path, folder: Path) -> None:
    (tmp_path / "map.tri").write_text(MAP)
    # Red starts without Alpine, which Green owns: areas in the map's order.
    (tmp_path / "seed.tri").write_text(SEED.replace("-1\n-1\n-1", "-1\n..GR.G..U.\n-1\n-1"))
    status, out, err = _import(capsys, tmp_path / "map.tri", folder, "tri", *TRI_POWERS)
    assert (status, err) == (0, "")
    maps.use_operator_folder(folder)
    gm = maps.load_map("tri")
    assert gm.powers["RED"].starting_centers == {"BAY"}
    assert gm.powers["GREEN"].starting_centers == {"ALP", "DUN"}
    assert gm.powers["BLUE"].starting_centers == {"HAV"}


def test_land_that_fleets_convoy_through_is_a_port(capsys, tmp_path: Path, folder: Path) -> None:
    """`Uw` (Blue's home centre Haven, where a fleet convoys as at sea)."""
    (tmp_path / "map.tri").write_text(MAP.replace("Haven,      U hav", "Haven,      Uw hav", 1))
    (tmp_path / "seed.tri").write_text(SEED)
    assert _import(capsys, tmp_path / "map.tri", folder, "tri", *TRI_POWERS)[:3:2] == (0, "")
    maps.use_operator_folder(folder)
    gm = maps.load_map("tri")
    assert gm.provinces["HAV"].port and gm.powers["BLUE"].home_centers == {"HAV"}
    assert gm.convoys_at("HAV") and gm.sea_neighbours("HAV") == {"CAP", "SOS"}
    assert [p for p in gm.provinces if gm.provinces[p].port] == ["HAV"]
