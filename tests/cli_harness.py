"""The `judge` command line run in-process, on a small configuration file."""

from __future__ import annotations

from pathlib import Path

from judge.ops.cli import main


def run(capsys, *argv: str) -> tuple[int, list[str], str]:
    """Run `judge ARGV`; (exit status, standard output lines, standard error)."""
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def write_config(folder: Path, text: str = "", database: str = "j.db") -> Path:
    """`folder`/judge.toml: a judge TEST on the store `database`, then `text`."""
    path = folder / "judge.toml"
    path.write_text(
        f'[judge]\nname = "TEST"\naddress = "judge@example.org"\ndatabase = "{database}"\n' + text
    )
    return path
