"""Games, seats, phases and orders in the store. Plain functions over the database; the
caller holds the transaction."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils

from .audit import iso, record
from .codes import code_hash
from .handovers import Proxies, dump_joined, dump_proxies, load_joined, load_proxies
from .result import GameResult, dump_result, load_result
from .rows import inserted_id
from .settings import GameSettings

# A JSON object as stored: Contract 1 positions and results, order lines as checked.
JsonObject = dict[str, Any]

FORMING, ACTIVE, PAUSED, FINISHED = "forming", "active", "paused", "finished"
PLAYER, MASTER, OBSERVER = "player", "master", "observer"


@dataclass(frozen=True)
class Game:
    id: int
    name: str
    variant: str
    state: str
    settings: GameSettings
    phase: str | None
    deadline: str | None
    process_at: str | None = None  # early processing is due (all orders in, delay running)
    paused_remaining: float | None = None  # seconds to the deadline when PAUSEd
    result: GameResult | None = None  # how it ended, once finished
    proxies: Proxies = field(default_factory=Proxies)  # SET PROXY hand-overs, per phase
    # The World War I coin: neutral power -> the player's power it joined (read-only).
    joined: Mapping[str, str] = field(default_factory=lambda: load_joined(None))


@dataclass(frozen=True)
class Seat:
    id: int
    game_id: int
    role: str
    power: str | None
    address: str
    password_hash: str
    preference: str
    wait: bool
    abandoned_at: str | None = None  # its player missed the end of grace (free for takeover)
    # The hash of the code mailed to the address that must send it back (CONFIRM; the
    # code itself is never stored: codes.py): the seat's own while it is unconfirmed (an
    # observer's, a PROMOTEd master's), else its pending address's; None when none waits.
    confirm_hash: str | None = None
    # A new address (SET ADDRESS, REPLACE) waiting to confirm: the seat's mail goes on to
    # `address` until then, and none of it to this one.
    pending_address: str | None = None

    @property
    def unconfirmed(self) -> bool:
        """Whether the seat waits for its address to confirm it (it gets no mail)."""
        return self.confirm_hash is not None and self.pending_address is None


class UnreadableGame(ValueError):
    """A game's row whose JSON columns do not read (a disk fault, a hand edit): raised
    for that game alone, naming it (`name`)."""

    def __init__(self, name: str, why: object) -> None:
        super().__init__(f"the stored row of game {name} does not read: {why}")
        self.name = name


# What reading a damaged JSON column raises (json's errors and SettingsError are
# ValueErrors; a record built from a wrong shape, the others).
_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError)


def _game(row: tuple[Any, ...]) -> Game:
    """A games row as a Game; UnreadableGame when its JSON columns do not read."""
    id_, name, variant, state, settings, phase, deadline, process_at, paused = row[:9]
    result, proxies, joined = row[9:]
    try:
        return Game(
            id_,
            name,
            variant,
            state,
            GameSettings.loads(settings),  # checked: defaults for games made before a setting
            phase,
            deadline,
            process_at,
            paused,
            load_result(result),
            load_proxies(proxies),
            load_joined(joined),
        )
    except _UNREADABLE as e:
        raise UnreadableGame(name, e) from e


def _seat(row: tuple[Any, ...]) -> Seat:
    id_, game_id, role, power, address, password_hash, preference, wait, abandoned_at = row[:9]
    return Seat(
        id_,
        game_id,
        role,
        power,
        address,
        password_hash,
        preference,
        bool(wait),
        abandoned_at,
        row[9],
        row[10],
    )


_GAME_COLUMNS = (
    "id, name, variant, state, settings, phase, deadline, process_at, paused_remaining, "
    "result, proxies, joined"
)
_SEAT_COLUMNS = (
    "id, game_id, role, power, address, password_hash, preference, wait, abandoned_at, "
    "confirm_code, pending_address"
)


MAX_GAME_NAME = 20  # characters
# ASCII letters and digits, then also - and _: no look-alike (Unicode) names of games.
_GAME_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_-]{{0,{MAX_GAME_NAME - 1}}}")


def valid_game_name(name: str) -> bool:
    """Whether `name` may name a game: 1 to MAX_GAME_NAME ASCII letters, digits, - or _,
    beginning with a letter or digit."""
    return _GAME_NAME.fullmatch(name) is not None


def find_game(db: sqlite_utils.Database, name: str) -> Game | None:
    """The game called `name`; None when there is none, or `name` could not name one."""
    if not valid_game_name(name):
        return None
    row = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE name = ?", [name]).fetchone()
    return _game(row) if row else None


def get_game(db: sqlite_utils.Database, game_id: int) -> Game:
    row = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", [game_id]).fetchone()
    return _game(row)


def create_game(
    db: sqlite_utils.Database, name: str, variant: str, now: datetime, created_by: str = ""
) -> Game:
    """A new forming game, `created_by` the address that CREATEd it."""
    settings = GameSettings().dumps()
    cur = db.execute(
        "INSERT INTO games (name, variant, state, settings, created_at, created_by) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [name, variant, FORMING, settings, iso(now), created_by or None],
    )
    game_id = inserted_id(cur)
    record(db, now, "game", game_id, "created", name)
    return get_game(db, game_id)


def update_game(
    db: sqlite_utils.Database,
    game: Game,
    now: datetime,
    settings: GameSettings | None = None,
    **changes: Any,
) -> Game:
    """Change the game's columns (its settings when given; a result is a GameResult or
    None, proxies a Proxies record, joined a mapping of powers) and return the game as
    stored now."""
    if settings is not None:
        changes["settings"] = settings.dumps()
    for column, dump in _DUMPS.items():
        if column in changes:
            changes[column] = dump(changes[column])
    columns = ", ".join(f"{k} = ?" for k in changes)
    db.execute(f"UPDATE games SET {columns} WHERE id = ?", [*changes.values(), game.id])
    record(db, now, "game", game.id, "changed", ", ".join(sorted(changes)))
    return get_game(db, game.id)


# The columns whose typed values update_game stores as JSON (or NULL).
_DUMPS: dict[str, Callable[[Any], str | None]] = {
    "result": dump_result,
    "proxies": dump_proxies,
    "joined": dump_joined,
}


def add_seat(
    db: sqlite_utils.Database,
    game: Game,
    role: str,
    address: str,
    password_hash: str,
    now: datetime,
    power: str | None = None,
    code: str | None = None,
    pending_address: str | None = None,
) -> Seat:
    """A new seat; with `code` (stored only as its hash), one that gets no mail until
    confirmed, or, with `pending_address` too, one whose mail goes to `address` until
    that one confirms."""
    asked = iso(now) if code is not None else None
    confirm_hash = code_hash(code) if code is not None else None
    cur = db.execute(
        "INSERT INTO seats (game_id, role, power, address, password_hash, preference, wait, "
        "joined_at, confirm_code, confirm_asked_at, pending_address) "
        "VALUES (?, ?, ?, ?, ?, '', 0, ?, ?, ?, ?)",
        [game.id, role, power, address, password_hash, iso(now), confirm_hash, asked]
        + [pending_address],
    )
    seat_id = inserted_id(cur)
    record(db, now, "seat", seat_id, f"joined {game.name} as {role}", address)
    return get_seat(db, seat_id)


def get_seat(db: sqlite_utils.Database, seat_id: int) -> Seat:
    row = db.execute(f"SELECT {_SEAT_COLUMNS} FROM seats WHERE id = ?", [seat_id]).fetchone()
    return _seat(row)


def seats(
    db: sqlite_utils.Database,
    game: Game | GameRow,
    role: str | None = None,
    unconfirmed: bool = False,
) -> list[Seat]:
    """The game's seats held now (of `role` if given), by id. The one rule of who gets a
    game's mail: without `unconfirmed`, observer seats whose address has not confirmed
    them are left out, so that every list of recipients built from seats leaves them out;
    only the views that show them (WHOGAME, the master's, EJECT, OBSERVE's count) ask. A
    seat with a pending address is held and mailed at its address of record."""
    sql = f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? AND left_at IS NULL"
    if not unconfirmed:
        sql += " AND (confirm_code IS NULL OR pending_address IS NOT NULL)"
    args: list[Any] = [game.id]
    if role:
        sql += " AND role = ?"
        args.append(role)
    return [_seat(r) for r in db.execute(sql + " ORDER BY id", args).fetchall()]


def confirm_seat(db: sqlite_utils.Database, seat: Seat, now: datetime) -> Seat:
    """The seat confirmed: from now on it gets the game's mail, at its pending address
    if it had one."""
    address = seat.pending_address or seat.address
    db.execute(
        "UPDATE seats SET address = ?, confirm_code = NULL, confirm_asked_at = NULL, "
        "pending_address = NULL WHERE id = ?",
        [address, seat.id],
    )
    record(db, now, "seat", seat.id, "confirmed", address)
    return get_seat(db, seat.id)


def ask_to_move(
    db: sqlite_utils.Database, seat: Seat, address: str, code: str, now: datetime
) -> Seat:
    """The seat's `address` pending with `code`, stored only as its hash (one pending
    before it forgotten): its mail goes on to its address of record until the new one
    confirms."""
    db.execute(
        "UPDATE seats SET pending_address = ?, confirm_code = ?, confirm_asked_at = ? WHERE id = ?",
        [address, code_hash(code), iso(now), seat.id],
    )
    record(db, now, "seat", seat.id, "address pending", address)
    return get_seat(db, seat.id)


def move_unconfirmed(
    db: sqlite_utils.Database, seat: Seat, address: str, code: str, now: datetime
) -> Seat:
    """The seat moved to `address` and unconfirmed until that address sends back `code`
    (stored only as its hash): it gets no mail meanwhile, as a new observer's."""
    db.execute(
        "UPDATE seats SET address = ?, confirm_code = ?, confirm_asked_at = ? WHERE id = ?",
        [address, code_hash(code), iso(now), seat.id],
    )
    record(db, now, "seat", seat.id, "changed", "address, confirm_code, confirm_asked_at")
    return get_seat(db, seat.id)


