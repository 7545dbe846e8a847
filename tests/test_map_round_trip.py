"""`judge export-map NAME --format dpjudge|njudge [--maps DIR] [-o FILE]` (issue 19): a
map written back in the format it was imported from, and imported again, is the same
map; a team-written file is imported, played for a year by `judge adjudicate`, exported
and imported again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import run

from judge.engine.geography import GameMap
from judge.variants import maps

SOURCES = Path(__file__).parent / "maps_import"
# The fields of a GameMap that say what the map is (its name and title aside).
FIELDS = (
    "first_year",
    "victory_centers",
    "powers",
    "provinces",
    "army_moves",
    "fleet_moves",
    "names",
    "power_names",
    "spellings",
    "supply_centers",
    "build_anywhere",
    "player_groups",
    "victory_by_player",
    "neutral_powers",
    "neutral_until",
    "closed_provinces",
)


@pytest.fixture
def folder(map_folder: Path) -> Path:
    """An empty operator's map folder (conftest's map_folder)."""
    return map_folder


def _differences(a: GameMap, b: GameMap, fields: tuple[str, ...] = FIELDS) -> list[str]:
    """The fields in which maps `a` and `b` differ."""

    def plain(value: object) -> object:
        return dict(value) if hasattr(value, "items") else value

    return [f for f in fields if plain(getattr(a, f)) != plain(getattr(b, f))]


def _load(folder: Path, name: str) -> GameMap:
    maps.use_operator_folder(folder)
    return maps.load_map(name)


def _adjudicate(folder: Path, line: dict) -> dict:
    """One phase by `judge adjudicate --maps folder` (Contract 1), in its own process."""
    proc = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate", "--maps", str(folder)],
        input=json.dumps(line) + "\n",
        capture_output=True,
        text=True,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    return json.loads(proc.stdout)


def _play_a_year(folder: Path) -> None:
    """The imported tri map played from S2001M to the W2001A builds: Red takes Cape
    and builds in Alpine."""
    position = {
        "units": {"RED": ["F BAY", "A ALP"], "GREEN": ["F DUN"], "BLUE": ["F HAV"]},
        "centers": {"RED": ["BAY", "ALP"], "GREEN": ["DUN"], "BLUE": ["HAV"]},
    }
    orders = {
        "S2001M": {"RED": ["A ALP - CAP"], "GREEN": ["F DUN - NOS"], "BLUE": ["F HAV H"]},
        "F2001M": {"RED": ["F BAY H"], "GREEN": ["F NOS - DUN"], "BLUE": ["F HAV - SOS"]},
        "W2001A": {"RED": ["A ALP B"]},
    }
    for phase, given in orders.items():
        outcome = _adjudicate(folder, {"map": "tri", "phase": phase, **position, "orders": given})
        assert outcome["next_phase"] == {"S2001M": "F2001M", "F2001M": "W2001A"}.get(
            phase, "S2002M"
        )
        position = {"units": outcome["units"], "centers": outcome["centers"]}
    assert position == {
        "units": {"BLUE": ["F SOS"], "GREEN": ["F DUN"], "RED": ["A ALP", "A CAP", "F BAY"]},
        "centers": {"BLUE": ["HAV"], "GREEN": ["DUN"], "RED": ["ALP", "BAY", "CAP"]},
    }


def test_a_dpjudge_map_imported_played_and_exported_imports_as_the_same_map(
    capsys, tmp_path: Path, folder: Path
) -> None:
    source = SOURCES / "dpjudge" / "tri.map"
    common = ("--format", "dpjudge", "--maps", str(folder))
    assert run(capsys, "import-map", str(source), "--name", "tri", *common)[0] == 0
    _play_a_year(folder)
    exported = tmp_path / "tri-out.map"
    status, out, err = run(capsys, "export-map", "tri", *common, "-o", str(exported))
    assert (status, out, err) == (0, [f"wrote {exported}"], "")
    assert run(capsys, "import-map", str(exported), "--name", "tri2", *common)[0] == 0
    assert _differences(_load(folder, "tri"), _load(folder, "tri2")) == []


def test_an_njudge_map_imported_played_and_exported_imports_as_the_same_map(
    capsys, tmp_path: Path, folder: Path
) -> None:
    powers = ("--powers", "R=Red:Reddish,G=Green:Greenish,U=Blue:Bluish")
    common = ("--format", "njudge", "--maps", str(folder))
    source = SOURCES / "njudge" / "map.tri"
    assert run(capsys, "import-map", str(source), "--name", "tri", *common, *powers)[0] == 0
    _play_a_year(folder)
    exported = tmp_path / "map.again"
    status, out, err = run(capsys, "export-map", "tri", *common, "-o", str(exported))
    assert (status, out) == (0, [f"wrote {exported} and {tmp_path / 'seed.again'}"])
    assert err == (
        "judge: warning: njudge's map files do not name the powers: import with --powers "
        "R=Red:Reddish,G=Green:Greenish,U=Blue:Bluish\n"
    )
    assert run(capsys, "import-map", str(exported), "--name", "tri2", *common, *powers)[0] == 0
    assert _differences(_load(folder, "tri"), _load(folder, "tri2")) == []


# What DPjudge's format cannot state of the standard map: said when it is exported.
STANDARD_WARNINGS = [
    "the powers' aliases are not written",
    "the provinces' sort names are not written",
    "the default coasts are not written",
]


def test_the_standard_map_exported_to_dpjudge_imports_as_the_standard_map(
    capsys, tmp_path: Path, folder: Path
) -> None:
    exported = tmp_path / "standard.map"
    status, out, err = run(
        capsys, "export-map", "standard", "--format", "dpjudge", "-o", str(exported)
    )
    assert (status, out) == (0, [f"wrote {exported}"])
    assert err == "".join(f"judge: warning: {w}\n" for w in STANDARD_WARNINGS)
    status, out, err = run(
        capsys, "import-map", str(exported), "--format", "dpjudge", "--name", "std",
        "--maps", str(folder),
    )  # fmt: skip
    assert (status, err) == (0, "")
    standard, again = maps.load_map("standard"), _load(folder, "std")
    kept = tuple(f for f in FIELDS if f not in ("provinces", "power_names", "spellings"))
    assert _differences(standard, again, kept) == []
    assert {k: (p.name, p.kind, p.supply_center, p.coasts) for k, p in again.provinces.items()} == {
        k: (p.name, p.kind, p.supply_center, p.coasts) for k, p in standard.provinces.items()
    }
    # the powers keep their keys, names and adjectives, not their aliases (AUS, Britain)
    assert set(again.power_names.items()) < set(standard.power_names.items())
    assert "britain" not in again.power_names


def test_the_dpjudge_file_is_written_to_standard_output_without_o(capsys) -> None:
    status, out, err = run(capsys, "export-map", "duel", "--format", "dpjudge")
    assert (status, err) == (0, "judge: warning: the powers' aliases are not written\n")
    assert out[0] == "# duel: written by judge export-map"
    assert "ORANGE (Orange:O) OHA OPO ORI" in out and "VICTORY 5" in out
    assert out[-1] == "BEGIN SPRING 1901 MOVEMENT"


def test_what_a_format_cannot_write_is_refused(capsys, tmp_path: Path) -> None:
    output = str(tmp_path / "map.duel")
    status, out, err = run(capsys, "export-map", "duel", "--format", "njudge", "-o", output)
    assert (status, out) == (1, [])
    assert err == "judge: ORANGE: the initial 'O' is not an njudge letter\n"
    assert list(tmp_path.iterdir()) == []
    status, out, err = run(capsys, "export-map", "nowhere", "--format", "dpjudge")
    assert (status, out, err) == (1, [], "judge: unknown map 'nowhere'\n")
    status, out, err = run(capsys, "export-map", "x" * 5000, "--format", "dpjudge")
    assert (status, out, err) == (1, [], f"judge: unknown map {'x' * 100!r}\n")
    missing = tmp_path / "no-such-folder" / "out.map"
    status, out, err = run(
        capsys, "export-map", "archipelago", "--format", "dpjudge", "-o", str(missing)
    )
    assert (status, out) == (1, [])
    assert err == (
        "judge: warning: the default coasts are not written\n"
        f"judge: cannot write {missing}: No such file or directory\n"
    )


def _package_maps() -> Path:
    """The map files of the `diplomacy` package (a test dependency)."""
    import importlib.util

    spec = importlib.util.find_spec("diplomacy")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "maps"


@pytest.mark.parametrize("stem", ["ancmed", "known_world_901", "modern", "world"])
def test_a_map_of_the_diplomacy_package_survives_export_and_import(
    capsys, tmp_path: Path, folder: Path, stem: str
) -> None:
    """ancmed begins in year 1; known_world_901 has a dummy (neutral) power."""
    common = ("--format", "dpjudge", "--maps", str(folder))
    source = _package_maps() / f"{stem}.map"
    assert run(capsys, "import-map", str(source), "--name", "first", *common)[0] == 0
    exported = tmp_path / "again.map"
    status, out, err = run(capsys, "export-map", "first", *common, "-o", str(exported))
    assert (status, err) == (0, "")
    assert run(capsys, "import-map", str(exported), "--name", "again", *common)[:3:2] == (0, "")
    assert _differences(_load(folder, "first"), _load(folder, "again")) == []
