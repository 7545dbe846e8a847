"""An address a command names for someone else (PROMOTE, REPLACE, SET LIST): taken only
where the judge can deliver to it, as an address of record is (judge/mail/addresses.py),
and never the judge's own."""

from __future__ import annotations

from judge.commands.language import Command
from judge.commands.run import Run, refuse
from judge.mail.addresses import NOT_AN_ADDRESS, deliverable


def other_address(run: Run, cmd: Command, written: str) -> str:
    """The normal form of the address `written`, or "" once refused with the reason."""
    address = deliverable(written, run.ctx.config.address)
    if isinstance(address, str):
        return address
    if address.reason == NOT_AN_ADDRESS:
        refuse(run, cmd, "not_an_address", address=address.address)
    else:
        refuse(run, cmd, "address_refused", address=address.address, reason=address.reason)
    return ""
