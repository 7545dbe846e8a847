"""Deadlines: reminders, processing, late notices, grace and civil disorder.

The database is the source of truth. `run_due` looks at the active games whose next
event is due (games.next_event_at, indexed) and does what is due by the clock it is
given, each game in one transaction (a savepoint in a group of games sharing a commit)
that re-reads the game, acts, and advances it (a game whose processing raises is rolled
back and paused, and the others go on): a timer
that fires twice, or a judge restarted between a deadline and its processing, processes
a phase exactly once. Each look at a game keeps its next moment (`_next_moment`) in the
same transaction; any change to what the look reads (the game, its seats, phases,
orders, notices) sets the column to 0 by trigger, in the change's own transaction, so
the game is looked at again on the next pass, as every game was on every pass before.
`Timers` wakes the daemon at the earliest moment kept (`next_wake`); the work itself
always runs in the daemon's main loop.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.date import DateTrigger

from judge.config import Config
from judge.engine.phase import Phase
from judge.failures import failure_reason, is_transient
from judge.game import abandonment, anonymity, play, vacancies
from judge.game.failure import pause_failed
from judge.game.outgoing import queue_reply
from judge.game.report import format_deadline
from judge.game.rules import processes_itself, rules_of
from judge.replies import Reply
from judge.service import start_waiting
from judge.store import games
from judge.store.db import transaction, writers_waiting

log = logging.getLogger("judge.service.schedule")


GROUP_SECONDS = 0.2  # due games processed in one commit for at most this long


def run_due(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    stopping: Callable[[], bool] = lambda: False,
) -> int:
    """Do everything due by now in every active game whose next event is due (until
    `stopping()` says the daemon is stopping); returns how many mails were queued. A game
    whose processing raises is rolled back and paused, its master told, and the other
    games go on. A fault of the machine (the database locked, the disk full or read-only)
    ends the pass, logged once: every game due would meet it, and a thousand of them,
    each processed and rolled back with a warning on every pass, kept a core busy and
    filled the log for as long as the disk stayed full. The next pass tries again.

    The games are processed in groups sharing one commit, each game in a savepoint of its
    own: a commit waits for the disk (3-5 ms here, with synchronous=FULL), and a thousand
    games at one deadline paid it two thousand times on the loop. A group ends after
    GROUP_SECONDS, or as soon as another writer in the process waits for its turn (the
    SMTP receiver storing a player's mail waits for one game, not for the group). A crash
    before the commit loses the group's work, which nobody has seen (its mail is sent
    only once committed): the next start does it again. Each game's line is logged once
    its group is committed."""
    rows = list(games.due_games(db, clock()))
    due = iter(rows)
    queued, more = 0, bool(rows)  # nothing due: no transaction taken at all
    while more:
        done: list[str] = []
        try:
            with transaction(db):
                n, more = _group(db, config, clock, stopping, due, done)
        except _GroupLost as lost:
            why = failure_reason(lost.__cause__) if lost.__cause__ else "unknown"
            log.warning(
                "the games due were rolled back by the database (%s); the next pass tries", why
            )
            return queued
        except Exception as e:
            if not is_transient(e):
                raise
            log.warning("%s; the games due wait for the next pass", failure_reason(e))
            return queued
        queued += n
        for line in done:
            log.info("%s", line)
    return queued


class _GroupLost(Exception):
    """SQLite rolled the whole transaction back (its reaction to some faults): the group's
    games are undone and the pass ends."""


def _group(
    db: sqlite_utils.Database,
    config: Config,
    clock: Callable[[], datetime],
    stopping: Callable[[], bool],
    due: Iterator[games.GameRow],
    done: list[str],
) -> tuple[int, bool]:
    """Process games from `due` in the caller's transaction until GROUP_SECONDS pass or
    another writer waits; their log lines appended to `done`. Returns the mails queued
    and whether games are left for another group."""
    ends = time.monotonic() + GROUP_SECONDS
    queued = 0
    for game in due:
        if stopping():  # the rest are due still at the next pass
            return queued, False
        try:
            queued += _game_due(db, config, game.id, clock(), done)
        except Exception as e:
            if not db.conn.in_transaction:
                raise _GroupLost from e
            if is_transient(e):
                log.warning("game %s: %s; the games due wait for the next pass", game.name, e)
                return queued, False
            queued += _pause_failed(db, config, game, clock(), e)
        if time.monotonic() > ends or writers_waiting(db):
            return queued, True
    return queued, False


def _pause_failed(
    db: sqlite_utils.Database, config: Config, game: games.GameRow, now: datetime, error: Exception
) -> int:
    """Pause a game whose processing raised and tell its masters (game_failed); returns
    the mails queued. Whatever its state, it is not looked at again until it changes (a
    forming game that cannot start is not tried on every pass). If the notice cannot be
    queued the game is paused without it; if it cannot even be paused, that is logged
    and the next pass tries the game again."""
    reason = failure_reason(error)
    log.error(
        "game %s, phase %s: processing raised %s\n%s",
        game.name,
        game.phase,
        reason,
        "".join(traceback.format_tb(error.__traceback__)).rstrip(),
    )
    for notify in (True, False):
        try:
            with transaction(db):
                mails = pause_failed(db, game, now, reason)
                games.set_next_event(db, game, None)  # until a change: RESUME, a repair
                if not notify:
                    mails = []
                for mail in mails:
                    queue_reply(db, config, now, mail)
            told = ", ".join(a for mail in mails for a in mail.to) or "no one"
            log.error("game %s paused after the error; told: %s", game.name, told)
            return len(mails)
        except Exception as e:
            log.error("game %s: could not be paused: %s", game.name, failure_reason(e))
    return 0


def _game_due(
    db: sqlite_utils.Database, config: Config, game_id: int, now: datetime, done: list[str]
) -> int:
    with transaction(db):
        game = games.get_game(db, game_id)  # re-read inside the transaction
        if game.state == games.FORMING:
            mails, what = _forming_due(db, config, game, now)
        else:
            mails, what = _active_due(db, config, game, now)
    if what:
        done.append(f"game {game.name}, phase {game.phase or 'forming'}: {what}")
    return len(mails)


def _active_due(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime
) -> tuple[list[Reply], str]:
    """What is due in a game in play, queued; its next moment kept."""
    if game.state != games.ACTIVE or not game.phase or not game.deadline:
        games.set_next_event(db, game, None)  # nothing timed until it changes
        return [], ""
    changes = db.conn.total_changes  # rows written by this connection, triggers' too
    # The timers' moments too: a stored value out of range (a deadline in year 9999)
    # raises here, and the game is paused, rather than in _next_moment on every look.
    _moments(db, game)
    mails, what = _due(db, config, game, now)
    for mail in mails:
        queue_reply(db, config, now, mail)
    # Something done (a notice, a phase processed): the moment is left as it is, due,
    # so the game is looked at again on the next pass. Nothing done: nothing can fall
    # due before its next moment (no write, so no fsync, when it is kept already).
    if db.conn.total_changes == changes:
        games.set_next_event(db, game, _next_moment(db, game, now))
    return mails, what


def _forming_due(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime
) -> tuple[list[Reply], str]:
    """A forming game's start at its SET START date or daily Start Waiting, queued."""
    mails, next_at, what = start_waiting.due(db, config, game, now)
    for mail in mails:
        queue_reply(db, config, now, mail)
    if what != "started":  # a started game stays due: its first phase's moments are kept
        games.set_next_event(db, game, next_at)  # on the next pass
    return mails, what


