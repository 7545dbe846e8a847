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
from json.encoder import encode_basestring_ascii as _string

from judge.engine.adjudication import Adjudication
from judge.engine.board import Position
from judge.variants.problem_text import reason_text

# Compact, as Contract 1's lines are. Made once: json.dumps makes an encoder per call. An
# outcome is a tree of fresh dicts and lists: no cycle to look for.
encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def outcome_text(position: Position, outcome: Adjudication) -> str:
    """encode(outcome_to_json(position, outcome)), written directly."""
    after = outcome.position
    builds = ",".join(f"{_string(p)}:{int(n)!r}" for p, n in sorted(outcome.builds.items()))
    winner = "null" if outcome.winner is None else _string(outcome.winner)
    return (
        f'{{"phase":{_string(str(position.phase))},"next_phase":{_string(str(after.phase))},'
        f'"results":{{{_results(outcome)}}},"units":{{{_units(after)}}},'
        f'"centers":{{{_centers(after)}}},"retreats":{{{_retreats(after)}}},'
        f'"builds":{{{builds}}},"winner":{winner}}}'
    )


def _results(outcome: Adjudication) -> str:
    """The members of `results`: each power's order results, powers in the order of
    their first result."""
    powers: dict[str, list[str]] = {}
    for power, given, order, result, error, _ in outcome.results:  # each OrderResult
        text = _string(order)
        # Most orders are given as the judge writes them: the same text, encoded once.
        given_text = text if given == order else _string(given)
        if error:
            error_text = _string(reason_text(error))
            item = (
                f'{{"order":{text},"given":{given_text},"result":{_string(result)},'
                f'"error":{error_text}}}'
            )
        else:
            item = f'{{"order":{text},"given":{given_text},"result":{_string(result)}}}'
        items = powers.get(power)
        if items is None:
            powers[power] = [item]
        else:
            items.append(item)
    return ",".join(f"{_string(p)}:[{','.join(items)}]" for p, items in powers.items())


def _units(position: Position) -> str:
    """The members of `units`: each power's unit texts, sorted, powers sorted."""
    units: dict[str, list[str]] = {}
    for u in position.units:
        texts = units.get(u.power)
        if texts is None:
            units[u.power] = [u.text]
        else:
            texts.append(u.text)
    return ",".join(
        f"{_string(p)}:[{','.join(map(_string, sorted(us)))}]" for p, us in sorted(units.items())
    )


def _centers(position: Position) -> str:
    """The members of `centers`: each power's centres, sorted, powers sorted, a power
    without centres left out."""
    return ",".join(
        f"{_string(p)}:[{','.join(map(_string, sorted(cs)))}]"
        for p, cs in sorted(position.centers.items())
        if cs
    )


def _retreats(position: Position) -> str:
    """The members of `retreats`: each power's dislodged units and their places."""
    powers: dict[str, dict[str, str]] = {}  # power -> unit -> its places (as a dict would)
    for d in position.dislodged:
        places = f"[{','.join(map(_string, d.retreats))}]"
        powers.setdefault(d.unit.power, {})[d.unit.text] = places
    return ",".join(
        f"{_string(p)}:{{{','.join(f'{_string(u)}:{places}' for u, places in units.items())}}}"
        for p, units in powers.items()
    )
