"""`judge adjudicate`: Contract 1 line by line, standard input to standard output.

Every input line, blank, over-long or not UTF-8 included, gets exactly one output line,
in order: the outcome, or `{"error": "..."}` (judge/variants/json_contract.py reads and
answers one line). Standard input is read as bytes, a line at most MAX_LINE_BYTES long.

A tool may send one line and wait for its answer, so an answer is written out as soon as
no further whole line waits to be read. While lines do wait (a file, or a tool that sends
many), answers are written HELD_LINES at a time: written one by one into a pipe, each
write woke the reader and cost a system call, some 7% of the command's time. Whether a
whole line waits is seen only while input waits in the pipe or file, in what the input's
buffer then holds (line_waiting), and the lines seen there are counted, so that the
buffer is looked into again only once they are read (lines_waiting); standard input is
read in pieces of up to READ_BUFFER_BYTES, not 8 KiB, so fewer lines are cut at a
piece's end, where the answers held are written as if no line waited.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Iterable, Iterator
from typing import IO

from judge.variants.json_contract import adjudicate_line_text
from judge.variants.outcome_text import encode

MAX_LINE_BYTES = 1_000_000  # a longer input line is an error (and is not kept in memory)
HELD_LINES = 64  # answers held at most before they are written, while more lines wait
READ_BUFFER_BYTES = 65_536  # standard input read this much at a time, at most


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
    one line out per line in, written (and flushed) as soon as no further whole line is
    known to wait (line_waiting), or HELD_LINES are held. Exit status 2, said on standard
    error, when standard input or output is closed."""
    if (stdin is None and sys.stdin is None) or (stdout is None and sys.stdout is None):
        print("judge adjudicate: standard input or output is closed", file=sys.stderr)
        return 2
    source = stdin if stdin is not None else _standard_input()
    sink = stdout if stdout is not None else sys.stdout.buffer
    held: list[bytes] = []
    # Whole lines known to wait beyond the next one read: lines_waiting counts every
    # line its look into the buffer shows, so it looks again only once they are read
    # (each look copies the buffer, up to READ_BUFFER_BYTES: it was 2% of the work).
    ahead = 0
    for out in adjudicate_lines(read_lines(source)):
        held.append(out.encode("ascii") + b"\n")
        if ahead:
            ahead -= 1  # one of the lines counted is still to be read
            waiting = True
        else:
            count = lines_waiting(source)
            waiting = count > 0
            ahead = count - 1 if waiting else 0
        if len(held) >= HELD_LINES or not waiting:
            _write(sink, held)
    _write(sink, held)  # none are held at the end, where no line waits: written if any
    return 0


def _write(sink: IO[bytes], held: list[bytes]) -> None:
    """Write and flush the answers held, if any; none are held after."""
    if held:
        sink.write(b"".join(held))
        sink.flush()
        held.clear()


def _standard_input() -> IO[bytes]:
    """Standard input as bytes, read up to READ_BUFFER_BYTES at a time where it has a file
    descriptor (left open when done)."""
    try:
        descriptor = sys.stdin.fileno()
    except (OSError, ValueError):  # replaced by a stream of an in-process caller's
        return sys.stdin.buffer
    return open(descriptor, "rb", buffering=READ_BUFFER_BYTES, closefd=False)


def line_waiting(source: IO[bytes]) -> bool:
    """Whether a whole line is known to wait in `source`: its file descriptor has input
    now, and a whole line is in what its buffer then holds. False where that cannot be
    seen without waiting: nothing to read from the descriptor (whatever the buffer
    holds), a line cut at the buffer's end, a stream without a descriptor or a buffer."""
    return lines_waiting(source) > 0


def lines_waiting(source: IO[bytes]) -> int:
    """How many whole lines are known to wait in `source`, as line_waiting sees them:
    those in what its buffer holds when its file descriptor has input now; else 0."""
    try:
        if not select.select([source], [], [], 0)[0]:
            return 0
    except (OSError, ValueError):  # no file descriptor (io.UnsupportedOperation), or closed
        return 0
    peek = getattr(source, "peek", None)  # readable: peek's one read does not wait
    return 0 if peek is None else peek(1).count(b"\n")
