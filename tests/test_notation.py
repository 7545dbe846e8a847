"""The order parser over real-world spellings, from the table in tests/notation_cases.toml."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from judge.engine.notation import NotationError, parse_order
from judge.engine.orders import order_text
from judge.variants.maps import load_map
from judge.variants.problem_text import reason_text

TABLE = Path(__file__).parent / "notation_cases.toml"
GM = load_map("standard")
PHASES = ("M", "R", "A")
ACCEPT_KEYS = {"text", "phase", "expect", "note"}
REJECT_KEYS = {"text", "phase", "reason", "lists"}

with TABLE.open("rb") as _f:
    _DATA = tomllib.load(_f)
ACCEPT: list[dict] = _DATA.get("accept", [])
REJECT: list[dict] = _DATA.get("reject", [])


def _id(case: dict) -> str:
    return f"{case.get('phase', 'M')}:{case['text']!r}"


def test_table_is_big_and_has_no_duplicates() -> None:
    assert len(ACCEPT) + len(REJECT) >= 150
    keys = [(c["text"], c.get("phase", "M")) for c in ACCEPT + REJECT]
    dups = sorted({k for k in keys if keys.count(k) > 1})
    assert not dups, f"duplicate (text, phase) pairs: {dups}"


def test_table_entries_are_well_formed() -> None:
    """A misspelt key in the table would silently skip a check: refuse it."""
    for case in ACCEPT:
        assert set(case) <= ACCEPT_KEYS and "expect" in case, case
    for case in REJECT:
        assert set(case) <= REJECT_KEYS and "reason" in case, case
        assert case["reason"] == case["reason"].lower(), case
    for case in ACCEPT + REJECT:
        assert case.get("phase", "M") in PHASES, case


def test_every_space_is_named_somewhere() -> None:
    """Each of the map's provinces is read at least once by the accepted cases."""
    seen = set()
    for case in ACCEPT:
        seen |= set(re.findall(r"\b[A-Z]{3}\b", case["expect"]))
    missing = sorted(set(GM.provinces) - seen)
    assert not missing, f"provinces no accepted case names: {missing}"


@pytest.mark.parametrize("case", ACCEPT, ids=_id)
def test_accepted(case: dict) -> None:
    try:
        parsed = parse_order(case["text"], GM, case.get("phase", "M"))
    except NotationError as e:
        why = reason_text(e.problem)
        pytest.fail(f"rejected ({why}); expected {case['expect']!r}", pytrace=False)
    assert order_text(parsed.order) == case["expect"]
    if "note" in case:
        notes = [reason_text(n) for n in parsed.notes]
        assert any(case["note"] in n for n in notes), notes


@pytest.mark.parametrize("case", REJECT, ids=_id)
def test_rejected(case: dict) -> None:
    with pytest.raises(NotationError) as info:
        parsed = parse_order(case["text"], GM, case.get("phase", "M"))
        pytest.fail(f"accepted as {order_text(parsed.order)!r} {parsed.notes}")
    message = reason_text(info.value.problem)
    assert case["reason"] in message.lower(), message
    for name in case.get("lists", []):
        assert name in message, message
