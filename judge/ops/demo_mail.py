"""The judge's Maildir as the demo's players read it, and the mails they find there."""

from __future__ import annotations

import email
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.policy import default
from pathlib import Path

REQUEST_WORDS = ("must retreat", "may build", "must remove", "cannot build")


class DemoError(Exception):
    """The demo cannot go on; the message says why."""


@dataclass(frozen=True)
class Mail:
    """A mail of the judge in the Maildir: its file, subject, recipients and text."""

    path: Path
    subject: str
    to: tuple[str, ...]
    body: str

    @property
    def kind(self) -> str:
        """What the judge sent: acknowledgement, start, results, request or other."""
        if re.search(r"(^|\] )Re: ", self.subject):
            return "acknowledgement"
        if self.subject.endswith(" Game Starting"):  # njudge's subjects (templates/)
            return "start"
        if self.subject.endswith(" Results"):
            return "results"
        if any(word in self.subject for word in REQUEST_WORDS):
            return "request"
        return "other"


class Maildir:
    """The judge's Maildir as the players read it: only mail that arrived since the demo
    began (anything older in new/ belongs to earlier runs)."""

    def __init__(self, path: Path, deadline: float) -> None:
        self.new = path / "new"
        self.deadline = deadline
        self.before = set(os.listdir(self.new)) if self.new.is_dir() else set()
        self.mails: dict[str, Mail] = {}

    def poll(self) -> list[Mail]:
        if self.new.is_dir():
            for name in sorted(set(os.listdir(self.new)) - self.before - set(self.mails)):
                path = self.new / name
                msg = email.message_from_bytes(path.read_bytes(), policy=default)
                to = tuple(a.strip().lower() for a in str(msg["To"] or "").split(","))
                # the text part (a results or start mail also carries the board as PNG)
                text = msg.get_body(("plain",))
                if text is None:
                    raise DemoError(f"the judge's mail {path} has no text part")
                body = text.get_content().replace("\r\n", "\n")
                self.mails[name] = Mail(path, str(msg["Subject"]), to, body)
        return [self.mails[name] for name in sorted(self.mails)]

    def wait(self, what: str, found: Callable[[list[Mail]], bool]) -> list[Mail]:
        """Poll until `found` holds of the mail so far; the mail."""
        while True:
            mails = self.poll()
            if found(mails):
                return mails
            if time.monotonic() > self.deadline:
                raise DemoError(f"timed out waiting for {what} in {self.new}/")
            time.sleep(0.02)

    def one(self, what: str, test: Callable[[Mail], bool]) -> Mail:
        mails = self.wait(what, lambda ms: any(test(m) for m in ms))
        return next(m for m in mails if test(m))


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory if under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
