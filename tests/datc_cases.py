"""DATC-style cases from the TOML data under tests/datc: loading them, their opening
position, and playing their phases through the adjudicator against what they expect."""

from __future__ import annotations

import tomllib
from pathlib import Path

from judge.engine.adjudication import adjudicate
from judge.engine.board import Position, parse_unit
from judge.engine.phase import Phase
from judge.engine.rules import DEFAULT_RULES, Rules
from judge.variants.maps import load_map

DATC_DIR = Path(__file__).parent / "datc"
GM = load_map("standard")


def load_cases(folder: Path, pattern: str) -> list[dict]:
    """Every [[case]] of the files `pattern` in `folder`, file by file in name order."""
    cases = []
    for path in sorted(folder.glob(pattern)):
        with path.open("rb") as f:
            cases += tomllib.load(f)["case"]
    return cases


def position(case: dict, phase: str) -> Position:
    """The standard map with the case's units, and its centres (else the home centres)."""
    units = tuple(
        parse_unit(GM, power, text) for power, texts in case["units"].items() for text in texts
    )
    if "centers" in case:
        centers = {p: frozenset(c) for p, c in case["centers"].items()}
    else:
        centers = {p: pw.home_centers for p, pw in GM.powers.items()}
    return Position(GM, Phase.parse(phase), units, centers)


def units_by_power(position: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in position.units:
        out.setdefault(u.power, []).append(str(u))
    return {p: sorted(us) for p, us in out.items()}


def play(case: dict, position: Position, rules: Rules = DEFAULT_RULES) -> None:
    """Adjudicate each phase of `case` from `position` (under `rules`) and assert each
    order's result, the units after, the dislodged and their retreats, and the builds
    due, wherever the case states them."""
    gm = position.game_map
    for step in case["phase"]:
        assert str(position.phase) == step["phase"], "the engine's next phase differs"
        orders = {p: [text for text, _ in lines] for p, lines in step.get("orders", {}).items()}
        outcome = (
            adjudicate(position, orders) if rules is None else adjudicate(position, orders, rules)
        )
        for power, lines in step.get("orders", {}).items():
            got = [r for r in outcome.results if r.power == power and r.given]
            assert [(r.given, r.result) for r in got] == [tuple(x) for x in lines], (
                f"{power}: " + "; ".join(f"{r.order}: {r.result} ({r.error})" for r in got)
            )
        expect = step["expect"]
        after = outcome.position
        assert units_by_power(after) == {p: sorted(u) for p, u in expect["units"].items() if u}
        if "dislodged" in expect:
            assert sorted(str(d.unit) for d in outcome.dislodged) == sorted(expect["dislodged"])
        for unit, places in expect.get("retreats", {}).items():
            got = {str(d.unit): list(d.retreats) for d in outcome.dislodged}
            assert sorted(got[unit]) == sorted(places), f"retreats of {unit}"
        if "builds" in expect:  # what the adjustment phase itself had due
            due = {p: position.adjustment(p) for p in gm.powers if position.adjustment(p)}
            assert due == expect["builds"]
        position = after
