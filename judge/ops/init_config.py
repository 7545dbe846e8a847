"""`judge init`: write the commented example configuration to start from."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from judge.ops.console import fail, out
from judge.paths import data_dir

EXAMPLE_NAME = "judge.example.toml"


def example_path() -> Path | None:
    """The commented example configuration (source checkout or installed copy)."""
    candidate = data_dir("config") / EXAMPLE_NAME
    return candidate if candidate.is_file() else None


def init(args: argparse.Namespace) -> int:
    """Write the commented example configuration to PATH (default ./judge.toml)."""
    target = Path(args.path or "judge.toml")
    if target.is_dir():
        target = target / "judge.toml"
    source = example_path()
    if source is None:
        return fail(
            f"the example configuration ({EXAMPLE_NAME}) is not installed with this judge; "
            "copy config/judge.example.toml from the judge's source instead"
        )
    if target.exists() and not args.force:
        return fail(f"{target} exists already; add --force to overwrite it")
    if not target.parent.is_dir():
        return fail(f"{target.parent} is not a folder")
    text = source.read_text()
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    # It will hold passwords once edited: not readable by everyone.
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        return fail(f"cannot write {target}: {e.strerror or e}")
    out(f"wrote {target}")
    out(f"edit it, then check it with: judge --config {target} check-config")
    return 0
