"""The memo of orders and units read (engine/notation.py, engine/board.py): the same
answers as reading afresh, refusals never kept, long texts never kept."""

from __future__ import annotations

import pytest

from judge.engine import board, notation
from judge.engine.notation import NotationError, parse_order
from judge.engine.phase import MOVEMENT, RETREATS
from judge.variants.maps import load_map


def test_a_remembered_order_is_the_order_read_afresh() -> None:
    gm = load_map("standard")
    for text in ("A Par-Bur", "F Nth C A Lon - Bel", "a mun s a par - bur", "A Bur - Mar"):
        for kind in (MOVEMENT, RETREATS):
            first = parse_order(text, gm, kind)
            assert parse_order(text, gm, kind) is first  # remembered
            assert notation._parse_order(text, gm, kind, False) == first


def test_the_phase_kind_and_the_map_are_part_of_what_is_remembered() -> None:
    gm = load_map("standard")
    assert type(parse_order("A Bur - Mar", gm, MOVEMENT).order).__name__ == "Move"
    assert type(parse_order("A Bur - Mar", gm, RETREATS).order).__name__ == "Retreat"


def test_a_refusal_is_read_again_each_time_and_long_texts_are_not_kept() -> None:
    gm = load_map("standard")
    for _ in range(2):
        with pytest.raises(NotationError):
            parse_order("A Xyzzy - Bur", gm, MOVEMENT)
    before = notation._parse_order_cached.cache_info().currsize
    parse_order("A Par" + " " * 60 + "- Bur", gm, MOVEMENT)
    assert notation._parse_order_cached.cache_info().currsize == before


def test_a_remembered_unit_is_the_unit_read_afresh_and_bad_units_still_raise() -> None:
    gm = load_map("standard")
    unit = board.parse_unit(gm, "FRANCE", "F STP/SC")
    assert board.parse_unit(gm, "FRANCE", "F STP/SC") is unit
    assert (unit.power, unit.kind, unit.location, unit.province) == ("FRANCE", "F", "STP/SC", "STP")
    assert board.parse_unit(gm, "RUSSIA", "F STP/SC").power == "RUSSIA"
    for _ in range(2):
        with pytest.raises(ValueError, match="a fleet cannot stand in MUN"):
            board.parse_unit(gm, "GERMANY", "F MUN")
