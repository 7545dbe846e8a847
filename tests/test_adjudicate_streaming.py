"""`judge adjudicate` writes an answer as soon as no further whole line waits to be read
(a tool may send one line and wait for its answer), and the answers of lines that do wait
HELD_LINES at a time (judge/ops/adjudicate.py)."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from test_adjudicate_poison import GOOD, GOOD_OUT

from judge.ops import adjudicate
from judge.ops.adjudicate import HELD_LINES, READ_BUFFER_BYTES, line_waiting, lines_waiting, run

ANSWER_WAIT = 60.0  # seconds: generous, a slow machine's start included; never reached


class _Writes(io.BytesIO):
    """A sink that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []

    def write(self, data: Any) -> int:  # bytes here (BytesIO takes any buffer)
        self.writes.append(bytes(data))
        return super().write(data)


def test_a_tool_that_waits_for_each_answer_gets_it_before_it_sends_more() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    answers: queue.Queue[bytes] = queue.Queue()
    reader = threading.Thread(target=lambda: [answers.put(line) for line in proc.stdout])
    reader.start()
    try:
        for _ in range(3):
            proc.stdin.write(GOOD + b"\n")
            proc.stdin.flush()
            assert json.loads(answers.get(timeout=ANSWER_WAIT)) == GOOD_OUT
        # Half of the next line waits to be read: the line before it is answered still.
        proc.stdin.write(GOOD + b"\n" + GOOD[:20])
        proc.stdin.flush()
        assert json.loads(answers.get(timeout=ANSWER_WAIT)) == GOOD_OUT
        proc.stdin.write(GOOD[20:] + b"\n")
        proc.stdin.flush()
        assert json.loads(answers.get(timeout=ANSWER_WAIT)) == GOOD_OUT
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=ANSWER_WAIT) == 0
        reader.join()
    assert answers.empty()


def test_lines_waiting_in_a_file_are_answered_held_lines_at_a_time(tmp_path: Path) -> None:
    lines = 2 * HELD_LINES + 22
    path = tmp_path / "lines.jsonl"
    path.write_bytes((GOOD + b"\n") * lines)
    assert path.stat().st_size < READ_BUFFER_BYTES  # read whole: no line cut at a piece's end
    sink = _Writes()
    with path.open("rb", buffering=READ_BUFFER_BYTES) as source:
        assert run(source, sink) == 0
    assert [len(w.splitlines()) for w in sink.writes] == [HELD_LINES, HELD_LINES, 22]
    assert [json.loads(line) for line in sink.getvalue().splitlines()] == [GOOD_OUT] * lines


def test_a_stream_without_a_file_descriptor_gets_each_answer_written_alone() -> None:
    sink = _Writes()
    assert run(io.BytesIO((GOOD + b"\n") * 3), sink) == 0
    assert [json.loads(w) for w in sink.writes] == [GOOD_OUT] * 3


def test_a_line_waits_only_when_it_is_whole_in_the_buffer_or_the_pipe() -> None:
    read_end, write_end = os.pipe()
    with (
        open(read_end, "rb", buffering=READ_BUFFER_BYTES) as source,
        open(write_end, "wb", buffering=0) as tool,
    ):
        assert not line_waiting(source)  # nothing sent
        tool.write(b"{}")
        assert not line_waiting(source)  # no end of line yet
        assert source.read(2) == b"{}"
        tool.write(b"\n{}\n{")
        assert line_waiting(source)  # the pipe holds "\n{}\n{"
        assert source.readline() == b"\n"
        # The pipe is empty now, and what the buffer holds is not looked into (to know it
        # holds anything, without waiting, would take its internals): not known to wait.
        assert not line_waiting(source)
        assert source.readline() == b"{}\n"
        tool.write(b"}\n")
        # The buffer holds "{", no end of line; the pipe holds the rest: not known either.
        assert not line_waiting(source)
        assert source.readline() == b"{}\n"
    assert not line_waiting(io.BytesIO(b"{}\n"))  # no descriptor: not known


def test_the_lines_whole_in_the_buffer_are_counted() -> None:
    read_end, write_end = os.pipe()
    with (
        open(read_end, "rb", buffering=READ_BUFFER_BYTES) as source,
        open(write_end, "wb", buffering=0) as tool,
    ):
        assert lines_waiting(source) == 0  # nothing sent
        tool.write(b"{}\n{}\n{")
        assert lines_waiting(source) == 2  # the pipe holds two whole lines and a piece
        assert source.readline() == b"{}\n"
        assert lines_waiting(source) == 0  # the pipe is empty: the buffer not looked into
        tool.write(b"}\n")
        assert lines_waiting(source) == 1  # the buffer is looked into, "{}\n{", one line
    assert lines_waiting(io.BytesIO(b"{}\n")) == 0  # no descriptor: not known


def test_answers_still_held_at_the_end_of_the_input_are_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(adjudicate, "lines_waiting", lambda source: 5)  # as if in error
    path = tmp_path / "lines.jsonl"
    path.write_bytes((GOOD + b"\n") * 3)
    sink = _Writes()
    with path.open("rb") as source:
        assert run(source, sink) == 0
    assert [json.loads(line) for line in sink.getvalue().splitlines()] == [GOOD_OUT] * 3


@pytest.mark.parametrize("closed", ["<&-", ">&-"])
def test_a_closed_standard_stream_is_said_plainly(closed: str) -> None:
    command = f'exec "{sys.executable}" -m judge.ops.cli adjudicate {closed}'
    proc = subprocess.run(["sh", "-c", command], capture_output=True, text=True, input="")
    assert proc.returncode == 2
    assert proc.stderr == "judge adjudicate: standard input or output is closed\n"