def forget_pending(db: sqlite_utils.Database, seat: Seat, now: datetime) -> Seat:
    """The seat's pending address and its code forgotten."""
    _clear_pending(db, seat.id)
    record(db, now, "seat", seat.id, "pending address forgotten", seat.pending_address or "")
    return get_seat(db, seat.id)


def drop_unconfirmed(
    db: sqlite_utils.Database, game: Game | GameRow, asked_before: datetime, now: datetime
) -> list[Seat]:
    """The game's unconfirmed seats whose code was mailed before `asked_before` left (as
    at EJECT), so that they hold no place for ever, and pending addresses asked before
    it forgotten (the seat stays at its address of record); the seats as they were."""
    dropped = [
        _seat(row)
        for row in db.execute(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? AND left_at IS NULL "
            "AND confirm_code IS NOT NULL AND confirm_asked_at < ? ORDER BY id",
            [game.id, iso(asked_before)],
        ).fetchall()
    ]
    for seat in dropped:
        if seat.pending_address is None:
            db.execute("UPDATE seats SET left_at = ? WHERE id = ?", [iso(now), seat.id])
        else:
            _clear_pending(db, seat.id)
        record(
            db, now, "seat", seat.id, "unconfirmed, dropped", seat.pending_address or seat.address
        )
    return dropped


