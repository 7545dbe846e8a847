"""`judge import-map FILE --format dpjudge --name NAME [--maps DIR]` (issue 19, part 2): a
DPjudge map file written into the operator's map folder, then played there; a malformed
file refused with its line and the reason, and nothing written."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import Judge

from judge.engine.geography import build_map
from judge.variants import maps
from judge.variants.map_import import MAX_FILE_BYTES, MAX_LINE_CHARS

SOURCES = Path(__file__).parent / "maps_import" / "dpjudge"
TRI = (SOURCES / "tri.map").read_text()


@pytest.fixture
def folder(map_folder: Path) -> Path:
    """An empty operator's map folder (conftest's map_folder)."""
    return map_folder


def _import(capsys, source: Path, folder: Path, name: str = "tri", *more: str):
    return run(
        capsys, "import-map", str(source), "--format", "dpjudge", "--name", name,
        "--maps", str(folder), *more,
    )  # fmt: skip


def test_a_dpjudge_map_is_written_with_its_names_year_and_victory(capsys, folder: Path) -> None:
    status, out, err = _import(capsys, SOURCES / "tri.map", folder)
    assert (status, err) == (0, "")
    assert out == [
        f"wrote {folder / 'tri.toml'}: 10 provinces, 3 powers, 6 supply centres, 4 to win, "
        "first year 2001"
    ]
    assert sorted(p.name for p in folder.iterdir()) == ["tri.toml"]
    maps.use_operator_folder(folder)
    gm = maps.load_map("tri")
    data = _toml(folder / "tri.toml")
    assert build_map(data).provinces == gm.provinces  # the engine builds the map from it
    assert data["name"] == "tri" and gm.first_year == 2001
    assert gm.victory_centers == 4  # no VICTORY line: more than half of the 6 centres
    assert list(gm.powers) == ["RED", "GREEN", "BLUE"]
    red = gm.powers["RED"]
    assert (red.name, red.adjective, red.initial) == ("Red", "Reddish", "R")
    assert red.units == ("F BAY", "A ALP") and red.home_centers == {"BAY", "ALP"}
    assert gm.powers["GREEN"].initial == "G"  # the adjective's initial when none is given
    assert gm.supply_centers == {"ALP", "BAY", "CAP", "DUN", "ELM", "HAV"}
    assert gm.provinces["CAP"].coasts == ("NC", "SC")
    assert gm.provinces["GAP"].kind == "impassable" and gm.provinces["FEN"].kind == "land"
    assert gm.army_moves["DUN"] == {"CAP", "FEN", "HAV"}  # `hav`: an army move only
    assert gm.fleet_moves["DUN"] == {"CAP/NC", "NOS"}
    assert gm.fleet_moves["CAP/SC"] == {"ELM", "HAV", "SOS"}
    assert gm.names["capepoint"] == "CAP" and "tip" not in gm.names  # `tip?` is ambiguous


def _toml(path: Path) -> dict:
    import tomllib

    return tomllib.loads(path.read_text())


def test_the_imported_map_is_adjudicated_by_judge_adjudicate(capsys, folder: Path) -> None:
    assert _import(capsys, SOURCES / "tri.map", folder)[0] == 0
    line = {
        "map": "tri",
        "phase": "S2001M",
        "units": {"RED": ["F BAY", "A ALP"], "GREEN": ["F DUN"], "BLUE": ["F HAV"]},
        "centers": {"RED": ["BAY", "ALP"], "GREEN": ["DUN"], "BLUE": ["HAV"]},
        "orders": {
            "RED": ["A Alps - Cape", "F Bay - NOS"],
            "GREEN": ["F Dunes - Cape Point"],
            "BLUE": ["F Haven - CAP/SC"],
        },
    }
    proc = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate", "--maps", str(folder)],
        input=json.dumps(line) + "\n",
        capture_output=True,
        text=True,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    outcome = json.loads(proc.stdout)
    assert outcome["results"] == {
        "RED": [
            {"order": "A ALP - CAP", "given": "A Alps - Cape", "result": "bounce"},
            {"order": "F BAY - NOS", "given": "F Bay - NOS", "result": "ok"},
        ],
        "GREEN": [{"order": "F DUN - CAP/NC", "given": "F Dunes - Cape Point", "result": "bounce"}],
        "BLUE": [{"order": "F HAV - CAP/SC", "given": "F Haven - CAP/SC", "result": "bounce"}],
    }
    assert outcome["units"] == {"BLUE": ["F HAV"], "GREEN": ["F DUN"], "RED": ["A ALP", "F NOS"]}
    assert outcome["next_phase"] == "F2001M"


def test_create_by_mail_plays_the_imported_map(capsys, tmp_path: Path, folder: Path) -> None:
    assert _import(capsys, SOURCES / "tri.map", folder)[0] == 0
    maps.use_operator_folder(folder)
    judge = Judge(tmp_path)
    judge.send("gm@example.org", "CREATE ?trio masterpw tri")
    game = judge.game("trio")
    assert game is not None and game.variant == "tri"


def test_the_victory_line_starting_centres_and_build_anywhere(capsys, folder: Path) -> None:
    status, out, err = _import(capsys, SOURCES / "isle.map", folder, "Isle")
    assert (status, err) == (0, "")
    maps.use_operator_folder(folder)
    gm = maps.load_map("isle")
    assert gm.victory_centers == 2 and gm.first_year == 1901 and gm.build_anywhere
    north = gm.powers["NORTHMEN"]  # `__+north+men`: `_` left out, `+` a capital
    assert (north.name, north.adjective, north.initial) == ("NorthMen", "Norse", "N")
    assert north.starting_centers == {"MAI", "ISL"} and north.home_centers == {"MAI"}
    assert gm.powers["SOUTHFOLK"].name == "Southfolk"
    assert gm.army_moves["ISL"] == frozenset()  # `Isl`, `Mai`: no army move, only by sea
    assert gm.fleet_moves["ISL"] == {"MAI", "OPN", "POR", "STR"}


def test_a_map_may_read_another_beside_it_and_change_its_powers(capsys, folder: Path) -> None:
    status, out, err = _import(capsys, SOURCES / "duo.map", folder, "duo")
    assert (status, err) == (0, "")
    assert _import(capsys, SOURCES / "tri.map", folder, "tri")[0] == 0
    maps.use_operator_folder(folder)
    gm = maps.load_map("duo")
    assert list(gm.powers) == ["RED", "GREEN"] and gm.victory_centers == 3
    assert gm.powers["GREEN"].home_centers == {"ELM"}  # `-DUN`: a centre of nobody's now
    assert gm.powers["GREEN"].units == ("A ELM",)  # `UNITS`: Tri's F DUN forgotten
    assert gm.supply_centers == maps.load_map("tri").supply_centers
    assert gm.army_moves == maps.load_map("tri").army_moves


def test_a_file_read_by_another_is_refused_in_its_own_words(
    capsys, tmp_path: Path, folder: Path
) -> None:
    (tmp_path / "tri.map").write_text(TRI.replace("LAND FEN ABUTS DUN HAV", "LAND FEN ABUTS DUN"))
    (tmp_path / "duo.map").write_text((SOURCES / "duo.map").read_text())
    status, out, err = _import(capsys, tmp_path / "duo.map", folder, "duo")
    assert err == (
        f"judge: {tmp_path / 'tri.map'}: line 25: HAV abuts FEN for an army, but FEN does not "
        "abut HAV\n"
    )
    (tmp_path / "tri.map").write_text(TRI + "USE duo\n")
    status, out, err = _import(capsys, tmp_path / "duo.map", folder, "duo")
    assert err == (  # duo.map, read by tri.map, would read tri.map again
        f"judge: {tmp_path / 'duo.map'}: line 2: tri.map would read itself, round about\n"
    )
    assert list(folder.iterdir()) == []


def test_a_chain_of_more_than_ten_files_is_refused(capsys, tmp_path: Path, folder: Path) -> None:
    for i in range(11):
        (tmp_path / f"f{i}.map").write_text(f"# file {i}\nUSE f{i + 1}\n")
    (tmp_path / "f11.map").write_text(TRI)
    status, out, err = _import(capsys, tmp_path / "f0.map", folder, "chain")
    assert (status, out) == (1, [])
    assert err == f"judge: {tmp_path / 'f9.map'}: line 2: f10.map: more than 10 files\n"
    (tmp_path / "f9.map").write_text(TRI)  # ten files in all: read
    assert _import(capsys, tmp_path / "f0.map", folder, "chain")[0] == 0


# Each malformed file: the tri map with one line replaced, the line, and the reason.
MALFORMED = [
    (
        "WATER NOS ABUTS BAY CAP/NC DUN",
        "WATER NOS ABUTS BAY CAP/NC",
        23,
        "DUN abuts NOS for a fleet, but NOS does not abut DUN",
    ),
    (
        "LAND FEN ABUTS DUN HAV",
        "LAND FEN ABUTS DUN",
        25,
        "HAV abuts FEN for an army, but FEN does not abut HAV",
    ),
    (
        "LAND FEN ABUTS DUN HAV",
        "LAND FEN ABUTS DUN HAV XYZ",
        27,
        "FEN abuts XYZ, which has no line",
    ),
    (
        "WATER NOS ABUTS BAY CAP/NC DUN",
        "WATER NOS ABUTS BAY CAP DUN",
        17,
        "NOS abuts CAP: name its coast",
    ),
    (
        "LAND FEN ABUTS DUN HAV",
        "LAND FEN BORDERS DUN HAV",
        27,
        "a terrain line is `LAND ABB ABUTS place...`",
    ),
    (
        "LAND FEN ABUTS DUN HAV",
        "LAND FEN ABUTS DUN hAv",
        27,
        "'hAv': upper, lower or capitalised case only",
    ),
    (
        "COAST cap ABUTS bay dun elm hav alp",
        "COAST CAP ABUTS bay dun elm hav alp",
        21,
        "CAP has coasts: its line is `COAST cap` (lower case) and each coast's `COAST CAP/NC`",
    ),
    (
        "COAST CAP/SC ABUTS SOS ELM HAV",
        "COAST CAQ/SC ABUTS SOS ELM HAV",
        20,
        "CAQ/SC is a coast of CAQ, which has no line",
    ),
    ("Fen = fen", "Fen = fen fenland\nMarsh = fen", 13, "FEN is named twice (first on line 12)"),
    ("Fen = fen", "Fen = fen\nMarsh = msh", 13, "MSH is named but has no terrain line"),
    ("Fen = fen", "Fen = fen\nFen = grn\nLAND GRN", 13, "the name 'Fen' is also FEN's"),
    ("Fen = fen", "Fen = ", 12, "a place line is `Full Name = abbreviation alias...`"),
    ("Fen = fen", "Fen = ../etc", 12, "'../etc' is not a place's abbreviation"),
    ("  F BAY", "  F FEN", 32, "the unit F FEN cannot stand there"),
    ("  A ALP", "  A BAY", 33, "a second unit in BAY"),
    ("  A ALP", "  A CAP/NC", 33, "the unit A CAP/NC cannot stand there"),
    (
        "RED (REDDISH:R) BAY ALP",
        "  A ALP\nRED (REDDISH:R) BAY ALP",
        31,
        "a unit before the power it belongs to",
    ),
    ("BLUE (BLUISH:U) HAV", "BLUE (BLUISH:R) HAV", 36, "BLUE and RED have one initial"),
    (
        "BLUE (BLUISH:U) HAV",
        "BLUE (BLUISH:U) HAV XYZ",
        36,
        "the supply centre XYZ is no province of the map",
    ),
    (
        "UNOWNED CAP ELM",
        "UNOWNED CAP ELM GAP",
        38,
        "the supply centre GAP is no province of the map",
    ),
    (
        "UNOWNED CAP ELM",
        "UNOWNED CAP ELM\nGREEN\nOWNS BAY",
        40,
        "BAY is a starting centre of RED too",
    ),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "BEGIN WINTER 2000 ADJUSTMENTS",
        40,
        "a game that begins other than in Spring movement",
    ),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "BEGIN SPRING MMI MOVEMENT",
        40,
        "BEGIN is `BEGIN SPRING year MOVEMENT`",
    ),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "VICTORY 3 4",
        40,
        "a victory count that changes by year is not supported",
    ),
    ("BEGIN SPRING 2001 MOVEMENT", "VICTORY many", 40, "VICTORY takes a number of centres"),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "RULE BUILD_ANY PAYOLA",
        40,
        "the rule 'PAYOLA' is not supported",
    ),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "USES standard.geography",
        40,
        "standard.geography: cannot read the file: No such file or directory",
    ),
    ("BEGIN SPRING 2001 MOVEMENT", "USE ../tri", 40, "'../tri': name a file beside this one"),
    ("BEGIN SPRING 2001 MOVEMENT", "UNPLAYED RED, PINK", 40, "UNPLAYED: no power PINK"),
    (
        "UNOWNED CAP ELM",
        "UNOWNED CAP ELM -BAY",
        31,
        "BAY is a centre here, but `UNOWNED -BAY` says not",
    ),
    (
        "COAST CAP/SC ABUTS SOS ELM HAV",
        "PORT CAP/SC ABUTS SOS ELM HAV",
        20,
        "PORT CAP/SC: a port is one coast, upper case",
    ),
    (
        "COAST cap ABUTS bay dun elm hav alp",
        "PORT cap ABUTS bay dun elm hav alp",
        21,
        "PORT CAP: a port is one coast, upper case",
    ),
    ("BEGIN SPRING 2001 MOVEMENT", "DUMMY RED PINK", 40, "DUMMY: no power PINK"),
    ("BEGIN SPRING 2001 MOVEMENT", "DUMMIES", 40, "DUMMIES takes the powers, or ALL"),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "DUMMY ALL BUT RED",
        40,
        "DUMMY ALL EXCEPT takes the powers not made dummies",
    ),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "DUMMY ALL EXCEPT",
        40,
        "DUMMY ALL EXCEPT takes the powers not made dummies",
    ),
    (
        "# Powers, their home centres and units.",
        "DUMMY",
        30,
        "DUMMY before the power it belongs to",
    ),
    ("BEGIN SPRING 2001 MOVEMENT", "VICTROY", 40, "VICTROY: a power with no centres and no units"),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "FLOW? (what) is $this",
        40,
        "not a line of a map file: 'FLOW? (what) is $this'",
    ),
    (
        "BEGIN SPRING 2001 MOVEMENT",
        "UNITS everywhere",
        40,
        "UNITS takes nothing: the units follow one a line",
    ),
    ("BEGIN SPRING 2001 MOVEMENT", "Bad\x07 = bel", 40, "the line has control characters"),
]


@pytest.mark.parametrize(("old", "new", "line", "reason"), MALFORMED)
def test_a_malformed_file_is_refused_with_its_line_and_nothing_is_written(
    capsys, tmp_path: Path, folder: Path, old: str, new: str, line: int, reason: str
) -> None:
    assert old in TRI
    source = tmp_path / "bad.map"
    source.write_text(TRI.replace(old, new, 1))
    status, out, err = _import(capsys, source, folder)
    assert (status, out) == (1, [])
    assert err == f"judge: {source}: line {line}: {reason}\n"
    assert list(folder.iterdir()) == []


def test_a_huge_file_a_huge_line_and_bytes_not_utf8_are_refused(
    capsys, tmp_path: Path, folder: Path
) -> None:
    source = tmp_path / "big.map"
    source.write_text(TRI + ("# padding\n" * (MAX_FILE_BYTES // 10)))
    status, out, err = _import(capsys, source, folder)
    assert (status, err) == (1, f"judge: {source}: the file is over {MAX_FILE_BYTES} bytes\n")
    source.write_text(TRI + "Fen = fen " + "x" * 100_000 + "\n")
    status, out, err = _import(capsys, source, folder)
    assert (status, err) == (
        1,
        f"judge: {source}: line 41: the line is over {MAX_LINE_CHARS} characters\n",
    )
    source.write_bytes(TRI.encode() + b"Caf\xe9 = caf\n")
    status, out, err = _import(capsys, source, folder)
    assert (status, err) == (1, f"judge: {source}: line 41: not UTF-8 text\n")
    status, out, err = _import(capsys, tmp_path / "nowhere.map", folder)
    assert (status, err) == (
        1,
        f"judge: {tmp_path / 'nowhere.map'}: cannot read the file: No such file or directory\n",
    )
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../evil", "--name '../evil': letters, digits, - and _ (at most 100)"),
        ("/etc/passwd", "--name '/etc/passwd': letters, digits, - and _ (at most 100)"),
        ("tri_drawing", "--name 'tri_drawing': letters, digits, - and _ (at most 100)"),
        ("x" * 101, f"--name '{'x' * 100}': letters, digits, - and _ (at most 100)"),
        ("standard", "standard is a bundled map: choose another name"),
    ],
)
def test_a_name_outside_the_folder_or_of_a_bundled_map_is_refused(
    capsys, tmp_path: Path, folder: Path, name: str, reason: str
) -> None:
    status, out, err = _import(capsys, SOURCES / "tri.map", folder, name)
    assert (status, out, err) == (1, [], f"judge: {reason}\n")
    assert list(folder.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == [
        "operator-maps"
    ]


def test_an_imported_map_is_replaced_only_with_force(capsys, folder: Path) -> None:
    assert _import(capsys, SOURCES / "tri.map", folder)[0] == 0
    before = (folder / "tri.toml").read_text()
    status, out, err = _import(capsys, SOURCES / "isle.map", folder)
    assert (status, err) == (1, f"judge: {folder / 'tri.toml'} exists: --force to replace it\n")
    assert (folder / "tri.toml").read_text() == before
    status, out, err = _import(capsys, SOURCES / "isle.map", folder, "tri", "--force")
    assert status == 0 and 'initial = "N"' in (folder / "tri.toml").read_text()
    assert sorted(p.name for p in folder.iterdir()) == ["tri.toml"]  # no temporary file left
    umask = os.umask(0)
    os.umask(umask)
    assert (folder / "tri.toml").stat().st_mode & 0o777 == 0o666 & ~umask  # readable as usual


def test_a_folder_in_the_way_is_refused_and_left_alone(capsys, folder: Path) -> None:
    (folder / "tri.toml").mkdir()
    status, out, err = _import(capsys, SOURCES / "tri.map", folder, "tri", "--force")
    assert (status, out) == (1, [])
    assert err == f"judge: cannot write {folder / 'tri.toml'}: Is a directory\n"
    assert sorted(p.name for p in folder.iterdir()) == ["tri.toml"]  # no temporary file left
    assert (folder / "tri.toml").is_dir()


def test_the_folder_is_the_configurations_unless_given(capsys, tmp_path: Path) -> None:
    config = write_config(tmp_path)
    argv = ["--config", str(config), "import-map", str(SOURCES / "tri.map")]
    status, out, err = run(capsys, *argv, "--format", "dpjudge", "--name", "tri")
    assert (status, err) == (
        1,
        "judge: no map folder: give --maps DIR or set judge.maps in the configuration\n",
    )
    config = write_config(tmp_path, 'maps = "my-maps"\n')
    status, out, err = run(capsys, *argv, "--format", "dpjudge", "--name", "tri")
    assert (status, err) == (1, f"judge: the map folder {tmp_path / 'my-maps'} is no folder\n")
    (tmp_path / "my-maps").mkdir()
    status, out, err = run(capsys, *argv, "--format", "dpjudge", "--name", "tri")
    assert status == 0 and (tmp_path / "my-maps" / "tri.toml").is_file()
    maps.use_operator_folder(None)


def _package_maps() -> Path:
    """The map files of the `diplomacy` package (a test dependency), found without
    importing it."""
    spec = importlib.util.find_spec("diplomacy")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "maps"


def test_the_diplomacy_packages_standard_map_is_the_bundled_standard_board(
    capsys, folder: Path
) -> None:
    assert _import(capsys, _package_maps() / "standard.map", folder, "mila")[0] == 0
    maps.use_operator_folder(folder)
    mila, ours = maps.load_map("mila"), maps.load_map("standard")
    assert mila.army_moves == ours.army_moves and mila.fleet_moves == ours.fleet_moves
    assert {k: (p.kind, p.supply_center, p.coasts) for k, p in mila.provinces.items()} == {
        k: (p.kind, p.supply_center, p.coasts) for k, p in ours.provinces.items()
    }
    for key, power in ours.powers.items():
        theirs = mila.powers[key]
        assert (theirs.name, theirs.adjective, theirs.initial) == (
            power.name,
            power.adjective,
            power.initial,
        )
        assert sorted(theirs.units) == sorted(power.units)
        assert theirs.home_centers == power.home_centers
    assert (mila.victory_centers, mila.first_year) == (18, 1901)


# What each map file of the package gives: the map written, or the file and line refused.
WRITTEN = "{} provinces, {} powers, {} supply centres, {} to win, first year {}"
PACKAGE_MAPS = {
    "standard": WRITTEN.format(76, 7, 34, 18, 1901),
    "pure": WRITTEN.format(7, 7, 7, 4, 1901),
    "modern": WRITTEN.format(141, 10, 64, 33, 1994),
    "empire": WRITTEN.format(161, 10, 58, 30, 1999),
    "world": WRITTEN.format(192, 17, 86, 44, 2000),
    "colonial": WRITTEN.format(119, 7, 58, 30, 1870),
    # variants that read standard.map (MAP standard.map) and change its powers
    "standard_age_of_empires": WRITTEN.format(76, 7, 34, 18, 1901),
    "standard_age_of_empires_2": WRITTEN.format(76, 7, 34, 18, 1901),
    "standard_fleet_rome": WRITTEN.format(76, 7, 34, 18, 1901),
    "standard_france_austria": WRITTEN.format(76, 2, 34, 18, 1901),
    "standard_germany_italy": WRITTEN.format(76, 2, 34, 18, 1901),
    # ancmed's Baleares (BAL) is a PORT: a coast whose fleet convoys
    "ancmed": WRITTEN.format(79, 5, 34, 18, 1),
    "ancmed_age_of_empires": WRITTEN.format(79, 5, 34, 18, 1),
    # its NEUTRAL-STATE is a DUMMY power: a neutral power here
    "known_world_901": WRITTEN.format(269, 16, 109, 55, 901),
}


def test_every_map_file_of_the_package_is_listed() -> None:
    assert sorted(p.stem for p in _package_maps().glob("*.map")) == sorted(PACKAGE_MAPS)


@pytest.mark.parametrize(("stem", "said"), sorted(PACKAGE_MAPS.items()))
def test_each_map_of_the_diplomacy_package_imports_whole(
    capsys, folder: Path, stem: str, said: str
) -> None:
    source = _package_maps() / f"{stem}.map"
    name = "mila-" + stem.replace("_", "-")
    status, out, err = _import(capsys, source, folder, name)
    assert (status, out, err) == (0, [f"wrote {folder / name}.toml: {said}"], "")


def test_a_port_is_a_coast_whose_fleet_convoys(capsys, folder: Path) -> None:
    assert _import(capsys, _package_maps() / "ancmed.map", folder, "mila-ancmed")[0] == 0
    maps.use_operator_folder(folder)
    gm = maps.load_map("mila-ancmed")
    bal = gm.provinces["BAL"]
    assert (bal.kind, bal.supply_center, bal.coasts) == ("coast", True, ())
    assert gm.army_moves["BAL"] == set()  # `Tar Sag`: no army moves to or from it
    assert gm.fleet_moves["BAL"] == {"BER", "LIG", "SAG", "TAR"}
    assert bal.port and gm.convoys_at("BAL") and not gm.is_sea("BAL")
    assert gm.sea_neighbours("BAL") == {"BER", "LIG", "SAG", "TAR"}


@pytest.mark.parametrize(
    ("lines", "neutral"),
    [
        ("DUMMY BLUE", ["BLUE"]),
        ("DUMMIES GREEN, BLUE", ["GREEN", "BLUE"]),
        ("DUMMY ALL EXCEPT RED", ["GREEN", "BLUE"]),
        ("DUMMIES ALL\nUNPLAYED GREEN", ["RED", "BLUE"]),
        ("BLUE\nDUMMY\nDUMMY BLUE", ["BLUE"]),
    ],
)
def test_the_dummy_lines_of_dpjudge(
    capsys, tmp_path: Path, folder: Path, lines: str, neutral: list[str]
) -> None:
    source = tmp_path / "dummies.map"
    source.write_text(TRI + lines + "\n")
    assert _import(capsys, source, folder)[:3:2] == (0, "")
    assert _toml(folder / "tri.toml")["neutral_powers"] == neutral


def test_an_army_is_convoyed_through_a_port_as_the_diplomacy_package_convoys_it(
    capsys, folder: Path
) -> None:
    """ancmed: Rome's army in Tarraconensis convoyed by its fleets in Baleares (a PORT)
    and the sea BER to Carthage, which Carthage's army leaves."""
    from diplomacy import Game

    from judge.variants.json_contract import adjudicate_line

    assert _import(capsys, _package_maps() / "ancmed.map", folder, "mila-ancmed")[0] == 0
    maps.use_operator_folder(folder)
    game = Game(map_name="ancmed")
    game.clear_units()
    game.set_units("ROME", ["A TAR", "F BAL", "F BER"])
    game.set_units("CARTHAGE", ["A CAR"])
    convoys = ["F BAL C A TAR - CAR", "F BER C A TAR - CAR"]
    game.set_orders("ROME", ["A TAR - CAR VIA", *convoys])
    game.set_orders("CARTHAGE", ["A CAR - THA"])
    line = {
        "map": "mila-ancmed",
        "phase": game.get_current_phase(),
        "units": {p: list(pw.units) for p, pw in game.powers.items() if pw.units},
        "centers": {p: list(pw.centers) for p, pw in game.powers.items() if pw.centers},
        "orders": {"ROME": ["A TAR - CAR", *convoys], "CARTHAGE": ["A CAR - THA"]},
    }
    outcome = adjudicate_line(json.dumps(line))
    game.process()
    assert outcome["results"]["ROME"][0] == {
        "order": "A TAR - CAR",
        "given": "A TAR - CAR",
        "result": "ok",
    }
    assert outcome["units"] == {"CARTHAGE": ["A THA"], "ROME": ["A CAR", "F BAL", "F BER"]}
    assert {p: sorted(u) for p, u in outcome["units"].items()} == {
        p: sorted(pw.units) for p, pw in game.powers.items() if pw.units
    }


