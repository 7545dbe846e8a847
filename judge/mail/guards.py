"""Loop and abuse guards: mail the judge must never answer.

Checked before anything is answered: the judge's own mail coming back, bounces, automatic
replies, mailing lists and bulk mail. Answering any of them risks a mail loop or mail to
people who never wrote. (The per-sender rate limit and the per-address reply cap, which
hold back replies whatever the headers say, live in judge/service/handling.py and
judge/game/outgoing.py.)
"""

from __future__ import annotations

import re
from email.utils import parseaddr

from .message import Submission

DAEMONS = frozenset(("mailer-daemon", "mailer_daemon", "mail-daemon", "postmaster"))
BULK_PRECEDENCE = frozenset(("bulk", "junk", "list", "auto_reply", "auto-reply"))


def reason_not_to_answer(sub: Submission, judge_address: str) -> str | None:
    """A short reason (for the log and the audit) not to answer the mail, or None."""
    headers = {name.lower(): (value or "").strip() for name, value in sub.headers.items()}
    judge = _bare(judge_address)
    sender = (sub.sender or "").lower()

    if "x-judge" in headers:
        return f"the judge's own mail came back (X-Judge: {_short(headers['x-judge'])})"
    if judge and judge in headers.get("x-loop", "").lower():
        return f"the judge's own mail came back (X-Loop: {_short(headers['x-loop'])})"
    if not sender:
        return "no usable sender address"
    if judge and sender == judge:
        return "mail from the judge's own address"
    if judge and (sub.reply_to or "").lower() == judge:
        return "the reply address is the judge's own address"
    if _is_daemon(sender):
        return f"sender {_short(sender)} is a mailer daemon or postmaster"

    return_path = headers.get("return-path")
    if return_path is not None:
        # Only brackets and spaces: <>, and <<>> as a receiver that wrapped the
        # envelope's "<>" in brackets again wrote it. Either way, no one to answer.
        if re.fullmatch(r"[<>\s]*", return_path):
            return "null return path (Return-Path: <>), as bounces have"
        if _is_daemon(_bare(return_path)):
            return f"return path {_short(return_path)} is a mailer daemon or postmaster"

    content_type = headers.get("content-type", "").lower()
    if re.match(r"\s*multipart/report\b", content_type):
        kind = re.search(r"report-type\s*=\s*\"?([\w.-]+)", content_type)
        kind_name = kind.group(1) if kind else "unknown"
        if kind_name == "delivery-status":
            return "a bounce (multipart/report; report-type=delivery-status)"
        return f"an automatic report (multipart/report; report-type={_short(kind_name)})"

    auto = headers.get("auto-submitted")
    if auto is not None and _token(auto) != "no":
        return f"an automatic mail (Auto-Submitted: {_short(auto)})"
    for name, label in (("x-autoreply", "X-Autoreply"), ("x-autorespond", "X-Autorespond")):
        if name in headers:
            return f"an automatic reply ({label}: {_short(headers[name])})"
    precedence = _token(headers.get("precedence", ""))
    if precedence in BULK_PRECEDENCE:
        return f"bulk or list mail (Precedence: {precedence})"
    for name, label in (("list-id", "List-Id"), ("list-unsubscribe", "List-Unsubscribe")):
        if name in headers:
            return f"a mailing list copy ({label} header)"
    return None


def _short(value: str, limit: int = 60) -> str:
    """A header value fit for a one-line reason: whatever a stranger put there, kept short."""
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 3] + "..."


def _token(value: str) -> str:
    """The first word of a header value, lower case: "auto-replied; x=1" -> "auto-replied".

    Comments in parentheses, allowed in Auto-Submitted (RFC 3834), are not words.
    """
    words = re.sub(r"\([^()]*\)", " ", value).split(";")[0].split()
    return words[0].strip('"').lower() if words else ""


def _bare(address: str) -> str:
    try:
        return parseaddr(address or "")[1].strip().lower()
    except Exception:
        return ""


def _is_daemon(address: str) -> bool:
    local = address.partition("@")[0].strip().lower()
    return local in DAEMONS or local.startswith("mailer-daemon")
