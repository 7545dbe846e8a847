"""The command language of Contract 3: a submission's text -> a list of commands.

Lines are read in order; commands are case-insensitive; `SIGNOFF` (or a `-- ` signature,
already cut by the mail reader) ends them. A line whose first word is not a command is
an order line: it belongs to the game and power of the SIGNON before it. This module
only reads; judge/commands/dispatch.py runs the commands against the store.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from judge.game.errors import Refusal, as_written


@dataclass(frozen=True)
class Command:
    line: int  # 1-based line number in the body
    text: str  # the line as written, with any password masked (it is echoed in replies)
    name: str  # CREATE, SIGNON, JOIN, ORDER, CLEAR, SET WAIT, ..., ERROR
    args: tuple[str, ...] = ()
    error: Refusal | None = None  # an ERROR's reason, worded by templates/errors/<code>.txt


# First words that start commands; "SET" takes a second word.
_SIMPLE = {
    "CREATE",
    "SIGNON",
    "SIGNOFF",
    "CLEAR",
    "RESIGN",
    "HELP",
    "MERGE",
    "REPLACE",
    "PROCESS",
    "PAUSE",
    "RESUME",
    "PREDICT",
    "TERMINATE",
    "EJECT",
    "ROLLBACK",
    "FORCE",
    "PROMOTE",
    "BECOME",
    "OBSERVE",
    "CONFIRM",
    "LIST",
    "WHOGAME",
    "SUMMARY",
    "HISTORY",
    "PRESS",
    "BROADCAST",
    "ENDPRESS",
    "VERSION",
    "GET",
    "SEND",
    "REGISTER",
    "WHOIS",
    "IAMALSO",
    "UNSTART",
}
_SET = {
    "PREFERENCE": "SET PREFERENCE",
    "PREF": "SET PREFERENCE",
    "PREFERENCES": "SET PREFERENCE",
    "WAIT": "SET WAIT",
    "NOWAIT": "SET NOWAIT",
    "PASSWORD": "SET PASSWORD",
    "ADDRESS": "SET ADDRESS",
    "ORDERS": "SET ORDERS",
    "DEADLINE": "SET DEADLINE",
    "GRACE": "SET GRACE",
    "DELAY": "SET DELAY",
    "REMINDER": "SET REMINDER",
    "TIME": "SET TIME",
    "DAYS": "SET DAYS",
    "NMR": "SET NMR",
    "NONMR": "SET NONMR",
    "ABSENCE": "SET ABSENCE",
    "NOABSENCE": "SET NOABSENCE",
    "DRAW": "SET DRAW",
    "CONCEDE": "SET CONCEDE",
    "NOCONCEDE": "SET NOCONCEDE",
    "OBSERVER": "SET OBSERVER PRESS",
    "NODRAW": "SET NODRAW",
    "PRESS": "SET PRESS",
    "PARTIAL": "SET PARTIAL",
    "MAP": "SET MAP",
    "LIST": "SET LIST",
    "COMMENT": "SET COMMENT",
    "NOLIST": "SET LISTED",  # SET NOLIST, SET NO LIST
    "UNLIST": "SET LISTED",
    "PRIVATE": "SET LISTED",
    "PUBLIC": "SET LISTED",
    "MOVE": "SET MOVE LENGTH",
    "MOVEMENT": "SET MOVE LENGTH",
    "RETREAT": "SET RETREAT LENGTH",
    "ADJUST": "SET ADJUST LENGTH",
    "BUILD": "SET ADJUST LENGTH",
    "RULES": "SET RULES",
    "RULE": "SET RULES",
    "VICTORY": "SET VICTORY",
    "END": "SET END",
    "STALE": "SET STALE",
    "MAXYEARS": "SET MAXYEARS",
    "PROXY": "SET PROXY",
    "PLAYERS": "SET PLAYERS",
    "MANUAL": "SET MANUAL",
    "NOMANUAL": "SET MANUAL",
    "AUTO": "SET MANUAL",
    "STRICT": "SET STRICT",
    "NOSTRICT": "SET STRICT",
    "MODERATE": "SET MODERATED",
    "MODERATED": "SET MODERATED",
    "UNMODERATE": "SET MODERATED",
    "UNMODERATED": "SET MODERATED",
    "START": "SET START",
    "APPROVAL": "SET APPROVAL",  # SET [NO] APPROVAL; SET [NOT] APPROVE letters
    "NOAPPROVAL": "SET APPROVAL",
    "APPROVE": "SET APPROVE",
    "NOT": "SET APPROVE",
    # Gunboat (njudge.md section 2): the variant and its option words, and the flags.
    "VARIANT": "SET VARIANT",
    **{
        f"{no}{word}": f"SET {word}"
        for word in ("REVEAL", "SHOW", "QUIET", "SECRET")
        for no in ("", "NO")
    },
}
# The SET commands that take text (templates/errors/usage.txt says what text each takes).
_TAKES_TEXT = frozenset(
    {
        "SET DEADLINE",
        "SET GRACE",
        "SET DELAY",
        "SET REMINDER",
        "SET TIME",
        "SET DAYS",
        "SET ABSENCE",
        "SET NOABSENCE",
        "SET MOVE LENGTH",
        "SET RETREAT LENGTH",
        "SET ADJUST LENGTH",
        "SET PRESS",
        "SET PARTIAL",
        "SET MAP",
        "SET CONCEDE",
        "SET OBSERVER PRESS",
        "SET LIST",
        "SET VICTORY",
        "SET END",
        "SET STALE",
        "SET MAXYEARS",
        "SET PROXY",
        "SET PLAYERS",
        "SET START",
    }
)
KNOWN = sorted(
    _SIMPLE
    | {f"SET {w}" for w in ("PREFERENCE", "WAIT", "NOWAIT", "PASSWORD", "ADDRESS", "ORDERS")}
)

# Every command name read_commands gives besides ERROR: judge/commands/table.py has one
# entry for each. SIGNOFF and ENDPRESS end things and are no commands; BROADCAST is a
# PRESS; SIGNON ?name is JOIN; REPLACE with arguments the master's REPLACE POWER; SEND
# [ME] name is GET name.
NAMES = frozenset(
    (_SIMPLE - {"SIGNOFF", "ENDPRESS", "BROADCAST", "FORCE", "SEND"})
    | set(_SET.values())
    | {"JOIN", "ORDER", "REPLACE POWER", "FORCE BEGIN"}
    | {"PHASE", "IF", "ELSE", "ENDIF"}
    | {"SET PRESS RULE", "DIARY"}
)


# njudge's spellings (its general parsing rules): first words
# that are synonyms of ours, and multi-word keywords whose spaces are optional. Only a
# whole first word (or first two) is read so: no bundled map has a province or a power
# named by one of these words (tests/test_njudge_spellings.py checks every map).
_SYNONYMS = {
    "HELLO": "SIGNON",
    "LOGIN": "SIGNON",
    "WATCH": "OBSERVE",
    "WITHDRAW": "RESIGN",
    "STATUS": "SUMMARY",
    "SUSPEND": "PAUSE",
    "ENDBROADCAST": "ENDPRESS",
}
_JOINED = {
    ("SIGN", "ON"): "SIGNON",
    ("SIGN", "OFF"): "SIGNOFF",
    ("WHO", "GAME"): "WHOGAME",
    ("ROLL", "BACK"): "ROLLBACK",
    ("END", "PRESS"): "ENDPRESS",
    ("END", "BROADCAST"): "ENDPRESS",
    ("POSTAL", "PRESS"): "POSTALPRESS",  # njudge's press held until the phase is processed
}
_SPLIT = {"FORCEBEGIN": ("FORCE", "BEGIN")}


def spelled(words: list[str]) -> list[str]:
    """The line's words with njudge's spellings of a command read as ours (`SIGN ON` ->
    `SIGNON`, `WATCH` -> `OBSERVE`, `SET NO WAIT` -> `SET NOWAIT`); other words as
    written. A line that starts with no such spelling comes back unchanged."""
    first = words[0].upper()
    for width in (3, 2):  # I AM ALSO, IAM ALSO, I AMALSO: spaces optional
        if len(words) >= width and "".join(w.upper() for w in words[:width]) == "IAMALSO":
            return ["IAMALSO", *words[width:]]
    if len(words) > 1 and (first, words[1].upper()) == ("INFO", "PLAYER"):
        return ["WHOIS", *words[2:]]  # one entry of the registry, as WHOIS shows it
    if len(words) > 1 and (first, words[1].upper()) in _JOINED:
        return [_JOINED[first, words[1].upper()], *words[2:]]
    if first in _SYNONYMS:
        return [_SYNONYMS[first], *words[1:]]
    if first in _SPLIT:
        return [*_SPLIT[first], *words[1:]]
    if first == "SET" and len(words) > 2 and words[1].upper() == "NO":
        joined = "NO" + words[2].upper()
        if joined in _SET:  # SET NO WAIT, SET NO DRAW, SET NO CONCEDE, SET NO NMR
            return [words[0], joined, *words[3:]]
    return words


# The lines that end a press block: njudge's spellings too (ENDBROADCAST = ENDPRESS).
_PRESS_ENDS = frozenset({"ENDPRESS", "END PRESS", "ENDBROADCAST", "END BROADCAST", "SIGNOFF"})
MAX_COMMANDS = 100  # command and order lines read from one mail (press lines not counted)
# A line that carries a password, at most: far below a mail's longest line (mail/trim.py's
# MAX_LINE, where a longer one is cut), so a password is never read cut short, matching
# any password that begins as it does.
MAX_PASSWORD_LINE = 1_000
_GUESSABLE = 25  # a longer word is near no command name: difflib is not asked


# A mail is read twice, its passwords checked ahead (service/prechecks.py) and then its
# commands run: the last bodies read, up to this long, are remembered (at most 4 MiB).
# Between a mail's two readings the daemon reads up to 99 mails after it and runs up to
# 99 before it (service/handling.py's AHEAD, 100): 128 lost most second readings.
READ_REMEMBERED, READ_REMEMBERED_CHARS = 256, 16_384


def read_commands(body: str) -> list[Command]:
    """Every command of a submission, with ERROR commands for lines that cannot be read."""
    if len(body) <= READ_REMEMBERED_CHARS:
        return list(_read_remembered(body))
    return _read(body)


@lru_cache(maxsize=READ_REMEMBERED)
def _read_remembered(body: str) -> tuple[Command, ...]:
    return tuple(_read(body))  # Commands are frozen: the callers share them


def _read(body: str) -> list[Command]:
    out: list[Command] = []
    block: list[str] | None = None  # lines of an open PRESS/BROADCAST or REGISTER block
    opened: Command | None = None
    for number, raw in enumerate(body.splitlines(), start=1):
        text = raw.strip()
        if block is not None and opened is not None:
            if " ".join(text.upper().split()) in _BLOCK_ENDS[opened.name]:
                out.append(replace(opened, args=(*opened.args, "\n".join(block).strip("\n"))))
                block = opened = None
                if text.upper() == "SIGNOFF":
                    break
            else:
                block.append(_block_line(raw.rstrip()))
            continue
        if not text:
            continue
        written = text.split()
        masked = _masked(written)  # a line that carries a password: never split
        # masked as written, before any synonym is read; a password later in it too
        text = masked or _masked_anywhere(written, 3) or _masked_glued(written) or text
        words = spelled(written)
        first = words[0].upper()
        if first == "SIGNOFF":
            break
        opens = first in ("PRESS", "BROADCAST", "REGISTER", "POSTALPRESS")
        if masked and len(raw.strip()) > MAX_PASSWORD_LINE:  # never a password cut short
            out.append(_error(number, text, "password_line_too_long", limit=MAX_PASSWORD_LINE))
        elif opens or _diary_opens(first, words[1:]):
            opened = _opening(number, text, first, words[1:])
            if opened.name == "ERROR":
                out.append(opened)
                opened = None
            else:
                block = []
        elif first == "DIARY":
            out.append(_diary(number, text, words[1:]))
        elif first == "HISTORY":
            out.append(_history(number, text, words[1:], any(c.name in _OPENS for c in out)))
        elif first == "SET" and [w.upper() for w in words[1:]] == ["COMMENT", "BEGIN"]:
            out.append(_long_comment(number, text, body.splitlines()[number:]))
            break  # the rest of the mail was the comment
        elif first in _HELD_WORDS or [w.upper() for w in words[:2]] == ["END", "IF"]:
            out.append(_held(number, text, spelled(text.split())))  # as masked
        elif first in _SIMPLE:
            out.append(_simple(number, text, first, words[1:]))
        elif first == "SET":
            out += _set_line(number, text, words[1:])
        else:  # a line carrying a password is never split (each piece would be echoed)
            out += [Command(number, o, "ORDER", (o,)) for o in ([text] if masked else orders(text))]
        if len(out) > MAX_COMMANDS:  # bounds the work one mail can cause
            unread = out[MAX_COMMANDS]  # the first one not read (a press block's opening)
            out[MAX_COMMANDS:] = [
                _error(unread.line, unread.text, "too_many_lines", limit=MAX_COMMANDS)
            ]
            return out
    if block is not None and opened is not None:  # no end line: the rest of the mail
        out.append(replace(opened, args=(*opened.args, "\n".join(block).strip("\n"))))
    return out


# The lines that end a block, by the command that opened it: REGISTER's form ends at END.
_BLOCK_ENDS = {
    "PRESS": _PRESS_ENDS,
    "REGISTER": frozenset({"END", "SIGNOFF"}),
    "DIARY": _PRESS_ENDS,  # DIARY [RECORD]: its text ends as press does
}


# A block's line (press, a diary entry, a form) that starts with one of these (its
# letters, or its first two words' run together) is a SIGNON or SET PASSWORD line: a
# press not ended before the sender signs on again goes to others. HELLO and OBSERVE
# are left out, and CREATE counts only before `?name`: press often starts with them
# ("Hello Germany", "Observe that", "Create a DMZ").
_BLOCK_SECRETS = frozenset({"SIGNON", "SIGNIN", "LOGON", "LOGIN", "PASSWORD", "PASSWD"})


def _block_line(line: str) -> str:
    """A block's line as it goes to others: one that signs on, creates a game or sets a
    password masked as a command line's echo is (`SIGNON Fwar1 ****`), any other as
    written."""
    words = line.split()
    starts = [_letters(w) for w in words[:2]]
    create = starts[:1] == ["CREATE"] and len(words) > 2 and words[1].startswith("?")
    if create or (
        starts
        and (starts[0] in _BLOCK_SECRETS or "".join(starts) in _BLOCK_SECRETS | {"SETPASSWORD"})
    ):
        return _masked(words) or line
    return line


def _opening(number: int, text: str, first: str, args: list[str]) -> Command:
    """The command opening a block of lines: PRESS/BROADCAST, or REGISTER (alone on its
    line: njudge's form follows it, one `Field: value` a line, up to END)."""
    if first == "DIARY":
        return Command(number, text, "DIARY", ("RECORD",))
    if first != "REGISTER":
        return _press(number, text, first, args)
    if args:
        return _error(number, text, "alone_on_line", name="REGISTER")
    return Command(number, text, "REGISTER")


# The first words of an order in a list of several on one line (njudge: `A Par-Bur, F
# Bre-MAO; A Mar H`): a unit, or an adjustment's keyword. A line is split only when every
# piece starts with one, so a comma in anything else (a sentence, a misread command) keeps
# the line whole, read as before.
_ORDER_STARTS = frozenset(
    {"A", "ARMY", "F", "FLEET", "BUILD", "BUILDS", "REMOVE", "REMOVES", "DISBAND", "DISBANDS"}
    | {"WAIVE", "WAIVES"}
)
_ORDER_SEPARATORS = re.compile(r"[,;]")


def orders(text: str) -> list[str]:
    """The orders of an order line: several where the line is a list of orders separated
    by `,` or `;`, each piece stripped; otherwise the line alone."""
    pieces = [p.strip() for p in _ORDER_SEPARATORS.split(text)]
    pieces = [p for p in pieces if p]
    if len(pieces) < 2 or not all(_letters(p.split()[0]) in _ORDER_STARTS for p in pieces):
        return [text]
    return [masked_text(p) for p in pieces]  # a piece is echoed as a line of its own


def _press(number: int, text: str, first: str, args: list[str]) -> Command:
    """PRESS options, BROADCAST [options] or POSTAL PRESS [options]: args (PRESS,
    BROADCAST or POSTAL, the options as
    written; judge/game/press_rules.py reads them). PRESS without options is refused by
    the handler, its text read and discarded, as njudge does."""
    kind = "POSTAL" if first == "POSTALPRESS" else first
    return Command(number, text, "PRESS", (kind, " ".join(args)))


def _diary_opens(first: str, args: list[str]) -> bool:
    """Whether the line is DIARY or DIARY RECORD, which the entry's lines follow."""
    return first == "DIARY" and [a.upper() for a in args] in ([], ["RECORD"])


def _diary(number: int, text: str, args: list[str]) -> Command:
    """DIARY LIST, DIARY READ n, DIARY DELETE n: args (the word, the number if any)."""
    words = [a.upper() for a in args]
    if words == ["LIST"]:
        return Command(number, text, "DIARY", ("LIST",))
    # A number of more than six digits is no entry's (MAX_ENTRIES), and not read as one.
    if len(words) == 2 and words[0] in ("READ", "DELETE") and words[1].isdecimal():
        return (
            Command(number, text, "DIARY", (words[0], words[1]))
            if len(words[1]) <= 6
            else _error(number, text, "usage", name="DIARY")
        )
    return _error(number, text, "usage", name="DIARY")


# Words after which a line carries a password, as written or nearly (a typo, a colon, a
# number before it): SIGNON and njudge's synonyms, CREATE, OBSERVE/WATCH, JOIN, and
# PASSWORD (SET PASSWORD, or the word alone). Words under six letters count only as
# spelt here: one typo from HELLO is HELGO, a province in some maps' orders.
_SECRET_WORDS = (
    "SIGNON",
    "SIGNIN",
    "LOGON",
    "LOGIN",
    "HELLO",
    "CREATE",
    "OBSERVE",
    "WATCH",
    "JOIN",
    "PASSWORD",
    "PASSWD",
    "SETPASSWORD",
)
_SECRET_SHORT = ("PASS", "PW", "PWD")
_LONGEST_SECRET = max(map(len, _SECRET_WORDS))  # a word two letters longer is none of them
_MASK = "****"
# The language's own words that carry no password, however close to one they are.
_OTHER_WORDS = (_SIMPLE | set(_SET)) - set(_SECRET_WORDS)


def _masked(words: list[str]) -> str | None:
    """The line with its password replaced by ****, for lines that carry one (or seem to).

    The well-formed commands keep their game: `SIGNON Fwar1 ****`, `CREATE ?g ****
    standard-6`, `OBSERVE war1 ****`, `SET PASSWORD ****`. Any other line whose first
    words are, or nearly are, a password-carrying command keeps the words up to that
    command and masks everything after it (`SIGN ON ****`, `1. SIGNIN ****`)."""
    first = words[0].upper()
    if first in ("SIGNON", "OBSERVE", "CREATE") and len(words) >= 3:
        if first != "OBSERVE" and len(words) > 3 and variant_words(words[3:]) is not None:
            return " ".join([*words[:2], _MASK, *words[3:]])  # the variant is no secret
        return " ".join([*words[:2], _MASK])
    if first == "SET" and len(words) >= 2 and words[1].upper() == "PASSWORD":
        return " ".join([*words[:2], _MASK]) if len(words) > 2 else None
    if len(words) >= 3 and _confirm_word(first):  # its code is as good as a password
        return " ".join([*words[:2], _MASK])
    for start in range(min(len(words), 3)):  # after a number, a bullet, SET, ...
        for width in (1, 2):  # SIGN ON, LOG IN, SET PASSWORD written as two words
            if start + width > len(words):
                break
            joined = "".join(_letters(w) for w in words[start : start + width])
            if _carries_password(joined) or _signon_typo(words, start + width, joined):
                kept = words[: start + width]
                rest = words[start + width :]
                return " ".join([*kept, _MASK]) if rest else None
    return None


def masked_line(text: str) -> str:
    """A Subject: line with whatever follows a password-carrying word masked, wherever
    it stands ("Re: TEST:war1 - S1901M SIGNON Fwar1 ****": a subject is free text). A
    subject of two words starting with HELLO ("Hello 1") is a greeting, not njudge's."""
    words = text.split()
    if len(words) < 2 or (len(words) == 2 and _letters(words[0]) == "HELLO"):
        return text
    return _masked_anywhere(words) or _masked_glued(words) or text


# A password-carrying word glued to what follows it: "SIGNONFwar1 pw2", "SIGNON,Fwar1,pw2".
_GLUED = re.compile(r"(SIGN-?ON|SIGN-?IN|LOG-?IN|LOG-?ON|PASSWORD|PASSWD)(?=.)", re.IGNORECASE)


def _masked_glued(words: list[str]) -> str | None:
    """The words with everything after a password-carrying word glued to more (see
    _GLUED) masked, for the echo; None if there is none."""
    for n, word in enumerate(words):
        glued = _GLUED.match(word)
        if glued:
            return " ".join([*words[:n], glued.group(0), _MASK])
    return None


def _masked_anywhere(words: list[str], first: int = 0) -> str | None:
    """As _masked, with the password-carrying word anywhere among `words` from the
    `first`, not only among the first three ("Dear judge, here it is: SIGNON ****")."""
    for start in range(first, len(words) - 1, 3):  # _masked looks at three words at a time
        rest = _masked(words[start:])
        if rest is not None:
            return " ".join([*words[:start], rest])
    return None


def masked_text(text: str) -> str:
    """Any text with whatever follows a password-carrying word among its first words
    masked, as a command line's echo is."""
    words = text.split()
    return (_masked(words) or text) if words else text


def carries_password(text: str) -> bool:
    """Whether any word of `text` is, or nearly is, a word a password follows (SIGNON,
    PASSWORD, LOGIN ...): such text is kept out of what is stored and shown to others."""
    return any(_carries_password(_letters(word)) for word in text.split())


def _letters(word: str) -> str:
    """The word's letters, in capitals."""
    return "".join(c for c in word.upper() if c.isalpha())


def _carries_password(word: str) -> bool:
    """Whether `word` (letters only, upper case) is a password-carrying command word, or
    one typo away from one (two for the long words)."""
    if word in _SECRET_SHORT:
        return True
    if not 4 <= len(word) <= _LONGEST_SECRET + 2 or word in _OTHER_WORDS:
        return False  # (SET OBSERVER PRESS is no OBSERVE)
    return _near_secret(word)


# Only words this short are kept: a stranger's megabyte-long words are never remembered.
@lru_cache(maxsize=4096)  # every word of every command line is asked about
def _near_secret(word: str) -> bool:
    for target in _SECRET_WORDS:
        allowed = 0 if len(target) < 6 else 1 if len(target) < 7 else 2
        if abs(len(word) - len(target)) <= allowed and _typos(word, target) <= allowed:
            return True
    return False


def _confirm_word(word: str) -> bool:
    """Whether `word` is CONFIRM, or two typos from it at most (CONFIMR, CONFRIM): its
    code is masked too. Not among _SECRET_WORDS: "confirm" in a press or a diary is
    only a word."""
    letters = _letters(word)
    if letters == "CONFIRM":
        return True
    if letters in _OTHER_WORDS or abs(len(letters) - len("CONFIRM")) > 2:
        return False
    return _typos(letters, "CONFIRM") <= 2


def _signon_typo(words: list[str], after: int, word: str) -> bool:
    """Whether `word`, one typo from a short password word (HELO, LOGN, WACTH), is
    followed by a game and more, as a sign-on is: the game marked by ? or holding a
    digit (?war1, Awar1), which no province name does, so no order loses its echo."""
    if len(words) < after + 2 or word in _OTHER_WORDS:
        return False
    game = words[after]
    if not (game.startswith("?") or any(c.isdigit() for c in game)):
        return False
    short = (w for w in _SECRET_WORDS if len(w) < 6)
    return any(abs(len(word) - len(w)) <= 1 and _typos(word, w) <= 1 for w in short)


def _typos(a: str, b: str) -> int:
    """Edits between a and b: letters added, dropped, changed or swapped with the next."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def _variants() -> set[str]:
    """The names of the variants there are."""
    from judge.variants.maps import map_names  # noqa: PLC0415 (only for CREATE lines)

    return set(map_names())


# The options a game of any variant may have (njudge's variant words after the name).
GUNBOAT = "gunboat"
OPTIONS = frozenset({GUNBOAT})


def variant_words(words: list[str]) -> tuple[str, ...] | None:
    """njudge's variant words (`standard gunboat`, `gunboat`, `chaos`: a variant and
    options, in any order) in lower case, the variant first if named; None unless every
    word is one, with at most one variant and each option once."""
    lowered = [w.lower() for w in words]
    named = [w for w in lowered if w not in OPTIONS]
    options = [w for w in lowered if w in OPTIONS]
    if len(named) > 1 or len(set(options)) != len(options):
        return None
    if any(w not in _variants() for w in named):
        return None
    return (*named, *options)


def _simple(number: int, text: str, name: str, args: list[str]) -> Command:
    """A command whose first word is `name` (not SET, PRESS or BROADCAST)."""
    if name == "CREATE":
        return _create(number, text, args)
    if name == "SIGNON":
        return _signon(number, text, args)
    if name == "REPLACE" and args:  # master: REPLACE power address
        if len(args) != 2:
            return _error(number, text, "usage", name="REPLACE")
        return Command(number, text, "REPLACE POWER", tuple(args))
    if name == "FORCE":
        if [a.upper() for a in args] != ["BEGIN"]:
            return _error(number, text, "usage", name="FORCE")
        return Command(number, text, "FORCE BEGIN")
    if name in ("EJECT", "BECOME", "PROMOTE", "OBSERVE", "LIST", "WHOGAME", "SUMMARY"):
        need = {"LIST": (0, 1), "OBSERVE": (2, 2), "WHOGAME": (1, 2)}.get(name, (1, 1))
        if name == "WHOGAME" and len(args) == 2 and args[1].upper() != "FULL":
            return _error(number, text, "whogame_word", word=_short(args[1]))
        if not need[0] <= len(args) <= need[1]:
            return _error(number, text, "usage", name=name)
        return Command(number, text, name, tuple(a.lower() if name != "EJECT" else a for a in args))
    if name == "CONFIRM":  # CONFIRM name code: the code as written (the handler reads it,
        # spaces left out: "ABCD EFGH" as a reader copies it)
        if len(args) < 2:
            return _error(number, text, "usage", name=name)
        return Command(number, text, name, (args[0].lower(), " ".join(args[1:])))
    if name in ("GET", "SEND"):
        return _get(number, text, name, args)
    if name in ("WHOIS", "IAMALSO"):  # an address
        if len(args) != 1:
            return _error(number, text, "usage", name=name)
        return Command(number, text, name, tuple(args))
    if name == "ENDPRESS":  # a press block's end is read in read_commands: none is open
        return _error(number, text, "usage", name="ENDPRESS")
    if name == "ROLLBACK":
        return Command(number, text, name, tuple(a.upper() for a in args[:1]))
    if args and name in (
        "CLEAR",
        "RESIGN",
        "MERGE",
        "PAUSE",
        "RESUME",
        "PREDICT",
        "TERMINATE",
        "ENDPRESS",
        "VERSION",
        "UNSTART",
    ):
        return _error(number, text, "alone_on_line", name=name)
    return Command(number, text, name, tuple(args))


# njudge's orders for a later phase (njudge.md section 4): PHASE, and the conditions
# after it. END IF and ELSEIF are read as ENDIF and ELSE IF.
_HELD_WORDS = frozenset({"PHASE", "IF", "ELSE", "ELSEIF", "ENDIF"})


def _held(number: int, text: str, words: list[str]) -> Command:
    """PHASE phase (args: the phase as written; the handler reads it), IF condition
    (args: the condition, THEN left on it), ELSE [IF condition] (args: "IF condition" or
    none) and ENDIF. `words` are the line's as masked: the args are echoed and stored."""
    first, args = words[0].upper(), words[1:]
    if first == "ELSEIF":
        first, args = "ELSE", ["IF", *args]
    if first == "END":
        first, args = "ENDIF", args[1:]
    if first in ("PHASE", "IF") and not args:
        return _error(number, text, "usage", name=first)
    if first == "ENDIF" and args:
        return _error(number, text, "alone_on_line", name=first)
    if first == "ELSE" and args and (args[0].upper() != "IF" or len(args) < 2):
        return _error(number, text, "usage", name="ELSE")
    if first == "ELSE" and args:
        return Command(number, text, "ELSE", ("IF " + " ".join(args[1:]),))
    return Command(number, text, first, (" ".join(args),) if args else ())