def test_a_dummy_power_is_a_neutral_power(capsys, folder: Path) -> None:
    """known_world_901's NEUTRAL-STATE (`DUMMY` after its line): no player controls it,
    its units hold."""
    name = "mila-known-world-901"
    assert _import(capsys, _package_maps() / "known_world_901.map", folder, name)[0] == 0
    maps.use_operator_folder(folder)
    gm = maps.load_map(name)
    assert gm.neutral_powers == {"NEUTRAL-STATE"}
    neutral = gm.powers["NEUTRAL-STATE"]
    assert (neutral.name, neutral.adjective, neutral.initial) == ("Neutral-state", "Neutral", "N")
    assert len(neutral.units) == 49 and gm.players() == tuple(
        (p,) for p in gm.powers if p != "NEUTRAL-STATE"
    )


def _orders(game, step: int) -> dict[str, list[str]]:
    """Orders for every power of the package's `game`: for each unit or site, one of its
    possible orders picked by a fixed rule (no convoys, no waived builds: the two
    programs read those differently, which is not the map's doing)."""
    possible = game.get_all_possible_orders()
    orders = {}
    for power in game.powers:
        chosen = []
        for i, location in enumerate(sorted(game.get_orderable_locations(power))):
            options = sorted(o for o in possible[location] if " VIA" not in o and " C " not in o)
            options = [o for o in options if o != "WAIVE"]
            if options:
                chosen.append(options[(i * 7 + step * 3) % len(options)])
        orders[power] = chosen
    return orders


