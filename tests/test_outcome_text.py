"""`judge adjudicate`'s output lines, written directly (judge/variants/outcome_text.py),
are byte for byte the JSON encoder's text of adjudicate_line's object."""

from __future__ import annotations

import json
from typing import Any

from test_adjudicate_json import DESIGN_EXAMPLE  # DESIGN.md's Contract 1 example

from judge.engine.adjudication import adjudicate
from judge.engine.board import Position
from judge.engine.phase import Phase
from judge.engine.problems import Problem
from judge.variants import outcome_text as outcome_text_module
from judge.variants.json_contract import adjudicate_line, adjudicate_line_text
from judge.variants.maps import load_map
from judge.variants.outcome_text import encode

EIGHTEEN = [
    "BRE", "MAR", "PAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER",
    "DEN", "LON", "EDI", "LVP", "NWY", "SWE", "TUN", "ROM",
]  # fmt: skip

LINES = [
    DESIGN_EXAMPLE,
    # a dislodgement: retreats of two powers, a retreat phase next
    {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR", "A MUN", "F KIE"]},
        "orders": {"FRANCE": ["A Par-Bur", "A Pic S A Par-Bur"], "GERMANY": ["A Bur H"]},
    },
    {
        "phase": "F1901R",
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
        "retreats": {"GERMANY": {"A RUH": ["BEL", "HOL", "KIE"]}, "FRANCE": {"A PIC": ["BRE"]}},
        "orders": {"GERMANY": ["A Ruh R Hol"]},
    },
    {
        "phase": "W1901A",
        "units": {"ITALY": ["A VEN", "A ROM", "F NAP", "F TUN"]},
        "centers": {"ITALY": ["ROM", "NAP"]},
        "orders": {"ITALY": ["Remove A Ven"]},
    },
    # refused orders with reasons; given texts the encoder must escape
    {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F LON"], "FRANCE": ["A PAR"]},
        "orders": {
            "ENGLAND": ["F Lon - Par", "A Bur - Pir", "F Par H", 'A "Lon\\" - Bel\t', "A Pär-Bür €"]
        },
    },
    # a winner, and builds
    {
        "phase": "F1901M",
        "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F NTH"]},
        "centers": {"FRANCE": EIGHTEEN, "ENGLAND": ["STP"]},
        "orders": {"FRANCE": ["A Par H"]},
    },
]


def test_each_line_is_the_encoders_text_of_the_outcome_object() -> None:
    for line in LINES:
        text = json.dumps(line)
        assert adjudicate_line_text(text) == encode(adjudicate_line(text)), line


def test_the_design_example_reads_exactly() -> None:
    assert adjudicate_line_text(json.dumps(DESIGN_EXAMPLE)) == (
        '{"phase":"F1901M","next_phase":"W1901A","results":{"ENGLAND":['
        '{"order":"F NTH C A YOR - BEL","given":"F NTH C A YOR - BEL","result":"ok"},'
        '{"order":"A YOR - BEL","given":"A Yor-Bel","result":"ok"}],'
        '"FRANCE":[{"order":"A BUR H","given":"","result":"ok"}]},'
        '"units":{"ENGLAND":["A BEL","F NTH"],"FRANCE":["A BUR"]},'
        '"centers":{"ENGLAND":["BEL","EDI","LON","LVP"],"FRANCE":["BRE","MAR","PAR"]},'
        '"retreats":{},"builds":{"ENGLAND":2,"FRANCE":2},"winner":null}'
    )


def test_the_winner_and_escaped_texts_are_written() -> None:
    won = json.loads(adjudicate_line_text(json.dumps(LINES[-1])))
    assert won["winner"] == "FRANCE"
    refused = adjudicate_line_text(json.dumps(LINES[4]))
    assert '"given":"A \\"Lon\\\\\\" - Bel\\t"' in refused
    assert '"given":"A P\\u00e4r-B\\u00fcr \\u20ac"' in refused


def test_a_bad_line_is_an_error_object() -> None:
    assert adjudicate_line_text("{not json") == (
        '{"error":"not valid JSON: Expecting property name enclosed in double quotes at column 2"}'
    )


def test_the_encoded_texts_kept_are_bounded() -> None:
    kept = outcome_text_module._json
    kept.clear()
    assert kept["A PAR"] == '"A PAR"' and "A PAR" in kept
    long = "A Par - Bur " + "x" * outcome_text_module.KEPT_JSON_STRING_CHARS
    assert kept[long] == json.dumps(long) and long not in kept
    kept.clear()
    for n in range(outcome_text_module.KEPT_JSON_STRINGS + 5):
        assert kept[f"ü{n}"] == json.dumps(f"ü{n}")
        assert len(kept) <= outcome_text_module.KEPT_JSON_STRINGS
    assert len(kept) == 5  # emptied when full, then filled again


