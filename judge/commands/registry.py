"""The player registry njudge judges keep: REGISTER ... END (njudge's form), WHOIS (and
INFO PLAYER) and I AM ALSO. Anyone may use them; no SIGNON is needed.

What others see: a WHOIS shows anyone the fields a player of a game would expect to
know of a fellow player (name, site, country, time zone, level); the rest (phone,
postal address, the Email line, birth date, sex, the addresses) only to the person
(from any of their addresses) and to the master of a game one of those addresses plays
in, who may need to reach them. An address joins a registration with I AM ALSO only if
that registration's Email line, written by a mail from the registration's own address,
lists it: no address can claim another's registration without that address's mail.
"""

from __future__ import annotations

from judge.commands.language import Command, carries_password, masked_text
from judge.commands.run import Run, refuse
from judge.game.errors import CommandError
from judge.mail.addresses import Undeliverable, deliverable
from judge.store import registry

# njudge's form, its fields in its order (data/form): Name is all we require.
FIELDS = (
    "Name",
    "Phone",
    "Site",
    "Address",
    "Country",
    "Timezone",
    "Email",
    "Level",
    "Birthdate",
    "Sex",
    "Package",
)
PUBLIC = ("Name", "Site", "Country", "Timezone", "Level")  # what WHOIS shows anyone
LEVELS = ("Novice", "Amateur", "Intermediate", "Advanced", "Expert")  # njudge's five
MAX_FIELD_CHARS = 100  # a field's value
MAX_FORM_LINES = 30  # lines of one form (the form has 11 fields)
MAX_EMAILS = 10  # addresses on the Email line (each may join with I AM ALSO), 254 each


def register(run: Run, cmd: Command) -> None:
    """REGISTER ... END: the form's fields stored as the sender's registration (all of
    them replacing any before), or nothing stored and why."""
    sender = run.sub.sender
    fields = _read_form(run, cmd)
    if fields is None or not sender:
        return
    entry = registry.register(run.ctx.db, sender, fields, run.ctx.now)
    run.event("registered", cmd, fields=list(entry.fields), addresses=list(entry.addresses))


def whois(run: Run, cmd: Command) -> None:
    """WHOIS address (INFO PLAYER address): the registration that address belongs to,
    in full for the person and the masters of their games, else its public fields."""
    address = _address(cmd.args[0])
    entry = registry.find(run.ctx.db, address) if address else None
    if entry is None:
        refuse(run, cmd, "not_registered", address=_shown(cmd.args[0]))
        return
    sender = run.sub.sender
    full = sender in entry.addresses or registry.is_master_of(run.ctx.db, sender, entry.addresses)
    fields = [(k, v) for k, v in entry.fields if full or k in PUBLIC]
    run.event(
        "whois", cmd, address=address, fields=fields, addresses=list(entry.addresses), full=full
    )


def i_am_also(run: Run, cmd: Command) -> None:
    """I AM ALSO address: the sender joins the registration of `address`, if its Email
    line lists the sender (and the sender belongs to no other registration)."""
    sender = run.sub.sender
    address = _address(cmd.args[0])
    entry = registry.find(run.ctx.db, address) if address else None
    if entry is None or not sender:
        refuse(run, cmd, "not_registered", address=_shown(cmd.args[0]))
        return
    if sender in entry.addresses:
        run.event("also", cmd, address=address, addresses=list(entry.addresses), before=True)
        return
    if registry.find(run.ctx.db, sender) is not None:
        refuse(run, cmd, "also_registered", address=sender)
        return
    if sender not in _emails(entry.field("Email")):
        refuse(run, cmd, "also_not_listed", address=address, sender=sender)
        return
    registry.link(run.ctx.db, sender, entry.id, run.ctx.now)
    joined = [*entry.addresses, sender]
    run.event("also", cmd, address=address, addresses=joined, before=False)


def _read_form(run: Run, cmd: Command) -> list[tuple[str, str]] | None:
    """The form's fields in the order written, or None (and the first reason) when any
    line is wrong: nothing of a wrong form is stored."""
    lines = [line.strip() for line in (cmd.args[0] if cmd.args else "").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > MAX_FORM_LINES:
        refuse(run, cmd, "register_lines", limit=MAX_FORM_LINES)
        return None
    fields: dict[str, str] = {}
    for line in lines:
        key, colon, value = line.partition(":")
        name = next((f for f in FIELDS if f.lower() == key.strip().lower()), None)
        if not colon or name is None:
            refuse(run, cmd, "register_field", written=_shown_key(key), fields=FIELDS)
            return None
        value = " ".join(value.split())
        try:
            _check_value(name, value, fields)
        except CommandError as e:
            refuse(run, cmd, e.code, name=name, **e.values)
            return None
        if value:
            fields[name] = _normal(name, value)
    if "Name" not in fields:
        refuse(run, cmd, "register_name")
        return None
    return list(fields.items())


def _check_value(name: str, value: str, before: dict[str, str]) -> None:
    """Raise CommandError saying why the field's value cannot be stored, if it cannot."""
    if name in before:
        raise CommandError("register_twice")
    if len(value) > MAX_FIELD_CHARS and name != "Email":  # Email: its addresses are capped
        raise CommandError("register_long", limit=MAX_FIELD_CHARS)
    # A SIGNON line pasted in: never stored, shown or echoed. (Email's words must each be
    # an address, and only the first that is not is echoed.)
    if name != "Email" and carries_password(value):
        raise CommandError("register_secret")
    if name == "Level" and value and value.capitalize() not in LEVELS:
        raise CommandError("register_value", allowed=LEVELS)
    if name == "Package" and value and value.capitalize() not in ("Yes", "No"):
        raise CommandError("register_value", allowed=("Yes", "No"))
    if name == "Email":
        listed = value.replace(",", " ").split()
        if len(listed) > MAX_EMAILS:
            raise CommandError("register_emails", limit=MAX_EMAILS)
        for written in listed:
            if isinstance(deliverable(written), Undeliverable):
                raise CommandError("register_email", address=_shown(written))


def _normal(name: str, value: str) -> str:
    """The value as stored: njudge's words capitalised, Email's addresses in their
    normal form, one space between them."""
    if name in ("Level", "Package"):
        return value.capitalize()
    if name == "Email":
        return ", ".join(_emails(value))
    return value


def _emails(value: str) -> list[str]:
    """The deliverable addresses of an Email line, in their normal form."""
    found = (deliverable(w) for w in value.replace(",", " ").split())
    return [a for a in found if isinstance(a, str)]


def _address(written: str) -> str:
    """The address as the registry keeps it, or "" when it is none."""
    address = deliverable(written)
    return address if isinstance(address, str) else ""


def _shown_key(key: str) -> str:
    """What came before a form line's colon, for the reply: masked as a command line
    would be, and only up to a password-carrying word anywhere in it."""
    words = masked_text(key).split()
    for at, word in enumerate(words):
        if carries_password(word):
            words[at + 1 :] = ["****"] if words[at + 1 :] else []
            break
    return _shown(" ".join(words), 24)


def _shown(written: str, width: int = 40) -> str:
    """A word as written, shortened to fit a line of the reply."""
    return written if len(written) <= width else written[: width - 3] + "..."
