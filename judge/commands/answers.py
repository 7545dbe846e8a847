"""How much one mail may ask to be told: the information commands anyone may send.

LIST, WHOGAME, SUMMARY, HISTORY, HELP, VERSION and DIARY LIST / READ answer a line of a
few bytes with a report of kilobytes, and the answer goes to the From: address, which
can be forged: a hundred HELP lines (500 bytes) made a 380 KB answer, a hundred DIARY
READ 1 a megabyte, and a signed-on sender's answer is never held back by the limits on
replies. So one mail answers each such question once (HISTORY once a game, whatever its
dates), and at most ANSWERS_PER_MAIL of them.
"""

from __future__ import annotations

from judge.commands.language import Command
from judge.commands.run import Run, refuse

ANSWERS_PER_MAIL = 10  # different information commands answered in one mail (README: limits)
_ASKING = {"LIST", "WHOGAME", "SUMMARY", "HISTORY", "HELP", "VERSION"}


def asked_before(run: Run, cmd: Command) -> bool:
    """Whether `cmd` is a question this mail may not ask again (refused so: the same one
    asked before, or the mail's ANSWERS_PER_MAIL used); its asking is counted if not."""
    asking = cmd.name in _ASKING or (cmd.name == "DIARY" and cmd.args[:1] in (("LIST",), ("READ",)))
    if not asking:
        return False
    # The seat it is asked as: LIST alone, HISTORY without a name and DIARY depend on it.
    # HISTORY once a game whatever its window: each is a mail of up to 1,000 lines.
    args = cmd.args[:1] if cmd.name == "HISTORY" else cmd.args
    key = (cmd.name, args, run.block.seat.id if run.block else None)
    if key in run.asked:
        refuse(run, cmd, "answered_above", at=run.asked[key])
        return True
    if len(run.asked) >= ANSWERS_PER_MAIL:
        refuse(run, cmd, "answers_limit", limit=ANSWERS_PER_MAIL)
        return True
    run.asked[key] = cmd.line
    return False
