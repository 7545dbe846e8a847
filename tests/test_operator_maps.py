"""The operator's map folder (issue 19, part 3): configuration `judge.maps` and `--maps DIR`
on `judge adjudicate` and `judge run`, searched before the bundled maps/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import Judge

from judge.config import load_config
from judge.engine.geography import MapError
from judge.variants import maps

# A variant of the operator's: the standard board where a power builds in any supply
# centre it owns (so a build in Spain, which no bundled standard game allows, is legal).
FORTRESS = 'base = "standard"\ntitle = "Fortress"\nbuild_anywhere = true\n'
# Winter 1901: France owns Spain and may build one unit.
BUILD_IN_SPAIN = {
    "map": "fortress",
    "phase": "W1901A",
    "units": {"FRANCE": ["A BUR", "A MAR", "F MAO"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR", "SPA"]},
    "orders": {"FRANCE": ["Build A Spa"]},
}


@pytest.fixture
def folder(map_folder: Path) -> Path:
    """An operator's map folder (conftest's map_folder) with the Fortress variant."""
    (map_folder / "fortress.toml").write_text(FORTRESS)
    return map_folder


def _adjudicate(*argv: str, line: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate", *argv],
        input=line + "\n",
        capture_output=True,
        text=True,
    )


def test_adjudicate_reads_a_map_of_the_operators_folder(folder: Path) -> None:
    proc = _adjudicate("--maps", str(folder), line=json.dumps(BUILD_IN_SPAIN))
    assert proc.returncode == 0 and proc.stderr == ""
    outcome = json.loads(proc.stdout)
    assert outcome["results"] == {
        "FRANCE": [{"order": "A SPA B", "given": "Build A Spa", "result": "ok"}]
    }
    assert outcome["units"] == {"FRANCE": ["A BUR", "A MAR", "A SPA", "F MAO"]}
    assert outcome["next_phase"] == "S1902M"


def test_without_the_folder_the_map_is_unknown_and_a_missing_folder_is_refused(
    folder: Path,
) -> None:
    proc = _adjudicate(line=json.dumps(BUILD_IN_SPAIN))
    assert json.loads(proc.stdout) == {"error": "unknown map 'fortress'"}
    proc = _adjudicate("--maps", str(folder / "nowhere"), line=json.dumps(BUILD_IN_SPAIN))
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"--maps {folder / 'nowhere'}: no such folder" in proc.stderr


def test_the_operators_folder_comes_first_and_bundled_bases_still_serve(folder: Path) -> None:
    (folder / "standard-6.toml").write_text(
        'base = "standard"\ntitle = "The operator\'s own six"\n'
    )
    maps.use_operator_folder(folder)
    assert maps.load_map("fortress").title == "Fortress"
    assert maps.load_map("fortress").base == "standard"  # a bundled map as its base
    assert maps.load_map("standard-6").title == "The operator's own six"
    assert "fortress" in maps.map_names() and "standard-1898" in maps.map_names()
    maps.use_operator_folder(None)
    assert maps.load_map("standard-6").title != "The operator's own six"
    with pytest.raises(MapError, match="unknown map 'fortress'"):
        maps.load_map("fortress")


def test_create_by_mail_uses_the_folder_and_an_unknown_variant_lists_its_maps(
    tmp_path: Path, folder: Path
) -> None:
    maps.use_operator_folder(folder)
    judge = Judge(tmp_path)
    [ack] = judge.send("gm@example.org", "CREATE ?fort masterpw fortress")
    assert "Fortress" in ack.body and judge.game("fort").variant == "fortress"
    [ack] = judge.send("gm@example.org", "CREATE ?other masterpw nosuch")
    assert "fortress" in ack.body and "standard-1898" in ack.body
    [listing] = judge.send("x@example.org", "LIST")  # LIST names them too
    assert "  Variants for CREATE ?name password variant:\n    archipelago, chaos" in listing.body
    assert " fleet_rome, fortress, standard," in " ".join(listing.body.split("\n"))


def test_the_configuration_names_the_folder_relative_to_its_file(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, 'maps = "my-maps"\n'))
    assert config.maps == tmp_path / "my-maps"
    assert load_config(write_config(tmp_path)).maps is None


def test_judge_run_refuses_a_map_folder_that_is_not_there(tmp_path: Path, capsys) -> None:
    path = write_config(tmp_path, 'maps = "my-maps"\n')
    status, out, err = run(capsys, "--config", str(path), "run", "--once")
    assert status == 2
    assert err == f"judge: the map folder {tmp_path / 'my-maps'} is no folder\n"
    (tmp_path / "my-maps").mkdir()
    (tmp_path / "my-maps" / "fortress.toml").write_text(FORTRESS)
    status, out, err = run(capsys, "--config", str(path), "run", "--once")
    assert status == 0
    assert maps.load_map("fortress").title == "Fortress"  # run set the folder
    maps.use_operator_folder(None)