def _get(number: int, text: str, first: str, args: list[str]) -> Command:
    """GET name, SEND name or SEND ME name (njudge's three spellings): GET with the file's
    name in lower case (the handler looks it up in a fixed set of names)."""
    if first == "SEND" and args and args[0].upper() == "ME":
        args = args[1:]
    if len(args) != 1:
        return _error(number, text, "usage", name="GET")
    return Command(number, text, "GET", (args[0].lower(),))


# The commands after which a HISTORY may leave out its game (the game signed on to).
_OPENS = frozenset({"SIGNON", "JOIN", "CREATE", "OBSERVE"})
# HISTORY's keywords: njudge's two forms, FROM/TO/LINES and EXCLSTART/EXCLEND/BROAD.
_HISTORY_DATES = ("FROM", "TO", "LINES")
_HISTORY_TURNS = ("EXCLSTART", "EXCLEND", "BROAD")
_HISTORY_ONE_WORD = frozenset({"LINES", "EXCLSTART", "EXCLEND"})


def _history(number: int, text: str, args: list[str], signed_on: bool) -> Command:
    """HISTORY [name] [FROM date] [TO date] [LINES n], or HISTORY [name] EXCLSTART turn
    [EXCLEND turn] [BROAD]: args (name, keyword, its words, keyword, ...), the name ""
    where it is left out after a SIGNON. The values are read by the handler."""
    keywords = (*_HISTORY_DATES, *_HISTORY_TURNS)
    game = ""
    if args and args[0].upper() not in keywords:
        game, args = args[0].lower(), args[1:]
    if not game and not signed_on:
        return _error(number, text, "usage", name="HISTORY")
    clauses: dict[str, list[str]] = {}
    current: list[str] | None = None
    for word in args:
        key = word.upper()
        if key in keywords:
            if key in clauses:
                return _error(number, text, "history_twice", word=key)
            current = clauses[key] = []
        elif current is None:
            return _error(number, text, "history_word", word=_short(word))
        else:
            current.append(word)
    refused = _history_refused(number, text, clauses)
    if refused is not None:
        return refused
    flat = [part for key, words in clauses.items() for part in (key, " ".join(words))]
    return Command(number, text, "HISTORY", (game, *flat))


