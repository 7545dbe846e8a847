"""The `judge` command."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

# logging, datetime and argparse are imported where used: `judge adjudicate` starts
# without them.

if TYPE_CHECKING:  # generic for the type checker only, not at run time
    import argparse
    from datetime import datetime

    from judge.config import Config

    # What add_subparsers() returns; its type argument is the parser class it makes.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def _moment(text: str) -> datetime:
    import argparse
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a time like 2026-12-01T23:31:00Z"
        ) from None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    # Deadlines are reckoned days and weeks past it: far from the calendar's ends, or
    # that reckoning overflows (year 9999 in a zone west of UTC did at once).
    try:
        year = moment.astimezone(UTC).year
    except OverflowError:  # the first or the last day of the calendar, in a far zone
        year = moment.year
    if not 1900 <= year <= 9000:
        raise argparse.ArgumentTypeError(f"{text!r}: give a time between the years 1900 and 9000")
    return moment


_MAPS_HELP = "the operator's map folder, searched before the bundled maps/"


# The collector's thresholds in `judge adjudicate`'s own process: the youngest objects
# are looked at after 70,000 allocations, not 700.
GC_THRESHOLDS = (70_000, 10, 10)


def main(argv: list[str] | None = None) -> int:
    """`judge ARGV`: the exit status of the command run."""
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["adjudicate"]:  # Contract 1's tool, started per batch: start it lean
        if argv is None:  # this process is the command, and ends with it
            # No line leaves a reference cycle (tests/test_adjudicate_gc.py): reference
            # counting frees all a line makes. The cyclic collector's passes over the
            # engine's imports and the lines were 1% of the time, for nothing: its
            # imports are set aside for good, and it looks a hundred times less often,
            # so that a cycle some line might still leave is freed all the same.
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
            _exit_at_once(_adjudicate_alone(words[1:]))
        return _adjudicate_alone(words[1:])
    import logging

    parser = _parser()
    args = parser.parse_args(argv)
    from judge.ops.console import VisibleFormatter

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(VisibleFormatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, handlers=[handler])
    if not args.verbose:  # aiosmtpd logs every SMTP command at INFO
        logging.getLogger("mail.log").setLevel(logging.WARNING)
    if args.command == "adjudicate":
        return _adjudicate(args, parser)
    if args.command == "run":
        return _run(args, parser)
    if args.command == "demo":
        from judge.ops.demo import main as demo

        return demo(args)
    if getattr(args, "operator", None):
        try:
            return _operator_command(args.operator)(args)
        except BrokenPipeError:  # `judge games | head`: the reader has what it wanted
            _quiet_stdout()
            return 1
    parser.error(f"unknown command {args.command}")
    return 2


def _quiet_stdout() -> None:
    """Standard output to /dev/null: its reader has gone, and Python's flush of it at exit
    would raise again (Python's documented way, in the signal module's notes on SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _parser() -> argparse.ArgumentParser:
    """The command line: the judge's own commands and the operator's."""
    import argparse

    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument(
        "--config", help="judge.toml (default: ./judge.toml, else the built-in defaults)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log for debugging")
    sub = parser.add_subparsers(dest="command", required=True)
    adjudicating = sub.add_parser(
        "adjudicate",
        help="adjudicate JSON positions read line by line from standard input (Contract 1)",
        description=_ADJUDICATE_DESCRIPTION,
    )
    adjudicating.add_argument("--maps", type=Path, metavar="DIR", help=_MAPS_HELP)
    run = sub.add_parser(
        "run",
        help="run the judge: receive mail, handle it, send the replies",
        description="Run the judge as a daemon until SIGTERM or Ctrl-C; with --once, "
        "handle whatever is waiting (mail, due deadlines, the outbox) and exit.",
    )
    run.add_argument("--once", action="store_true", help="handle what is waiting, then exit")
    run.add_argument("--maps", type=Path, metavar="DIR", help=_MAPS_HELP + " (and judge.maps)")
    run.add_argument(
        "--now",
        type=_moment,
        help="with --once: act as if the clock read this instant (ISO 8601, e.g. "
        "2026-12-01T23:31:00Z)",
    )
    sub.add_parser(
        "demo",
        help="play a short scripted game by mail against a judge started in this process",
        description="Start the judge in this process on its configuration (SMTP receiver, "
        "Maildir outbox), have a master and seven players mail it a game year of real "
        "commands and orders, and count the replies in the Maildir. Exit status 1 when the "
        "receiver's port is taken or the game does not go as scripted.",
    )
    _add_operator_commands(sub)
    return parser


_ADJUDICATE_DESCRIPTION = (
    "Read one JSON position with orders per line on standard input; write "
    "one JSON outcome per line on standard output, in the same order."
)


def _exit_at_once(status: int) -> NoReturn:
    """End this process with `status`, its standard output and error flushed, without
    the interpreter's finalization: `judge adjudicate` holds no file, lock or exit
    handler that needs it, and its last collection and the freeing of every module's
    objects were some 3% of a run's instructions. A flush that fails ends with 120, as
    the interpreter's own exit does."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream
            status = 120
    os._exit(status)


def _adjudicate_alone(words: list[str]) -> int:
    """`judge adjudicate ...` read by its own parser: neither the other commands' parsers
    nor logging are set up (it logs nothing): some 15 ms less CPU at each start."""
    if not words:  # the usual start: no parser built at all (argparse's formatter
        # imports shutil and locale, 4 ms); anything else, --help included, is argparse's
        from judge.ops.adjudicate import run as adjudicate

        return adjudicate()
    import argparse  # not at the usual start: 1 ms of imports

    parser = argparse.ArgumentParser(prog="judge adjudicate", description=_ADJUDICATE_DESCRIPTION)
    parser.add_argument("--maps", type=Path, metavar="DIR", help=_MAPS_HELP)
    return _adjudicate(parser.parse_args(words), parser)


def _adjudicate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """`judge adjudicate [--maps DIR]`: Contract 1 on standard input and output."""
    from judge.ops.adjudicate import run as adjudicate
    from judge.variants.maps import use_operator_folder

    if args.maps is not None and not args.maps.is_dir():
        parser.error(f"--maps {args.maps}: no such folder")
    use_operator_folder(args.maps)
    return adjudicate()


# Each operator's command: the module of judge/ops/ and the function in it that runs it.
# Imported only when that command is run, so that `judge run` loads none of them.
_OPERATOR_COMMANDS = {
    "init": ("init_config", "init"),
    "check-config": ("check_config", "check_config"),
    "games": ("games", "list_games"),
    "game": ("games", "show_game"),
    "outbox": ("outbox", "outbox"),
    "inbox": ("inbox", "inbox"),
    "backup": ("backup", "backup"),
    "replay": ("replay", "replay"),
    "export": ("export", "export"),
    "map": ("draw_map", "draw_map"),
    "import-map": ("import_map", "import_map"),
    "export-map": ("export_map", "export_map"),
}


def _operator_command(command: str) -> Callable[[argparse.Namespace], int]:
    """The function that runs the operator's `command`."""
    module, function = _OPERATOR_COMMANDS[command]
    run: Callable[[argparse.Namespace], int] = getattr(
        importlib.import_module(f"judge.ops.{module}"), function
    )
    return run


def _add_operator_commands(sub: Subparsers) -> None:
    """The operator's commands, each run by the function _OPERATOR_COMMANDS names."""
    _add_setup_commands(sub)
    _add_game_commands(sub)
    _add_mail_commands(sub)
    _add_history_commands(sub)


def _add_setup_commands(sub: Subparsers) -> None:
    """`init` and `check-config`."""
    init = sub.add_parser(
        "init",
        help="write a commented judge.toml to start from",
        description="Write the commented example configuration (every key, with its "
        "default) to PATH, ./judge.toml by default.",
    )
    init.add_argument("path", nargs="?", metavar="PATH", help="where to write (./judge.toml)")
    init.add_argument("--force", action="store_true", help="overwrite an existing file")
    init.set_defaults(operator="init")
    sub.add_parser(
        "check-config",
        help="load the configuration and try each part: database, inbound, outbound",
        description="Load the configuration and say of each part whether it works: the "
        "database opens, the IMAP server takes the login and the mailbox (or the SMTP "
        "receiver's port can be bound), the SMTP relay answers (or the Maildir is "
        "writable). Exit status 0 when every part works, 1 otherwise.",
    ).set_defaults(operator="check-config")


def _add_game_commands(sub: Subparsers) -> None:
    """`games` and `game NAME`."""
    sub.add_parser(
        "games",
        help="list the games: variant, state, phase, deadline, players",
        description="One line per game: name, variant, state, phase, deadline (in the "
        "judge's time zone) and the players seated.",
    ).set_defaults(operator="games")
    game = sub.add_parser(
        "game",
        help="show one game: settings, seats, orders in, position",
        description="A game's settings, its seats (power, address, WAIT, whether orders "
        "are in for the current phase) and the current position.",
    )
    game.add_argument("name", metavar="NAME")
    game.set_defaults(operator="game")


def _add_mail_commands(sub: Subparsers) -> None:
    """`outbox` and `inbox`."""
    outbox = sub.add_parser(
        "outbox",
        help="the mail waiting to be sent or given up on; --retry to send it now",
        description="Counts of outbound mail by state, then every queued and failed "
        "message. With --retry, make every queued or failed message due now (failed ones "
        "are queued again); with --retry ID, only that one.",
    )
    outbox.add_argument(
        "--retry",
        nargs="?",
        const="all",
        metavar="ID",
        help="make queued and failed mail (or message ID) due now",
    )
    outbox.set_defaults(operator="outbox")
    inbox = sub.add_parser(
        "inbox",
        help="the mail the judge failed to handle; --retry to handle it again",
        description="Counts of inbound mail by state, then every message set aside as "
        "failed (its handling raised on every attempt) or waiting for another attempt: "
        "id, when it came, sender, attempts and the reason (never the mail's text). With "
        "--retry ID, set that message back to new with a fresh count of attempts; with "
        "--retry alone, every failed message.",
    )
    inbox.add_argument(
        "--retry",
        nargs="?",
        const="all",
        metavar="ID",
        help="handle failed mail (or message ID) again at the judge's next pass",
    )
    inbox.set_defaults(operator="inbox")


def _add_history_commands(sub: Subparsers) -> None:
    """`backup`, `replay`, `export`, `map` and `import-map`."""
    backup = sub.add_parser(
        "backup",
        help="copy the database to PATH, safely while the judge runs",
        description="Copy the judge's database to PATH with SQLite's online backup: a "
        "consistent snapshot even while the judge is writing.",
    )
    backup.add_argument("path", metavar="PATH")
    backup.add_argument("--force", action="store_true", help="overwrite an existing file")
    backup.set_defaults(operator="backup")
    replay = sub.add_parser(
        "replay",
        help="adjudicate a game's history again and report any difference",
        description="Adjudicate each processed phase of a game again, from its stored "
        "position and orders, with the current engine, and report every difference from "
        "the stored results. Exit status 1 when any phase differs.",
    )
    replay.add_argument("name", metavar="NAME")
    replay.set_defaults(operator="replay")
    export = sub.add_parser(
        "export",
        help="a game's history as JSON in the diplomacy package's saved-game format",
        description="Write a game's full history as one line of JSON in the saved-game "
        "format of the `diplomacy` Python package (its from_saved_game_format reads it).",
    )
    export.add_argument("name", metavar="NAME")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    export.set_defaults(operator="export")
    board = sub.add_parser(
        "map",
        help="draw a game's board as PNG or SVG",
        description="Draw the board of game NAME: the given phase with its orders and "
        "results when it has been processed (default: the last processed phase, or the "
        "current position).",
    )
    board.add_argument("name", metavar="NAME")
    board.add_argument("phase", metavar="PHASE", nargs="?", help="e.g. S1901M")
    board.add_argument(
        "-o", "--output", metavar="FILE", help="FILE.png or FILE.svg (default: NAME-PHASE.png)"
    )
    board.set_defaults(operator="map")
    _add_import_map(sub)
    _add_export_map(sub)


def _add_export_map(sub: Subparsers) -> None:
    """`export-map NAME --format F [--maps DIR] [-o FILE]`."""
    exporting = sub.add_parser(
        "export-map",
        help="write a map back in another judge's format",
        description="Write map NAME (bundled, or in the operator's map folder) in another "
        "judge's format, as import-map reads it: --format dpjudge, a DPjudge .map file "
        "(standard output unless -o); --format njudge, the classic judge's map.X and its "
        "seed.X (default: map.NAME and seed.NAME here). What the format cannot state is "
        "said as a warning.",
    )
    exporting.add_argument("name", metavar="NAME")
    exporting.add_argument("--format", required=True, choices=["dpjudge", "njudge"])
    exporting.add_argument(
        "--maps", type=Path, metavar="DIR", help="the map folder (default: judge.maps)"
    )
    exporting.add_argument("-o", "--output", metavar="FILE", help="write to FILE")
    exporting.set_defaults(operator="export-map")


def _add_import_map(sub: Subparsers) -> None:
    """`import-map FILE --format F --name NAME [--maps DIR] [--force] [--seed S] [--powers P]`."""
    importing = sub.add_parser(
        "import-map",
        help="write another judge's map file into the operator's map folder",
        description="Read FILE, a map file of another judge (--format dpjudge: DPjudge's "
        "or the MILA diplomacy package's .map; --format njudge: the classic judge's map.X "
        "with its seed.X), and write it as NAME.toml into the "
        "operator's map folder, where `CREATE ?game password NAME` and judge adjudicate's "
        '"map": NAME find it. A malformed file is refused with its line and the reason '
        "(exit status 1), and nothing is written.",
    )
    importing.add_argument("file", metavar="FILE")
    importing.add_argument("--format", required=True, choices=["dpjudge", "njudge"])
    importing.add_argument("--name", required=True, metavar="NAME", help="the map's name")
    importing.add_argument(
        "--maps", type=Path, metavar="DIR", help="the map folder (default: judge.maps)"
    )
    importing.add_argument("--force", action="store_true", help="replace NAME.toml there")
    importing.add_argument(
        "--seed", metavar="SEED", help="njudge: the seed file (default: seed.X beside map.X)"
    )
    importing.add_argument(
        "--powers",
        action="append",
        metavar="L=Name:Adjective,...",
        help="njudge: the powers' names by letter (the standard seven's are known)",
    )
    importing.set_defaults(operator="import-map")


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from judge.config import ConfigError, load_config
    from judge.service.startup import StartFailed
    from judge.store.db import UnusableDatabase

    if args.now and not args.once:
        parser.error("--now goes with --once")
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"judge: configuration error: {e}", file=sys.stderr)
        return 2
    if config.warnings:
        import logging  # configured by main()

        for warning in config.warnings:  # at start, before anything else is logged
            logging.getLogger("judge.config").warning("%s", warning)
    if args.maps is not None:
        config = replace(config, maps=args.maps.resolve())
    if config.maps is not None and not config.maps.is_dir():
        print(f"judge: the map folder {config.maps} is no folder", file=sys.stderr)
        return 2
    try:
        return _started(args, config)
    except UnusableDatabase as e:  # at start: nothing was received yet, nothing is lost
        print(f"judge: the database cannot be used: {e}", file=sys.stderr)
        return 2
    except StartFailed as e:
        print(f"judge: not started: {e}", file=sys.stderr)
        return 2


