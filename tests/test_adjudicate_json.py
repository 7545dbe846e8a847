"""`judge adjudicate`: Contract 1 of DESIGN.md, line in, line out."""

from __future__ import annotations

import json
import subprocess
import sys

from judge.ops.adjudicate import adjudicate_lines
from judge.variants.json_contract import adjudicate_line

DESIGN_EXAMPLE = {
    "map": "standard",
    "phase": "F1901M",
    "units": {"ENGLAND": ["F NTH", "A YOR"], "FRANCE": ["A BUR"]},
    "centers": {"ENGLAND": ["EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"]},
    "orders": {"ENGLAND": ["F NTH C A YOR - BEL", "A Yor-Bel"]},
}


def test_the_design_example_gives_the_design_output() -> None:
    assert adjudicate_line(json.dumps(DESIGN_EXAMPLE)) == {
        "phase": "F1901M",
        "next_phase": "W1901A",
        "results": {
            "ENGLAND": [
                {"order": "F NTH C A YOR - BEL", "given": "F NTH C A YOR - BEL", "result": "ok"},
                {"order": "A YOR - BEL", "given": "A Yor-Bel", "result": "ok"},
            ],
            "FRANCE": [{"order": "A BUR H", "given": "", "result": "ok"}],
        },
        "units": {"ENGLAND": ["A BEL", "F NTH"], "FRANCE": ["A BUR"]},
        "centers": {"ENGLAND": ["BEL", "EDI", "LON", "LVP"], "FRANCE": ["BRE", "MAR", "PAR"]},
        "retreats": {},
        "builds": {"ENGLAND": 2, "FRANCE": 2},
        "winner": None,
    }


def test_dislodgement_leads_to_a_retreat_phase_with_the_places_to_go() -> None:
    out = adjudicate_line(
        json.dumps(
            {
                "phase": "S1901M",
                "units": {"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A BUR"]},
                "orders": {"FRANCE": ["A Par-Bur", "A Pic S A Par-Bur"], "GERMANY": ["A Bur H"]},
            }
        )
    )
    assert out["next_phase"] == "S1901R"
    assert out["units"] == {"FRANCE": ["A BUR", "A PIC"]}
    assert out["retreats"] == {"GERMANY": {"A BUR": ["BEL", "GAS", "MAR", "MUN", "RUH"]}}
    assert out["results"]["GERMANY"] == [
        {"order": "A BUR H", "given": "A Bur H", "result": "dislodged"}
    ]