def _clear_pending(db: sqlite_utils.Database, seat_id: int) -> None:
    """The seat's pending address, its code and when it was mailed, set to none."""
    db.execute(
        "UPDATE seats SET pending_address = NULL, confirm_code = NULL, "
        "confirm_asked_at = NULL WHERE id = ?",
        [seat_id],
    )


def games_created(db: sqlite_utils.Database, address: str, since: datetime) -> tuple[int, int]:
    """Of the games `address` CREATEd: how many are still forming, and how many were
    created at or after `since`."""
    forming, recent = db.execute(
        "SELECT COALESCE(SUM(state = ?), 0), COALESCE(SUM(created_at >= ?), 0) FROM games "
        "WHERE created_by = ?",
        [FORMING, iso(since), address],
    ).fetchone()
    return int(forming), int(recent)


def update_seat(db: sqlite_utils.Database, seat: Seat, now: datetime, **changes: Any) -> Seat:
    columns = ", ".join(f"{k} = ?" for k in changes)
    db.execute(f"UPDATE seats SET {columns} WHERE id = ?", [*changes.values(), seat.id])
    shown = ", ".join(k for k in changes if k != "password_hash") or "password"
    record(db, now, "seat", seat.id, "changed", shown)
    return get_seat(db, seat.id)


def add_phase(
    db: sqlite_utils.Database,
    game: Game,
    phase: str,
    position: JsonObject,
    deadline: str,
    now: datetime,
) -> None:
    db.execute(
        "INSERT INTO phases (game_id, phase, position, started_at, deadline) "
        "VALUES (?, ?, ?, ?, ?)",
        [game.id, phase, json.dumps(position), iso(now), deadline],
    )
    record(db, now, "game", game.id, "phase started", phase)