@pytest.mark.parametrize("stem", ["standard", "modern", "standard_fleet_rome", "ancmed"])
def test_an_imported_map_plays_as_the_diplomacy_package_plays_it(
    capsys, folder: Path, stem: str
) -> None:
    from diplomacy import Game

    from judge.variants.json_contract import adjudicate_line

    assert _import(capsys, _package_maps() / f"{stem}.map", folder, f"mila-{stem}")[0] == 0
    maps.use_operator_folder(folder)
    game = Game(map_name=stem)
    for step in range(18):  # some six years: movement, retreats (F1906R, S1998R), builds
        line = {
            "map": f"mila-{stem}",
            "phase": game.get_current_phase(),
            "units": {p: list(pw.units) for p, pw in game.powers.items() if pw.units},
            "centers": {p: list(pw.centers) for p, pw in game.powers.items() if pw.centers},
            "retreats": {p: pw.retreats for p, pw in game.powers.items() if pw.retreats},
            "orders": _orders(game, step),
        }
        for power, orders in line["orders"].items():
            game.set_orders(power, orders)
        outcome = adjudicate_line(json.dumps(line))
        game.process()
        assert outcome["next_phase"] == game.get_current_phase()  # ancmed's F0001M too
        assert {p: sorted(u) for p, u in outcome["units"].items() if u} == {
            p: sorted(pw.units) for p, pw in game.powers.items() if pw.units
        }
        assert {p: sorted(c) for p, c in outcome["centers"].items() if c} == {
            p: sorted(pw.centers) for p, pw in game.powers.items() if pw.centers
        }
