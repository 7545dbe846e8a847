"""The operator's commands: `judge init`, `check-config`, `games`, `game`, `outbox`,
`inbox`, `backup`, `replay` and `export`.

Each command is a plain function taking the parsed arguments (`--config` as every other
command takes it) and returning the exit status; what it has to say goes to standard
output, errors to standard error. None of them prints a password.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import imaplib
import json
import os
import smtplib
import socket
import sqlite3
import ssl
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import sqlite_utils

from judge.config import Config, ConfigError, load_config
from judge.game.export import export_game
from judge.paths import data_dir
from judge.store.backup import backup_database

NETWORK_TIMEOUT = 10.0  # seconds: check-config never hangs on a dead server
EXAMPLE_NAME = "judge.example.toml"


# -- shared helpers ------------------------------------------------------------------------


def _out(line: str = "") -> None:
    print(line, flush=True)


def _fail(message: str) -> int:
    print(f"judge: {message}", file=sys.stderr, flush=True)
    return 1


def _load(args: argparse.Namespace) -> Config | None:
    try:
        return load_config(args.config)
    except ConfigError as e:
        print(f"judge: configuration error: {e}", file=sys.stderr, flush=True)
        return None


@contextlib.contextmanager
def _database(config: Config) -> Iterator[sqlite_utils.Database]:
    """The judge's database, which must exist already (an operator's command never
    creates an empty one by mistake, e.g. with the wrong --config)."""
    from judge.store.db import open_db

    if not config.database.exists():
        raise _NoDatabase(
            f"there is no database at {config.database} (has the judge run yet? "
            f"is --config right? configuration: {config.source})"
        )
    db = open_db(config.database)
    try:
        yield db
    finally:
        db.conn.close()


class _NoDatabase(Exception):
    pass


def _with_database(
    args: argparse.Namespace, work: Callable[[Config, sqlite_utils.Database], int]
) -> int:
    config = _load(args)
    if config is None:
        return 2
    try:
        with _database(config) as db:
            return work(config, db)
    except _NoDatabase as e:
        return _fail(str(e))


def _when(stored: str | None, zone: str) -> str:
    """A stored UTC ISO time, in the judge's zone: `2026-11-23 12:07 CET`."""
    if not stored:
        return "-"
    try:
        local = datetime.fromisoformat(stored).astimezone(ZoneInfo(zone))
    except (ValueError, OverflowError):  # out of range (year 9999 in a zone east of UTC)
        return f"{stored} (as stored)"
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; the last one unpadded."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [str(c).ljust(w) for c, w in zip(row[:-1], widths[:-1], strict=True)]
        lines.append("  ".join([*cells, str(row[-1])]).rstrip())
    return lines


def _game_name(name: str) -> str:
    """Game names are stored in lower case; `?war1` and `War1` both name `war1`."""
    return name.strip().lstrip("?").lower()


def _find_game(db: sqlite_utils.Database, name: str):
    from judge.store import games

    return games.find_game(db, _game_name(name))


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


# -- judge init ----------------------------------------------------------------------------


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
        return _fail(
            f"the example configuration ({EXAMPLE_NAME}) is not installed with this judge; "
            "copy config/judge.example.toml from the judge's source instead"
        )
    if target.exists() and not args.force:
        return _fail(f"{target} exists already; add --force to overwrite it")
    if not target.parent.is_dir():
        return _fail(f"{target.parent} is not a folder")
    text = source.read_text()
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    # It will hold passwords once edited: not readable by everyone.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, target)
    _out(f"wrote {target}")
    _out(f"edit it, then check it with: judge --config {target} check-config")
    return 0


# -- judge check-config --------------------------------------------------------------------


class _Check:
    """Collects each part's verdict."""

    def __init__(self, secrets: Sequence[str]) -> None:
        self.secrets = [s for s in secrets if s]
        self.failed = 0

    def ok(self, part: str, text: str) -> None:
        _out(f"{part}: ok: {text}")

    def fail(self, part: str, text: str) -> None:
        self.failed += 1
        for secret in self.secrets:  # a server may echo what it was sent
            text = text.replace(secret, "********")
        _out(f"{part}: FAILED: {text}")


