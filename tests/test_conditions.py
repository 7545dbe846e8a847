"""judge/game/conditions.py: njudge's conditions read and evaluated on a position."""

from __future__ import annotations

import pytest

from judge.engine.board import starting_position
from judge.game import conditions
from judge.game.conditions import Both, Not, Place, condition, holds, orders_of, program
from judge.game.errors import CommandError
from judge.variants.maps import load_map

GM = load_map("standard")
START = starting_position(GM)


def test_a_condition_names_power_and_unit_in_either_order() -> None:
    assert condition("Army French Paris", GM) == Place("PAR", "FRANCE", "A")
    assert condition("Fr A Paris THEN", GM) == Place("PAR", "FRANCE", "A")
    assert condition("English Fleet North Sea", GM) == Place("NTH", "ENGLAND", "F")
    assert condition("Kiel", GM) == Place("KIE")


def test_and_or_go_left_to_right_and_brackets_group() -> None:
    got = condition("NOT Kiel AND (Paris OR Rome", GM)  # the line's end closes the bracket
    assert got == Both(Not(Place("KIE")), Both(Place("PAR"), Place("ROM"), True), False)
    assert holds(condition("Kiel OR Ruhr AND Ruhr", GM), START) is False  # (Kie or Ruh) and Ruh
    assert holds(condition("German Army Munich AND NOT French Munich", GM), START) is True
    assert holds(condition("Russian Fleet StP", GM), START) is True


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Atlantis", "condition_place"),
        ("NOT", "condition_bad"),
        ("Kiel AND", "condition_bad"),
        ("Kiel ) AND Ruhr", "condition_bad"),
        ("(((((Kiel)))))", "condition_too_deep"),
        (" OR ".join(["Kiel"] * 13), "condition_too_long"),
        ("Kiel " * 100, "condition_too_long"),
    ],
)
def test_what_is_no_condition_is_refused_with_its_code(text: str, code: str) -> None:
    with pytest.raises(CommandError) as refused:
        condition(text, GM)
    assert refused.value.code == code


def test_a_program_takes_the_first_branch_that_holds_and_closes_open_ifs() -> None:
    lines = ["IF Ruhr", "A Mun - Ruh", "ELSE IF German Kiel", "F Kie - Den", "ELSE", "F Kie H"]
    lines += ["ENDIF", "A Ber H", "IF Munich", "IF NOT Tyrolia", "A Mun - Tyr"]
    assert orders_of(program(lines, GM), START) == ["F Kie - Den", "A Ber H", "A Mun - Tyr"]


@pytest.mark.parametrize(
    "lines",
    [["ELSE"], ["ENDIF"], ["IF Kiel", "ELSE", "ELSE"], ["IF Kiel"] * (conditions.MAX_DEPTH + 1)],
)
def test_lines_out_of_place_are_refused(lines: list[str]) -> None:
    with pytest.raises(CommandError):
        program(lines, GM)