def phase_position(db: sqlite_utils.Database, game: Game, phase: str) -> JsonObject:
    row = db.execute(
        "SELECT position FROM phases WHERE game_id = ? AND phase = ?", [game.id, phase]
    ).fetchone()
    position: JsonObject = json.loads(row[0])
    return position


def phase_position_text(db: sqlite_utils.Database, game: Game, phase: str) -> str:
    """The stored position of `phase` as its JSON text (Contract 1's input shape)."""
    row = db.execute(
        "SELECT position FROM phases WHERE game_id = ? AND phase = ?", [game.id, phase]
    ).fetchone()
    text: str = row[0]
    return text


def finish_phase(
    db: sqlite_utils.Database, game: Game, phase: str, results: JsonObject, now: datetime
) -> None:
    db.execute(
        "UPDATE phases SET processed_at = ?, results = ? WHERE game_id = ? AND phase = ?",
        [iso(now), json.dumps(results), game.id, phase],
    )
    record(db, now, "game", game.id, "phase processed", phase)


def add_order_set(
    db: sqlite_utils.Database,
    game: Game,
    power: str,
    mode: str,
    lines: list[JsonObject],
    inbound_id: int | None,
    now: datetime,
) -> None:
    """Keep an order set as received (never overwritten)."""
    db.execute(
        "INSERT INTO order_sets (game_id, phase, power, inbound_id, received_at, mode, lines) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [game.id, game.phase, power, inbound_id, iso(now), mode, json.dumps(lines)],
    )


def effective_orders(db: sqlite_utils.Database, game: Game, phase: str) -> dict[str, list[str]]:
    rows = db.execute(
        "SELECT power, lines FROM orders WHERE game_id = ? AND phase = ?", [game.id, phase]
    ).fetchall()
    return {power: json.loads(lines) for power, lines in rows}


def last_orders(
    db: sqlite_utils.Database, game: Game, power: str, before: str, kind: str
) -> list[str]:
    """`power`'s orders in the latest phase of `kind` (M, R, A) before phase `before`
    that it gave orders in (for perpetual orders, DATC 4.E.4 a); [] when none."""
    rows = db.execute(
        "SELECT o.phase, o.lines FROM orders o JOIN phases p "
        "ON p.game_id = o.game_id AND p.phase = o.phase "
        "WHERE o.game_id = ? AND o.power = ? AND o.phase != ? ORDER BY p.id DESC",
        [game.id, power, before],
    ).fetchall()
    for phase, lines in rows:
        given: list[str] = json.loads(lines)
        if phase.endswith(kind) and given:
            return given
    return []


def set_effective_orders(
    db: sqlite_utils.Database, game: Game, power: str, lines: list[str]
) -> None:
    db.execute(
        "INSERT INTO orders (game_id, phase, power, lines) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(game_id, phase, power) DO UPDATE SET lines = excluded.lines",
        [game.id, game.phase, power, json.dumps(lines)],
    )


def active_games(db: sqlite_utils.Database) -> list[Game]:
    rows = db.execute(
        f"SELECT {_GAME_COLUMNS} FROM games WHERE state = ? ORDER BY id", [ACTIVE]
    ).fetchall()
    return [_game(r) for r in rows]


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def variants_in_play(db: sqlite_utils.Database, count: int) -> list[str]:
    """The variants of the games in play (forming or active), the most played first, at
    most `count`."""
    rows = db.execute(
        "SELECT variant FROM games WHERE state IN (?, ?) GROUP BY variant "
        "ORDER BY COUNT(*) DESC, variant LIMIT ?",
        [ACTIVE, FORMING, count],
    )
    return [variant for (variant,) in rows]


def _micros(moment: datetime) -> int:
    """A moment as games.next_event_at holds it: whole microseconds since the epoch."""
    return (moment - _EPOCH) // timedelta(microseconds=1)


@dataclass(frozen=True)
class GameRow:
    """A game's plain columns, read without its JSON ones (settings, result, hand-overs):
    what is known of a game whose row no longer reads (a disk fault, a hand edit)."""

    id: int
    name: str
    variant: str
    state: str
    phase: str | None
    deadline: str | None


