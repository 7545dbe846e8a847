"""`judge demo`: a short scripted game by mail against a judge running in this process.

The judge's daemon (`run_forever`, real clock) runs in a thread on the configuration the
other commands use (the embedded defaults: SMTP on 127.0.0.1:2525 for judge@localhost,
var/judge.db, replies into the Maildir var/outbox/). A master and seven players then mail
it real commands with smtplib, and read its replies from the Maildir as players read
their mail: the master creates a game, the players sign on with preference lists, each
learns its power from its start mail, and they play 1901: Spring (three bounces), Fall
(Italy takes Trieste with support, dislodging the Austrian fleet), the retreat the
dislodged power is asked for, and the Winter builds and removal. At the end it counts
what appeared in the Maildir's new/ folder.

The game's name is new on every run (demo + the time), so the demo can be run again on
the same database.
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys
import threading

from judge.config import Config, ConfigError, load_config
from judge.ops.demo_game import Demo
from judge.ops.demo_mail import DemoError, shown


def _port_free(host: str, port: int) -> bool:
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except OSError:
        return True  # let the receiver report it
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio binds
            try:
                s.bind(address)
            except OSError:
                return False
    return True


def main(args: argparse.Namespace) -> int:
    """`judge demo`: exit status 0 when the game went as scripted, 1 otherwise."""
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"judge: configuration error: {e}", file=sys.stderr)
        return 2
    if config.inbound_mode != "smtp" or config.outbound_mode != "maildir":
        return _fail(
            "the demo mails the judge's SMTP receiver and reads its Maildir: it needs inbound "
            f'mode "smtp" and outbound mode "maildir" ({config.source} has '
            f'"{config.inbound_mode}" and "{config.outbound_mode}")'
        )
    if not _port_free(config.smtp_in.host, config.smtp_in.port):
        return _fail(_busy(config))
    if not getattr(args, "verbose", False):  # the judge's own log would drown the story
        logging.getLogger().setLevel(logging.WARNING)
    _out(
        f"The {config.name} judge ({config.source}) runs in this process: mail for "
        f"{config.address} to SMTP {config.smtp_in.host}:{config.smtp_in.port}, replies "
        f"into {shown(config.maildir)}/new/, database {shown(config.database)}."
    )
    return _play(config, Demo(config, _out))


def _out(line: str) -> None:
    print(line, flush=True)


def _fail(message: str) -> int:
    print(f"judge demo: {message}", file=sys.stderr, flush=True)
    return 1


def _busy(config: Config) -> str:
    """What to do when the receiver's port is taken."""
    return (
        f"{config.smtp_in.host}:{config.smtp_in.port} is taken: another judge (or another "
        "program) is listening there. Stop it, or run the demo with --config naming a "
        "judge.toml with another [inbound.smtp] port."
    )


def _play(config: Config, demo: Demo) -> int:
    """Run the judge's daemon in a thread, play the demo against it, stop the daemon."""
    from judge.service.daemon import run_forever

    stop, ready = threading.Event(), threading.Event()
    crashed: list[BaseException] = []

    def judge() -> None:
        try:
            run_forever(config, stop=stop, ready=ready.set)
        except BaseException as e:  # reported by the main thread
            crashed.append(e)
            ready.set()

    thread = threading.Thread(target=judge, name="judge", daemon=True)
    thread.start()
    try:
        return _script(config, demo, ready, crashed)
    finally:
        stop.set()
        thread.join(15)


def _script(
    config: Config, demo: Demo, ready: threading.Event, crashed: list[BaseException]
) -> int:
    """Once the judge is ready, the game as scripted; the exit status."""
    ready.wait(15)
    if crashed:
        from judge.service.startup import StartFailed

        if isinstance(crashed[0], OSError | StartFailed) and not _port_free(
            config.smtp_in.host, config.smtp_in.port
        ):
            return _fail(_busy(config))
        if isinstance(crashed[0], StartFailed):  # e.g. another judge on its database
            return _fail(f"the judge could not start: {crashed[0]}")
        return _fail(f"the judge could not start: {crashed[0]!r}")
    if not ready.is_set():
        return _fail("the judge did not start within 15 seconds")
    try:
        demo.run()
    except (DemoError, OSError) as e:
        if crashed:
            return _fail(f"the judge stopped: {crashed[0]!r}")
        demo.summary()
        return _fail(str(e))
    demo.summary()
    return 0
