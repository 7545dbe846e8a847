"""The `judge` command."""

from __future__ import annotations

import argparse
import logging
import sys
from datetime import UTC, datetime


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a time like 2026-12-01T23:31:00Z"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument(
        "--config", help="judge.toml (default: ./judge.toml, else the built-in defaults)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log for debugging")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "adjudicate",
        help="adjudicate JSON positions read line by line from standard input (Contract 1)",
        description="Read one JSON position with orders per line on standard input; write "
        "one JSON outcome per line on standard output, in the same order.",
    )
    run = sub.add_parser(
        "run",
        help="run the judge: receive mail, handle it, send the replies",
        description="Run the judge as a daemon until SIGTERM or Ctrl-C; with --once, "
        "handle whatever is waiting (mail, due deadlines, the outbox) and exit.",
    )
    run.add_argument("--once", action="store_true", help="handle what is waiting, then exit")
    run.add_argument(
        "--now",
        type=_moment,
        help="with --once: act as if the clock read this instant (ISO 8601, e.g. "
        "2026-12-01T23:31:00Z)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    if not args.verbose:  # aiosmtpd logs every SMTP command at INFO
        logging.getLogger("mail.log").setLevel(logging.WARNING)
    if args.command == "adjudicate":
        from judge.adjudicate import run as adjudicate

        return adjudicate()
    if args.command == "run":
        return _run(args, parser)
    parser.error(f"unknown command {args.command}")
    return 2


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from judge import daemon
    from judge.config import ConfigError, load_config

    if args.now and not args.once:
        parser.error("--now goes with --once")
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"judge: configuration error: {e}", file=sys.stderr)
        return 2
    if args.once:
        clock = daemon.fixed_clock(args.now) if args.now else daemon.real_clock
        counts = daemon.run_once(config, clock)
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