def _due(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime
) -> tuple[list[Reply], str]:
    s = game.settings
    deadline = datetime.fromisoformat(game.deadline or "")
    if game.process_at and now >= datetime.fromisoformat(game.process_at):
        if play.ready_to_process(db, game):
            return _go(db, config, game, now, datetime.fromisoformat(game.process_at), "early")
        games.update_game(db, game, now, process_at=None)  # someone set WAIT meanwhile
        return [], ""
    if now < deadline:
        remind_at = _reminder_time(db, game, deadline)
        if remind_at and now >= remind_at and not games.notice_sent(db, game, "reminder"):
            games.record_notice(db, game, "reminder", now)
            reminders = _to_late_powers(db, config, game, _late_powers(db, game), "reminder")
            return reminders, f"reminded {len(reminders)}"
        return [], ""
    grace_end = _grace_end(game, deadline)
    mails: list[Reply] = []
    if now >= grace_end and not s.nmr and processes_itself(game):
        mails += _abandon_late(db, game, now)  # no NMR: the late powers are abandoned
    replacements = vacancies.replacements_notice(db, game, now)  # no NMR: a free power waits
    if replacements is not None:
        mails += replacements
        return mails, "waiting for replacements" if mails else ""
    if play.ready_to_process(db, game, ignore_wait=True):
        mails, what = _go(db, config, game, now, deadline, "at the deadline")
        # No one owed orders: a game no one plays (none late) is ready at each deadline.
        return mails + _unplayed(db, game, game.phase or "", now), what
    # The late powers, read once: the notices below change no orders.
    powers = None
    # A phase processed on this very pass (no grace left: SET GRACE 0, or a judge back
    # after its grace ended) gets no late notices: they would ask for orders it no longer
    # takes, just before the results that name the powers in civil disorder.
    processed_now = now >= grace_end and s.nmr and processes_itself(game)
    if not processed_now and not games.notice_sent(db, game, "late"):
        games.record_notice(db, game, "late", now)
        powers = _late_powers(db, game)
        mails += _to_late_powers(db, config, game, powers, "late_notice", grace_end=grace_end)
        mails += _waiting_notices(db, config, game, powers, grace_end)
    if now < grace_end or not (s.nmr or not processes_itself(game)):
        return mails, "late notices sent" if mails else ""
    if powers is None:
        powers = _late_powers(db, game)
    late = _in_civil_disorder(db, game, powers) if processes_itself(game) else []
    phase = game.phase or ""
    more, what = _go(db, config, game, now, grace_end, "after grace")
    # NMR: processed with the late powers in civil disorder, which are then abandoned (after
    # the results, which the late players get as everyone does).
    game = games.get_game(db, game.id)
    if game.state in vacancies.PLAYING:  # a game that ended has nothing left to take over
        fresh = [seat for seat in late if not abandonment.abandoned(seat)]
        more += abandonment.abandon(db, game, fresh, phase, now)
        # A whole phase in civil disorder with every power abandoned before it: nobody
        # plays any more (everyone late once is abandoned by the phase before, and back
        # with a SIGNON).
        if not fresh:
            more += _unplayed(db, game, phase, now)
    return mails + more, what


