"""DATC section 6 cases under the non-preferred choices of section 4, from the data in
tests/datc/options/*.toml: each case names the options it sets and asserts the outcome
the DATC describes for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from datc_cases import load_cases, play, position

from judge.engine.rules import OPTIONS, Rules

OPTIONS_DIR = Path(__file__).parent / "datc" / "options"
DOC = Path(__file__).parent.parent / "docs" / "rule-options.md"


CASES = load_cases(OPTIONS_DIR, "*.toml")


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
    play(case, position(case, case["phase"][0]["phase"]), Rules.from_json(case["rules"]))