def _history_refused(number: int, text: str, clauses: dict[str, list[str]]) -> Command | None:
    """An ERROR saying why HISTORY's clauses do not make one of its two forms, if not."""
    for key, words in clauses.items():
        wrong = bool(words) if key == "BROAD" else not words
        if wrong or (key in _HISTORY_ONE_WORD and len(words) > 1):
            return _error(number, text, "history_value", word=key)
    dates = [k for k in clauses if k in _HISTORY_DATES]
    turns = [k for k in clauses if k in _HISTORY_TURNS]
    if dates and turns:
        return _error(number, text, "history_forms", dates=dates[0], turns=turns[0])
    if turns and "EXCLSTART" not in clauses:
        return _error(number, text, "history_value", word="EXCLSTART")
    return None


def _short(word: str) -> str:
    """A word as written, shortened to fit a line."""
    return word if len(word) <= 40 else word[:37] + "..."


def _create(number: int, text: str, args: list[str]) -> Command:
    """CREATE ?name password [variant] [GUNBOAT]: args (name, password, then the variant
    words as variant_words gives them)."""
    if len(args) < 2 or not args[0].startswith("?"):
        return _error(number, text, "usage", name="CREATE")
    words = variant_words(args[2:]) if len(args) <= 2 + len(OPTIONS) + 1 else None
    if words is None:
        # Not echoed: "CREATE ?g my secret" would show half of a password.
        return _error(number, text, "variant_expected", variants=tuple(sorted(_variants())))
    return Command(number, text, "CREATE", (args[0][1:].lower(), args[1], *words))