def check_config(args: argparse.Namespace) -> int:
    """Load the configuration and try each part: database, inbound, outbound."""
    try:
        config = load_config(args.config)
    except ConfigError as e:
        _out(f"configuration: FAILED: {e}")
        return 1
    check = _Check([config.imap.password, config.smtp_out.password])
    _out(f"configuration: {config.source}")
    _out(f"judge: {config.name} <{config.address}>, time zone {config.timezone}")
    _check_database(config, check)
    if config.inbound_mode == "imap":
        _check_imap(config, check)
    else:
        _check_smtp_in(config, check)
    if config.outbound_mode == "smtp":
        _check_smtp_out(config, check)
    else:
        _check_maildir(config, check)
    if check.failed:
        _out(f"{_plural(check.failed, 'part')} did not work")
        return 1
    _out("every part works")
    return 0


def _check_database(config: Config, check: _Check) -> None:
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
    try:
        seen = peek(path, timeout=5)
    except sqlite3.Error as e:
        check.fail(part, f"{path} cannot be opened: {e}")
        return
    version, n_games = seen.version, seen.games
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
            f"{_plural(n_games, 'game')}",
        )
    else:
        check.ok(part, f"{path}, schema version {version}, {_plural(n_games, 'game')}")


def _existing_ancestor(path: Path) -> Path:
    path = path.resolve()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _plain(e: BaseException, host: str, port: int) -> str:
    """A network or server error in plain words."""
    where = f"{host}:{port}"
    if isinstance(e, ConnectionRefusedError):
        return f"connection refused: nothing is listening on {where}"
    if isinstance(e, socket.gaierror):
        return f"unknown host {host!r} ({e.strerror})"
    if isinstance(e, TimeoutError | socket.timeout):
        return f"no answer from {where} within {NETWORK_TIMEOUT:g} seconds"
    if isinstance(e, ssl.SSLCertVerificationError):
        return f"the TLS certificate of {where} was not accepted: {e.verify_message}"
    if isinstance(e, ssl.SSLError):
        reason = e.reason or str(e)
        if reason in ("WRONG_VERSION_NUMBER", "UNKNOWN_PROTOCOL", "RECORD_LAYER_FAILURE"):
            return f"TLS failed ({reason}): {where} does not seem to speak TLS here"
        return f"TLS failed: {reason}"
    if isinstance(e, smtplib.SMTPAuthenticationError):
        return f"login refused: {e.smtp_code} {_text(e.smtp_error)}"
    if isinstance(e, smtplib.SMTPServerDisconnected):
        return f"{where} closed the connection ({e or 'no reason given'})"
    if isinstance(e, smtplib.SMTPResponseException):
        return f"{where} answered {e.smtp_code} {_text(e.smtp_error)}"
    if isinstance(e, smtplib.SMTPException):
        return str(e)
    if isinstance(e, ConnectionResetError | BrokenPipeError | EOFError):
        return f"{where} closed the connection"
    if isinstance(e, imaplib.IMAP4.error):
        return str(e) or type(e).__name__
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return f"{type(e).__name__}: {e}"


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _check_imap(config: Config, check: _Check) -> None:
    from imapclient import IMAPClient

    c = config.imap
    security = "TLS" if c.ssl else ("STARTTLS" if c.starttls else "plain text")
    part = f"inbound: IMAP {c.username or '(no user)'}@{c.host}:{c.port} ({security})"
    client = None
    step = "connect"
    try:
        client = IMAPClient(
            c.host,
            c.port,
            ssl=c.ssl,
            ssl_context=ssl.create_default_context() if c.ssl else None,
            timeout=NETWORK_TIMEOUT,
        )
        if not c.ssl and c.starttls:
            step = "STARTTLS"
            client.starttls(ssl.create_default_context())
        step = "log in"
        client.login(c.username, c.password)
        step = f"select the mailbox {c.mailbox!r}"
        info = client.select_folder(c.mailbox, readonly=True)
        waiting = int(info.get(b"EXISTS", 0))
        step = f"look for the mailbox {c.processed_mailbox!r}"
        processed = (
            "exists"
            if client.folder_exists(c.processed_mailbox)
            else "does not exist yet; the judge will create it"
        )
    except Exception as e:
        reason = _plain(e, c.host, c.port)
        if step == "log in":
            reason = f"login refused for {c.username!r}: {reason}"
        check.fail(part, f"could not {step}: {reason}")
        return
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.logout()
    check.ok(
        part,
        f"logged in; {c.mailbox} holds {_plural(waiting, 'message')}; "
        f"{c.processed_mailbox} {processed}",
    )


