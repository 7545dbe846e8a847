"""Playing a game by mail: starting it, taking order sets, and processing a phase.

Every function runs inside the caller's transaction and returns the mails to send
(`Reply` objects, rendered and queued by the caller in the same transaction).
"""

from __future__ import annotations

import functools
import json
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from judge.config import Config
from judge.engine.adjudication import Adjudication, adjudicate
from judge.engine.board import Position, starting_position
from judge.engine.geography import GameMap
from judge.engine.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from judge.engine.rules import DEFAULT_RULES, Rules, describe
from judge.engine.validation import CheckedOrder, check_orders, orders_due
from judge.game import njudge_lines, observers, pending_orders, proxies, vacancies
from judge.game.anonymity import shown_address
from judge.game.assignment import assign_powers
from judge.game.dates import next_deadline, parse_time_of_day, push_past_absence
from judge.game.diaries import diary_mails
from judge.game.end import Ending, ending, revealed
from judge.game.outgoing import public_copy
from judge.game.pictures import of_results, of_start
from judge.game.player_groups import flip_coin, group_preferences, groups_of, seat_the_group
from judge.game.report import (
    OrderWords,
    UnitWords,
    describe_text,
    destroyed_units,
    echoed,
    format_deadline,
    free_home_centres,
    ownership,
    results_by_power,
    retreat_options,
    unit_name,
    units_list,
)
from judge.game.rules import end_rules, processes_itself, rules_of
from judge.replies import Reply
from judge.store import games, held_press
from judge.store.audit import iso
from judge.store.result import GameResult
from judge.store.settings import GameSettings
from judge.variants.json_contract import outcome_to_json, position_from_json, position_to_json
from judge.variants.maps import load_map
from judge.variants.problem_text import reason_text

log = logging.getLogger("judge.game.play")


def _hours(settings: GameSettings, kind: str) -> float:
    """The length in hours of a phase of `kind` (movement, retreats, adjustments)."""
    return {
        MOVEMENT: settings.move_hours,
        RETREATS: settings.retreat_hours,
        ADJUSTMENTS: settings.adjust_hours,
    }[kind]


def game_map(game: games.Game) -> GameMap:
    return load_map(game.variant)


def current_position(db: sqlite_utils.Database, game: games.Game) -> Position:
    """The game's position at the start of its current phase, as stored; UnreadableGame
    when it does not read (damaged on disk, or its map gone or changed under it)."""
    try:
        return _position_of(games.phase_position_text(db, game, game.phase or ""))
    except (ValueError, KeyError, TypeError) as e:  # json's, the map's, the contract's
        raise games.UnreadableGame(game.name, e) from e


# A step of a game (a deadline, a mail's orders) asks for its position several times
# (late powers, notices, the check for all orders in): parsed once, for identical text.
# Positions are frozen, so callers may share one.
@functools.lru_cache(maxsize=256)
def _position_of(text: str) -> Position:
    position, _, _ = position_from_json(json.loads(text))
    return position


def deadline_for(
    game: games.Game,
    phase: Phase,
    now: datetime,
    zone: str = "UTC",
    absences: Sequence[tuple[datetime, datetime]] = (),
) -> str:
    """The deadline of a phase starting now: its length, moved to the game's time of day
    and allowed weekdays in the judge's zone, and past any player's absence (up to the
    game's maximum)."""
    s = game.settings
    length = timedelta(hours=float(_hours(s, phase.kind)))
    time_of_day = parse_time_of_day(s.deadline_time) if s.deadline_time else None
    weekdays = frozenset(s.weekdays) if s.weekdays else None
    deadline = next_deadline(now, length, ZoneInfo(zone), time_of_day, weekdays)
    if absences:
        cap = timedelta(days=float(s.absence_max_days))
        deadline = push_past_absence(deadline, absences, cap)
    return iso(deadline)


def orders_changed(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime
) -> list[Reply]:
    """After a change to a game's orders or WAITs: process at once when everything is in
    and the game has no early-processing delay; with a delay, set the time to process."""
    game = games.get_game(db, game.id)
    if not ready_to_process(db, game):
        if game.process_at:
            games.update_game(db, game, now, process_at=None)
        return []
    delay = float(game.settings.delay_minutes)
    if delay <= 0 and processes_itself(game):
        return process_phase(db, config, game, now)
    # SET MANUAL PROCESS: the moment it would go is kept; the schedule then tells
    # everyone the phase waits for the master's PROCESS.
    if not game.process_at:
        games.update_game(db, game, now, process_at=iso(now + timedelta(minutes=delay)))
    return []


