"""Outgoing mail: templates rendered into RFC 822 messages with the judge's headers.

Every mail the judge sends carries `Auto-Submitted` and `X-Judge` (so that judges and
autoresponders never answer each other), a Message-ID fixed when it is queued, and on
replies `In-Reply-To`/`References`.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid
from functools import cache
from pathlib import Path

import jinja2

from judge.config import Config

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        undefined=jinja2.StrictUndefined,  # a missing variable is a bug, not a blank
        keep_trailing_newline=True,
        trim_blocks=False,
        autoescape=False,  # plain-text mail
    )


def render(name: str, config: Config, **context: object) -> tuple[str, str]:
    """Render `templates/<name>.txt` -> (subject, body)."""
    template = _environment().get_template(f"{name}.txt")
    text = template.render(judge={"name": config.name, "address": config.address}, **context)
    first, _, body = text.lstrip("\n").partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template {name}.txt must begin with a Subject: line")
    subject = first[len("Subject:") :].strip()
    return f"[{config.name}] {subject}" if config.name else subject, body.strip("\n") + "\n"


def new_message_id(config: Config) -> str:
    domain = config.address.rpartition("@")[2] or "judge.invalid"
    return make_msgid(idstring=uuid.uuid4().hex[:12], domain=domain)


def build(
    config: Config,
    to: Sequence[str],
    subject: str,
    body: str,
    now: datetime,
    message_id: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str = "auto-replied",
) -> bytes:
    """An RFC 822 message, as bytes ready for SMTP or a Maildir."""
    msg = EmailMessage()
    msg["From"] = f"{config.name} judge <{config.address}>" if config.name else config.address
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = " ".join([*references, in_reply_to][-10:])
    msg["Auto-Submitted"] = auto_submitted
    msg["X-Judge"] = config.name or "judge"
    msg.set_content(body, cte="quoted-printable" if not body.isascii() else "7bit")
    return msg.as_bytes(policy=SMTP)
