"""DATC section 6 cases under the non-preferred choices of section 4, from the data in
tests/datc/options/*.toml: each case names the options it sets and asserts the outcome
the DATC describes for them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from test_datc import _position, _units_by_power

from judge.engine.adjudication import adjudicate
from judge.engine.rules import OPTIONS, Rules

OPTIONS_DIR = Path(__file__).parent / "datc" / "options"
DOC = Path(__file__).parent.parent / "docs" / "rule-options.md"


def _cases() -> list[dict]:
    cases = []
    for path in sorted(OPTIONS_DIR.glob("*.toml")):
        with path.open("rb") as f:
            cases += tomllib.load(f)["case"]
    return cases


CASES = _cases()


def test_case_ids_are_unique_and_name_real_options() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert case["rules"], case["id"]
        Rules.from_json(case["rules"])  # raises on an unknown option or choice


def test_every_case_is_in_the_docs_table() -> None:
    """docs/rule-options.md lists every option case by id."""
    text = DOC.read_text()
    missing = [c["id"] for c in CASES if f"`{c['id']}`" not in text]
    assert missing == []


def test_every_option_has_a_case_or_a_reason() -> None:
    """Each non-preferred choice is exercised by a case, or the docs say why not."""
    text = DOC.read_text()
    covered = {(k, str(v).lower()) for c in CASES for k, v in c["rules"].items() if k != "set"}
    for key, option in OPTIONS.items():
        default = getattr(Rules(), key)
        for value in option.choices:
            if value == default:
                continue
            shown = str(value).lower()
            if (key, shown) not in covered:
                assert f"`{key}={shown}`" in text, f"no case and no reason for {key}={shown}"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_option_case(case: dict) -> None:
    rules = Rules.from_json(case["rules"])
    position = _position(case, case["phase"][0]["phase"])
    for step in case["phase"]:
        assert str(position.phase) == step["phase"], "the engine's next phase differs"
        orders = {p: [text for text, _ in lines] for p, lines in step.get("orders", {}).items()}
        outcome = adjudicate(position, orders, rules)
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
        position = after
