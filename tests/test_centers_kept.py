"""judge adjudicate reads a line's `centers` again only when they differ from the last
line's (json_contract._centers_from_json keeps the last line's, one entry): a line in
a game's order gives the same centres three times in four."""

from __future__ import annotations

from typing import Any

import pytest

from judge.variants import json_contract
from judge.variants.json_contract import adjudicate_line, position_from_json
from judge.variants.maps import load_map

CENTERS = {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]}


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The `centers` values read in full, in order (the last line's forgotten first)."""
    monkeypatch.setattr(
        json_contract, "_last_centers", json_contract._LastCenters(None, None, [], {})
    )
    seen: list[Any] = []
    read = json_contract._read_centers

    def counted(gm: Any, value: Any) -> dict[str, frozenset[str]]:
        seen.append(value)
        return read(gm, value)

    monkeypatch.setattr(json_contract, "_read_centers", counted)
    return seen


def _centers(value: Any, map_name: str = "standard") -> dict[str, frozenset[str]]:
    position, _, _ = position_from_json({"map": map_name, "phase": "S1901M", "centers": value})
    return dict(position.centers)


def test_the_same_centres_are_read_once(reads: list[Any]) -> None:
    first = _centers(CENTERS)
    assert first == {
        "FRANCE": frozenset({"BRE", "MAR", "PAR"}),
        "GERMANY": frozenset({"BER", "KIE", "MUN"}),
    }
    assert _centers({p: list(cs) for p, cs in CENTERS.items()}) == first  # equal, not the same
    assert reads == [CENTERS]


@pytest.mark.parametrize(
    "other",
    [
        {"FRANCE": ["MAR", "BRE", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},  # another order
        {"GERMANY": ["BER", "KIE", "MUN"], "FRANCE": ["BRE", "MAR", "PAR"]},  # powers' order
        {**CENTERS, "ITALY": ["ROM"]},  # a power more
        {"FRANCE": ["BRE", "MAR", "PAR"]},  # a power less
        {"france": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},  # a key's case
        {"FRANCE": ["BRE", "MAR", "PAR", "SPA"], "GERMANY": ["BER", "KIE", "MUN"]},
    ],
)
def test_any_difference_is_read_in_full(reads: list[Any], other: dict[str, Any]) -> None:
    _centers(CENTERS)
    expected = {p.upper(): frozenset(cs) for p, cs in other.items()}
    assert _centers(other) == expected
    assert reads == [CENTERS, other]


def test_another_map_is_read_in_full(reads: list[Any]) -> None:
    _centers(CENTERS)
    assert _centers(CENTERS, "standard-1898") == _centers(CENTERS)
    assert reads == [CENTERS, CENTERS, CENTERS]
    assert json_contract._last_centers.gm is load_map("standard")


def test_centres_read_with_an_error_are_not_kept(reads: list[Any]) -> None:
    bad = {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}
    line = '{"phase": "S1901M", "centers": {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}}'
    error = {"error": "PAR is owned by both FRANCE and GERMANY"}
    assert adjudicate_line(line) == error
    assert adjudicate_line(line) == error
    assert reads == [bad, bad]


def test_each_line_gets_a_dict_of_its_own(reads: list[Any]) -> None:
    first = _centers(CENTERS)
    position, _, _ = position_from_json({"phase": "S1901M", "centers": CENTERS})
    assert position.centers == first and position.centers is not json_contract._last_centers.centers
    assert reads == [CENTERS]


def test_the_lists_kept_are_copies(reads: list[Any]) -> None:
    value = {"FRANCE": ["BRE", "MAR", "PAR"]}
    assert _centers(value) == {"FRANCE": frozenset({"BRE", "MAR", "PAR"})}
    value["FRANCE"].append("SPA")  # the caller changes its lists after: read again
    assert _centers(value) == {"FRANCE": frozenset({"BRE", "MAR", "PAR", "SPA"})}
    assert reads == [value, value]
