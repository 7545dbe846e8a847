"""Contract 1's output line written as JSON text straight from the outcome.

`judge adjudicate` writes one outcome per input line. Building json_contract's
outcome_to_json object (a dict per order, lists of units and centres) only to have the
JSON encoder walk it again took a fifth of the command's time. outcome_text writes the
same text piece by piece instead: every string still goes through the json module's
own encoder (`encode_basestring_ascii`, what JSONEncoder uses with ensure_ascii), so the
text is byte for byte `encode(outcome_to_json(...))` (tests/test_outcome_text.py
compares the two on every kind of outcome).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from json.encoder import encode_basestring_ascii as _string

from judge.engine.adjudication import Adjudication
from judge.engine.board import Position
from judge.engine.phase import Phase
from judge.engine.problems import Reason
from judge.variants.problem_text import reason_text


class _Encoded(dict[str, str]):
    """Texts as JSON strings, each encoded once: an outcome names the same units,
    centres, powers and orders as the thousands before it. Looked up by `[]`, a miss
    encodes and keeps it; only short texts are kept, and the table is emptied when
    full (KEPT_JSON_STRINGS)."""

    def __missing__(self, text: str) -> str:
        encoded = _string(text)
        if len(text) <= KEPT_JSON_STRING_CHARS:
            if len(self) >= KEPT_JSON_STRINGS:
                self.clear()
            self[text] = encoded
        return encoded


class _Members(dict[tuple[str, Collection[str]], str]):
    """A power's centres or units as a member of `centers` or `units`
    (`"FRANCE":["BRE","MAR"]`), each written once: they change little from one phase to
    the next. As _Encoded: looked up by `[]` (the texts in a hashable collection),
    emptied when full (KEPT_MEMBERS)."""

    def __missing__(self, member: tuple[str, Collection[str]]) -> str:
        power, texts = member
        text = f"{_json[power]}:[{','.join(map(_json.__getitem__, sorted(texts)))}]"
        if len(self) >= KEPT_MEMBERS:
            self.clear()
        self[member] = text
        return text


class _Reasons(dict[int, tuple[Reason, str]]):
    """Each reason's words as a JSON string, kept by the reason's identity (the entry
    holds the reason, so no other object takes its id while it is kept): the engine
    gives the same Problem object for the same void support, a third of all orders in
    random games, and a Problem's hash (for reason_text's cache) is a Python call that
    builds a frozenset. Emptied when full (KEPT_REASONS)."""

    def text(self, reason: Reason) -> str:
        """`reason`'s words as a JSON string, kept."""
        kept = self.get(id(reason))
        if kept is not None and kept[0] is reason:
            return kept[1]
        text = _json[reason_text(reason)]
        if len(self) >= KEPT_REASONS:
            self.clear()
        self[id(reason)] = (reason, text)
        return text


KEPT_JSON_STRINGS = 16_384
KEPT_JSON_STRING_CHARS = 64  # an order's canonical text is shorter; a long given one is not kept
KEPT_MEMBERS = 4_096  # each of at most a map's centres or units: a few megabytes
KEPT_REASONS = 4_096
_json = _Encoded()
_reasons = _Reasons()
_centers_of = _Members()
_phases: dict[int, tuple[Phase, str]] = {}  # see _phase_text
_all_centers: dict[tuple[tuple[str, frozenset[str]], ...], str] = {}  # see _centers
_units_of = _Members()

