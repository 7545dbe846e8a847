"""The commands' ERROR lines: a code and values, worded by templates/errors/<code>.txt
(issue 15). Each reads exactly as the message the command wrote before, and every code a
command uses has its template and every template a code."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from judge.config import Config
from judge.mail import compose

CONFIG = Config(name="TEST", address="judge@example.org", timezone="UTC")
ROOT = Path(__file__).resolve().parents[1]
ERRORS = ROOT / "templates" / "errors"

# code -> (values, the line as the command wrote it before the templates)
CASES: dict[str, tuple[dict[str, object], str]] = {
    "language": ({"message": "Expected FORCE BEGIN."}, "Expected FORCE BEGIN."),
    "not_understood": ({}, "I don't understand this line."),
    "date": ({"message": "Not a date: 'soon'."}, "Not a date: 'soon'."),
    "rules": ({"message": "No such option: FOO."}, "No such option: FOO."),
    "rules_after_start": ({}, "The rules can be changed only before the game starts."),
    "number_range": ({"low": 1, "high": 34}, "Expected a number from 1 to 34."),
    "end_year": (
        {"first_year": 1901},
        "Expected SET END year [DRAW or MOST], the year 1901 or later.",
    ),
    "end_mode": ({}, "Expected DRAW (the survivors draw) or MOST (most centres wins)."),
    "no_proxies": ({}, "Proxy orders are not allowed in this game."),
    "proxy_not_movement": ({}, "Units are handed over for a movement phase only."),
    "proxy_syntax": ({}, "Expected SET PROXY unit TO power."),
    "no_unit": ({"place": "Mun"}, "You have no unit in Mun."),
    "not_another_power": ({"power": "Narnia"}, "Narnia is not another power."),
    "no_game": ({"game": "war1"}, "There is no game called war1."),
    "not_a_phase": (
        {"named": "Sprung 1901", "phase": "S1901M"},
        "Sprung 1901 is not a phase; write e.g. PROCESS S1901M.",
    ),
    "no_player": ({"power": "X", "game": "war1"}, "No one plays X in war1."),
    "replace_syntax": ({}, "Expected REPLACE power address, e.g. REPLACE F new@example.org."),
    "not_an_address": ({"address": "nobody"}, "nobody is not a mail address."),
    "no_earlier_phase": ({"game": "war1", "phase": "F1901M"}, "war1 has no earlier phase F1901M."),
    "press_value": ({}, "Expected SET PRESS WHITE, GREY or NONE."),
    "map_value": ({}, "Expected SET MAP ON or OFF."),
    "partial_value": ({}, "Expected SET PARTIAL YES or NO."),
    "observer_press_value": ({}, "Expected SET OBSERVER PRESS YES or NO."),
    "absence_syntax": ({}, "Expected SET ABSENCE <from> TO <to>."),
    "absence_backwards": ({}, "The absence must end after it starts."),
    "concede_to": ({"power": "F"}, "Expected another power to concede to, not F."),
    "press_empty": ({}, "The press has no text."),
    "unknown_power": ({"power": "Narnia"}, "I don't know the power 'Narnia'."),
}


def _line(code: str, with_line: bool = True, **values: object) -> str:
    event = {"kind": "error", "code": code, **values}
    if with_line:
        event |= {"line": 3, "text": "THE LINE"}
    sub = SimpleNamespace(subject="orders")
    _, body = compose.render("acknowledgement", CONFIG, sub=sub, events=[event], errors=True)
    return body


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_error_reads_as_before(code: str) -> None:
    values, words = CASES[code]
    assert _line(code, **values) == f"Line 3: THE LINE\n  ERROR: {words}\n"


def test_the_words_that_depend_on_the_values() -> None:
    # ROLLBACK alone, with no phase before it, and a power quoted the way Python does.
    assert _line("no_earlier_phase", game="g", phase="") == (
        "Line 3: THE LINE\n  ERROR: g has no earlier phase.\n"
    )
    assert _line("unknown_power", power="O'Neil") == (
        "Line 3: THE LINE\n  ERROR: I don't know the power \"O'Neil\".\n"
    )
    # A HISTORY window's error has no line of its own.
    assert _line("date", with_line=False, message="Bad date.") == "  ERROR: Bad date.\n"


def test_a_variant_that_is_not_there() -> None:
    event = {"kind": "create_bad", "line": 1, "text": "CREATE ?g ****", "variant": "x"}
    event["variants"] = ["standard", "standard-6"]
    sub = SimpleNamespace(subject="new")
    _, body = compose.render("acknowledgement", CONFIG, sub=sub, events=[event], errors=True)
    assert body == (
        "Line 1: CREATE ?g ****\n  ERROR: the game was not created: there is no variant"
        " called x (there are: standard, standard-6).\n"
    )


def _codes_used() -> set[str]:
    """The codes judge/commands/ gives refuse(run, cmd, code, ...) and CommandError(code),
    read from the source (a code that is not a literal is passed on from a CommandError)."""
    codes: set[str] = set()
    for path in sorted((ROOT / "judge" / "commands").glob("*.py")):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            if call.func.id == "refuse":
                code = call.args[2]
            elif call.func.id == "CommandError" and call.args:
                code = call.args[0]
            else:
                continue
            if isinstance(code, ast.Constant):
                codes.add(code.value)
            else:
                assert ast.unparse(code) == "e.code", f"{path.name}:{call.lineno}"
    return codes


def test_every_code_has_its_template_and_every_template_a_code() -> None:
    files = {p.stem for p in ERRORS.glob("*.txt")}
    assert _codes_used() == files == set(CASES)
    assert sorted(p.name for p in ERRORS.iterdir() if p.suffix != ".txt") == []