# -- starting ---------------------------------------------------------------------------


def start_game(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime, seed: int
) -> list[Reply]:
    """Assign the powers by the players' preference lists (DPTG chapter I), set up the
    first phase and tell everyone."""
    gm = game_map(game)
    players = games.seats(db, game, games.PLAYER)
    groups = _seat_players(db, game, gm, players, now, seed)
    position = starting_position(gm)
    phase = position.phase
    deadline = deadline_for(game, phase, now, config.timezone, games.absences(db, game))
    game = games.update_game(db, game, now, state=games.ACTIVE, phase=str(phase), deadline=deadline)
    games.add_phase(db, game, str(phase), position_to_json(position), deadline, now)
    return _start_mails(db, config, game, position, players, groups)


def _seat_players(
    db: sqlite_utils.Database,
    game: games.Game,
    gm: GameMap,
    players: Sequence[games.Seat],
    now: datetime,
    seed: int,
) -> dict[int, tuple[str, ...]]:
    """Draw the powers for `players` by their preference lists and seat each at the
    powers drawn; returns the powers each seat (by id) now plays."""
    groups = groups_of(game, gm, None)  # one power each, or several (fewer players)
    leads = {g[0]: g for g in groups}
    initials = {p: gm.powers[p].initial for p in leads}
    # FORCE BEGIN with fewer players: stand-ins take the powers left in civil disorder.
    stand_ins = [(-i, "") for i in range(1, len(groups) - len(players) + 1)]
    assignment = assign_powers(
        [(s.id, group_preferences(groups, gm, s.preference)) for s in players] + stand_ins,
        list(leads),
        initials,
        random.Random(seed),
    )
    for seat in players:
        seat_the_group(db, game, seat, leads[assignment[seat.id]], now)
    return {seat.id: leads[assignment[seat.id]] for seat in players}


def _start_mails(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    position: Position,
    players: Sequence[games.Seat],
    groups: dict[int, tuple[str, ...]],
) -> list[Reply]:
    """The start mails: to each player (the powers drawn), to each master (who plays
    what), and the public announcement. Reads only."""
    gm = position.game_map
    context = _game_context(config, game, gm)
    context["powers"] = [
        {"power": gm.powers[p].name, "units": units_list(gm, position, p)} for p in gm.powers
    ]
    context["neutral"] = [gm.powers[p].name for p in sorted(gm.neutral_in(position.phase))]
    picture = of_start(game, position_to_json(position))  # None with SET MAP OFF
    mails = []
    for seat in players:
        group = groups[seat.id]
        power = gm.powers[group[0]]
        mails.append(
            Reply(
                (seat.address,),
                "game_start",
                {**context, "you": _names(gm, group), "initial": power.initial},
                kind="start",
                in_reply=False,
                picture=picture,
            )
        )
    order = list(gm.powers)
    # Every player's seat has its power once the game has started.
    powered = [(s, s.power) for s in games.seats(db, game, games.PLAYER) if s.power is not None]
    seated = [
        {"power": gm.powers[power].name, "address": s.address}
        for s, power in sorted(powered, key=lambda sp: order.index(sp[1]))
    ]
    for seat in games.seats(db, game, games.MASTER):
        master = {**context, "you": None, "players": seated}
        mails.append(Reply((seat.address,), "game_start", master, "start", False, picture=picture))
    # The copy to the game's mailing list is read by no master: gunboat hides them.
    public = [
        {**p, "address": shown_address(game, p["address"], reader=None, reader_is_master=False)}
        for p in seated
    ]
    announcement = Reply(
        (),
        "game_start",
        {**context, "you": None, "players": public, "public": True},
        "start",
        False,
        picture=picture,
    )
    mails += public_copy(config, game.name, game.settings.list, announcement)
    return mails


def _game_context(config: Config, game: games.Game, gm: GameMap) -> dict[str, Any]:
    return {
        "game": game.name,
        "variant": gm.title,
        "gunboat": game.settings.gunboat,  # the start mail says so
        "phase": game.phase or "",  # its code; templates/words.txt says it
        "deadline": format_deadline(game.deadline, config.timezone),
        "rules": describe(rules_of(game)),
    }


