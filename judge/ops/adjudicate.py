"""`judge adjudicate`: Contract 1 line by line, standard input to standard output.

Every input line, blank, over-long or not UTF-8 included, gets exactly one output line,
in order: the outcome, or `{"error": "..."}` (judge/variants/json_contract.py reads and
answers one line). Standard input is read as bytes, a line at most MAX_LINE_BYTES long.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import IO

from judge.variants.json_contract import adjudicate_line_text
from judge.variants.outcome_text import encode

MAX_LINE_BYTES = 1_000_000  # a longer input line is an error (and is not kept in memory)


def adjudicate_lines(lines: Iterable[str | bytes | None]) -> Iterator[str]:
    """Input lines -> JSON output lines, one each, in order. None stands for a line
    longer than MAX_LINE_BYTES (read_lines gives it)."""
    for line in lines:
        if line is None:
            yield encode({"error": f"the line is longer than {MAX_LINE_BYTES} bytes"})
        else:
            yield adjudicate_line_text(line)


def read_lines(stream: IO[bytes]) -> Iterator[bytes | None]:
    """The lines of a byte stream; None for a line longer than MAX_LINE_BYTES, whose
    rest is read and dropped (never held in memory)."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(MAX_LINE_BYTES + 1)) and not rest.endswith(b"\n"):
                pass
            yield None
        else:
            yield line


def run(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """`judge adjudicate`: standard input to standard output (or the byte streams given),
    one line out per line in, each written as soon as it is ready."""
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout.buffer
    for out in adjudicate_lines(read_lines(source)):
        sink.write(out.encode("ascii") + b"\n")
        sink.flush()  # a tool may send one line and wait for its answer
    return 0
