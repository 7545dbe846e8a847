"""What the operator's commands share: printing, tables, times in the judge's zone, the
configuration and the database they work on."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import sqlite_utils

from judge.config import Config, ConfigError, load_config
from judge.store.db import UnusableDatabase
from judge.store.games import Game
from judge.variants.maps import use_operator_folder

# Row ids are SQLite integers: an id past them is no message (and no query may hold it).
STORED_ID_LIMIT = 2**63


def out(line: str = "") -> None:
    """One line to standard output, at once (the operator may be piping it), with no
    control character: a sender's address, a subject or a reason comes from mail, and an
    escape sequence in it would act on the operator's terminal (clear it, retitle it,
    hide what follows)."""
    print(visible(line), flush=True)


_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(32), *range(127, 160)]}


def visible(text: str) -> str:
    """`text` with every control character (C0, DEL, C1) written as `\\xNN`."""
    return text.translate(_CONTROLS)


# A log record's lines stay lines (a traceback's), and a tab a tab.
_LOG_CONTROLS = {c: e for c, e in _CONTROLS.items() if c not in (9, 10)}


class VisibleFormatter(logging.Formatter):
    """Log lines with their control characters (but line breaks and tabs) written as
    `\\xNN`: a value from a mail may carry one (the SMTP receiver takes
    `MAIL FROM:<a\\rb@c>`), and on the terminal of an operator reading the log a bare CR
    or an escape sequence would overwrite or hide what the log says."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).translate(_LOG_CONTROLS)


def write_failure(path: Path, data: str | bytes) -> str | None:
    """Write `data` to the operator's file `path`; None, or why it could not be written
    (a folder, no such folder, not writable) in one line."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as e:
        return f"cannot write {path}: {e.strerror or e}"
    return None


def fail(message: str) -> int:
    """`message` to standard error; the exit status 1."""
    print(f"judge: {visible(message)}", file=sys.stderr, flush=True)
    return 1


def load(args: argparse.Namespace) -> Config | None:
    """The configuration `--config` names; None, with the error said, when it is wrong."""
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"judge: configuration error: {e}", file=sys.stderr, flush=True)
        return None
    use_operator_folder(config.maps)  # the games it shows may be played on the operator's maps
    return config


@contextlib.contextmanager
def database(config: Config) -> Iterator[sqlite_utils.Database]:
    """The judge's database, which must exist already (an operator's command never
    creates an empty one by mistake, e.g. with the wrong --config)."""
    from judge.store.db import open_db

    if not config.database.exists():
        raise NoDatabase(
            f"there is no database at {config.database} (has the judge run yet? "
            f"is --config right? configuration: {config.source})"
        )
    _not_under_a_running_judge(config)
    db = open_db(config.database)
    try:
        yield db
    finally:
        db.conn.close()


def _not_under_a_running_judge(config: Config) -> None:
    """NoDatabase when opening would migrate the database while an older judge runs on
    it (the judge was upgraded, not yet restarted): that judge's code would then work on
    tables it does not know."""
    import sqlite3

    from judge.service.startup import holder
    from judge.store.db import peek
    from judge.store.schema import MIGRATIONS

    try:
        version = peek(config.database).version
    except sqlite3.Error:
        return  # open_db says what is wrong with it
    pid = holder(config.database)
    if version < len(MIGRATIONS) and pid:
        raise NoDatabase(
            f"{config.database} has schema version {version}, older than this judge's "
            f"({len(MIGRATIONS)}), and a judge (process {pid}) is running on it: restart "
            "that judge with this version first (it brings the database up to date)"
        )


class NoDatabase(Exception):
    """The configured database does not exist; the message says where it was looked for."""


def with_database(
    args: argparse.Namespace, work: Callable[[Config, sqlite_utils.Database], int]
) -> int:
    config = load(args)
    if config is None:
        return 2
    try:
        with database(config) as db:
            return work(config, db)
    except NoDatabase as e:
        return fail(str(e))
    except UnusableDatabase as e:
        return fail(f"the database cannot be used: {e}")


def when(stored: str | None, zone: str) -> str:
    """A stored UTC ISO time, in the judge's zone: `2026-11-23 12:07 CET`."""
    if not stored:
        return "-"
    try:
        local = datetime.fromisoformat(stored).astimezone(ZoneInfo(zone))
    except (ValueError, OverflowError):  # out of range (year 9999 in a zone east of UTC)
        return f"{stored} (as stored)"
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; the last one unpadded."""
    rows = [[visible(str(c)) for c in row] for row in rows]  # widths as shown
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [str(c).ljust(w) for c, w in zip(row[:-1], widths[:-1], strict=True)]
        lines.append("  ".join([*cells, str(row[-1])]).rstrip())
    return lines


def game_name(name: str) -> str:
    """Game names are stored in lower case; `?war1` and `War1` both name `war1`."""
    return name.strip().lstrip("?").lower()


def find_game(db: sqlite_utils.Database, name: str) -> Game | None:
    """The game `name` names, however the operator wrote it."""
    from judge.store import games

    return games.find_game(db, game_name(name))


def plural(n: int, word: str, plural: str | None = None) -> str:
    """`1 game`, `2 games`: `n` and the word in its number."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"