# -- orders -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderStatus:
    """What an acknowledgement says about one power after an order set."""

    game: str
    power: str  # the power's name
    phase: str  # its code, e.g. F1901M (templates/words.txt phase_title, phase_kind)
    checked: tuple[CheckedOrder, ...]  # this mail's lines, as checked
    effective: tuple[OrderWords, ...]  # the orders now on file (templates/words.txt order)
    missing: tuple[UnitWords, ...]  # units still without orders
    adjustments_owed: int  # builds (+) or removals (-) still to order
    wait: bool
    deadline: str
    cleared: bool

    @property
    def has_errors(self) -> bool:
        return any(c.error and not c.replaced for c in self.checked)


def submit_orders(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    seat: games.Seat,
    lines: Sequence[str],
    mode: str,
    clear: bool,
    inbound_id: int | None,
    now: datetime,
) -> OrderStatus:
    """Take one mail's orders for a power: keep the set as received, work out the orders
    now in effect under the order-set rule (`replace` or `merge`), and say where it stands."""
    position = current_position(db, game)
    power = seat.power or ""
    rules = proxies.engine_rules(rules_of(game))
    checked = check_orders(position, power, lines, rules)
    if rules_of(game).proxy_orders == "notified":  # DATC 4.E.5 a: only units handed over
        checked = proxies.screen(game, position, power, checked)
    # The reasons in words, as the order set is stored and the reply shows them.
    checked = [_in_words(c) for c in checked]
    if clear or lines:
        record_mode = "clear" if clear and not lines else mode
        games.add_order_set(
            db,
            game,
            power,
            record_mode,
            [{"given": c.given, "order": c.order, "error": c.error} for c in checked],
            inbound_id,
            now,
        )
        before = [] if clear else games.effective_orders(db, game, game.phase or "").get(power, [])
        combined = _combine(position, power, before, _accepted(checked), mode, rules)
        games.set_effective_orders(db, game, power, combined)
    status = order_status(db, config, game, seat, position)
    return replace(status, checked=tuple(checked), cleared=clear)


def _in_words(c: CheckedOrder) -> CheckedOrder:
    """The checked order with its reason and notes in words (templates/problems/), and
    a line too long to be read cut short (report.echoed)."""
    error = reason_text(c.error) if c.error is not None else None
    notes = tuple(reason_text(n) for n in c.notes)
    return replace(c, given=echoed(c.given), error=error, notes=notes)


def _combine(
    position: Position, power: str, before: list[str], new: list[str], mode: str, rules: Rules
) -> list[str]:
    """The orders in effect: the new set alone (replace), or the new set laid over the
    earlier orders unit by unit (merge). Re-checked together, so caps still apply."""
    if mode == "replace" or not before:
        candidates = new
    else:
        new_keys = {c.key for c in check_orders(position, power, new, rules) if c.key}
        kept = [
            c.order for c in check_orders(position, power, before, rules) if c.key not in new_keys
        ]
        candidates = [o for o in kept if o] + new
    return _accepted(check_orders(position, power, candidates, rules))


def _accepted(checked: Sequence[CheckedOrder]) -> list[str]:
    """The canonical orders of the checked lines the judge will use."""
    return [c.order for c in checked if c.accepted and c.order is not None]


def order_status(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    seat: games.Seat,
    position: Position | None = None,
) -> OrderStatus:
    position = position or current_position(db, game)
    gm = position.game_map
    power = seat.power or ""
    effective = games.effective_orders(db, game, game.phase or "").get(power, [])
    units_due, owed = orders_due(position, power)
    checked = check_orders(position, power, effective, proxies.engine_rules(rules_of(game)))
    covered = {c.key for c in checked if c.accepted}
    missing = []
    if position.phase.kind == RETREATS:
        for d in position.dislodged:
            if d.unit.province in units_due and d.unit.province not in covered:
                missing.append(unit_name(gm, d.unit))
    else:
        for u in position.units:
            if u.province in units_due and u.province not in covered:
                missing.append(unit_name(gm, u))
    done = len([c for c in checked if c.accepted]) if position.phase.kind == ADJUSTMENTS else 0
    remaining = (owed - done) if owed > 0 else (owed + done if owed < 0 else 0)
    phase = position.phase
    return OrderStatus(
        game=game.name,
        power=gm.powers[power].name if power in gm.powers else power,
        phase=str(phase),
        checked=(),
        effective=tuple(describe_text(gm, o, phase.kind) for o in effective),
        missing=tuple(missing),
        adjustments_owed=remaining,
        wait=seat.wait,
        deadline=format_deadline(game.deadline, config.timezone),
        cleared=False,
    )