def _signon(number: int, text: str, args: list[str]) -> Command:
    """SIGNON Xname password, or SIGNON ?name password [variant] [GUNBOAT] (JOIN: args
    name, password and the variant words); SIGNON ? password (JOIN with no name: the
    first game still forming)."""
    if len(args) == 2 and args[0] == "?":
        return Command(number, text, "JOIN", ("", args[1]))
    joining = len(args) > 2 and args[0].startswith("?") and len(args) <= 3 + len(OPTIONS)
    words = variant_words(args[2:]) if joining else ()
    if (len(args) != 2 and not words) or len(args[0]) < 2:
        return _error(number, text, "usage", name="SIGNON")
    who, game = args[0][0].upper(), args[0][1:].lower()
    if who == "?":
        return Command(number, text, "JOIN", (game, args[1], *(words or ())))
    return Command(number, text, "SIGNON", (who, game, args[1]))


# njudge's SET keywords that take no value: several may share a line, separated by spaces
# or commas (`SET NMR, NOWAIT`), and PRESS among them is filler (`SET PRESS GREY` = `SET
# GREY`). Each is the command (and value) of ours it stands for; CD is njudge's NMR.
_SET_FLAGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "WAIT": ("SET WAIT", ()),
    "NOWAIT": ("SET NOWAIT", ()),
    "NMR": ("SET NMR", ()),
    "NONMR": ("SET NONMR", ()),
    "CD": ("SET NMR", ()),
    "NOCD": ("SET NONMR", ()),
    "DRAW": ("SET DRAW", ()),
    "NODRAW": ("SET NODRAW", ()),
    "WHITE": ("SET PRESS", ("WHITE",)),
    "GREY": ("SET PRESS", ("GREY",)),
    "GRAY": ("SET PRESS", ("GREY",)),
    "NONE": ("SET PRESS", ("NONE",)),
    "NOPRESS": ("SET PRESS", ("NONE",)),
    # Not LIST itself: SET LIST NONE is the mailing list's, not LIST and press NONE.
    "NOLIST": ("SET LISTED", ("NO",)),
    "UNLIST": ("SET LISTED", ("NO",)),
    "PRIVATE": ("SET LISTED", ("NO",)),
    "PUBLIC": ("SET LISTED", ("YES",)),
    # njudge's press settings (judge/commands/press_options.py); PRESS after one is filler.
    "NOGREY": ("SET PRESS", ("WHITE",)),
    "NOGRAY": ("SET PRESS", ("WHITE",)),
    "NOWHITE": ("SET PRESS", ("GREY",)),
    "WHITE/GREY": ("SET PRESS RULE", ("MODE", "white/grey")),
    "WHITE/GRAY": ("SET PRESS RULE", ("MODE", "white/grey")),
    "GREY/WHITE": ("SET PRESS RULE", ("MODE", "grey/white")),
    "GRAY/WHITE": ("SET PRESS RULE", ("MODE", "grey/white")),
    "PARTIAL": ("SET PRESS RULE", ("PARTIAL", "ON")),
    "NOPARTIAL": ("SET PRESS RULE", ("PARTIAL", "OFF")),
    "NOFAKE": ("SET PRESS RULE", ("FAKE", "no")),
    "NOFAKES": ("SET PRESS RULE", ("FAKE", "no")),
    "MINOR": ("SET PRESS RULE", ("MINOR", "ON")),
    "NOMINOR": ("SET PRESS RULE", ("MINOR", "OFF")),
    "LATE": ("SET PRESS RULE", ("LATE", "ON")),
    "NOLATE": ("SET PRESS RULE", ("LATE", "OFF")),
    "POSTAL": ("SET PRESS RULE", ("POSTAL", "ON")),
    "NOPOSTAL": ("SET PRESS RULE", ("POSTAL", "OFF")),
    "ALL": ("SET PRESS RULE", ("ALL", "ON")),
    "NORMAL": ("SET PRESS RULE", ("ALL", "OFF")),
    # Gunboat's flags (judge/commands/gunboat.py): SET [NO] REVEAL, SHOW, QUIET, SECRET.
    **{
        f"{no}{word}": (f"SET {word}", ("OFF" if no else "ON",))
        for word in ("REVEAL", "SHOW", "QUIET", "SECRET")
        for no in ("", "NO")
    },
}
# njudge's press keywords of several words (tried before single ones, longest first).
_SET_PHRASES: dict[tuple[str, ...], tuple[str, tuple[str, ...]]] = {
    ("PARTIAL", "MAY", "BE", "FAKED"): ("SET PRESS RULE", ("FAKE", "may")),
    ("PARTIAL", "FAKES", "BROADCAST", "BY", "DEFAULT"): ("SET PRESS RULE", ("FAKE", "broadcast")),
    ("PARTIAL", "FAKES", "BROADCAST"): ("SET PRESS RULE", ("FAKE", "broadcast")),
    **{
        (*press, "OBSERVER", *after, word): ("SET PRESS RULE", ("OBSERVER", word.lower()))
        for word in ("ANY", "WHITE", "NONE")
        for press, after in (((), ()), (("PRESS",), ()), ((), ("PRESS",)))
    },
    **{
        tuple(f"{no}{words}".split()): ("SET PRESS RULE", ("NJUDGE", f"SET {no}{words}"))
        for no in ("", "NO ")
        for words in ("GRACE PRESS", "MUST ORDER", "TOUCH PRESS", "BLANK PRESS", "WATCH ALL PRESS")
    },
}


