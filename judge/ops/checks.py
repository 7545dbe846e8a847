"""The verdicts of `judge check-config`, and its checks of the local parts: the database
and the Maildir."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from judge.config import Config
from judge.ops.console import out, plural


class Check:
    """Collects each part's verdict."""

    def __init__(self, secrets: Sequence[str]) -> None:
        self.secrets = [s for s in secrets if s]
        self.failed = 0

    def ok(self, part: str, text: str) -> None:
        out(f"{part}: ok: {text}")

    def fail(self, part: str, text: str) -> None:
        self.failed += 1
        for secret in self.secrets:  # a server may echo what it was sent
            text = text.replace(secret, "********")
        out(f"{part}: FAILED: {text}")


def check_database(config: Config, check: Check) -> None:
    """The database opens and its schema is one this judge knows, or it can be created."""
    from judge.service.startup import holder
    from judge.store.db import peek
    from judge.store.schema import MIGRATIONS

    path = config.database
    part = "database"
    if not path.exists():
        folder = _existing_ancestor(path.parent)
        if os.access(folder, os.W_OK | os.X_OK):
            check.ok(part, f"{path} does not exist yet; the judge will create it")
        else:
            check.fail(part, f"{path} does not exist, and {folder} is not writable")
        return
    if path.is_dir():
        check.fail(part, f"{path} is a folder, not a database file")
        return
    try:
        seen = peek(path, timeout=5)
    except sqlite3.Error as e:
        check.fail(part, f"{path} cannot be opened: {e}")
        return
    version, n_games = seen.version, seen.games
    pid = holder(path)
    running = f"; a judge is running on it (process {pid})" if pid else ""
    current = len(MIGRATIONS)
    if version > current:
        check.fail(
            part,
            f"{path} has schema version {version}, newer than this judge ({current}): "
            "upgrade the judge",
        )
    elif version < current:
        check.ok(
            part,
            f"{path}, schema version {version} (the judge will migrate it to {current}), "
            f"{plural(n_games, 'game')}",
        )
    else:
        check.ok(part, f"{path}, schema version {version}, {plural(n_games, 'game')}{running}")


def _existing_ancestor(path: Path) -> Path:
    """The nearest folder above `path` (or itself) that exists."""
    path = path.resolve()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_maildir(config: Config, check: Check) -> None:
    """The Maildir is writable, or can be created."""
    path = config.maildir
    part = f"outbound: Maildir {path}"
    if not path.exists():
        folder = _existing_ancestor(path)
        if os.access(folder, os.W_OK | os.X_OK):
            check.ok(part, "does not exist yet; the judge will create it")
        else:
            check.fail(part, f"does not exist, and {folder} is not writable")
        return
    try:
        for sub in ("tmp", "new", "cur"):
            if (path / sub).exists() and not (path / sub).is_dir():
                raise NotADirectoryError(f"{path / sub} is not a folder")
        probe_dir = path / "tmp" if (path / "tmp").is_dir() else path
        probe = probe_dir / f".judge-check-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        check.fail(part, f"not writable: {e.strerror or e}")
        return
    check.ok(part, "writable")


def check_maps(config: Config, check: Check) -> None:
    """The operator's map folder (judge.maps), when one is set, is a folder: `judge run`
    refuses to start otherwise."""
    if config.maps is None:
        return
    part = f"maps: {config.maps}"
    if not config.maps.exists():
        check.fail(part, "does not exist")
    elif not config.maps.is_dir():
        check.fail(part, "is not a folder")
    else:
        check.ok(part, f"a folder of {plural(len(list(config.maps.glob('*.toml'))), 'map')}")