_ROW_COLUMNS = "id, name, variant, state, phase, deadline"


def game_row(db: sqlite_utils.Database, game_id: int) -> GameRow:
    """The game's plain columns (see GameRow); never reads its JSON."""
    row = db.execute(f"SELECT {_ROW_COLUMNS} FROM games WHERE id = ?", [game_id]).fetchone()
    return GameRow(*row)


def find_game_row(db: sqlite_utils.Database, name: str) -> GameRow | None:
    """The plain columns of the game called `name` (see GameRow); None when none is."""
    row = db.execute(f"SELECT {_ROW_COLUMNS} FROM games WHERE name = ?", [name]).fetchone()
    return GameRow(*row) if row else None


def due_games(db: sqlite_utils.Database, now: datetime) -> Iterator[GameRow]:
    """The active and forming games whose next event (next_event_at) is due by `now`, by
    id (a forming game's: a full manual-start game's daily Start Waiting); a game changed
    since it was last looked at is due at once (its triggers set 0). Only their plain
    columns: each game is read whole in its own transaction when reached, so a pass that
    takes a slice of a thousand due games does not parse the settings of all of them
    each time (issue 16), and a game whose row does not read fails alone."""
    rows = db.execute(
        f"SELECT {_ROW_COLUMNS} FROM games WHERE state IN (?, ?) AND next_event_at <= ? "
        "ORDER BY id",
        [ACTIVE, FORMING, _micros(now)],
    ).fetchall()
    return (GameRow(*r) for r in rows)


def pause(db: sqlite_utils.Database, game: Game | GameRow, now: datetime, remaining: float) -> None:
    """Pause the game with `remaining` seconds to its deadline kept, its early processing
    dropped; writes the plain columns only, so it works on a row that does not read."""
    db.execute(
        "UPDATE games SET state = ?, paused_remaining = ?, process_at = NULL WHERE id = ?",
        [PAUSED, remaining, game.id],
    )
    record(db, now, "game", game.id, "changed", "paused_remaining, process_at, state")


def set_next_event(
    db: sqlite_utils.Database, game: Game | GameRow, moment: datetime | None
) -> None:
    """Keep the moment the game next needs the judge (None: none until it changes). Only
    this column is written, so the triggers that mark a changed game do not fire."""
    value = None if moment is None else _micros(moment)
    db.execute(
        "UPDATE games SET next_event_at = ? WHERE id = ? AND next_event_at IS NOT ?",
        [value, game.id, value],
    )


def earliest_event(db: sqlite_utils.Database) -> datetime | None:
    """The earliest next event kept for an active or forming game, a changed game's
    aside; None when no game waits for a moment."""
    row = db.execute(
        # Numbers only: a damaged value (text, a blob) sorts after every number in SQLite,
        # and is passed over within the index's range, as the first number is found.
        "SELECT MIN(next_event_at) FROM games WHERE state IN (?, ?) AND next_event_at > 0 "
        "AND next_event_at <= ?",
        [ACTIVE, FORMING, 2**63 - 1],
    ).fetchone()
    return None if row[0] is None else _EPOCH + timedelta(microseconds=row[0])


def notice_sent(db: sqlite_utils.Database, game: Game, kind: str) -> bool:
    row = db.execute(
        # IS: a forming game's notices have no phase (NULL).
        "SELECT 1 FROM notices WHERE game_id = ? AND phase IS ? AND kind = ?",
        [game.id, game.phase, kind],
    ).fetchone()
    return row is not None


def record_notice(db: sqlite_utils.Database, game: Game, kind: str, now: datetime) -> None:
    db.execute(
        "INSERT OR IGNORE INTO notices (game_id, phase, kind, sent_at) VALUES (?, ?, ?, ?)",
        [game.id, game.phase, kind, iso(now)],
    )


def add_absence(
    db: sqlite_utils.Database, seat: Seat, starts: datetime, ends: datetime, now: datetime
) -> None:
    db.execute(
        "INSERT INTO absences (seat_id, starts, ends, created_at) VALUES (?, ?, ?, ?)",
        [seat.id, iso(starts), iso(ends), iso(now)],
    )
    record(db, now, "seat", seat.id, "absence", f"{iso(starts)} to {iso(ends)}")