def _set_line(number: int, text: str, args: list[str]) -> list[Command]:
    """The SET commands of a SET line: one for each of njudge's keywords where the line
    is a list of them (each echoed as `SET keyword`), else the one SET command it is."""
    flags = _set_flags(args)
    if not flags:
        return [_set(number, text, args)]
    if len(flags) == 1:
        return [Command(number, text, *flags[0][1:])]
    return [Command(number, f"SET {shown}", name, values) for shown, name, values in flags]


def _set_flags(args: list[str]) -> list[tuple[str, str, tuple[str, ...]]] | None:
    """(the keyword as written, our command, its values) for each keyword of a SET line
    made only of njudge's value-less keywords (NO X as one keyword, PRESS skipped); None
    for any other line, read as today."""
    words = " ".join(args).replace(",", " ").split()
    out: list[tuple[str, str, tuple[str, ...]]] = []
    at = 0
    while at < len(words):
        phrase = _phrase([w.upper() for w in words[at:]])
        if phrase:
            out.append((" ".join(words[at : at + len(phrase)]), *_SET_PHRASES[phrase]))
            at += len(phrase)
            continue
        word = words[at].upper()
        width = 2 if word == "NO" and at + 1 < len(words) else 1
        key = "".join(w.upper() for w in words[at : at + width])
        at += width
        if key == "PRESS":
            continue  # filler
        if key not in _SET_FLAGS:
            return None
        out.append((" ".join(words[at - width : at]), *_SET_FLAGS[key]))
    return out or None