def _in_civil_disorder(
    db: sqlite_utils.Database, game: games.Game, late: list[dict[str, Any]]
) -> list[games.Seat]:
    """The seats of `late` (_late_powers) whose power is processed in civil disorder (no
    orders on file, nor last orders standing in): those an NMR game abandons at the end
    of grace. A power whose orders are only partly in is late, but not abandoned."""
    cd = set(play.load_phase(db, game).civil_disorder)
    return [p["seat"] for p in late if p["power"] in cd]


def _abandon_late(db: sqlite_utils.Database, game: games.Game, now: datetime) -> list[Reply]:
    """A game without NMR at the end of grace: the powers still late (owing orders not
    all in) and not abandoned yet are abandoned, their players told (once: the next look
    finds them abandoned); Waiting for Replacements then tells the others."""
    late = [p["seat"] for p in _late_powers(db, game) if not abandonment.abandoned(p["seat"])]
    return abandonment.abandon(db, game, late, game.phase or "", now)


_TURN_WAITING_EVERY = timedelta(days=1)  # njudge repeats its Turn Waiting mail daily


def _unplayed(
    db: sqlite_utils.Database, before: games.Game, phase: str, now: datetime
) -> list[Reply]:
    """The game, its `phase` just processed, paused and its masters told if no power in
    it is played (abandonment.pause_unplayed): each abandoned, or none with a player at
    all (FORCE BEGIN with no one, everyone resigned or ejected), and nothing else ends
    it (SET STALE OFF, SET MAXYEARS OFF). Such a game, none late, was ready at each
    deadline and played out for ever, mailing its masters and up to 50 observers each
    phase, every minute at the shortest. `before`: the game as it was before the phase
    was processed (its settings are the same after)."""
    if before.settings.stale_years or before.settings.max_years:
        # The stale-position or max-years draw ends it within those years (no centre
        # changes hands in civil disorder): played out to it, as before. Looked at
        # first: most games, read again for nothing at each deadline of a burst.
        return []
    game = games.get_game(db, before.id)
    if game.state not in vacancies.PLAYING or not processes_itself(game):
        return []  # ended; or its master processes it, and is there
    if not vacancies.nobody_plays(db, game):
        return []
    abandoned = any(s.abandoned_at for s in games.seats(db, game, games.PLAYER))
    return abandonment.pause_unplayed(db, game, phase, now, abandoned)


