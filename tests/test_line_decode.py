"""judge adjudicate's JSON reading (json_contract._decode) reads every line exactly as
json's decode does: the usual line by the scanner alone, anything else by decode, with
the same error."""

from __future__ import annotations

import json

import pytest

from judge.variants import json_contract
from judge.variants.json_contract import adjudicate_line

LINES = [
    '{"phase": "S1901M"}',
    '{"phase": "S1901M"}\n',
    '{"phase": "S1901M"}\r\n',
    '  {"phase": "S1901M"}\n',
    '{"phase": "S1901M"}  \n',
    '{"phase": "S1901M"}\t\r\n',
    '{"phase": "S1901M"}\n\n',
    '{"phase": "S1901M"} {}\n',
    '{"phase": "S1901M"}\u2028\n',
    '{"phase": "S1901M"}\x0b\n',
    "[1, 2]\n",
    '"text"\n',
    "12\n",
    "{not json\n",
    "\n",
    "",
    '{"a": 1e400}\n',
    '{"a": ' + "9" * 101 + "}\n",
]


def _decoded(line: str) -> object:
    """What json's own decoder (with the judge's number hook) gives, or its error."""
    try:
        return json.JSONDecoder(parse_int=json_contract._integer).decode(line)
    except (json.JSONDecodeError, json_contract.InputError) as e:
        return (type(e), str(e))


@pytest.mark.parametrize("line", LINES)
def test_each_line_reads_as_json_decodes_it(line: str) -> None:
    try:
        ours: object = json_contract._decode(line)
    except (json.JSONDecodeError, json_contract.InputError) as e:
        ours = (type(e), str(e))
    assert ours == _decoded(line)


def test_extra_data_after_the_object_is_said_as_before() -> None:
    assert adjudicate_line('{"phase": "S1901M"} {}\n') == {
        "error": "not valid JSON: Extra data at column 21"
    }
