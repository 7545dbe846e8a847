"""Every DATC 2.4 section 6 case (6.A.1-6.J.11), from the data in tests/datc/*.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from judge.engine.adjudication import adjudicate
from judge.engine.board import Position, parse_unit
from judge.engine.geography import load_map
from judge.engine.phase import Phase

DATC_DIR = Path(__file__).parent / "datc"
SECTION_SIZES = {
    "A": 12,
    "B": 14,
    "C": 7,
    "D": 34,
    "E": 15,
    "F": 24,
    "G": 18,
    "H": 16,
    "I": 7,
    "J": 11,
}
GM = load_map("standard")


def _cases() -> list[dict]:
    cases = []
    for path in sorted(DATC_DIR.glob("6*.toml")):
        with path.open("rb") as f:
            cases += tomllib.load(f)["case"]
    return cases


CASES = _cases()


def test_every_case_is_there() -> None:
    """158 cases, each id exactly once: none can go missing silently."""
    ids = [c["id"] for c in CASES]
    expected = [f"6.{s}.{i}" for s, n in SECTION_SIZES.items() for i in range(1, n + 1)]
    assert sorted(ids) == sorted(expected)
    assert len(ids) == len(set(ids)) == 158


def _position(case: dict, phase: str) -> Position:
    units = tuple(
        parse_unit(GM, power, text) for power, texts in case["units"].items() for text in texts
    )
    if "centers" in case:
        centers = {p: frozenset(c) for p, c in case["centers"].items()}
    else:
        centers = {p: pw.home_centers for p, pw in GM.powers.items()}
    return Position(GM, Phase.parse(phase), units, centers)


def _units_by_power(position: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in position.units:
        out.setdefault(u.power, []).append(str(u))
    return {p: sorted(us) for p, us in out.items()}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc(case: dict) -> None:
    position = _position(case, case["phase"][0]["phase"])
    for step in case["phase"]:
        assert str(position.phase) == step["phase"], "the engine's next phase differs"
        orders = {p: [text for text, _ in lines] for p, lines in step.get("orders", {}).items()}
        outcome = adjudicate(position, orders)
        for power, lines in step.get("orders", {}).items():
            got = [r for r in outcome.results if r.power == power and r.given]
            assert [(r.given, r.result) for r in got] == [tuple(x) for x in lines], (
                f"{power}: " + "; ".join(f"{r.order}: {r.result} ({r.error})" for r in got)
            )
        expect = step["expect"]
        after = outcome.position
        assert _units_by_power(after) == {p: sorted(u) for p, u in expect["units"].items() if u}
        if "dislodged" in expect:
            assert sorted(str(d.unit) for d in outcome.dislodged) == sorted(expect["dislodged"])
        for unit, places in expect.get("retreats", {}).items():
            got = {str(d.unit): list(d.retreats) for d in outcome.dislodged}
            assert sorted(got[unit]) == sorted(places), f"retreats of {unit}"
        if "builds" in expect:  # what the adjustment phase itself had due
            due = {p: position.adjustment(p) for p in GM.powers if position.adjustment(p)}
            assert due == expect["builds"]
        position = after
