"""Every DATC 2.4 section 6 case (6.A.1-6.J.11), from the data in tests/datc/*.toml."""

from __future__ import annotations

import pytest
from datc_cases import DATC_DIR, load_cases, play, position

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


CASES = load_cases(DATC_DIR, "6*.toml")


def test_every_case_is_there() -> None:
    """158 cases, each id exactly once: none can go missing silently."""
    ids = [c["id"] for c in CASES]
    expected = [f"6.{s}.{i}" for s, n in SECTION_SIZES.items() for i in range(1, n + 1)]
    assert sorted(ids) == sorted(expected)
    assert len(ids) == len(set(ids)) == 158


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc(case: dict) -> None:
    play(case, position(case, case["phase"][0]["phase"]))