def _check_smtp_in(config: Config, check: _Check) -> None:
    c = config.smtp_in
    part = f"inbound: SMTP receiver on {c.host}:{c.port}"
    try:
        infos = socket.getaddrinfo(c.host, c.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        check.fail(part, _plain(e, c.host, c.port))
        return
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server
            s.bind(address)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            reason = "the port is in use (by another program, or by the judge itself)"
        elif e.errno == errno.EACCES:
            reason = "permission denied (ports below 1024 need CAP_NET_BIND_SERVICE)"
        elif e.errno == errno.EADDRNOTAVAIL:
            reason = f"{c.host} is not an address of this machine"
        else:
            reason = _plain(e, c.host, c.port)
        check.fail(part, f"cannot listen there: {reason}")
        return
    check.ok(part, "the port can be bound")


def _check_smtp_out(config: Config, check: _Check) -> None:
    c = config.smtp_out
    security = "TLS" if c.ssl else ("STARTTLS" if c.starttls else "plain text")
    login = f", login {c.username}" if c.username else ""
    part = f"outbound: SMTP relay {c.host}:{c.port} ({security}{login})"
    smtp = None
    step = "connect"
    try:
        if c.ssl:
            smtp = smtplib.SMTP_SSL(
                c.host, c.port, timeout=NETWORK_TIMEOUT, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=NETWORK_TIMEOUT)
        step = "say EHLO"
        smtp.ehlo()
        if c.starttls:
            step = "start TLS"
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        if c.username:
            step = "log in"
            smtp.login(c.username, c.password)
        step = "NOOP"
        code, message = smtp.noop()
        if code != 250:
            raise smtplib.SMTPResponseException(code, message)
    except Exception as e:
        check.fail(part, f"could not {step}: {_plain(e, c.host, c.port)}")
        return
    finally:
        if smtp is not None:
            with contextlib.suppress(Exception):
                smtp.quit()
    check.ok(part, "connected" + (", logged in" if c.username else "") + ", NOOP answered 250")


def _check_maildir(config: Config, check: _Check) -> None:
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


# -- judge games, judge game NAME ----------------------------------------------------------


def list_games(args: argparse.Namespace) -> int:
    return _with_database(args, _list_games)


def _list_games(config: Config, db: sqlite_utils.Database) -> int:
    from judge.engine.geography import MapError
    from judge.store import games
    from judge.variants.maps import load_map

    names = games.game_names(db)
    if not names:
        _out("no games")
        return 0
    table = []
    for name in names:
        game = games.find_game(db, name)
        players = games.seats(db, game, games.PLAYER)
        try:
            n_powers = str(len(load_map(game.variant).powers))
        except MapError:
            n_powers = "?"
        table.append(
            [
                game.name,
                game.variant,
                game.state,
                game.phase or "-",
                _deadline_text(game, config.timezone),
                f"{len(players)}/{n_powers}",
            ]
        )
    for line in _table(["NAME", "VARIANT", "STATE", "PHASE", "DEADLINE", "PLAYERS"], table):
        _out(line)
    return 0


def _deadline_text(game, zone: str) -> str:
    if game.state == "paused" and game.paused_remaining is not None:
        minutes = int(game.paused_remaining // 60)
        return f"paused, {minutes // 60}h{minutes % 60:02d} left"
    if game.state == "finished":
        return "-"
    return _when(game.deadline, zone)


def show_game(args: argparse.Namespace) -> int:
    return _with_database(args, lambda config, db: _show_game(config, db, args.name))


def _show_game(config: Config, db: sqlite_utils.Database, name: str) -> int:
    from judge.engine.phase import Phase
    from judge.engine.validation import orders_due
    from judge.game.play import power_complete
    from judge.game.rules import rules_of
    from judge.store import games
    from judge.variants.json_contract import position_from_json
    from judge.variants.maps import load_map

    game = _find_game(db, name)
    if game is None:
        return _fail(f"no game {_game_name(name)!r}")
    gm = load_map(game.variant)
    phase_text = game.phase or "-"
    if game.phase:
        phase_text += f" ({Phase.parse(game.phase).long_name})"
    _out(f"Game {game.name}")
    _out(f"  variant:  {game.variant} ({gm.title})")
    _out(f"  state:    {game.state}")
    _out(f"  phase:    {phase_text}")
    _out(f"  deadline: {_deadline_text(game, config.timezone)}")
    if game.process_at:
        _out(f"  processing early at {_when(game.process_at, config.timezone)}")
    _out("Settings:")
    # The result is listed among the settings, as before it had its own column.
    result = game.result.to_json() if game.result else None
    for key, value in sorted({**game.settings.to_json(), "result": result}.items()):
        _out(f"  {key} = {json.dumps(value)}")

    position = None
    effective: dict[str, list[str]] = {}
    if game.phase and game.state != games.FINISHED:
        position, _, _ = position_from_json(games.phase_position(db, game, game.phase))
        effective = games.effective_orders(db, game, game.phase)
    rows = []
    order = list(gm.powers)
    seated = sorted(
        games.seats(db, game),
        key=lambda s: (s.role != games.PLAYER, order.index(s.power) if s.power in order else 99),
    )
    for seat in seated:
        if seat.role == games.PLAYER:
            who = gm.powers[seat.power].name if seat.power in gm.powers else "(unassigned)"
            orders = "-"
            if position is not None and seat.power:
                units, owed = orders_due(position, seat.power)
                mine = effective.get(seat.power, [])
                if not units and owed == 0:
                    orders = "nothing due"
                elif power_complete(position, seat.power, mine, rules_of(game)):
                    orders = "complete"
                else:
                    orders = "partial" if mine else "none"
            rows.append([who, seat.address, "yes" if seat.wait else "no", orders])
        else:
            rows.append([seat.role, seat.address, "", ""])
    _out("Seats:")
    for line in _table(["POWER", "ADDRESS", "WAIT", "ORDERS"], rows):
        _out("  " + line)

    shown = _shown_position(db, game)
    if shown is None:
        return 0
    label, data = shown
    _out(f"Position {label}:")
    units, centres = data.get("units", {}), data.get("centers", {})
    rows = []
    for power in gm.powers:
        mine_units = ", ".join(units.get(power, [])) or "-"
        mine_centres = centres.get(power, [])
        rows.append(
            [
                gm.powers[power].name,
                _plural(len(mine_centres), "centre"),
                ", ".join(mine_centres) or "-",
                f"units: {mine_units}",
            ]
        )
    for line in _table(["", "", "", ""], rows)[1:]:
        _out("  " + line)
    for power, entries in sorted(data.get("retreats", {}).items()):
        for unit, places in entries.items():
            where = ", ".join(places) or "nowhere"
            _out(f"  dislodged: {gm.powers[power].name} {unit}, may retreat to {where}")
    return 0


def _shown_position(db: sqlite_utils.Database, game) -> tuple[str, dict] | None:
    """The current phase's position; for a game won, the position at the end (its last
    stored phase holds the outcome, and no row exists for the phase after it)."""
    from judge.store import games

    last = games.last_phase(db, game)
    if last is None:
        return None
    if last.results is not None and last.phase != game.phase:
        return f"at the end (after {last.phase})", last.results
    return f"at {last.phase}", last.position


# -- judge outbox --------------------------------------------------------------------------


def outbox(args: argparse.Namespace) -> int:
    return _with_database(args, lambda config, db: _outbox(config, db, args.retry))


def _outbox(config: Config, db: sqlite_utils.Database, retry: str | None) -> int:
    from judge.store import outbox as store

    if retry is not None:
        return _retry(db, retry)
    counts = store.counts(db)
    shown = {state: counts.pop(state, 0) for state in ("queued", "sent", "failed")}
    shown.update(counts)
    _out(", ".join(f"{state} {n}" for state, n in shown.items()))
    unsent = store.unsent(db)
    if not unsent:
        return 0
    table = [
        [
            str(u.id),
            u.state,
            u.kind,
            str(u.attempts),
            _when(u.next_attempt_at, config.timezone) if u.state == store.QUEUED else "-",
            ", ".join(u.recipients),
            " ".join((u.last_error or "-").split()),
        ]
        for u in unsent
    ]
    header = ["ID", "STATE", "KIND", "ATTEMPTS", "NEXT ATTEMPT", "RECIPIENTS", "LAST ERROR"]
    for line in _table(header, table):
        _out(line)
    return 0


def _retry(db: sqlite_utils.Database, which: str) -> int:
    """Make queued and failed messages due now; failed ones are queued again with a fresh
    count of attempts (so they get the full series of retries)."""
    from judge.store import outbox as store
    from judge.store.db import transaction

    now = datetime.now(UTC)
    outbound_id: int | None = None
    if which != "all":
        try:
            outbound_id = int(which)
        except ValueError:
            return _fail(f"--retry takes a message id (a number), not {which!r}")
        state = store.state(db, outbound_id)
        if state is None:
            return _fail(f"there is no outbound message {outbound_id}")
        if state not in (store.QUEUED, store.FAILED):
            return _fail(f"message {outbound_id} is {state}; only queued or failed mail is retried")
    with transaction(db):
        rows = store.retryable(db, outbound_id)
        for row in rows:
            detail = "operator: retry now" + (
                f" (had failed after {_plural(row.attempts, 'attempt')})"
                if row.state == store.FAILED
                else ""
            )
            store.retry_now(db, row, now, detail)
    failed = sum(1 for row in rows if row.state == store.FAILED)
    _out(
        f"{_plural(len(rows), 'message')} due now ({failed} of them queued again after failing); "
        "the judge sends them at its next pass"
    )
    return 0


# -- judge inbox ---------------------------------------------------------------------------


def inbox(args: argparse.Namespace) -> int:
    return _with_database(args, lambda config, db: _inbox(config, db, args.retry))


def _inbox(config: Config, db: sqlite_utils.Database, retry: str | None) -> int:
    """Counts of inbound mail by state, then every message set aside as failed or waiting
    for another attempt: id, when it came, its sender, attempts and the reason. Never a
    message's text (it may hold a password)."""
    from judge.store import inbox as store

    if retry is not None:
        return _inbox_retry(db, retry)
    counts = store.counts(db)
    shown = {state: counts.pop(state, 0) for state in ("new", "handled", "ignored", "failed")}
    shown.update(counts)
    _out(", ".join(f"{state} {n}" for state, n in shown.items()))
    troubles = store.troubles(db)
    if not troubles:
        return 0
    table = [
        [
            str(t.id),
            t.state,
            _when(t.received_at, config.timezone),
            t.sender or "?",
            str(t.attempts),
            _when(t.next_attempt_at, config.timezone) if t.state == "new" else "-",
            " ".join((t.error or "-").split()),
        ]
        for t in troubles
    ]
    header = ["ID", "STATE", "RECEIVED", "FROM", "ATTEMPTS", "NEXT ATTEMPT", "REASON"]
    for line in _table(header, table):
        _out(line)
    return 0


def _inbox_retry(db: sqlite_utils.Database, which: str) -> int:
    """Set a failed message (or every one) back to new with a fresh count of attempts:
    the judge handles it at its next pass."""
    from judge.store import inbox as store
    from judge.store.db import transaction

    now = datetime.now(UTC)
    if which == "all":
        ids = [t.id for t in store.troubles(db) if t.state == store.FAILED]
    else:
        try:
            inbound_id = int(which)
        except ValueError:
            return _fail(f"--retry takes a message id (a number), not {which!r}")
        status = store.status(db, inbound_id)
        if status is None:
            return _fail(f"there is no inbound message {inbound_id}")
        if status.state != store.FAILED and not (status.state == store.NEW and status.attempts):
            return _fail(
                f"message {inbound_id} is {status.state}; only failed mail (or mail waiting for "
                "another attempt) is retried"
            )
        ids = [inbound_id]
    with transaction(db):
        for inbound_id in ids:
            attempts = store.attempts(db, inbound_id)
            detail = f"operator: retry now (had {_plural(attempts, 'failed attempt')})"
            store.retry_now(db, inbound_id, now, detail)
    _out(
        f"{_plural(len(ids), 'message')} set back to new; the judge handles "
        f"{'it' if len(ids) == 1 else 'them'} at its next pass"
    )
    return 0


# -- judge backup PATH ---------------------------------------------------------------------


def backup(args: argparse.Namespace) -> int:
    config = _load(args)
    if config is None:
        return 2
    source = config.database
    target = Path(args.path)
    if not source.exists():
        return _fail(f"there is no database at {source} (configuration: {config.source})")
    if target.is_dir():
        return _fail(f"{target} is a folder; give the backup's file name")
    if target.exists() and not args.force:
        return _fail(f"{target} exists already; add --force to overwrite it")
    if not target.parent.is_dir():
        return _fail(f"{target.parent} is not a folder")
    if target.resolve() == source.resolve():
        return _fail("the backup cannot overwrite the database itself")
    size, version, check = backup_database(source, target)
    _out(f"backed up {source} to {target}: {size:,} bytes, schema version {version}, {check}")
    return 0 if check == "integrity ok" else 1


# -- judge replay NAME ---------------------------------------------------------------------


def replay(args: argparse.Namespace) -> int:
    return _with_database(args, lambda config, db: _replay(db, args.name))


def _replay(db: sqlite_utils.Database, name: str) -> int:
    from judge.store import games

    game = _find_game(db, name)
    if game is None:
        return _fail(f"no game {_game_name(name)!r}")
    rows = [p for p in games.phase_history(db, game) if p.processed_at is not None]
    _out(f"{game.name}: {_plural(len(rows), 'processed phase')}, adjudicated again")
    differing = 0
    for row in rows:
        phase = row.phase
        # By power: the order the adjudicator sees them in is the same at every replay.
        orders = dict(sorted(games.effective_orders(db, game, phase).items()))
        stored = row.results if row.results is not None else {}
        position = {**row.position, "rules": dict(game.settings.rules)}
        differences = replay_phase(position, orders, stored)
        if differences:
            differing += 1
            _out(f"{phase}: different")
            for line in differences:
                _out(f"  {line}")
        else:
            _out(f"{phase}: same")
    if differing:
        _out(f"{_plural(differing, 'phase')} of {len(rows)} came out differently")
        return 1
    _out("every phase came out the same")
    return 0


def replay_phase(position: dict, orders: dict[str, list[str]], stored: dict) -> list[str]:
    """Adjudicate a stored phase again; the differences from the stored outcome, in words
    (an empty list when it comes out the same)."""
    from judge.engine.adjudication import adjudicate
    from judge.variants.json_contract import outcome_to_json, position_from_json

    try:
        pos, _, rules = position_from_json(position)
        now = outcome_to_json(pos, adjudicate(pos, orders, rules))
    except Exception as e:  # a stored position the current engine cannot read
        return [f"cannot be adjudicated now: {type(e).__name__}: {e}"]
    lines = []
    for power in sorted(set(stored.get("results", {})) | set(now["results"])):
        before = _results(stored.get("results", {}).get(power, []))
        after = _results(now["results"].get(power, []))
        for key in sorted(set(before) | set(after)):
            if before.get(key) != after.get(key):
                lines.append(
                    f"{power} {key}: stored {before.get(key, 'absent')}, "
                    f"now {after.get(key, 'absent')}"
                )
    for field in ("units", "centers"):
        lines += _per_power_difference(field, stored.get(field, {}), now[field])
    retreats_before = _flat_retreats(stored.get("retreats", {}))
    retreats_after = _flat_retreats(now["retreats"])
    if retreats_before != retreats_after:
        lines.append(
            f"retreats: stored {retreats_before or 'none'}, now {retreats_after or 'none'}"
        )
    for field in ("next_phase", "builds", "winner"):
        if stored.get(field) != now[field]:
            lines.append(
                f"{field.replace('_', ' ')}: stored {json.dumps(stored.get(field))}, "
                f"now {json.dumps(now[field])}"
            )
    return lines


def _results(items: list[dict]) -> dict[str, str]:
    """Order -> its result (with the error, if any); a repeated order is numbered."""
    out: dict[str, str] = {}
    for item in items:
        key = item.get("order", "")
        if item.get("given") and item.get("given") != key:
            key = f"{key} (given {item['given']!r})"
        n = 2
        base = key
        while key in out:
            key = f"{base} #{n}"
            n += 1
        out[key] = item.get("result", "") + (f" ({item['error']})" if item.get("error") else "")
    return out


def _per_power_difference(field: str, before: dict, after: dict) -> list[str]:
    lines = []
    for power in sorted(set(before) | set(after)):
        old, new = set(before.get(power, [])), set(after.get(power, []))
        if old != new:
            lines.append(
                f"{field} of {power}: stored only {', '.join(sorted(old - new)) or '-'}; "
                f"now only {', '.join(sorted(new - old)) or '-'}"
            )
    return lines


def _flat_retreats(retreats: dict) -> str:
    return "; ".join(
        f"{power} {unit} to {', '.join(places) or 'nowhere'}"
        for power, entries in sorted(retreats.items())
        for unit, places in sorted(entries.items())
    )


# -- judge export NAME ---------------------------------------------------------------------


def export(args: argparse.Namespace) -> int:
    def work(config: Config, db: sqlite_utils.Database) -> int:
        game = _find_game(db, args.name)
        if game is None:
            return _fail(f"no game {_game_name(args.name)!r}")
        if not game.phase:
            return _fail(f"{game.name} has not started: there is no history to export")
        text = json.dumps(export_game(db, game), separators=(",", ":"))
        if args.output and args.output != "-":
            Path(args.output).write_text(text + "\n")
            print(f"wrote {args.output}", file=sys.stderr)
        else:
            _out(text)
        return 0

    return _with_database(args, work)


def draw_map(args: argparse.Namespace) -> int:
    """`judge map NAME [PHASE]`: the board as PNG (or SVG). A processed phase is drawn as
    its results mail's picture (the board it led to, with its orders and their results);
    the current phase as its position."""
    from judge.game.pictures import after_of
    from judge.render import PngUnavailable, render_png, render_svg
    from judge.store import games

    def work(config: Config, db: sqlite_utils.Database) -> int:
        game = _find_game(db, args.name)
        if game is None:
            return _fail(f"no game {_game_name(args.name)!r}")
        rows = games.phase_history(db, game)
        if not rows:
            return _fail(f"{game.name} has not started: there is no board to draw")
        if args.phase:
            chosen = [r for r in rows if r.phase == args.phase.upper()]
            if not chosen:
                return _fail(f"{game.name} has no phase {args.phase.upper()}")
            row = chosen[0]
        else:
            processed = [r for r in rows if r.results is not None]
            row = processed[-1] if processed else rows[-1]
        phase, position, results = row.phase, row.position, row.results
        after = after_of(position, results) if results else None
        caption = f"Game {game.name}"
        target = Path(args.output or f"{game.name}-{phase}.png")
        try:
            if target.suffix.lower() == ".svg":
                target.write_text(render_svg(position, results, after=after, caption=caption))
            else:
                target.write_bytes(render_png(position, results, after=after, caption=caption))
        except (PngUnavailable, ValueError) as e:  # ValueError: a map without a drawing
            return _fail(str(e))
        _out(f"wrote {target} ({phase})")
        return 0

    return _with_database(args, work)