def _go(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    now: datetime,
    since: datetime,
    when: str,
) -> tuple[list[Reply], str]:
    """The phase would be processed now (it has been due since `since`): processed, or,
    in a manual-process game, everyone told it waits for the master's PROCESS, at
    `since` and every day after it (each once, kept as a notice of the phase)."""
    if processes_itself(game):
        return play.process_phase(db, config, game, now), f"processed {when}"
    day = (now - since) // _TURN_WAITING_EVERY
    kind = f"turn_waiting:{day}"
    if games.notice_sent(db, game, kind):
        return [], ""
    games.record_notice(db, game, kind, now)
    everyone = tuple(dict.fromkeys(seat.address for seat in games.seats(db, game)))
    context = {"game": game.name, "phase": str(Phase.parse(game.phase or ""))}
    return [Reply(everyone, "turn_waiting", context, "notice", False)], "waiting for PROCESS"


def _grace_end(game: games.Game, deadline: datetime) -> datetime:
    """When the current phase's grace ends: at the moment SET GRACE date gave for this
    phase (njudge's), else the game's grace length after the deadline."""
    s = game.settings
    if s.grace_until and s.grace_phase == game.phase:
        return max(deadline, datetime.fromisoformat(s.grace_until))
    return deadline + timedelta(hours=float(s.grace_hours))