def power_complete(
    position: Position, power: str, effective: list[str], rules: Rules = DEFAULT_RULES
) -> bool:
    units_due, owed = orders_due(position, power)
    checked = [c for c in check_orders(position, power, effective, rules) if c.accepted]
    if position.phase.kind == ADJUSTMENTS:
        return len(checked) >= abs(owed)
    return units_due <= {c.key for c in checked}


def ready_to_process(
    db: sqlite_utils.Database, game: games.Game, ignore_wait: bool = False
) -> bool:
    """Every power with something to order has complete orders, and (unless the
    deadline has passed, `ignore_wait`) nobody waits."""
    if game.state != games.ACTIVE or not game.phase:
        return False
    if vacancies.waiting_for(db, game):  # no NMR: a free power waits for a replacement
        return False
    position = current_position(db, game)
    rules = proxies.engine_rules(rules_of(game))
    effective = games.effective_orders(db, game, game.phase)
    for seat in games.seats(db, game, games.PLAYER):
        if not seat.power:
            continue
        if seat.wait and not ignore_wait:
            return False
        if not power_complete(position, seat.power, effective.get(seat.power, []), rules):
            return False
    return True


# -- processing --------------------------------------------------------------------------


_WINS = ("victory", "most_centres")


def _names(gm: GameMap, powers: Sequence[str]) -> list[str]:
    """The powers' names (templates/words.txt `listing` says "England, France and Russia")."""
    return [gm.powers[p].name for p in powers]


def _had_orders_due(position: Position, power: str) -> bool:
    units, owed = orders_due(position, power)
    return bool(units) or owed != 0


@dataclass(frozen=True)
class PhaseOnFile:
    """What a phase is adjudicated from, as read from the store."""

    stored: dict[str, Any]  # the phase's position as stored (the results picture draws it)
    position: Position
    rules: Rules  # the game's rules (not yet the engine's reading of proxy orders)
    orders: dict[str, list[str]]  # per power: the orders that count (see load_phase)
    civil_disorder: tuple[str, ...]  # names of powers with orders due and none on file
    deadline: str | None = None  # the phase's deadline (ISO): the results' `::` header shows it


@dataclass(frozen=True)
class PhaseJudged:
    """The engine's outcome of a phase, and the same as a Contract 1 output object."""

    outcome: Adjudication
    results: dict[str, Any]


@dataclass(frozen=True)
class PhaseSaved:
    """The game as stored after its phase, and what the phase settled."""

    game: games.Game  # with the next phase and deadline (or finished)
    end: Ending | None  # how the game ended, or None when it goes on
    coin: dict[str, list[str]] | None  # the World War I coin, when flipped in this phase
    entered: tuple[Reply, ...] = ()  # the "Pending Orders" mails of orders held for it

    @property
    def finished(self) -> bool:
        return self.end is not None


def process_phase(
    db: sqlite_utils.Database, config: Config, game: games.Game, now: datetime
) -> list[Reply]:
    """Adjudicate the current phase with the orders on file, store the outcome and the
    next phase, and return the results, retreat requests and build requests. All in the
    caller's transaction: load, adjudicate, save, then the notices."""
    lapsed = observers.drop_stale(db, game, now)  # before its mail: no place for ever
    on_file = load_phase(db, game)
    judged = adjudicate_phase(on_file)
    saved = save_phase(db, config, game, on_file, judged, now)
    # Postal press (SET POSTAL PRESS) goes out with the results.
    notices = phase_notices(db, config, on_file, judged, saved)
    return lapsed + notices + held_press.release(db, game)


