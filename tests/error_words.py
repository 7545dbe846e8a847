"""The words of a refusal (judge/game/errors.py) as a player reads them: its template,
templates/errors/<code>.txt, rendered in an acknowledgement's ERROR line, the way every
reply renders it."""

from __future__ import annotations

from types import SimpleNamespace

from judge.config import Config
from judge.game.errors import CommandError, Refusal
from judge.mail import compose

CONFIG = Config(name="TEST", address="judge@example.org", timezone="UTC")


def words(error: CommandError | Refusal | None) -> str:
    """The words after `ERROR: ` the error gets, as one line: a line too long for 78
    columns is broken at spaces (judge/mail/error_lines.py), and its parts are joined
    again here with one space, after each is checked to fit."""
    assert error is not None, "no error"
    event = {"kind": "error", "code": error.code, **error.values}
    sub = SimpleNamespace(subject="orders")
    _, body = compose.render(
        "acknowledgement", CONFIG, sub=sub, events=[event], errors=True, head=None, time_left=None
    )
    body = body.removeprefix("\n:: Judge: TEST  \n\n")  # njudge's line to the unsigned
    assert body.startswith("  ERROR: ") and body.endswith("\n"), body
    first, *rest = body.removesuffix("\n").split("\n")
    assert len(first) <= 78, body
    assert all(len(line) <= 78 and line.startswith("  ") for line in rest), body
    return " ".join([first.removeprefix("  ERROR: "), *(line.lstrip(" ") for line in rest)])
