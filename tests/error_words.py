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
    """The text after `ERROR: ` on the line the error gets (one line, no newline)."""
    assert error is not None, "no error"
    event = {"kind": "error", "code": error.code, **error.values}
    sub = SimpleNamespace(subject="orders")
    _, body = compose.render(
        "acknowledgement", CONFIG, sub=sub, events=[event], errors=True, head=None, time_left=None
    )
    body = body.removeprefix("\n:: Judge: TEST  \n\n")  # njudge's line to the unsigned
    assert body.startswith("  ERROR: ") and body.count("\n") == 1, body
    return body.removeprefix("  ERROR: ").removesuffix("\n")
