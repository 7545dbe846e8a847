"""`judge adjudicate` (Contract 1) never dies on one bad line (issue 14): every input line,
whatever its bytes, gets exactly one output line, in order, a result or {"error": ...}."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.ops.adjudicate import MAX_LINE_BYTES, run

GOOD = json.dumps(
    {
        "map": "standard",
        "phase": "F1901M",
        "units": {"ENGLAND": ["F NTH", "A YOR"], "FRANCE": ["A BUR"]},
        "centers": {"ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"]},
        "orders": {"ENGLAND": ["F NTH C A YOR - BEL", "A Yor-Bel"]},
    }
).encode()
GOOD_OUT = {
    "phase": "F1901M",
    "next_phase": "W1901A",
    "results": {
        "ENGLAND": [
            {"order": "F NTH C A YOR - BEL", "given": "F NTH C A YOR - BEL", "result": "ok"},
            {"order": "A YOR - BEL", "given": "A Yor-Bel", "result": "ok"},
        ],
        "FRANCE": [{"order": "A BUR H", "given": "", "result": "ok"}],
    },
    "units": {"ENGLAND": ["A BEL", "F NTH"], "FRANCE": ["A BUR"]},
    "centers": {"ENGLAND": ["BEL", "EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"]},
    "retreats": {},
    "builds": {"ENGLAND": 2, "FRANCE": 2},
    "winner": None,
}

# Each poison line and the error it must get.
POISON = [
    (
        json.dumps({"map": "a" * 251, "phase": "S1901M"}).encode(),
        "unknown map 'aaaaaaaaaaaaaaaaaaaa'... (a map name is at most 100)",
    ),
    (b"[" * 100_000 + b"]" * 100_000, "the line is nested too deeply to read"),
    (
        b'{"phase": "S1901M", "units": {"ENGLAND": ["A LON"]}, "x": ' + b"9" * 5000 + b"}",
        "a number has more than 100 digits",
    ),
    (
        json.dumps({"phase": "S1901M", "rules": {"convoy_paradox": ["1982"]}}).encode(),
        "rule option convoy_paradox must be one choice, not a list or object",
    ),
    (
        json.dumps({"phase": "S1901M", "rules": {"waiving_builds": {"a": 1}}}).encode(),
        "rule option waiving_builds must be one choice, not a list or object",
    ),
    (
        b'{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, '
        b'"orders": {"FRANCE": ["A Par-Bur \xff"]}}',
        "the line is not UTF-8 (byte 0xff at position 85)",
    ),
    (b"\xff\xfe{}", "the line is not UTF-8 (byte 0xff at position 0)"),
    (b"", "an empty line: expected a JSON object"),
    (b"   \t", "an empty line: expected a JSON object"),
    (json.dumps({"map": ["standard"]}).encode(), "map must be a string, the name of a map"),
]


def test_every_poison_line_gets_its_error_and_the_run_goes_on() -> None:
    lines = [GOOD]
    for poison, _ in POISON:
        lines += [poison, GOOD]
    proc = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        check=True,
        # A strict decoder on standard input, as under a UTF-8 locale: the bytes are
        # read as bytes whatever the locale says.
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
    )
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0::2] == [GOOD_OUT] * (len(POISON) + 1)
    assert out[1::2] == [{"error": error} for _, error in POISON]
    assert proc.stderr == b""


def _run(data: bytes) -> list[dict]:
    sink = io.BytesIO()
    assert run(io.BytesIO(data), sink) == 0
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def test_a_line_over_the_limit_is_an_error_and_is_skipped_whole() -> None:
    over = json.dumps({"phase": "S1901M", "x": "a" * MAX_LINE_BYTES}).encode()
    at_limit = b" " * (MAX_LINE_BYTES - len(GOOD)) + GOOD  # exactly the limit: read
    assert _run(b"\n".join([GOOD, over, at_limit, over + b"\r", GOOD]) + b"\n") == [
        GOOD_OUT,
        {"error": "the line is longer than 1000000 bytes"},
        GOOD_OUT,
        {"error": "the line is longer than 1000000 bytes"},
        GOOD_OUT,
    ]


def test_the_last_line_needs_no_newline_and_crlf_is_read() -> None:
    assert _run(GOOD + b"\r\n\r\n" + GOOD) == [
        GOOD_OUT,
        {"error": "an empty line: expected a JSON object"},
        GOOD_OUT,
    ]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_KEYS = ["map", "phase", "units", "centers", "orders", "retreats", "rules", "players"]
_SENSIBLE = {
    "map": st.sampled_from(["standard", "standard-2", "STANDARD", "", "nomap"]),
    "phase": st.sampled_from(["S1901M", "F1901R", "W1901A", "S0M", "X"]),
    "units": st.just({"FRANCE": ["A PAR", "F BRE"], "ENGLAND": ["F LON"]}),
    "orders": st.just({"FRANCE": ["A Par-Bur", "F Bre - Mao"]}),
    "rules": st.sampled_from([{}, {"set": "alexander"}, {"waiving_builds": False}]),
}


@st.composite
def _positions(draw: st.DrawFn) -> dict:
    """An input object whose values are sensible or any JSON at all, key by key."""
    out = {}
    for key in _KEYS:
        choice = draw(st.integers(0, 2))
        if choice == 1:
            out[key] = draw(_SENSIBLE.get(key, _JSON))
        elif choice == 2:
            out[key] = draw(_JSON)
    return out


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.one_of(_positions().map(lambda p: json.dumps(p).encode()), st.binary(max_size=200)))
def test_any_line_gets_a_result_or_an_error_of_its_own(line: bytes) -> None:
    """No input reaches the last-resort catch (an internal error): each is answered."""
    (out,) = _run(line.replace(b"\n", b" ") + b"\n")
    assert set(out) == {"error"} or {"phase", "results"} <= set(out)
    assert not out.get("error", "").startswith("internal error"), out