def _started(args: argparse.Namespace, config: Config) -> int:
    """`judge run` on a configuration found right: --once, or the daemon."""
    from judge.service import daemon

    if args.once:
        clock = daemon.fixed_clock(args.now) if args.now else daemon.real_clock
        # A clock set by --now may be ahead: no mail is forgotten by it (it cannot be undone).
        counts = daemon.run_once(config, clock, forget=args.now is None)
        import logging  # configured by main()

        logging.getLogger("judge").info(
            "fetched %(fetched)d, handled %(handled)d, deadline mails %(due)d, sent %(sent)d",
            counts,
        )
        return 0

    def ready() -> None:
        if config.inbound_mode == "smtp":
            where = f"SMTP on {config.smtp_in.host}:{config.smtp_in.port}"
        else:
            where = f"the IMAP mailbox {config.imap.username}@{config.imap.host}"
        out = (
            f"the Maildir {config.maildir}/new/"
            if config.outbound_mode == "maildir"
            else f"SMTP via {config.smtp_out.host}:{config.smtp_out.port}"
        )
        print(
            f"The {config.name} judge is running ({config.source}).\n"
            f"  Send mail for {config.address} to {where}.\n"
            f"  Replies go to {out}.\n"
            f"  Database: {config.database}. Stop with Ctrl-C.",
            file=sys.stderr,
            flush=True,
        )

    daemon.run_forever(config, ready=ready)
    return 0


if __name__ == "__main__":
    sys.exit(main())