def load_phase(db: sqlite_utils.Database, game: games.Game) -> PhaseOnFile:
    """The current phase's position, the game's rules and the orders that count: those on
    file, a power's last orders standing in under perpetual orders, and without the
    owners' orders for units handed to another power. Reads only."""
    stored = games.phase_position(db, game, game.phase or "")
    position, _, _ = position_from_json(stored)
    rules = rules_of(game)
    gm = position.game_map
    orders = games.effective_orders(db, game, game.phase or "")
    if rules.perpetual_orders:  # DATC 4.E.4 a: a power's last orders stand until changed
        for s in games.seats(db, game, games.PLAYER):
            if s.power and not orders.get(s.power) and _had_orders_due(position, s.power):
                kind = position.phase.kind
                last = games.last_orders(db, game, s.power, str(position.phase), kind)
                if last:
                    orders[s.power] = last
    civil_disorder = tuple(
        gm.powers[s.power].name
        for s in games.seats(db, game, games.PLAYER)
        if s.power and not orders.get(s.power) and _had_orders_due(position, s.power)
    )
    orders = proxies.effective(game, position, orders)
    return PhaseOnFile(stored, position, rules, orders, civil_disorder, game.deadline)


def adjudicate_phase(on_file: PhaseOnFile) -> PhaseJudged:
    """The engine's outcome of the phase. Pure: no store, no clock."""
    outcome = adjudicate(on_file.position, on_file.orders, proxies.engine_rules(on_file.rules))
    return PhaseJudged(outcome, outcome_to_json(on_file.position, outcome))


def save_phase(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    on_file: PhaseOnFile,
    judged: PhaseJudged,
    now: datetime,
) -> PhaseSaved:
    """Store the phase's results, the game's end (if it ended) and the next phase with
    its deadline; flip the World War I coin when due; end every WAIT (it lasts one
    phase). Writes in the caller's transaction."""
    position, after = on_file.position, judged.outcome.position
    gm = position.game_map
    games.finish_phase(db, game, str(position.phase), judged.results, now)
    end = ending(db, game, end_rules(game, gm), position, after, judged.results["centers"])
    finished = end is not None
    log.info(
        "game %s: %s processed (%d dislodged%s%s); next %s",
        game.name,
        position.phase,
        len(judged.outcome.dislodged),
        f", civil disorder: {', '.join(on_file.civil_disorder)}" if on_file.civil_disorder else "",
        f", ended: {end.how} {' '.join(end.winners)}" if end else "",
        after.phase,
    )
    if end is not None:
        game = games.update_game(db, game, now, result=GameResult(end.how, tuple(end.winners)))
    deadline = (
        None
        if finished
        else deadline_for(game, after.phase, now, config.timezone, games.absences(db, game))
    )
    game = games.update_game(
        db,
        game,
        now,
        # A finished game stays at its last phase: there is no next one to play.
        phase=str(position.phase) if finished else str(after.phase),
        deadline=deadline,
        process_at=None,
        state=games.FINISHED if finished else games.ACTIVE,
    )
    coin, entered = None, []
    if deadline is not None:  # the game goes on (a finished game has no next deadline)
        games.add_phase(db, game, str(after.phase), position_to_json(after), deadline, now)
        flipped = flip_coin(db, game, gm, after.phase, now)
        if flipped:
            coin = {"powers": flipped[0], "player": _names(gm, flipped[1])}
        for seat in games.seats(db, game, games.PLAYER):
            if seat.wait:
                games.update_seat(db, seat, now, wait=0)  # WAIT lasts one phase
        entered = pending_orders.enter(  # orders held by PHASE, as if mailed now
            db, game, after, lambda s, lines: _held_orders(db, config, game, s, lines, now), now
        )
        if entered and ready_to_process(db, game):  # as orders_changed does for a mail's
            delay = timedelta(minutes=float(game.settings.delay_minutes))
            game = games.update_game(db, game, now, process_at=iso(now + delay))
    return PhaseSaved(game, end, coin, tuple(entered))


def _held_orders(
    db: sqlite_utils.Database,
    config: Config,
    game: games.Game,
    seat: games.Seat,
    lines: list[str],
    now: datetime,
) -> OrderStatus:
    """Orders held for the phase just stored, entered as one mail's would be."""
    seat = games.get_seat(db, seat.id)
    return submit_orders(db, config, game, seat, lines, game.settings.orders, False, None, now)