def pending_absences(db: sqlite_utils.Database, seat: Seat, now: datetime) -> int:
    """How many of the seat's absences have not ended by `now`."""
    row = db.execute(
        "SELECT COUNT(*) FROM absences WHERE seat_id = ? AND ends > ?", [seat.id, iso(now)]
    ).fetchone()
    return int(row[0])


def cancel_absence(
    db: sqlite_utils.Database, seat: Seat, moment: datetime, now: datetime
) -> tuple[datetime, datetime] | None:
    """Cancel the seat's first absence (by its start) that has not ended by `now` and
    includes `moment` (njudge's SET NOABSENCE); its (start, end), or None if none does."""
    row = db.execute(
        "SELECT id, starts, ends FROM absences WHERE seat_id = ? AND ends > ? AND starts <= ? "
        "AND ends > ? ORDER BY starts, id LIMIT 1",
        [seat.id, iso(now), iso(moment), iso(moment)],
    ).fetchone()
    if row is None:
        return None
    db.execute("DELETE FROM absences WHERE id = ?", [row[0]])
    record(db, now, "seat", seat.id, "absence cancelled", f"{row[1]} to {row[2]}")
    return datetime.fromisoformat(row[1]), datetime.fromisoformat(row[2])


def absences(db: sqlite_utils.Database, game: Game) -> list[tuple[datetime, datetime]]:
    rows = db.execute(
        "SELECT a.starts, a.ends FROM absences a JOIN seats s ON s.id = a.seat_id "
        "WHERE s.game_id = ? AND s.left_at IS NULL ORDER BY a.starts",
        [game.id],
    ).fetchall()
    return [(datetime.fromisoformat(a), datetime.fromisoformat(b)) for a, b in rows]


def clear_notices(db: sqlite_utils.Database, game: Game) -> None:
    """A new deadline: reminders and late notices may be due again."""
    db.execute("DELETE FROM notices WHERE game_id = ? AND phase = ?", [game.id, game.phase])


def phase_started(db: sqlite_utils.Database, game: Game) -> datetime:
    row = db.execute(
        "SELECT started_at FROM phases WHERE game_id = ? AND phase = ?", [game.id, game.phase]
    ).fetchone()
    return datetime.fromisoformat(row[0])


def add_press(
    db: sqlite_utils.Database,
    game: Game,
    seat: Seat,
    recipients: list[str],
    grey: bool,
    text: str,
    now: datetime,
) -> None:
    db.execute(
        "INSERT INTO press (game_id, phase, seat_id, recipients, grey, text, sent_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [game.id, game.phase, seat.id, json.dumps(recipients), int(grey), text, iso(now)],
    )


def set_draw(db: sqlite_utils.Database, seat: Seat, vote: bool) -> None:
    db.execute("UPDATE seats SET draw = ? WHERE id = ?", [int(vote), seat.id])


def draw_votes(db: sqlite_utils.Database, game: Game) -> set[str]:
    rows = db.execute(
        "SELECT power FROM seats WHERE game_id = ? AND role = 'player' AND draw = 1 "
        "AND left_at IS NULL",
        [game.id],
    ).fetchall()
    return {r[0] for r in rows if r[0]}


def game_names(db: sqlite_utils.Database) -> list[str]:
    """The name of every game, in order."""
    return [r[0] for r in db.execute("SELECT name FROM games ORDER BY name").fetchall()]


def all_games(db: sqlite_utils.Database) -> list[Game]:
    """Every game whose row reads, by name: a game damaged on disk is left out of the
    lists (LIST, the operator's) rather than failing them for everyone (see
    unreadable_games)."""
    rows = db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY name").fetchall()
    out = []
    for row in rows:
        try:
            out.append(_game(row))
        except UnreadableGame:
            continue
    return out


def unreadable_games(db: sqlite_utils.Database) -> list[GameRow]:
    """The plain columns of the games whose rows do not read (all_games leaves them out),
    by name."""
    rows = db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY name").fetchall()
    out = []
    for row in rows:
        try:
            _game(row)
        except UnreadableGame:
            out.append(game_row(db, row[0]))
    return out


def processed_phases(
    db: sqlite_utils.Database, game: Game
) -> list[tuple[str, JsonObject, JsonObject, str]]:
    """(phase, position, results, processed_at) of every processed phase, in order."""
    rows = db.execute(
        "SELECT phase, position, results, processed_at FROM phases "
        "WHERE game_id = ? AND processed_at IS NOT NULL ORDER BY id",
        [game.id],
    ).fetchall()
    return [(p, json.loads(pos), json.loads(res), at) for p, pos, res, at in rows]