def _next_moment(db: sqlite_utils.Database, game: games.Game, now: datetime) -> datetime | None:
    """The first moment after `now` at which `_due` may act on the unchanged game: the
    reminder, the timers' moments (deadline, end of grace, early processing); None when
    only a change can (a NONMR game waiting for replacements)."""
    moments = _moments(db, game)
    remind_at = _reminder_time(db, game, datetime.fromisoformat(game.deadline or ""))
    if remind_at is not None:
        moments.append(remind_at)
    if not processes_itself(game):  # the daily Turn Waiting mails after each moment
        every = _TURN_WAITING_EVERY
        moments += [m + ((now - m) // every + 1) * every for m in moments if m <= now]
    return min((m for m in moments if m > now), default=None)


def _reminder_time(
    db: sqlite_utils.Database, game: games.Game, deadline: datetime
) -> datetime | None:
    """The configured time before the deadline; none for a phase no longer than that
    (its start mail, retreat request or build request is the reminder)."""
    remind_at = deadline - timedelta(hours=float(game.settings.reminder_hours))
    return remind_at if remind_at > games.phase_started(db, game) else None


def _context(config: Config, game: games.Game) -> dict[str, Any]:
    return {
        "game": game.name,
        # Its code (templates/words.txt says it); parsed, as only a game in a phase has one.
        "phase": str(Phase.parse(game.phase or "")),
        "deadline": format_deadline(game.deadline, config.timezone),
        "nmr": bool(game.settings.nmr),
        # No NMR: the late powers are abandoned at the end of grace, unless the master
        # processes the game (then it waits for him, as before).
        "abandons": not game.settings.nmr and processes_itself(game),
    }


def _late_powers(db: sqlite_utils.Database, game: games.Game) -> list[dict[str, Any]]:
    """The players whose orders are not complete: [{seat, power, missing}]."""
    position = play.current_position(db, game)
    effective = games.effective_orders(db, game, game.phase or "")
    out = []
    for seat in games.seats(db, game, games.PLAYER):
        if not seat.power:
            continue
        mine = effective.get(seat.power, [])
        if not play.power_complete(position, seat.power, mine, rules_of(game)):
            name = position.game_map.powers[seat.power].name
            out.append({"seat": seat, "power": name})
    return out


def _to_late_powers(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    late_powers: list[dict[str, Any]],
    template: str,
    grace_end: datetime | None = None,
) -> list[Reply]:
    """A `template` mail to each of `late_powers` (_late_powers)."""
    context = _context(config, game)
    if grace_end is not None:
        context["grace_end"] = format_deadline(grace_end.isoformat(), config.timezone)
    mails = []
    for late in late_powers:
        status = play.order_status(db, config, game, late["seat"])
        mails.append(
            Reply(
                (late["seat"].address,),
                template,
                {**context, "you": late["power"], "status": status},
                "notice",
                False,
            )
        )
    return mails


def _waiting_notices(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    powers: list[dict[str, Any]],
    grace_end: datetime,
) -> list[Reply]:
    """The on-time players told whom the game waits for: `powers` (_late_powers)."""
    late = {p["seat"].id for p in powers}
    names = [p["power"] for p in powers]
    context = {
        **_context(config, game),
        "waiting_for": names,
        "grace_end": format_deadline(grace_end.isoformat(), config.timezone),
    }
    on_time = [s.address for s in games.seats(db, game, games.PLAYER) if s.id not in late]
    if not anonymity.announced_to(game, reader_is_master=False):
        on_time = []  # SET QUIET: late powers are announced to the masters alone
    masters = [s.address for s in games.seats(db, game, games.MASTER)]
    to = tuple(dict.fromkeys(on_time + masters))
    return [Reply(to, "waiting_notice", context, "notice", False)] if to else []


# -- timers ---------------------------------------------------------------------------------


def next_wake(db: sqlite_utils.Database) -> dict[str, datetime]:
    """What the daemon's Timers wake for: the earliest next event of any active game, as
    kept by run_due (one index read); empty when no game waits for a moment."""
    earliest = games.earliest_event(db)
    return {} if earliest is None else {f"wake:{earliest.isoformat()}": earliest}


def next_events(db: sqlite_utils.Database) -> dict[str, datetime]:
    """Every moment each active game needs the judge: key -> UTC time. Reads every
    game: for inspection; the daemon wakes by `next_wake`."""
    out: dict[str, datetime] = {}
    for game in games.active_games(db):
        if not game.deadline:
            continue
        try:
            moments = _moments(db, game)
        except Exception as e:  # a bad stored value: run_due pauses the game
            log.error("game %s: no timers (%s)", game.name, failure_reason(e))
            continue
        for i, moment in enumerate(moments):
            out[f"{game.id}:{game.phase}:{i}:{moment.isoformat()}"] = moment
    return out


def _moments(db: sqlite_utils.Database, game: games.Game) -> list[datetime]:
    """A game's reminder, deadline, end of grace and early processing, in order."""
    deadline = datetime.fromisoformat(game.deadline or "")
    s = game.settings
    started = games.phase_started(db, game)
    moments = [
        max(
            deadline - timedelta(hours=float(s.reminder_hours)),
            started + (deadline - started) / 2,
        ),
        deadline,
        _grace_end(game, deadline),
    ]
    if game.process_at:
        moments.append(datetime.fromisoformat(game.process_at))
    return sorted(moments)


class Timers:
    """One APScheduler job per pending event; each job only wakes the daemon, which
    hands it one event (`next_wake`), the earliest.

    Events are moments on the judge's clock, which a test or `--now` may set apart from
    the wall clock APScheduler runs on: each job is set to fire after the same delay
    from the wall clock as its event lies ahead of the judge's clock."""

    def __init__(
        self,
        wake: Callable[[], None],
        clock: Callable[[], datetime],
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.wake = wake
        self.clock = clock
        self.wall = wall  # APScheduler's own clock (a test passes one in)
        self.scheduler = BackgroundScheduler(timezone="UTC")
        self.lock = threading.Lock()
        self.moments: dict[str, datetime] = {}  # job id -> the event's judge-clock moment

    def start(self) -> None:
        self.scheduler.start()

    def sync(self, events: dict[str, datetime]) -> None:
        """Make the jobs match the future `events`; a past event gets no job, because the
        loop handles it at once (a timer for it would fire and be re-added every pass)."""
        with self.lock:
            now, wall = self.clock(), self.wall()
            wanted = {k: v for k, v in events.items() if v > now}
            for job in self.scheduler.get_jobs():
                if job.id not in wanted:
                    job.remove()
            have = {job.id for job in self.scheduler.get_jobs()}
            self.moments = {k: v for k, v in self.moments.items() if k in have}
            for key, moment in wanted.items():
                if key in have:
                    continue
                try:
                    run_date = wall + (moment - now)
                except OverflowError:  # beyond datetime's range: nothing to wake for
                    continue
                self.scheduler.add_job(
                    self.wake, DateTrigger(run_date=run_date), id=key, misfire_grace_time=None
                )
                self.moments[key] = moment

    def stop(self) -> None:
        self.scheduler.shutdown(wait=False)

    def pending(self) -> list[datetime]:
        """The judge-clock moments of the jobs not yet fired."""
        return sorted(self.moments[j.id] for j in self.scheduler.get_jobs())