def phase_notices(
    db: sqlite_utils.Database,
    config: Config,
    on_file: PhaseOnFile,
    judged: PhaseJudged,
    saved: PhaseSaved,
) -> list[Reply]:
    """The mails of a processed phase: the results to every seat (with its public copies
    and picture), then, unless the game ended, the retreat or build requests. Reads only."""
    game, after = saved.game, judged.outcome.position
    gm = after.game_map
    context = _results_context(config, on_file, judged, saved)
    done = context["done"]
    # njudge's `::` Deadline line of results names the phase processed and its deadline.
    context["head"] = njudge_lines.head(config, game, done, on_file.deadline)
    context["turn"] = njudge_lines.game_turn(db, game, done)
    moment = datetime.fromisoformat(game.deadline) if game.deadline else None
    context["next_deadline"] = njudge_lines.ptime(moment, config.zone)
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
    if saved.finished:  # a gunboat game's players, now that it has ended (end.revealed)
        context["revealed"] = revealed(db, game, gm)
    # None with SET MAP OFF
    picture = of_results(game, on_file.stored, judged.results, position_to_json(after))
    results_mail = Reply(
        everyone, "results", context, kind="results", in_reply=False, picture=picture
    )
    mails = [results_mail, *public_copy(config, game.name, game.settings.list, results_mail)]
    if saved.finished:
        return mails + diary_mails(db, game)  # DIARY's entries, now that it has ended
    by_power = {s.power: s for s in games.seats(db, game, games.PLAYER) if s.power}
    if after.phase.kind == RETREATS:
        mails += _retreat_requests(gm, context, by_power)
    if after.phase.kind == ADJUSTMENTS:
        mails += _build_requests(gm, context, by_power, after, judged.outcome.builds)
    return mails + list(saved.entered)


def _results_context(
    config: Config, on_file: PhaseOnFile, judged: PhaseJudged, saved: PhaseSaved
) -> dict[str, Any]:
    """What the results mail and the requests are rendered from."""
    position, outcome, results = on_file.position, judged.outcome, judged.results
    after, end = outcome.position, saved.end
    gm = position.game_map
    context = _game_context(config, saved.game, gm)
    context.update(
        {
            "done": str(position.phase),  # the phase processed, by its code
            "orders": results_by_power(gm, results["results"], position.phase),
            "retreats": retreat_options(gm, results["retreats"]),
            "destroyed": destroyed_units(
                gm,
                [
                    {"power": d.unit.power, "unit": str(d.unit), "retreats": d.retreats}
                    for d in outcome.dislodged
                ],
                gm.neutral_in(position.phase),
            ),
            "fall": position.phase.season == "F"
            and position.phase.kind != ADJUSTMENTS
            and after.phase.kind != RETREATS,
            "ownership": ownership(gm, after, outcome.builds),
            "winner": _names(gm, end.winners) if end and end.how in _WINS else None,
            "civil_disorder": list(on_file.civil_disorder),
            "ending": end,
            "how": end.how if end else None,
            "coin": saved.coin,
            "survivors": [gm.powers[p].name for p in end.winners] if end else [],
            "finished": saved.finished,
        }
    )
    return context


def _retreat_requests(
    gm: GameMap, context: dict[str, Any], by_power: dict[str, games.Seat]
) -> list[Reply]:
    """One retreat request to each power with a dislodged unit to retreat or disband."""
    mails = []
    for power, seat in by_power.items():
        mine = [r for r in context["retreats"] if r["power"] == gm.powers[power].name]
        if mine:
            mails.append(
                Reply(
                    (seat.address,),
                    "retreat_request",
                    # head None: the request's header is the game's phase now, not the results'
                    {**context, "you": gm.powers[power].name, "mine": mine, "head": None},
                    "request",
                    False,
                )
            )
    return mails


def _build_requests(
    gm: GameMap,
    context: dict[str, Any],
    by_power: dict[str, games.Seat],
    after: Position,
    builds: Mapping[str, int],
) -> list[Reply]:
    """One build (or removal) request to each seated power with adjustments to make."""
    mails = []
    for power, n in builds.items():
        seat = by_power.get(power)
        if seat is None:
            continue
        mails.append(
            Reply(
                (seat.address,),
                "build_request",
                {
                    **context,
                    "head": None,  # the game's phase now, not the results' (see above)
                    "you": gm.powers[power].name,
                    "builds": n,
                    "free": free_home_centres(gm, after, power),
                    "units": units_list(gm, after, power),
                },
                "request",
                False,
            )
        )
    return mails
