"""`judge backup PATH`: a consistent copy of the database, safely while the judge runs."""

from __future__ import annotations

import argparse
import os
import sqlite3
from pathlib import Path

from judge.ops.console import fail, load, out
from judge.store.backup import backup_database


def backup(args: argparse.Namespace) -> int:
    """`judge backup PATH [--force]`: exit status 1 unless the copy's integrity check passes."""
    config = load(args)
    if config is None:
        return 2
    source = config.database
    target = Path(args.path)
    if not source.exists():
        return fail(f"there is no database at {source} (configuration: {config.source})")
    if target.is_dir():
        return fail(f"{target} is a folder; give the backup's file name")
    if target.exists() and not args.force:
        return fail(f"{target} exists already; add --force to overwrite it")
    if not target.parent.is_dir():
        return fail(f"{target.parent} is not a folder")
    if _same_file(target, source):
        return fail("the backup cannot overwrite the database itself")
    if target.resolve() in _companions(source):  # replacing the -wal loses what it holds
        return fail(f"the backup cannot overwrite {target}, a file of the database's own")
    try:
        size, version, check = backup_database(source, target)
    except sqlite3.Error as e:
        return fail(f"the backup of {source} to {target} failed: {e}")
    except OSError as e:
        return fail(f"the backup to {target} failed: {e.strerror or e}")
    out(f"backed up {source} to {target}: {size:,} bytes, schema version {version}, {check}")
    return 0 if check == "integrity ok" else 1


def _same_file(target: Path, source: Path) -> bool:
    """Whether `target` is the database itself: the same path, a link to it, or a hard link."""
    if target.resolve() == source.resolve():
        return True
    return target.exists() and os.path.samefile(target, source)


def _companions(source: Path) -> set[Path]:
    """The files SQLite keeps beside the database while it is in use, and the running
    judge's lock file (replaced, it would let a second judge start)."""
    real = source.resolve()
    suffixes = ("-wal", "-shm", "-journal", ".lock")
    return {real.with_name(real.name + suffix) for suffix in suffixes}
