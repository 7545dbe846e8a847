"""Which mail addresses the judge can deliver to, and their one normal form.

An address of record must be one the judge can always send to, whatever relay it is
given: a local part of plain ASCII (RFC 5321 dot-atoms; RFC 6532 UTF-8 local parts need
SMTPUTF8 all the way to the mailbox, which no relay promises) and a domain that is a
host name, written in ASCII (an internationalised domain is stored IDNA-encoded, so
that "bücher.example" and "xn--bcher-kva.example" are one address). Everything is
lower case, as the judge compares addresses.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_ADDRESS = 254  # RFC 5321 4.5.3.1.3: a path is at most 256 octets with its <>
MAX_LOCAL = 64  # RFC 5321 4.5.3.1.1
MAX_LABEL = 63  # RFC 1035 2.3.4

# RFC 5322 atext, dot-separated: no quoted local parts, which mail programs mangle.
_ATOM = r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")

# Why an address is refused, as the key the templates word it by.
NOT_AN_ADDRESS = "not_an_address"
NON_ASCII_LOCAL = "non_ascii_local"
BAD_DOMAIN = "bad_domain"
TOO_LONG = "too_long"
JUDGES_OWN = "judges_own"  # the judge's own: its mail there is ignored as its own


@dataclass(frozen=True)
class Undeliverable:
    """An address the judge will not take as an address of record, and why."""

    address: str  # as given, shortened for a reply
    reason: str  # one of NOT_AN_ADDRESS, NON_ASCII_LOCAL, BAD_DOMAIN, TOO_LONG, JUDGES_OWN


def deliverable(text: str, judge: str = "") -> str | Undeliverable:
    """The normal form of `text` (lower case, ASCII, IDNA domain) when the judge can
    deliver to it, else an Undeliverable saying why; `judge`, the judge's own address, is
    refused too (the judge ignores its own mail: a seat or list there gets nothing, and a
    password sent there goes to the judge's mailbox). Never raises."""
    address = _deliverable(text)
    if judge and isinstance(address, str) and address == _deliverable(judge):
        return Undeliverable(address, JUDGES_OWN)
    return address


def _deliverable(text: str) -> str | Undeliverable:
    """deliverable, the judge's own address aside."""
    given = " ".join(str(text).split())
    shown = given if len(given) <= 80 else given[:77] + "..."
    address = given.strip().removeprefix("<").removesuffix(">").strip()
    if len(address) > 4 * MAX_ADDRESS:  # not worth reading further
        return Undeliverable(shown, TOO_LONG)
    address = unicodedata.normalize("NFC", address).lower()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return Undeliverable(shown, NOT_AN_ADDRESS)
    if not local.isascii():
        return Undeliverable(shown, NON_ASCII_LOCAL)
    if not _LOCAL.fullmatch(local):
        return Undeliverable(shown, NOT_AN_ADDRESS)
    if len(local) > MAX_LOCAL or len(address) > MAX_ADDRESS:
        return Undeliverable(shown, TOO_LONG)
    ascii_domain = idna_domain(domain)
    if ascii_domain is None:
        return Undeliverable(shown, BAD_DOMAIN)
    if len(local) > MAX_LOCAL or len(local) + 1 + len(ascii_domain) > MAX_ADDRESS:
        return Undeliverable(shown, TOO_LONG)
    return f"{local}@{ascii_domain}"


def idna_domain(domain: str) -> str | None:
    """A host name in ASCII, lower case (IDNA for non-ASCII labels), or None when it is
    not a host name. Never raises."""
    domain = domain.strip().lower()
    if not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii").lower()
        except (UnicodeError, ValueError):
            return None
    labels = domain.split(".")
    if len(domain) > MAX_ADDRESS or not all(
        len(label) <= MAX_LABEL and _LABEL.fullmatch(label) for label in labels
    ):
        return None
    return domain


def ascii_form(address: str) -> str:
    """`address` with its domain IDNA-encoded when that makes it ASCII; otherwise as
    given (a UTF-8 local part, or a domain that is no host name). For mail the judge
    must still try to answer, such as a reply to an RFC 6532 sender. Never raises."""
    local, at, domain = address.rpartition("@")
    if not at or domain.isascii():
        return address
    ascii_domain = idna_domain(domain)
    return f"{local}@{ascii_domain}" if ascii_domain else address