def _phrase(words: list[str]) -> tuple[str, ...] | None:
    """The longest of njudge's several-word SET keywords that `words` (capitals) start with."""
    found = [p for p in _SET_PHRASES if tuple(words[: len(p)]) == p]
    return max(found, key=len) if found else None


# njudge's on/off flags: the word after SET -> (the command, on), and the words each
# takes after it (SET MANUAL PROCESS, SET NO MANUAL START, SET AUTO PROCESS).
_FLAGS = {
    "MANUAL": ("SET MANUAL", True),
    "NOMANUAL": ("SET MANUAL", False),
    "AUTO": ("SET MANUAL", False),
    "STRICT": ("SET STRICT", True),
    "NOSTRICT": ("SET STRICT", False),
    "MODERATE": ("SET MODERATED", True),
    "MODERATED": ("SET MODERATED", True),
    "UNMODERATE": ("SET MODERATED", False),
    "UNMODERATED": ("SET MODERATED", False),
    "APPROVAL": ("SET APPROVAL", True),
    "NOAPPROVAL": ("SET APPROVAL", False),
}
_FLAG_WORDS = {
    "SET MANUAL": ("PROCESS", "START"),
    "SET STRICT": ("WAIT",),
    "SET MODERATED": (),
    "SET APPROVAL": (),
}
# njudge's flags this judge does not have: refused by name.
_FLAGS_NOT_HERE = {"SET STRICT": ("GRACE", "CONVOY")}


