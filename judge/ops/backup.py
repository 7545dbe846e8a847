"""`judge backup PATH`: a consistent copy of the database, safely while the judge runs."""

from __future__ import annotations

import argparse
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
    if target.resolve() == source.resolve():
        return fail("the backup cannot overwrite the database itself")
    size, version, check = backup_database(source, target)
    out(f"backed up {source} to {target}: {size:,} bytes, schema version {version}, {check}")
    return 0 if check == "integrity ok" else 1
