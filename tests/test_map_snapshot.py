"""The bundled standard map kept as JSON (judge/variants/map_snapshot.py): the same data
as its TOML file, taken only when the file is byte for byte the one it was made from.
UPDATE_SNAPSHOTS=1 writes the module again from maps/standard.toml."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from judge.variants import map_snapshot, maps

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "judge" / "variants" / "map_snapshot.py"
KEPT = ("standard",)  # the maps kept: the one nearly every line of `judge adjudicate` names

HEADER = '''"""Generated: do not edit. The bundled standard map's TOML text and its data as JSON
text, so that `judge adjudicate` reads the map without the TOML parser (2% of a run's
instructions, import included). maps._map_data takes DATA only for a file whose text is
SOURCE exactly; any other reads the TOML. tests/test_map_snapshot.py checks both against
maps/; UPDATE_SNAPSHOTS=1 writes this module again."""

# ruff: noqa: E501
'''


def _literal(text: str) -> str:
    """`text` as a Python string literal, one line of the text to a line."""
    lines = text.splitlines(keepends=True)
    return "(\n" + "".join(f"        {json.dumps(line)}\n" for line in lines) + "    )"


def _module_text() -> str:
    sources, data = [], []
    for name in KEPT:
        raw = (maps.MAPS_DIR / f"{name}.toml").read_bytes()
        parsed = tomllib.loads(raw.decode())
        assert json.loads(json.dumps(parsed)) == parsed  # JSON holds all of it
        sources.append(f"    {json.dumps(name)}: {_literal(raw.decode())},\n")
        data.append(f"    {json.dumps(name)}: {_literal(json.dumps(parsed, indent=1))},\n")
    return (
        f"{HEADER}\nSOURCE: dict[str, str] = {{\n{''.join(sources)}}}\n"
        f"DATA: dict[str, str] = {{\n{''.join(data)}}}\n"
    )


def test_the_snapshot_is_the_bundled_files_data() -> None:
    if os.environ.get("UPDATE_SNAPSHOTS"):
        MODULE.write_text(_module_text())
    assert set(map_snapshot.SOURCE) == set(map_snapshot.DATA) == set(KEPT)
    for name in KEPT:
        raw = (maps.MAPS_DIR / f"{name}.toml").read_bytes()
        assert map_snapshot.SOURCE[name] == raw.decode()
        assert json.loads(map_snapshot.DATA[name]) == tomllib.loads(raw.decode())


def test_the_kept_data_is_taken_for_the_same_text_only() -> None:
    raw = (maps.MAPS_DIR / "standard.toml").read_bytes()
    kept = maps.kept_data(raw)
    assert kept == tomllib.loads(raw.decode())
    assert kept is not maps.kept_data(raw)  # a fresh copy each time: callers may change it
    assert maps.kept_data(raw + b"\n") is None
    assert maps.kept_data(raw.replace(b"Vienna", b"Wien", 1)) is None
    assert maps.kept_data(b"") is None


def test_a_changed_standard_map_in_the_operators_folder_is_read_from_its_toml(
    tmp_path: Path,
) -> None:
    text = (maps.MAPS_DIR / "standard.toml").read_text().replace('"Vienna"', '"Wien"', 1)
    assert '"Wien"' in text
    (tmp_path / "standard.toml").write_text(text)
    maps.use_operator_folder(tmp_path)
    try:
        assert maps.load_map("standard").provinces["VIE"].name == "Wien"
    finally:
        maps.use_operator_folder(None)
    assert maps.load_map("standard").provinces["VIE"].name == "Vienna"


@pytest.mark.parametrize("name", ["standard", "standard-1898", "chaos"])
def test_a_map_read_by_its_snapshot_is_the_map_read_from_toml(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = maps._map_data(name, ())
    monkeypatch.setattr(maps, "kept_data", lambda raw: None)  # every file read as TOML
    assert maps._map_data(name, ()) == taken
