"""Layers: no module outside judge/store/ executes SQL (issue 15).

Every query lives in a named function of judge/store/; the rest of the judge calls those.
The check reads each module's syntax tree (never imports it) and reports, by file and
line, every call that runs SQL, every sqlite-utils table access, every raw connection and
every string that is an SQL statement.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JUDGE = ROOT / "judge"
STORE = JUDGE / "store"

# Methods that run SQL or reach a table, whatever object they are called on: sqlite3's
# Connection and Cursor, and sqlite_utils' Database and Table.
_SQL_METHODS = frozenset(
    {
        "execute",
        "executemany",
        "executescript",
        "query",
        "table",
        "table_names",
        "create_table",
        "rows_where",
    }
)
# Calls that open a database of their own: only judge/store/ opens one.
_OPENERS = {("sqlite3", "connect"), ("sqlite_utils", "Database")}

# A string that is an SQL statement: the keyword at its start and what must follow it in
# SQL. The judge's command words (CREATE, ROLLBACK, BEGIN, REPLACE as commands) are not
# SQL and do not match: SQL's forms of them go on with TABLE, TO, IMMEDIATE, INTO, ...
_SQL_STATEMENT = re.compile(
    r"""\s*(
        SELECT\b.*\bFROM\b
      | SELECT\s+(\d|\*|COUNT\s*\(|MIN\s*\(|MAX\s*\()
      | (INSERT|REPLACE)\s+(OR\s+\w+\s+)?INTO\b
      | UPDATE\s+\w+\s+SET\b
      | DELETE\s+FROM\b
      | (CREATE|DROP)\s+(TEMP\s+|TEMPORARY\s+|UNIQUE\s+|VIRTUAL\s+)?(TABLE|INDEX|VIEW|TRIGGER)\b
      | ALTER\s+TABLE\b
      | PRAGMA\s+\w
      | BEGIN\s+(DEFERRED|IMMEDIATE|EXCLUSIVE|TRANSACTION)\b
      | COMMIT\b | END\s+TRANSACTION\b
      | ROLLBACK\s+(TO|TRANSACTION)\b
      | SAVEPOINT\s+\w | RELEASE\s+SAVEPOINT\b
      | WITH\s+(RECURSIVE\s+)?\w+(\s*\([^)]*\))?\s+AS\s*\(
      | (VACUUM|REINDEX|ANALYZE)\s*;?\s*$ | (ATTACH|DETACH)\s+DATABASE\b
    )""",
    re.IGNORECASE | re.VERBOSE | re.DOTALL,
)

# What may stay outside judge/store/, each with its reason: (path from the repository
# root, the violation's text) -> why. Empty: nothing outside judge/store/ touches SQL.
# An entry that no longer matches a violation fails the test, so the list stays true.
ALLOWED: dict[tuple[str, str], str] = {}


def _text(node: ast.AST) -> str | None:
    """A string literal's text; an f-string's with each {...} as `_x_`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) else "_x_"
            for v in node.values
            if isinstance(v, ast.Constant | ast.FormattedValue)
        )
    return None


def _is_db(node: ast.AST) -> bool:
    """`db` or `<anything>.db`: the judge's name for its database, everywhere."""
    return (isinstance(node, ast.Name) and node.id == "db") or (
        isinstance(node, ast.Attribute) and node.attr == "db"
    )


def violations(source: str) -> list[tuple[int, str]]:
    """(line, what) for every way `source` runs SQL, in the order of the source."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(source)
    inside_fstring = {
        id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, owner = node.func.attr, node.func.value
            if attr in _SQL_METHODS:
                found.append((node.lineno, f".{attr}(...)"))
            elif isinstance(owner, ast.Name) and (owner.id, attr) in _OPENERS:
                found.append((node.lineno, f"{owner.id}.{attr}(...)"))
        elif isinstance(node, ast.Subscript) and _is_db(node.value):
            found.append((node.lineno, f"{ast.unparse(node)} (a table)"))
        elif id(node) not in inside_fstring:
            text = _text(node)
            if text is not None and _SQL_STATEMENT.match(text):
                first = text.strip().splitlines()[0]
                found.append((node.lineno, f"SQL text {first[:60]!r}"))
    return sorted(found)


def _modules_outside_store() -> list[Path]:
    return sorted(p for p in JUDGE.rglob("*.py") if STORE not in p.parents)


def test_no_module_outside_the_store_executes_sql() -> None:
    modules = _modules_outside_store()
    assert len(modules) > 30  # the scan sees the judge (a wrong root would pass vacuously)
    seen: set[tuple[str, str]] = set()
    report = []
    for path in modules:
        name = str(path.relative_to(ROOT))
        for line, what in violations(path.read_text()):
            if (name, what) in ALLOWED:
                seen.add((name, what))
            else:
                report.append(f"{name}:{line}: {what}")
    assert not report, "SQL outside judge/store/ (move it into a store function):\n" + "\n".join(
        report
    )
    assert seen == set(ALLOWED), f"allowed but no longer there: {set(ALLOWED) - seen}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("db.execute('x')", [(1, ".execute(...)")]),
        ("run.ctx.db.conn.executemany(q, rows)", [(1, ".executemany(...)")]),
        ("conn.executescript(s)", [(1, ".executescript(...)")]),
        ("rows = db.query(q)", [(1, ".query(...)")]),
        ("db.table('games').insert({})", [(1, ".table(...)")]),
        ("x = 1\ndb['games'].insert({})", [(2, "db['games'] (a table)")]),
        ("self.db['seats'].count", [(1, "self.db['seats'] (a table)")]),
        ("c = sqlite3.connect(path)", [(1, "sqlite3.connect(...)")]),
        ("d = sqlite_utils.Database(c)", [(1, "sqlite_utils.Database(...)")]),
        (
            'Q = ("SELECT id FROM games "\n    "WHERE name = ?")',
            [(1, "SQL text 'SELECT id FROM games WHERE name = ?'")],
        ),
        ('q = f"UPDATE {t} SET a = 1"', [(1, "SQL text 'UPDATE _x_ SET a = 1'")]),
        (
            "q = 'insert or ignore into t values (1)'",
            [(1, "SQL text " + repr("insert or ignore into t values (1)"))],
        ),
        ("q = 'DELETE FROM reply_log'", [(1, "SQL text 'DELETE FROM reply_log'")]),
        ("q = 'PRAGMA user_version'", [(1, "SQL text 'PRAGMA user_version'")]),
        ("q = 'BEGIN IMMEDIATE'", [(1, "SQL text 'BEGIN IMMEDIATE'")]),
        ("q = 'CREATE TABLE t (a)'", [(1, "SQL text 'CREATE TABLE t (a)'")]),
        ("q = 'SELECT COUNT(*) FROM t'", [(1, "SQL text 'SELECT COUNT(*) FROM t'")]),
        (
            "q = 'WITH w AS (SELECT 1) SELECT * FROM w'",
            [(1, "SQL text 'WITH w AS (SELECT 1) SELECT * FROM w'")],
        ),
    ],
)
def test_the_check_finds_each_kind_of_sql(source: str, expected: list[tuple[int, str]]) -> None:
    assert violations(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        # The mail command language shares words with SQL; none of these is a statement.
        "NAMES = {'CREATE', 'ROLLBACK', 'REPLACE', 'BEGIN', 'DELETE', 'UPDATE'}",
        "if [a.upper() for a in args] != ['BEGIN']: pass",
        "usage = 'CREATE ?name password [variant], e.g. CREATE ?game1 secret'",
        "line = f'CREATE ?{game} {password}'",
        "data['retreats']",
        "db.conn.close()",
        "client.search(['NOT', 'DELETED'])",
        "_table(header, rows)",
        "'''Update the seat: its new address.'''",
    ],
)
def test_the_check_lets_the_command_language_and_plain_code_be(source: str) -> None:
    assert violations(source) == []