# Compact, as Contract 1's lines are. Made once: json.dumps makes an encoder per call. An
# outcome is a tree of fresh dicts and lists: no cycle to look for.
encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def outcome_text(position: Position, outcome: Adjudication) -> str:
    """encode(outcome_to_json(position, outcome)), written directly."""
    after = outcome.position
    builds = ",".join([f"{_json[p]}:{int(n)!r}" for p, n in sorted(outcome.builds.items())])
    winner = "null" if outcome.winner is None else _json[outcome.winner]
    phases = _phases  # the two phases' JSON strings, kept by identity (_phase_text)
    kept = phases.get(id(position.phase))
    phase = kept[1] if kept is not None and kept[0] is position.phase else _phase_text(position)
    kept = phases.get(id(after.phase))
    following = kept[1] if kept is not None and kept[0] is after.phase else _phase_text(after)
    return (
        f'{{"phase":{phase},"next_phase":{following},'
        f'"results":{{{_results(outcome)}}},"units":{{{_units(after)}}},'
        f'"centers":{{{_centers(after)}}},"retreats":{{{_retreats(after)}}},'
        f'"builds":{{{builds}}},"winner":{winner}}}'
    )


def _phase_text(position: Position) -> str:
    """The position's phase as a JSON string, kept by the phase's identity (the entry
    holds the phase): phases are made once each and shared (engine/phase.py), so two
    look-ups a line find them without writing them again. Emptied when full."""
    text = _json[str(position.phase)]
    if len(_phases) >= KEPT_MEMBERS:
        _phases.clear()
    _phases[id(position.phase)] = (position.phase, text)
    return text


def _results(outcome: Adjudication) -> str:
    """The members of `results`: each power's order results, powers in the order of
    their first result."""
    json = _json
    reasons = _reasons
    powers: dict[str, list[str]] = {}
    last, items = None, []  # a power's results come one after another: its list at hand
    for power, given, order, result, error, _ in outcome.results:  # each OrderResult
        text = json[order]
        given_text = text if given == order else json[given]  # most are given as written
        if error:
            kept = reasons.get(id(error))  # _Reasons.text, without the call when kept
            why = kept[1] if kept is not None and kept[0] is error else reasons.text(error)
            item = f'{{"order":{text},"given":{given_text},"result":{json[result]},"error":{why}}}'
        else:
            item = f'{{"order":{text},"given":{given_text},"result":{json[result]}}}'
        if power != last:
            last = power
            items = powers.setdefault(power, [])
        items.append(item)
    return ",".join([f"{json[p]}:[{','.join(items)}]" for p, items in powers.items()])


def _units(position: Position) -> str:
    """The members of `units`: each power's unit texts, sorted, powers sorted."""
    units: dict[str, list[str]] = {}
    last, texts = None, []  # a power's units mostly come one after another: see _results
    for u in position.units:
        if u.power != last:
            last = u.power
            texts = units.setdefault(last, [])
        texts.append(u.text)
    kept = _units_of
    return ",".join([kept[p, tuple(us)] for p, us in sorted(units.items())])


def _centers(position: Position) -> str:
    """The members of `centers`: each power's centres, sorted, powers sorted, a power
    without centres left out. Kept whole (_all_centers) for the same powers with the
    same centres in the same order: they change hands only after Fall."""
    key = tuple(position.centers.items())
    try:
        text = _all_centers.get(key)
    except TypeError:  # a power's centres not in a frozenset (unhashable): not kept
        return _centers_written(key)
    if text is None:
        text = _centers_written(key)
        if len(_all_centers) >= KEPT_MEMBERS:
            _all_centers.clear()
        _all_centers[key] = text
    return text


def _centers_written(centers: tuple[tuple[str, Collection[str]], ...]) -> str:
    """_centers's text, written from each power's member."""
    kept = _centers_of
    return ",".join([kept[p, frozenset(cs)] for p, cs in sorted(centers) if cs])


def _retreats(position: Position) -> str:
    """The members of `retreats`: each power's dislodged units and their places."""
    powers: dict[str, dict[str, str]] = {}  # power -> unit -> its places (as a dict would)
    for d in position.dislodged:
        places = f"[{','.join(map(_json.__getitem__, d.retreats))}]"
        powers.setdefault(d.unit.power, {})[d.unit.text] = places
    return ",".join(
        [
            f"{_json[p]}:{{{','.join([f'{_json[u]}:{places}' for u, places in units.items()])}}}"
            for p, units in powers.items()
        ]
    )