def _flag(number: int, text: str, word: str, rest: list[str]) -> Command:
    """An njudge flag, SET [NO] MANUAL PROCESS and the like: args (what it is about, if
    it takes a word, then ON or OFF)."""
    name, on = _FLAGS[word]
    about = [w.upper() for w in rest]
    takes = _FLAG_WORDS[name]
    if len(about) == 1 and about[0] in _FLAGS_NOT_HERE.get(name, ()):
        return _error(number, text, "njudge_only", words=f"{name} {about[0]}")
    if len(about) != min(1, len(takes)) or (about and about[0] not in takes):
        return _error(number, text, "usage", name=name)
    return Command(number, text, name, (*about, "ON" if on else "OFF"))


def _approve(number: int, text: str, word: str, rest: list[str]) -> Command:
    """SET APPROVE letters, SET NOT APPROVE letters (njudge's): args (the letters as
    written, then ON or OFF)."""
    on = word == "APPROVE"
    if not on:
        if not rest or rest[0].upper() != "APPROVE":
            return _error(number, text, "usage", name="SET APPROVE")
        rest = rest[1:]
    if not rest:
        return _error(number, text, "usage", name="SET APPROVE")
    return Command(number, text, "SET APPROVE", ("".join(rest), "ON" if on else "OFF"))


