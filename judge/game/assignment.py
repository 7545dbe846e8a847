"""Assigning the Great Powers to players by their preference lists.

The procedure is the one in chapter I ("Players and Countries") of the Diplomacy
Player's Technical Guide (1998):

1. Every player who asked for a Random Power is at once given a random Power.
2. The other lists are then taken one by one, in random order of players; each player is
   awarded his top choice among the Powers still free. Powers grouped together on a list
   are equally preferred, and one of the free ones in the top group is drawn at random.
   A list whose Powers are all taken (a short list, or an empty one) earns nothing yet.
3. The Powers left over are dealt out at random to the players left over.

So an empty list is not a Random Power request: an empty or exhausted list never takes a
Power ahead of anyone's list, it waits for the leftovers. Every random draw comes from the
`rng` passed in, in a fixed order, so a seed and an input give one outcome.

A stored preference list is a string of power initials, most wanted first, with equally
wanted Powers in brackets: "F[AGI][ER]T" is the chapter's example "France; [Germany, Italy
or Austria]; [England or Russia]; Turkey". "" is no list at all, "?" a Random Power request.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.geography import is_initial
from judge.game.errors import CommandError

RANDOM = "?"  # the stored form of a Random Power request
NO_PREFERENCE = ""  # the stored form of an empty list

_EMPTY_WORDS = {"", "*", "none", "nopreference", "nopreferences"}
_RANDOM_WORDS = {"?", "random", "randompower", "anypower"}
_FILLER_WORDS = {"or", "and"}  # as in "[Germany, Italy or Austria]"
_OPEN, _CLOSE = "([", ")]"
_TOKEN = re.compile(r"[\[\]()*?]|[^\W_]+")
_MAX_NAME_WORDS = 4  # longest alias in words, e.g. "Great Britain"

Groups = tuple[tuple[str, ...], ...]


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _letters(initials: Mapping[str, str]) -> dict[str, str]:
    """Upper-case initial -> power key, checking the initials are distinct single
    characters, each a letter or a digit (Chaos's powers go on from Z to 0-9)."""
    by_letter: dict[str, str] = {}
    for key, initial in initials.items():
        letter = initial.upper()
        if not is_initial(letter):
            raise ValueError(f"The initial of {key} must be a letter or digit, not {initial!r}.")
        if letter in by_letter:
            raise ValueError(f"{by_letter[letter]} and {key} have the same initial {letter}.")
        by_letter[letter] = key
    return by_letter


def _title(key: str) -> str:
    return key.replace("_", " ").title()


def _encode(groups: list[list[str]], initials: Mapping[str, str]) -> str:
    order = {key: i for i, key in enumerate(initials)}
    out = []
    for group in groups:
        letters = "".join(initials[k].upper() for k in sorted(group, key=order.__getitem__))
        out.append(letters if len(group) == 1 else f"[{letters}]")
    return "".join(out)


def parse_preference(
    text: str, initials: Mapping[str, str], *, names: Mapping[str, str] | None = None
) -> str:
    """A player's preference list as the judge stores it: power initials, most wanted first,
    e.g. "FGR" or "F G R" or "France, Germany, Russia" or "*" (no preference) -> "FGR" / "".

    Powers in brackets or parentheses are wanted equally: "F [G I A] [E R] T" ->
    "F[AGI][ER]T" (inside a group, map order). "random" or "?" asks for a Random Power and is
    stored as "?". Letters are case-insensitive; spaces, commas, hyphens, semicolons and
    the like separate. A word is a power's name if `names` knows it (squashed spelling ->
    power key, e.g. `GameMap.power_names`, which has adjectives such as "French" and
    aliases such as "GER"; without it only the power keys are names), otherwise a run of
    initials ("FGR"). Raises CommandError (a code, worded by templates/errors/<code>.txt
    in one sentence a beginner understands) for an unknown letter or name, a power named
    twice or brackets that do not pair; ValueError if the initials themselves are wrong.
    """
    vocabulary = _vocabulary(initials, names)
    squashed = _squash(text)
    stripped = text.strip()
    # Brackets alone ("[[[[", "[]") are read, and refused as brackets that do not pair or
    # hold nothing: they are no "no preference".
    brackets = any(c in _OPEN + _CLOSE for c in text)
    if stripped == "*" or (squashed in _EMPTY_WORDS and "?" not in text and not brackets):
        return NO_PREFERENCE
    if stripped == "?" or squashed in _RANDOM_WORDS:
        return RANDOM
    return _encode(_read_groups(_TOKEN.findall(text), vocabulary), initials)


@dataclass(frozen=True)
class _Vocabulary:
    """The words a preference list may use: initials and names of the powers."""

    by_letter: dict[str, str]  # upper-case initial -> power key
    known: dict[str, str]  # squashed name -> power key
    initials: tuple[str, ...]  # the initials in alphabetical order, for the errors


def _vocabulary(initials: Mapping[str, str], names: Mapping[str, str] | None) -> _Vocabulary:
    by_letter = _letters(initials)
    known = {_squash(key): key for key in initials}
    if names is not None:
        known.update({_squash(spelling): key for spelling, key in names.items()})
    known.pop("", None)
    return _Vocabulary(by_letter, known, tuple(sorted(by_letter)))


def _read_groups(tokens: Sequence[str], vocabulary: _Vocabulary) -> list[list[str]]:
    """The tokens of a list as groups of power keys, most wanted first; raises CommandError
    at the first token that is wrong (the error a player sees names that one)."""
    groups: list[list[str]] = []
    seen: set[str] = set()
    current: list[str] | None = None  # the open bracket group, if any
    i = 0
    while i < len(tokens):
        if tokens[i] in _OPEN or tokens[i] in _CLOSE:
            current = _bracket(tokens[i], current, groups)
            i += 1
            continue
        keys, used = _named(tokens, i, vocabulary)
        for key in keys:
            if key in seen:
                raise CommandError("preference_twice", power=_title(key))
            seen.add(key)
            if current is None:
                groups.append([key])
            else:
                current.append(key)
        i += used
    if current is not None:
        raise CommandError("preference_unclosed")
    return groups


def _bracket(token: str, current: list[str] | None, groups: list[list[str]]) -> list[str] | None:
    """The open group after the bracket `token` (None once it is closed; a closed group
    is appended to `groups`)."""
    if token in _OPEN:
        if current is not None:
            raise CommandError("preference_nested")
        return []
    if current is None:
        raise CommandError("preference_unopened", bracket=token)
    if not current:
        raise CommandError("preference_empty_brackets")
    groups.append(current)
    return None


def _named(tokens: Sequence[str], i: int, vocabulary: _Vocabulary) -> tuple[list[str], int]:
    """The power keys the words from `tokens[i]` name, and how many tokens that took
    (no keys for a filler word such as "or"); CommandError for a word that names none."""
    token = tokens[i]
    if token in "*?":
        raise CommandError("preference_alone", word=token)
    # The longest run of words that is a power's name ("Great Britain").
    for n in range(min(_MAX_NAME_WORDS, len(tokens) - i), 0, -1):
        words = tokens[i : i + n]
        if any(not w[0].isalnum() for w in words):
            continue
        key = vocabulary.known.get(_squash("".join(words)))
        if key is not None:
            return [key], n
    upper = token.upper()
    if all(c in vocabulary.by_letter for c in upper):
        return [vocabulary.by_letter[c] for c in upper], 1
    if token.lower() in _FILLER_WORDS:
        return [], 1
    if len(token) == 1:
        raise CommandError("preference_no_initial", initial=upper, initials=vocabulary.initials)
    raise CommandError("preference_not_a_power", word=token, initials=vocabulary.initials)


def decode_preference(stored: str, initials: Mapping[str, str]) -> Groups | None:
    """A stored list as groups of power keys, most wanted first; None for a Random Power
    request. Raises ValueError if `stored` is not in the stored form."""
    by_letter = _letters(initials)
    stored = "".join(stored.split())
    if stored == RANDOM:
        return None
    groups: list[tuple[str, ...]] = []
    seen: set[str] = set()
    current: list[str] | None = None
    for c in stored:
        if c == "[" and current is None:
            current = []
        elif c == "]" and current:
            groups.append(tuple(current))
            current = None
        elif c.upper() in by_letter and by_letter[c.upper()] not in seen:
            key = by_letter[c.upper()]
            seen.add(key)
            if current is None:
                groups.append((key,))
            else:
                current.append(key)
        else:
            raise ValueError(f"{stored!r} is not a stored preference list.")
    if current is not None:
        raise ValueError(f"{stored!r} is not a stored preference list.")
    return tuple(groups)


def award(groups: Groups, available: Sequence[str], rng: random.Random) -> str | None:
    """Step 2 for one list: the top choice among the `available` Powers (a random one of
    the free Powers in the top group that has any), or None if every listed Power is taken.
    `available` is in map order."""
    free = set(available)
    for group in groups:
        candidates = [p for p in available if p in group and p in free]
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            return rng.choice(candidates)
    return None


def assign_powers(
    preferences: Sequence[tuple[int, str]],
    powers: Sequence[str],
    initials: Mapping[str, str],
    rng: random.Random,
) -> dict[int, str]:
    """Player id -> power key, every power used exactly once (DPTG chapter I).

    `preferences` holds (player id, stored preference list) in sign-on order, one per
    power; `powers` is in map order. Random draws, in this order: a Power for each Random
    Power request in sign-on order; the order in which the other lists are read; a Power
    within a top group wherever more than one is free; the dealing of the leftovers.
    """
    players = [player for player, _ in preferences]
    if len(set(players)) != len(players):
        raise ValueError("A player appears twice in the preference lists.")
    if len(set(powers)) != len(powers) or set(powers) != set(initials):
        raise ValueError("The powers and their initials do not match.")
    if len(players) != len(powers):
        raise ValueError(f"{len(players)} players for {len(powers)} powers.")
    ordered = {key: initials[key] for key in powers}
    lists = {player: decode_preference(stored, ordered) for player, stored in preferences}

    available = list(powers)
    result: dict[int, str] = {}

    # 1. Random Power requests, at once.
    for player in players:
        if lists[player] is None:
            power = rng.choice(available)
            available.remove(power)
            result[player] = power

    # 2. The other lists one by one, in random order of players.
    order = [player for player in players if lists[player] is not None]
    rng.shuffle(order)
    for player in order:
        groups = lists[player]
        assert groups is not None
        awarded = award(groups, available, rng)
        if awarded is not None:
            available.remove(awarded)
            result[player] = awarded

    # 3. The Powers left over, at random to the players left over.
    leftover = [player for player in players if player not in result]
    rng.shuffle(available)
    result.update(zip(leftover, available, strict=True))
    return {player: result[player] for player in players}
