"""The plain problem templates (text and `{{ name }}` fields) are filled in without
Jinja (judge/variants/problem_text.py), word for word as Jinja renders them; the others,
and values other than text, still go through Jinja. `judge adjudicate` therefore starts
without importing Jinja."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import judge
from judge.engine.problems import Problem
from judge.variants.problem_text import _environment, _fill, _plain, reason_text

PROBLEMS = Path(judge.__file__).parent.parent / "templates" / "problems"
CODES = sorted(p.stem for p in PROBLEMS.glob("*.txt"))


def _jinja(code: str, values: dict[str, object]) -> str:
    template = _environment().get_template(f"problems/{code}.txt")
    return template.render(values).removesuffix("\n")


def test_every_plain_template_reads_as_jinja_renders_it() -> None:
    plain = [code for code in CODES if _plain(code) is not None]
    assert len(plain) == 59  # of 83: the others have tags or filters
    for code in plain:
        parts = _plain(code)
        assert parts is not None
        # Values with what a naive filling might mishandle: braces, quotes, non-ASCII.
        values = {name: f"{{{name}}} 'é\" {{{{x}}}}" for name in parts[1::2]}
        assert _fill(parts, values) == _jinja(code, values), code


def test_templates_with_tags_or_filters_are_left_to_jinja() -> None:
    assert _plain("supported_cannot_move") is None  # `why|reason`
    assert _plain("retreat_not_allowed") is None  # a loop over places
    assert _plain("support_move_unmatched") == (
        "",
        "supported",
        " was not ordered to ",
        "dest",
        "; the support did not match.\n",
    )


def test_values_other_than_text_go_through_jinja() -> None:
    # `places` a tuple: Jinja's own rendering, as before.
    problem = Problem("retreat_not_allowed", {"unit": "A BUR", "place": "Munich", "places": ()})
    assert reason_text(problem) == (
        "A BUR cannot retreat to Munich; it may retreat to nowhere: it must disband."
    )
    wrapped = Problem("support_move_unmatched", {"supported": ("A", "BUR"), "dest": "MUN"})
    assert reason_text(wrapped) == "('A', 'BUR') was not ordered to MUN; the support did not match."


def test_judge_adjudicate_runs_without_jinja() -> None:
    # An unmatched support: its reason is a plain template.
    line = {
        "map": "standard",
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"]},
        "centers": {"FRANCE": ["PAR", "MAR"]},
        "orders": {"FRANCE": ["A PAR S A MAR - BUR", "A MAR H"]},
    }
    script = (
        "import io, sys\n"
        "from judge.ops.adjudicate import run\n"
        "out = io.BytesIO()\n"
        "run(io.BytesIO(sys.argv[1].encode() + b'\\n'), out)\n"
        "print(out.getvalue().decode(), end='')\n"
        "print('jinja2' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(line)], capture_output=True, text=True, check=True
    )
    result, jinja_loaded = done.stdout.splitlines()
    assert json.loads(result)["results"]["FRANCE"][0]["error"] == (
        "A MAR was not ordered to BUR; the support did not match."
    )
    assert jinja_loaded == "False"