def _set(number: int, text: str, args: list[str]) -> Command:
    """A SET command: the word after SET names it."""
    if not args:
        return _error(number, text, "usage", name="SET")
    name = _SET.get(args[0].upper())
    if name is None:
        word = args[0].upper()
        close = difflib.get_close_matches(word, list(_SET), n=1) if len(word) <= _GUESSABLE else []
        guess = close[0] if close else None
        return _error(number, text, "set_unknown", word=as_written(args[0]), guess=guess)
    rest = args[1:]
    listing = _listing(number, text, args[0].upper(), name, rest)
    if listing is not None:
        return listing
    if args[0].upper() in _FLAGS:
        return _flag(number, text, args[0].upper(), rest)
    if name == "SET APPROVE":
        return _approve(number, text, args[0].upper(), rest)
    if name in _ANONYMITY:  # alone, it was read as a flag by _set_flags
        return _error(number, text, "alone", name=f"SET {args[0].upper()}")
    if name == "SET VARIANT":
        words = variant_words(rest) if 0 < len(rest) <= 1 + len(OPTIONS) else None
        if words is None:
            return _error(number, text, "set_variant", variants=tuple(sorted(_variants())))
        return Command(number, text, name, words)
    if name.endswith(" LENGTH") and rest and rest[0].upper() == "LENGTH":
        rest = rest[1:]  # SET MOVE LENGTH 48h
    if name == "SET OBSERVER PRESS" and rest and rest[0].upper() == "PRESS":
        rest = rest[1:]
    if name == "SET RULES":  # alone: list the options
        return Command(number, text, name, (" ".join(rest),) if rest else ())
    if name in _TAKES_TEXT:
        if not rest:
            return _error(number, text, "usage", name=name)
        return Command(number, text, name, (" ".join(rest),))
    if (
        name in ("SET WAIT", "SET NOWAIT", "SET NMR", "SET NONMR", "SET DRAW", "SET NODRAW")
        and rest
    ):
        return _error(number, text, "alone", name=name)
    if name == "SET ORDERS":
        rest = [word.upper() for word in rest]
    if (
        (name in ("SET PASSWORD", "SET ADDRESS") and len(rest) != 1)
        or (name == "SET PREFERENCE" and not rest)
        or (name == "SET ORDERS" and rest not in (["MERGE"], ["REPLACE"]))
    ):
        return _error(number, text, "usage", name=name)
    return Command(number, text, name, tuple(rest))


# Gunboat's flags (judge/commands/gunboat.py), each SET [NO] word.
_ANONYMITY = frozenset({"SET REVEAL", "SET SHOW", "SET QUIET", "SET SECRET"})


# SET's words for njudge's listing flag: SET LIST alone, SET PUBLIC show the game in LIST.
_LISTED = {"LIST": "YES", "PUBLIC": "YES", "NOLIST": "NO", "UNLIST": "NO", "PRIVATE": "NO"}


def _listing(number: int, text: str, word: str, name: str, rest: list[str]) -> Command | None:
    """SET [NO] LIST, SET PUBLIC, SET PRIVATE, SET UNLIST: SET LISTED YES or NO; SET LIST
    address (or NONE) stays the game's mailing list, told apart by its argument. SET
    COMMENT text, the text as written (none: the comment cleared). None for other SETs."""
    if name == "SET COMMENT":  # from the line as echoed: a password on it stays masked
        return Command(number, text, name, (" ".join(text.split()[2:]),))
    if name == "SET LIST" and rest:
        if len(rest) == 1 and ("@" in rest[0] or rest[0].upper() == "NONE"):
            return None  # the mailing list
        return _error(number, text, "list_value", written=_short(" ".join(rest)))
    if word not in _LISTED:
        return None
    if rest:
        return _error(number, text, "alone", name=f"SET {word}")
    return Command(number, text, "SET LISTED", (_LISTED[word],))


def _long_comment(number: int, text: str, rest: list[str]) -> Command:
    """SET COMMENT BEGIN: the mail's lines after it up to SIGNOFF (or its end) are the
    long comment (SET COMMENT with two arguments: BEGIN and the text). A line that looks
    like it carries a password is kept masked, as replies echo lines."""
    lines: list[str] = []
    for raw in rest:
        if raw.strip().upper() in ("SIGNOFF", "SIGN OFF"):
            break
        lines.append((_masked(raw.split()) or raw.rstrip()) if raw.strip() else "")
    return Command(number, text, "SET COMMENT", ("BEGIN", "\n".join(lines).strip("\n")))


def _error(number: int, text: str, code: str, **values: object) -> Command:
    """An ERROR for the line: templates/errors/<code>.txt words why, from `values`."""
    return Command(number, text, "ERROR", error=Refusal(code, values))


def nearest_command(word: str) -> str | None:
    """The command a mistyped first word most likely meant, if one is close."""
    first = word.split()[0].upper() if word.split() else ""
    names = sorted(_SIMPLE | {"SET"})
    if len(first) > _GUESSABLE:
        return None
    close = difflib.get_close_matches(first, names, n=1, cutoff=0.75)
    return close[0] if close else None