def test_a_retreat_phase_reads_its_retreats_and_disbands_the_unordered() -> None:
    out = adjudicate_line(
        json.dumps(
            {
                "phase": "F1901R",
                "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]},
                "centers": {"FRANCE": ["PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
                "retreats": {
                    "GERMANY": {"A RUH": ["BEL", "HOL", "KIE"]},
                    "FRANCE": {"A PIC": ["BRE"]},
                },
                "orders": {"GERMANY": ["A Ruh R Hol"]},
            }
        )
    )
    assert out["results"] == {
        "GERMANY": [{"order": "A RUH R HOL", "given": "A Ruh R Hol", "result": "ok"}],
        "FRANCE": [{"order": "A PIC D", "given": "", "result": "disband"}],
    }
    # After Fall retreats the centres change hands: Germany takes Holland.
    assert out["centers"]["GERMANY"] == ["BER", "HOL", "KIE", "MUN"]
    assert out["next_phase"] == "W1901A"
    assert out["builds"] == {"GERMANY": 2}


def test_an_adjustment_phase_with_missing_removals_uses_civil_disorder() -> None:
    out = adjudicate_line(
        json.dumps(
            {
                "phase": "W1901A",
                "units": {"ITALY": ["A VEN", "A ROM", "F NAP", "F TUN"]},
                "centers": {"ITALY": ["ROM", "NAP"]},
                "orders": {"ITALY": ["Remove A Ven"]},
            }
        )
    )
    assert out["results"]["ITALY"] == [
        {"order": "A VEN D", "given": "Remove A Ven", "result": "ok"},
        {"order": "F TUN D", "given": "", "result": "disband"},
    ]
    assert out["units"] == {"ITALY": ["A ROM", "F NAP"]}
    assert out["next_phase"] == "S1902M"


def test_rejected_orders_carry_a_reason() -> None:
    out = adjudicate_line(
        json.dumps(
            {
                "phase": "S1901M",
                "units": {"ENGLAND": ["F LON"], "FRANCE": ["A PAR"]},
                "orders": {"ENGLAND": ["F Lon - Par", "A Bur - Pir", "F Par H"]},
            }
        )
    )
    results = out["results"]["ENGLAND"]
    assert [r["result"] for r in results] == ["void", "void", "void"]
    assert results[0]["error"] == "A fleet cannot move inland to Paris."
    assert "could be Paris, Picardy" in results[1]["error"]
    assert results[1]["order"] == "A Bur - Pir"
    assert results[2]["error"] == "The unit in Paris is French; you can only order your own."


def test_bad_lines_get_an_error_object_and_the_run_goes_on() -> None:
    good = json.dumps(DESIGN_EXAMPLE)
    bad = [
        "{not json",
        "[1, 2]",
        json.dumps({"phase": "S1901M", "units": {"ENGLAND": ["A XYZ"]}}),
        json.dumps({"phase": "S1901M", "units": {"MORDOR": ["A PAR"]}}),
        json.dumps({"phase": "S1901M", "units": {"ENGLAND": ["A NTH"]}}),
        json.dumps({"phase": "S1901M", "units": {"ENGLAND": ["F PAR"]}}),
        json.dumps({"phase": "S1901M", "units": {"ENGLAND": ["A PAR"], "FRANCE": ["A PAR"]}}),
        json.dumps({"phase": "Spring", "units": {}}),
        json.dumps({"map": "../../etc/passwd", "phase": "S1901M"}),
        json.dumps({"phase": "S1901M", "centers": {"FRANCE": ["BUR"]}}),
        json.dumps({"phase": "S1901M", "orders": {"FRANCE": "A Par-Bur"}}),
        json.dumps({"phase": "S1901M", "rules": {"convoy_paradox": "1983"}}),
        json.dumps({"phase": "S1901M", "rules": {"set": "house"}}),
    ]
    out = [json.loads(line) for line in adjudicate_lines([good, *bad, good])]
    assert len(out) == len(bad) + 2
    assert out[0] == out[-1] and "error" not in out[0]
    errors = [o.get("error") for o in out[1:-1]]
    assert all(errors), errors
    assert errors[0].startswith("not valid JSON")
    assert errors[2] == "unknown province in unit 'A XYZ'"
    assert errors[3] == "unknown power 'MORDOR' in units"
    assert errors[4] == "an army cannot stand in NTH"
    assert errors[6] == "two units in PAR: A PAR and A PAR"
    assert errors[8] == "unknown map '../../etc/passwd'"
    assert errors[9] == "BUR is not a supply centre"
    assert errors[11] == (
        "rule option convoy_paradox=1983 is not one of: "
        "1971, 1982, 2000, szykman, all_hold, dptg, alexander"
    )
    assert errors[12] == "unknown rule set 'house' (known: alexander, datc)"


def test_the_rules_object_changes_the_adjudication() -> None:
    """DATC 4.D.7: with waiving not allowed, a WAIVE is refused (void) with a reason."""
    line = {
        "phase": "W1901A",
        "units": {"ENGLAND": ["F NTH"]},
        "centers": {"ENGLAND": ["EDI", "LON", "LVP", "NWY"]},
        "orders": {"ENGLAND": ["WAIVE"]},
    }
    preferred, house = (
        json.loads(out)
        for out in adjudicate_lines(
            [json.dumps(line), json.dumps({**line, "rules": {"waiving_builds": False}})]
        )
    )
    assert preferred["results"]["ENGLAND"] == [{"order": "WAIVE", "given": "WAIVE", "result": "ok"}]
    assert house["results"]["ENGLAND"] == [
        {
            "order": "WAIVE",
            "given": "WAIVE",
            "result": "void",
            "error": "Builds cannot be waived in this game.",
        }
    ]


def test_the_command_reads_thousands_of_lines() -> None:
    lines = [json.dumps(DESIGN_EXAMPLE)] * 2000 + ["garbage"]
    proc = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "adjudicate"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    out = proc.stdout.splitlines()
    assert len(out) == 2001
    assert json.loads(out[0])["units"] == {"ENGLAND": ["A BEL", "F NTH"], "FRANCE": ["A BUR"]}
    assert json.loads(out[1999]) == json.loads(out[0])
    assert "error" in json.loads(out[2000])
    assert proc.stderr == ""
