"""What the map importers share: the refusal of a malformed file (with its line number),
the limits on what is read, and the map data written out as the project's TOML and
checked the way `load_map` will check it."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from judge.engine.geography import MapError, build_map

# Limits on a source file (README, "Security and limits"): the largest real map files
# are some 50 KB with lines of a few hundred characters.
MAX_FILE_BYTES = 1_000_000
MAX_LINE_CHARS = 2_000
MAX_PROVINCES = 1_000
MAX_POWERS = 34


class MapFileError(Exception):
    """A source map file that cannot be imported: where (1-based line, None for the whole
    file) and why; `source`, the file when it is not the one named on the command line."""

    def __init__(self, line: int | None, reason: str, source: str | None = None) -> None:
        super().__init__(line, reason)
        self.line = line
        self.reason = reason
        self.source = source

    def __str__(self) -> str:
        return self.reason if self.line is None else f"line {self.line}: {self.reason}"


def read_source(path: Path) -> str:
    """The text of the map file at `path`, refused when too big or not UTF-8 text."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise MapFileError(None, f"cannot read the file: {e.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise MapFileError(None, f"the file is over {MAX_FILE_BYTES} bytes")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise MapFileError(line, "not UTF-8 text") from None


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line without its comment or outer blanks) for each line that says
    something; a line over the length limit or with control characters is refused."""
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_LINE_CHARS:
            raise MapFileError(number, f"the line is over {MAX_LINE_CHARS} characters")
        line = line.replace("\t", " ").strip()
        if not line.isprintable():
            raise MapFileError(number, "the line has control characters")
        if line and not line.startswith("#"):
            yield number, line


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _value(value: Any) -> str:
    """A TOML value: strings (printable, so JSON's escaping is TOML's), numbers, booleans
    and lists of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return "[" + ", ".join(_value(v) for v in value) + "]"


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def to_toml(data: Mapping[str, Any], header: str) -> str:
    """`data` (a map's tables, as `load_map` reads them) as TOML text, after the comment
    `header`."""
    lines = [f"# {h}" for h in header.splitlines()]
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append((_key(key), value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    while tables:
        path, table = tables.pop(0)
        inner = [(f"{path}.{_key(k)}", v) for k, v in table.items() if isinstance(v, Mapping)]
        plain = {k: v for k, v in table.items() if not isinstance(v, Mapping)}
        if plain or not inner:
            lines += ["", f"[{path}]"]
            lines += [f"{_key(k)} = {_value(v)}" for k, v in plain.items()]
        tables[0:0] = inner  # a table's sub-tables follow it
    return "\n".join(lines) + "\n"


def checked_toml(data: Mapping[str, Any], header: str) -> str:
    """The TOML text of `data`, once it reads back as the same data and the engine builds
    a map from it (so what is written loads); MapFileError otherwise."""
    text = to_toml(data, header)
    if tomllib.loads(text) != data:
        raise MapFileError(None, "the map does not survive its TOML form")  # a bug of ours
    try:
        build_map(data)
    except MapError as e:
        raise MapFileError(None, f"the map is inconsistent: {e}") from None
    return text


def both_ways(pairs: dict[tuple[str, str], int], unit: str) -> dict[str, set[str]]:
    """The moves of `pairs` by where they start, once each is listed from both ends."""
    moves: dict[str, set[str]] = {}
    for (a, b), number in pairs.items():
        if (b, a) not in pairs:
            raise MapFileError(number, f"{a} abuts {b} for {unit}, but {b} does not abut {a}")
        moves.setdefault(a, set()).add(b)
    return moves


def checked_unit(
    unit: str, number: int, provinces: dict[str, dict[str, Any]], standing: set[str]
) -> str:
    """A starting unit, once it can stand where it is and stands there alone."""
    kind, _, location = unit.partition(" ")
    province, _, coast = location.partition("/")
    table = provinces.get(province, {})
    if kind == "A":
        fits = not coast and "army" in table
    else:
        fits = coast in table.get("coasts", {}) if coast else "fleet" in table
    if not fits:
        raise MapFileError(number, f"the unit {unit} cannot stand there")
    if province in standing:
        raise MapFileError(number, f"a second unit in {province}")
    standing.add(province)
    return unit