def test_the_members_kept_are_bounded() -> None:
    kept = outcome_text_module._centers_of
    kept.clear()
    assert kept["FRANCE", frozenset({"PAR", "BRE"})] == '"FRANCE":["BRE","PAR"]'
    assert ("FRANCE", frozenset({"BRE", "PAR"})) in kept
    kept.clear()
    for n in range(outcome_text_module.KEPT_MEMBERS + 3):
        assert kept["RUSSIA", (f"ü{n}",)] == f'"RUSSIA":["\\u00fc{n}"]'
        assert len(kept) <= outcome_text_module.KEPT_MEMBERS
    assert len(kept) == 3  # emptied when full, then filled again


def test_the_reasons_kept_are_taken_for_the_same_object_only() -> None:
    kept = outcome_text_module._reasons
    kept.clear()
    first = Problem("support_hold_unmatched", {"supported": "A PAR"})
    assert kept.text(first) == '"A PAR moved, so the support to hold did not match."'
    assert kept[id(first)] == (first, '"A PAR moved, so the support to hold did not match."')
    # An equal Problem, another object: worded again, and kept beside the first.
    equal = Problem("support_hold_unmatched", {"supported": "A PAR"})
    assert kept.text(equal) == kept.text(first) and len(kept) == 2
    # A different reason that took a kept id (as if the first were freed) is not taken
    # for it: the words are the new reason's.
    other = Problem("support_hold_unmatched", {"supported": "F KIE"})
    kept[id(other)] = (first, "stale")
    assert kept.text(other) == '"F KIE moved, so the support to hold did not match."'
    assert kept.text("a sentence ü") == '"a sentence \\u00fc"'


def test_the_reasons_kept_are_bounded() -> None:
    kept = outcome_text_module._reasons
    kept.clear()
    reasons = [
        Problem("support_hold_unmatched", {"supported": f"A {n}"})
        for n in range(outcome_text_module.KEPT_REASONS + 3)
    ]
    for reason in reasons:
        kept.text(reason)
        assert len(kept) <= outcome_text_module.KEPT_REASONS
    assert len(kept) == 3  # emptied when full, then filled again


def _position(centers: dict[str, Any]) -> Position:
    return Position(load_map("standard"), Phase(1901, "S", "M"), (), centers)


def test_the_whole_centres_member_is_kept_for_the_same_centres_in_the_same_order() -> None:
    kept = outcome_text_module._all_centers
    kept.clear()
    centers = {
        "FRANCE": frozenset({"PAR", "BRE"}),
        "ITALY": frozenset(),
        "AUSTRIA": frozenset({"VIE"}),
    }
    text = '"AUSTRIA":["VIE"],"FRANCE":["BRE","PAR"]'
    assert outcome_text_module._centers(_position(centers)) == text
    assert list(kept.values()) == [text]
    assert outcome_text_module._centers(_position(dict(centers))) == text and len(kept) == 1
    # Another order of the powers, other centres: each a key of its own, rightly written.
    reordered = dict(reversed(list(centers.items())))
    assert outcome_text_module._centers(_position(reordered)) == text and len(kept) == 2
    moved = {**centers, "AUSTRIA": frozenset({"VIE", "BUD"})}
    assert outcome_text_module._centers(_position(moved)) == (
        '"AUSTRIA":["BUD","VIE"],"FRANCE":["BRE","PAR"]'
    )
    assert len(kept) == 3


def test_centres_not_in_frozensets_are_written_and_not_kept() -> None:
    kept = outcome_text_module._all_centers
    kept.clear()
    assert outcome_text_module._centers(_position({"FRANCE": {"PAR", "BRE"}})) == (
        '"FRANCE":["BRE","PAR"]'
    )
    assert not kept


def test_the_whole_centres_members_kept_are_bounded() -> None:
    kept = outcome_text_module._all_centers
    kept.clear()
    for n in range(outcome_text_module.KEPT_MEMBERS + 2):
        outcome_text_module._centers(_position({"RUSSIA": frozenset({f"C{n}"})}))
        assert len(kept) <= outcome_text_module.KEPT_MEMBERS
    assert len(kept) == 2  # emptied when full, then filled again


def test_the_phases_kept_are_taken_for_the_same_object_only() -> None:
    kept = outcome_text_module._phases
    kept.clear()
    gm = load_map("standard")
    fall = Phase(1901, "F", "M")  # not the shared object Phase.parse gives
    position = Position(gm, fall, (), {})
    written = outcome_text_module.outcome_text(position, adjudicate(position, {}))
    assert json.loads(written)["phase"] == "F1901M"
    assert kept[id(fall)] == (fall, '"F1901M"')
    # Another object that took a kept id (as if the first were freed) is written afresh.
    kept[id(fall)] = (Phase.parse("S1901M"), '"S1901M"')
    written = outcome_text_module.outcome_text(position, adjudicate(position, {}))
    assert json.loads(written)["phase"] == "F1901M"
    for n in range(outcome_text_module.KEPT_MEMBERS + 2):
        outcome_text_module._phase_text(Position(gm, Phase(2000 + n, "S", "M"), (), {}))
        assert len(kept) <= outcome_text_module.KEPT_MEMBERS