def year_end_centres(
    db: sqlite_utils.Database, game: Game, since: int
) -> dict[int, dict[str, Any]]:
    """Year -> the supply centres' owners (Contract 1's "centers") as the last processed
    phase of that year after its Spring left them, for the years from `since` on. Reads
    only those phases' centres, however long the game's history."""
    rows = db.execute(
        "SELECT phase, json_extract(results, '$.centers') FROM phases "
        "WHERE game_id = ? AND processed_at IS NOT NULL AND substr(phase, 1, 1) != 'S' "
        "AND CAST(substr(phase, 2, 4) AS INTEGER) >= ? ORDER BY id",
        [game.id, since],
    ).fetchall()
    return {int(phase[1:5]): json.loads(centres) for phase, centres in rows if centres}


def set_concede(db: sqlite_utils.Database, seat: Seat, power: str | None) -> None:
    db.execute("UPDATE seats SET concede = ? WHERE id = ?", [power, seat.id])


def concessions(db: sqlite_utils.Database, game: Game) -> dict[str, str]:
    """Power -> the power it concedes to, for the seated players who conceded."""
    rows = db.execute(
        "SELECT power, concede FROM seats WHERE game_id = ? AND role = 'player' "
        "AND left_at IS NULL AND concede IS NOT NULL",
        [game.id],
    ).fetchall()
    return {p: c for p, c in rows if p}


# -- phases as stored: for the operator's tools, export, ROLLBACK and late mail ------------


@dataclass(frozen=True)
class PhaseMark:
    """A stored phase without its position: its row id, name and when it started."""

    id: int
    phase: str
    started_at: str


@dataclass(frozen=True)
class StoredPhase:
    """A stored phase: its position at the start and, once processed, its results."""

    phase: str
    position: JsonObject
    started_at: str
    results: JsonObject | None  # None until the phase is processed (or after a ROLLBACK to it)
    processed_at: str | None


def phase_marks(db: sqlite_utils.Database, game: Game) -> list[PhaseMark]:
    """Every stored phase of the game, oldest first (the last is the current one)."""
    rows = db.execute(
        "SELECT id, phase, started_at FROM phases WHERE game_id = ? ORDER BY id", [game.id]
    ).fetchall()
    return [PhaseMark(*row) for row in rows]


def _stored_phase(row: tuple[Any, ...]) -> StoredPhase:
    phase, position, started_at, results, processed_at = row
    loaded = json.loads(results) if results is not None else None
    return StoredPhase(phase, json.loads(position), started_at, loaded, processed_at)


_PHASE_COLUMNS = "phase, position, started_at, results, processed_at"


def phase_history(db: sqlite_utils.Database, game: Game) -> list[StoredPhase]:
    """Every stored phase of the game with its position and results, oldest first."""
    rows = db.execute(
        f"SELECT {_PHASE_COLUMNS} FROM phases WHERE game_id = ? ORDER BY id", [game.id]
    ).fetchall()
    return [_stored_phase(row) for row in rows]


def last_phase(db: sqlite_utils.Database, game: Game) -> StoredPhase | None:
    """The game's latest stored phase; None before it starts."""
    row = db.execute(
        f"SELECT {_PHASE_COLUMNS} FROM phases WHERE game_id = ? ORDER BY id DESC LIMIT 1",
        [game.id],
    ).fetchone()
    return _stored_phase(row) if row else None


def rewind(db: sqlite_utils.Database, game: Game, to: PhaseMark) -> None:
    """Make phase `to` the game's last, unprocessed, with no orders: the phases after it
    are deleted, and the orders of those and of `to` itself (they must be sent again).
    The game's own row (phase, deadline) is the caller's to update."""
    later = [m.phase for m in phase_marks(db, game) if m.id > to.id]
    db.execute("DELETE FROM phases WHERE game_id = ? AND id > ?", [game.id, to.id])
    db.execute("UPDATE phases SET processed_at = NULL, results = NULL WHERE id = ?", [to.id])
    for phase in [*later, to.phase]:
        db.execute("DELETE FROM orders WHERE game_id = ? AND phase = ?", [game.id, phase])


