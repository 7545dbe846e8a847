"""The `judge` command."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument(
        "--config", help="judge.toml (default: ./judge.toml, else the built-in defaults)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "adjudicate",
        help="adjudicate JSON positions read line by line from standard input (Contract 1)",
        description="Read one JSON position with orders per line on standard input; write "
        "one JSON outcome per line on standard output, in the same order.",
    )
    args = parser.parse_args(argv)
    if args.command == "adjudicate":
        from judge.adjudicate import run

        return run()
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
