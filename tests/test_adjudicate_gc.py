"""`judge adjudicate` runs Python's cyclic garbage collector rarely (judge/ops/cli.py):
no line, good or bad, leaves a reference cycle behind, so reference counting alone
frees everything a line makes; the collector, still on, frees any cycle a line we did
not foresee leaves, so memory stays bounded whatever the input."""

from __future__ import annotations

import gc
import io
import json
import subprocess
import sys

import pytest

from judge.ops.cli import main
from judge.variants.json_contract import adjudicate_line_text

LINES: list[str | bytes] = [
    json.dumps(
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "A PIC", "F BRE"], "GERMANY": ["A BUR", "F KIE"]},
            "orders": {
                "FRANCE": ["A Par-Bur", "A Pic S A Par-Bur", "F Bre - Mid", "A Mar H"],
                "GERMANY": ["A Bur H", "F Kie - Lon", "A Xyz - Par", "F Kie S F Bre - Pic"],
            },
        }
    ),
    json.dumps(
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A BUR"]},
            "retreats": {"GERMANY": {"A RUH": ["BEL", "HOL"]}},
            "orders": {"GERMANY": ["A Ruh R Hol", "A Ruh R Par"]},
        }
    ),
    json.dumps(
        {
            "phase": "W1901A",
            "units": {"ITALY": ["A VEN"]},
            "centers": {"ITALY": ["ROM", "NAP", "VEN"]},
            "orders": {"ITALY": ["Build A Rom", "Build F Ven", "WAIVE"]},
        }
    ),
    "{not json",
    b"\xff\xfe not UTF-8",
    "[1, 2]",
    "",
    json.dumps({"phase": "S1901M", "units": {"ENGLAND": ["A XYZ"]}}),
    json.dumps({"map": "nowhere", "phase": "S1901M"}),
    json.dumps({"phase": "S1901M", "rules": {"convoy_paradox": "1983"}}),
    "[" * 100_000,  # nested too deeply to read
]


def test_no_line_leaves_a_reference_cycle() -> None:
    for line in LINES:  # the first readings fill the per-map caches
        adjudicate_line_text(line)
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            for line in LINES:
                adjudicate_line_text(line)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_command_alone_runs_the_collector_rarely() -> None:
    # The command ends its process by os._exit (no finalization): seen there.
    script = (
        "import gc, os, sys; sys.argv = ['judge', 'adjudicate']; from judge.ops.cli import main; "
        "end = os._exit; os._exit = lambda status: (print(gc.isenabled(), gc.get_threshold(), "
        "gc.get_freeze_count() > 0, status, file=sys.stderr), sys.stderr.flush(), end(3)); "
        "main()"
    )
    done = subprocess.run([sys.executable, "-c", script], input=b"", capture_output=True)
    assert (done.returncode, done.stderr) == (3, b"True (70000, 10, 10) True 0\n")


def test_the_command_alone_ends_with_its_output_written_and_its_status() -> None:
    script = (
        "import sys; sys.argv = ['judge', 'adjudicate']; from judge.ops.cli import main; main()"
    )
    done = subprocess.run([sys.executable, "-c", script], input=b"{}\n", capture_output=True)
    assert done.returncode == 0
    assert done.stdout == b'{"error":"not a phase: \'\' (expected e.g. S1901M, F1901R, W1901A)"}\n'
    closed = subprocess.run(
        ["sh", "-c", f'exec "{sys.executable}" -c "{script}" >&-'], input=b"", capture_output=True
    )
    assert closed.returncode == 2


def test_an_in_process_caller_keeps_its_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    thresholds = gc.get_threshold()
    assert main(["adjudicate"]) == 0
    assert gc.isenabled()
    assert gc.get_threshold() == thresholds