def unstart(db: sqlite_utils.Database, game: Game, now: datetime) -> Game:
    """UNSTART: the game back to forming, as before its start: its phases, orders,
    notices and orders held by PHASE deleted, its players' powers and WAITs cleared (they
    stay seated), no phase, deadline or hand-overs. The caller checks that no phase was
    processed."""
    for table in ("phases", "orders", "notices", "pending_orders"):
        db.execute(f"DELETE FROM {table} WHERE game_id = ?", [game.id])
    db.execute(
        "UPDATE seats SET power = NULL, wait = 0 WHERE game_id = ? AND role = ?",
        [game.id, PLAYER],
    )
    db.execute(
        "UPDATE games SET state = ?, phase = NULL, deadline = NULL, process_at = NULL, "
        "paused_remaining = NULL, proxies = NULL, joined = NULL WHERE id = ?",
        [FORMING, game.id],
    )
    record(db, now, "game", game.id, "unstarted", game.name)
    return get_game(db, game.id)


# -- press and players, for SUMMARY, HISTORY and export --------------------------------------


@dataclass(frozen=True)
class Broadcast:
    """Press sent to everyone (recipients `["*"]`)."""

    text: str
    sent_at: str
    grey: bool
    seat_id: int


def broadcasts(db: sqlite_utils.Database, game: Game) -> list[Broadcast]:
    """The game's press to everyone, in the order it was sent."""
    rows = db.execute(
        "SELECT text, sent_at, grey, seat_id FROM press WHERE game_id = ? AND recipients = ? "
        "ORDER BY id",
        [game.id, json.dumps(["*"])],
    ).fetchall()
    return [Broadcast(text, at, bool(grey), seat_id) for text, at, grey, seat_id in rows]


@dataclass(frozen=True)
class PressItem:
    """One piece of press with its sender's seat (role and power) and its phase."""

    phase: str
    role: str
    power: str | None
    recipients: list[str]  # power keys, or ["*"] for everyone
    grey: bool
    text: str
    sent_at: str


def phased_press(db: sqlite_utils.Database, game: Game) -> list[PressItem]:
    """The game's press sent during a phase, in the order it was sent ([] for a database
    without the press table)."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "press" not in tables:
        return []
    rows = db.execute(
        "SELECT p.phase, s.role, s.power, p.recipients, p.grey, p.text, p.sent_at "
        "FROM press p JOIN seats s ON s.id = p.seat_id WHERE p.game_id = ? AND p.phase IS NOT "
        "NULL ORDER BY p.sent_at, p.id",
        [game.id],
    ).fetchall()
    return [
        PressItem(phase, role, power, json.loads(to), bool(grey), text, at)
        for phase, role, power, to, grey, text, at in rows
    ]


@dataclass(frozen=True)
class Player:
    """A player's seat, held now or left."""

    power: str | None
    address: str
    left_at: str | None


def players_ever(db: sqlite_utils.Database, game: Game) -> list[Player]:
    """Every player seat the game has had, those left included, in the order taken."""
    rows = db.execute(
        "SELECT power, address, left_at FROM seats "
        "WHERE game_id = ? AND role = 'player' ORDER BY id",
        [game.id],
    ).fetchall()
    return [Player(*row) for row in rows]


@dataclass(frozen=True)
class SeatSpan:
    """A seat of any role, held now or left, with when it was taken and left."""

    role: str
    power: str | None
    address: str
    joined_at: str
    left_at: str | None


def seat_spans(db: sqlite_utils.Database, game: Game) -> list[SeatSpan]:
    """Every seat the game has had (masters, players, observers), those left included, in
    the order taken: who played what from when (SUMMARY)."""
    rows = db.execute(
        "SELECT role, power, address, joined_at, left_at FROM seats WHERE game_id = ? ORDER BY id",
        [game.id],
    ).fetchall()
    return [SeatSpan(*row) for row in rows]


def left_seat(db: sqlite_utils.Database, game: Game, power: str, address: str) -> Seat | None:
    """The last seat of `power` that the player at `address` left (RESIGN, EJECT), if any:
    such a player may come back to a power nobody has taken over since."""
    row = db.execute(
        f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? AND role = 'player' "
        "AND power = ? AND address = ? AND left_at IS NOT NULL ORDER BY id DESC LIMIT 1",
        [game.id, power, address],
    ).fetchone()
    return _seat(row) if row else None
