"""njudge's press options (PRESS's words) read into PressOptions, and the game's press
settings applied to them: which options a message may use, and what its readers are
shown. Pure functions over the map and the settings: the command sends the mails."""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine.geography import GameMap
from judge.game.errors import CommandError
from judge.store.settings import GameSettings

MASTER, OBSERVERS = "M", "O"  # njudge's letters for the master and the observers
_WHITE = frozenset({"WHITE", "UNANONYMOUS", "UNANONYMOUSLY"})
_GREY = frozenset({"GREY", "GRAY", "ANONYMOUS", "ANONYMOUSLY"})
_KEYWORDS = _WHITE | _GREY | {"TO", "+", "-", "FAKE", "NO", "BROADCAST"}
MAX_OPTION_WORDS = 40  # words of options read after PRESS (README: limits)


@dataclass(frozen=True)
class Addressed:
    """A list of readers as written: letters or names, and whether it is everyone but them."""

    words: tuple[str, ...] = ()
    all_but: bool = False


@dataclass(frozen=True)
class PressOptions:
    """One press message's options. `to` None: to everyone; `fake` None: not said,
    "no": NO FAKE, "broadcast": shown as a broadcast, "list": shown as `fake_to`."""

    grey: bool | None = None
    to: Addressed | None = None
    fake: str | None = None
    fake_to: Addressed | None = None


def read_options(words: list[str]) -> PressOptions:
    """PRESS's option words (njudge's order: the real readers, then FAKE and the pretended
    ones), each option at most once; CommandError naming what is wrong."""
    tokens = _tokens(words)
    if len(tokens) > MAX_OPTION_WORDS:
        raise CommandError("press_options_long", limit=MAX_OPTION_WORDS)
    found: dict[str, object] = {}
    at = 0
    while at < len(tokens):
        word = tokens[at]
        if word in _WHITE or word in _GREY:
            _once(found, "grey", word, word in _GREY)
            at += 1
        elif word in ("TO", "+", "-"):
            if "fake" in found:  # njudge: the real readers come before FAKE
                raise CommandError("press_option_order", word=word)
            addressed, at = _addressed(tokens, at)
            _once(found, "to", word, addressed)
        elif word == "FAKE" or (word == "NO" and tokens[at + 1 : at + 2] == ["FAKE"]):
            at = _fake(tokens, at, found)
        else:
            raise CommandError("press_option_unknown", word=_short(word))
    grey = found.get("grey")
    return PressOptions(
        grey=grey if isinstance(grey, bool) else None,
        to=_as_addressed(found.get("to")),
        fake=str(found["fake"]) if "fake" in found else None,
        fake_to=_as_addressed(found.get("fake_to")),
    )


def _fake(tokens: list[str], at: int, found: dict[str, object]) -> int:
    """FAKE [BROADCAST], NO FAKE [BROADCAST], FAKE [PARTIAL] TO [ALL BUT] letters, FAKE
    +letters, FAKE -letters: recorded in `found`; the index after it."""
    word = tokens[at]
    negated = word == "NO"
    at += 2 if negated else 1
    if not negated and tokens[at : at + 1] == ["PARTIAL"]:
        at += 1
        if tokens[at : at + 1] not in (["TO"], ["+"], ["-"]):
            raise CommandError("press_fake_partial")
    if not negated and tokens[at : at + 1] in (["TO"], ["+"], ["-"]):
        addressed, at = _addressed(tokens, at)
        _once(found, "fake", "FAKE", "list")
        found["fake_to"] = addressed
        return at
    if tokens[at : at + 1] == ["BROADCAST"]:
        at += 1
    _once(found, "fake", "FAKE", "no" if negated else "broadcast")
    return at


def _addressed(tokens: list[str], at: int) -> tuple[Addressed, int]:
    """`TO [ALL BUT] letters`, `+letters` or `-letters` from tokens[at]: the list and the
    index after it."""
    word = tokens[at]
    at += 1
    all_but = word == "-"
    if word == "TO" and tokens[at : at + 2] == ["ALL", "BUT"]:
        all_but, at = True, at + 2
    start = at
    while at < len(tokens) and tokens[at] not in _KEYWORDS:
        at += 1
    if at == start:
        raise CommandError("press_no_readers", word=word)
    return Addressed(tuple(tokens[start:at]), all_but), at


def _tokens(words: list[str]) -> list[str]:
    """The words in capitals, commas dropped, a leading + or - apart (`+FRG` -> `+ FRG`)."""
    out: list[str] = []
    for raw in " ".join(words).replace(",", " ").split():
        word = raw.upper()
        if len(word) > 1 and word[0] in "+-":
            out += [word[0], word[1:]]
        else:
            out.append(word)
    return out


def _once(found: dict[str, object], key: str, word: str, value: object) -> None:
    """Record an option, refused if it was given already (WHITE and GREY are one option)."""
    if key in found:
        raise CommandError("press_option_twice", word=word)
    found[key] = value


def _as_addressed(value: object) -> Addressed | None:
    return value if isinstance(value, Addressed) else None


def _short(word: str) -> str:
    return word if len(word) <= 40 else word[:37] + "..."


@dataclass(frozen=True)
class Readers:
    """Who a list names: the powers (keys), the master, the observers."""

    powers: tuple[str, ...] = ()
    master: bool = False
    observers: bool = False


def readers(gm: GameMap, addressed: Addressed) -> Readers:
    """The powers, master and observers a list names, by initials run together (`FRG`,
    `M`, `O`) or names; CommandError("unknown_power") for a word that is neither. For
    ALL BUT, everyone but them (the master is always told: readers.master stays False)."""
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    powers: list[str] = []
    master = observers = False
    for word in addressed.words:
        key = gm.power_names.get(word.lower().replace("-", ""))
        if key is not None:
            powers.append(key)
            continue
        if not word.isalnum() or any(c not in by_initial and c not in "MO" for c in word):
            raise CommandError("unknown_power", power=_short(word))
        for c in word:
            if c in by_initial:
                powers.append(by_initial[c])
            elif c == MASTER:
                master = True
            else:
                observers = True
    named = list(dict.fromkeys(powers))
    if addressed.all_but:
        rest = tuple(p for p in gm.powers if p not in named)
        return Readers(rest, False, not observers)
    return Readers(tuple(named), master, observers)


def default_grey(settings: GameSettings) -> bool:
    """Whether press is grey unless it says WHITE: SET GREY or SET GREY/WHITE."""
    return settings.press in ("grey", "grey/white")


def check(settings: GameSettings, options: PressOptions, observer: bool) -> None:
    """CommandError naming the first press setting the options break, for a player or an
    observer (the master's press and press to the master alone are never checked)."""
    grey = default_grey(settings) if options.grey is None else options.grey
    if observer and grey and settings.observer_white:
        raise CommandError("press_observer_white")
    if grey and settings.press == "white":
        raise CommandError("press_no_grey")
    if not grey and settings.press == "grey":
        raise CommandError("press_no_white")
    if options.fake in ("broadcast", "list") and settings.fake == "no":
        raise CommandError("press_no_fake")


def shown_broadcast(settings: GameSettings, options: PressOptions, real_broadcast: bool) -> bool:
    """Whether readers are shown a broadcast: FAKE [BROADCAST], or a partial message under
    SET PARTIAL FAKES BROADCAST without NO FAKE; a real broadcast unless faked as a list."""
    if options.fake == "list":
        return False
    if options.fake == "broadcast" or real_broadcast:
        return True
    return settings.fake == "broadcast" and options.fake != "no"
