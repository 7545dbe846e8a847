"""The command table: every command the dispatcher runs, who may use it, its handler and
how HELP lists it. judge/commands/dispatch.py looks handlers up here, and the HELP mail
(templates/help_text.txt) is rendered from the table's syntax and help lines.

The names are those judge/commands/language.py gives its commands (language.NAMES).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import zip_longest

from judge.commands import (
    diary,
    fewer_players,
    files,
    gunboat,
    house_rules,
    information,
    listing_settings,
    master,
    master_settings,
    phase_orders,
    player,
    press,
    press_options,
    registry,
    takeover,
)
from judge.commands.language import Command
from judge.commands.run import MASTER_ONLY, SETTINGS, Run

Handler = Callable[[Run, Command], None]

# Who may use a command (the handler checks it; the table says it).
ANYONE = "anyone"
SIGNED_ON = "signed on"  # any seat: player, master or observer
PLAYER = "player"
MASTER = MASTER_ONLY  # judge/commands/run.py's: run.may_use decides by these two
SETTER = SETTINGS  # a game setting: the master, or in an unmoderated game any player too

# The sections of HELP a command is listed in.
PLAYERS = "players"  # two columns: the syntax, what it does
MASTERS = "masters"  # "The master also has:", a list of syntaxes


@dataclass(frozen=True)
class CommandSpec:
    """One command: its name as the language reads it, who may use it, its handler, and
    how HELP shows it (`section` "" if HELP does not list it)."""

    name: str
    who: str
    handler: Handler
    syntax: str
    help: str = ""  # what it does, for the players' section (lines split by "\n")
    section: str = ""
    line: int = 0  # the masters' section: which of its lines the syntax is on
    joined: bool = False  # HELP writes the syntax after the one before, with " / "
    password: bool = False  # checks or hashes a password (the mail's budget pays)
    full: str = ""  # the syntax in full, for the index file, where `syntax` is HELP's short form


def send_help(run: Run, cmd: Command) -> None:
    """HELP: the table's commands, in templates/help_text.txt's layout."""
    run.event("help", cmd, players=help_rows(), masters=help_lines())


def send_file(run: Run, cmd: Command) -> None:
    """GET name: the help file, its index built from this table."""
    files.get_file(run, cmd, index_entries())


# In the order HELP lists them: every command is in HELP.
COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "CREATE",
        ANYONE,
        player.create,
        "CREATE ?name password",
        full="CREATE ?name password [variant] [gunboat]",
        help="create a game; you become its master",
        section=PLAYERS,
        password=True,
    ),
    CommandSpec(
        "JOIN",
        ANYONE,
        player.join,
        "SIGNON ?name password",
        full="SIGNON ?name password [variant] [gunboat] (a gunboat game: gunboat named)",
        help="join a game that is forming",
        section=PLAYERS,
        password=True,
    ),
    CommandSpec(
        "OBSERVE",
        ANYONE,
        player.observe,
        "OBSERVE name password",
        help="watch a game as an observer",
        section=PLAYERS,
        password=True,
    ),
    CommandSpec(
        "CONFIRM",
        ANYONE,
        player.confirm,
        "CONFIRM name code",
        help="confirm an address with the code mailed to\n"
        "it (OBSERVE, PROMOTE, REPLACE, SET ADDRESS)",
        section=PLAYERS,
        password=True,
    ),
    CommandSpec(
        "SET PREFERENCE",
        PLAYER,
        player.set_preference,
        "SET PREFERENCE FGR",
        help="the powers you want, best first (* any)",
        section=PLAYERS,
    ),
    CommandSpec(
        "SIGNON",
        ANYONE,
        player.signon,
        "SIGNON Xname password",
        help="act in a game: X your power's initial,\nM for the master",
        section=PLAYERS,
        password=True,
    ),
    CommandSpec(
        "ORDER",
        PLAYER,
        phase_orders.held_or(player.order),
        "A Par - Bur\nF Nth C A Lon - Bel",
        full="orders, one a line: A Par - Bur, F Nth C A Lon - Bel, Build A Par",
        help="orders, one per line, after SIGNON, e.g. also\n"
        "  A Mun S A Par - Bur, A Mun H, Build A Par",
        section=PLAYERS,
    ),
    CommandSpec(
        "CLEAR",
        PLAYER,
        phase_orders.held_or(player.clear),
        "CLEAR",
        help="discard this phase's orders, or a PHASE's",
        section=PLAYERS,
    ),
    CommandSpec(
        "PHASE",
        PLAYER,
        phase_orders.phase,
        "PHASE F1905M",
        full="PHASE season year phase (e.g. PHASE Fall 1905 Movement), orders below it",
        help="the orders below are held for that later phase",
        section=PLAYERS,
    ),
    CommandSpec(
        "IF",
        PLAYER,
        phase_orders.conditional,
        "IF place",
        full="IF [NOT] [power] [unit] province [AND|OR ...] ... ELSE IF ... ELSE ... ENDIF",
        help="after PHASE: orders if a unit stands there",
        section=PLAYERS,
    ),
    CommandSpec("ELSE", PLAYER, phase_orders.conditional, "ELSE", section=PLAYERS, joined=True),
    CommandSpec("ENDIF", PLAYER, phase_orders.conditional, "ENDIF", section=PLAYERS, joined=True),
    CommandSpec(
        "MERGE",
        PLAYER,
        player.merge_or_replace,
        "MERGE",
        help="this mail's orders add to / replace the last",
        section=PLAYERS,
    ),
    CommandSpec(
        "REPLACE", PLAYER, player.merge_or_replace, "REPLACE", section=PLAYERS, joined=True
    ),
    CommandSpec(
        "SET WAIT",
        PLAYER,
        phase_orders.held_or(player.set_wait),
        "SET WAIT",
        help="wait for the deadline / go when all are in",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET NOWAIT",
        PLAYER,
        phase_orders.held_or(player.set_wait),
        "SET NOWAIT",
        section=PLAYERS,
        joined=True,
    ),
    CommandSpec(
        "PRESS",
        SIGNED_ON,
        press.press,
        "PRESS [TO powers]\nBROADCAST",
        full="PRESS [TO powers] or BROADCAST, the press, then ENDPRESS",
        help="press to the powers named, or to all:\n  the lines after it, up to ENDPRESS",
        section=PLAYERS,
    ),
    CommandSpec(
        "DIARY",
        SIGNED_ON,
        diary.diary_command,
        "DIARY / DIARY LIST",
        full="DIARY [RECORD] (then ENDPRESS) / DIARY LIST / DIARY READ n / DIARY DELETE n",
        help="your private notes, mailed to all at the end",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET PROXY",
        PLAYER,
        house_rules.set_proxy,
        "SET PROXY unit TO power",
        help="that power orders the unit this phase\n(SET PROXY NONE takes them all back)",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET PASSWORD",
        SIGNED_ON,
        player.set_password,
        "SET PASSWORD new",
        help="change your password",
        section=PLAYERS,
        password=True,
    ),
    CommandSpec(
        "SET ADDRESS",
        SIGNED_ON,
        player.set_address,
        "SET ADDRESS you@example.org",
        help="change your address of record",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET ABSENCE",
        PLAYER,
        player.set_absence,
        "SET ABSENCE <from> TO <to>",
        help="deadlines in it are pushed (within limits)",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET NOABSENCE",
        PLAYER,
        player.cancel_absence,
        "SET NOABSENCE <date>",
        help="cancel your absence that includes the date",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET DRAW",
        PLAYER,
        player.draw_vote,
        "SET DRAW",
        help="vote for a draw of all survivors, or withdraw",
        section=PLAYERS,
    ),
    CommandSpec("SET NODRAW", PLAYER, player.draw_vote, "SET NODRAW", section=PLAYERS, joined=True),
    CommandSpec(
        "SET CONCEDE",
        PLAYER,
        player.concede,
        "SET CONCEDE X",
        help="concede the game to power X, or withdraw",
        section=PLAYERS,
    ),
    CommandSpec(
        "SET NOCONCEDE",
        PLAYER,
        player.concede,
        "NOCONCEDE",
        section=PLAYERS,
        joined=True,
        full="SET NOCONCEDE",
    ),
    CommandSpec("RESIGN", PLAYER, player.resign, "RESIGN", help="leave the game", section=PLAYERS),
    CommandSpec(
        "LIST",
        ANYONE,
        information.list_games,
        "LIST [name or FULL]",
        help="the games here, or one game (all) in full",
        section=PLAYERS,
    ),
    CommandSpec(
        "WHOGAME",
        ANYONE,
        information.whogame,
        "WHOGAME name [FULL]",
        help="who plays which power (FULL: observers)",
        section=PLAYERS,
    ),
    CommandSpec(
        "SUMMARY",
        ANYONE,
        information.summary,
        "SUMMARY name",
        help="centres by year; who played what, from when",
        section=PLAYERS,
    ),
    CommandSpec(
        "HISTORY",
        ANYONE,
        information.history,
        "HISTORY [name] [FROM date]\n  [TO date] [LINES n]",
        full="HISTORY [name] [FROM date] [TO date] [LINES n]\n"
        "HISTORY [name] EXCLSTART turn [EXCLEND turn] [BROAD]",
        help="a game's results and broadcasts, the last\n"
        "  7 days unless you say (or EXCLSTART S1902M)",
        section=PLAYERS,
    ),
    CommandSpec(
        "VERSION",
        ANYONE,
        files.version,
        "VERSION",
        help="this judge's software, users and games",
        section=PLAYERS,
    ),
    CommandSpec(
        "GET",
        ANYONE,
        send_file,
        "GET name (or SEND name)",
        help="mail the help file name (GET index: all)",
        section=PLAYERS,
        full="GET name (or SEND name, SEND ME name)",
    ),
    CommandSpec(
        "REGISTER",
        ANYONE,
        registry.register,
        "REGISTER ... END",
        full="REGISTER, then Name: ..., Country: ..., Level: ... one a line, then END",
        help="register: Name:, Country:, Level: ... one\n  a line, then END",
        section=PLAYERS,
    ),
    CommandSpec(
        "WHOIS",
        ANYONE,
        registry.whois,
        "WHOIS address",
        full="WHOIS address (or INFO PLAYER address)",
        help="a registered player's entry",
        section=PLAYERS,
    ),
    CommandSpec(
        "IAMALSO",
        ANYONE,
        registry.i_am_also,
        "I AM ALSO address",
        help="this address too is that registered player",
        section=PLAYERS,
    ),
    CommandSpec("HELP", ANYONE, send_help, "HELP", help="this list", section=PLAYERS),
    CommandSpec("PROCESS", MASTER, master.process, "PROCESS [phase]", section=MASTERS, line=1),
    CommandSpec("PAUSE", SETTER, master.pause, "PAUSE", section=MASTERS, line=1),
    CommandSpec("RESUME", SETTER, master.pause, "RESUME", section=MASTERS, line=1),
    CommandSpec(
        "SET ORDERS",
        SETTER,
        master_settings.set_orders_rule,
        "SET ORDERS MERGE / REPLACE",
        section=MASTERS,
        line=1,
    ),
    CommandSpec(
        "SET DEADLINE",
        SETTER,
        master_settings.set_deadline,
        "SET DEADLINE <date>",
        section=MASTERS,
        line=2,
    ),
    CommandSpec(
        "SET MOVE LENGTH",
        SETTER,
        master_settings.setting,
        "SET MOVE",
        section=MASTERS,
        line=2,
        full="SET MOVE LENGTH 48h",
    ),
    CommandSpec(
        "SET RETREAT LENGTH",
        SETTER,
        master_settings.setting,
        "RETREAT",
        section=MASTERS,
        line=2,
        joined=True,
        full="SET RETREAT LENGTH 24h",
    ),
    CommandSpec(
        "SET ADJUST LENGTH",
        SETTER,
        master_settings.setting,
        "ADJUST LENGTH 48h",
        section=MASTERS,
        line=2,
        joined=True,
        full="SET ADJUST LENGTH 24h",
    ),
    CommandSpec(
        "SET GRACE", SETTER, master_settings.setting, "SET GRACE 24h", section=MASTERS, line=3
    ),
    CommandSpec(
        "SET DELAY", SETTER, master_settings.setting, "SET DELAY 30m", section=MASTERS, line=3
    ),
    CommandSpec(
        "SET REMINDER", SETTER, master_settings.setting, "SET REMINDER 12h", section=MASTERS, line=3
    ),
    CommandSpec(
        "SET TIME", SETTER, master_settings.setting, "SET TIME 23:30", section=MASTERS, line=3
    ),
    CommandSpec(
        "SET DAYS", SETTER, master_settings.setting, "SET DAYS Mon-Fri", section=MASTERS, line=4
    ),
    CommandSpec("SET NMR", SETTER, master_settings.setting, "SET NMR", section=MASTERS, line=4),
    CommandSpec(
        "SET NONMR",
        SETTER,
        master_settings.setting,
        "SET NONMR",
        section=MASTERS,
        line=4,
        joined=True,
    ),
    CommandSpec(
        "SET PRESS",
        SETTER,
        master_settings.press_settings,
        "SET PRESS WHITE/GREY/NONE",
        section=MASTERS,
        line=4,
    ),
    CommandSpec(
        "SET PARTIAL",
        SETTER,
        master_settings.press_settings,
        "SET PARTIAL YES/NO",
        section=MASTERS,
        line=5,
    ),
    CommandSpec(
        "SET OBSERVER PRESS",
        SETTER,
        master_settings.observer_press,
        "SET OBSERVER PRESS YES/NO",
        section=MASTERS,
        line=5,
    ),
    CommandSpec(
        "SET PRESS RULE",
        SETTER,
        press_options.press_rule,
        "SET WHITE/GREY ... (GET press)",
        section=MASTERS,
        line=13,
        full=(
            "SET WHITE/GREY / GREY/WHITE / [NO] PARTIAL / NO FAKE\n"
            "SET PARTIAL MAY BE FAKED / PARTIAL FAKES BROADCAST\n"
            "SET OBSERVER ANY|WHITE|NONE / [NO] MINOR|LATE|POSTAL PRESS\n"
            "SET ALL PRESS / NORMAL PRESS"
        ),
    ),
    CommandSpec(
        "SET LIST",
        SETTER,
        master_settings.press_settings,
        "SET LIST address",
        section=MASTERS,
        line=6,
    ),
    CommandSpec(
        "SET LISTED",
        MASTER,
        listing_settings.set_listed,
        "SET [NO] LIST",
        section=MASTERS,
        line=5,
        full="SET LIST / SET NOLIST (or SET PUBLIC / SET PRIVATE / SET UNLIST)",
    ),
    CommandSpec(
        "SET COMMENT",
        MASTER,
        listing_settings.set_comment,
        "SET COMMENT",
        section=MASTERS,
        line=5,
        full="SET COMMENT [text] (LIST's note), SET COMMENT BEGIN (the lines below it)",
    ),
    CommandSpec(
        "SET MAP",
        SETTER,
        master_settings.press_settings,
        "SET MAP ON/OFF (the board picture on results)",
        section=MASTERS,
        line=6,
    ),
    CommandSpec("PREDICT", MASTER, master.predict, "PREDICT", section=MASTERS, line=7),
    CommandSpec(
        "EJECT",
        MASTER,
        master.eject,
        "EJECT X",
        section=MASTERS,
        line=7,
        full="EJECT X (EJECT address: an observer)",
    ),
    CommandSpec(
        "REPLACE POWER",
        MASTER,
        master.replace_power,
        "REPLACE X address",
        section=MASTERS,
        line=7,
        password=True,
    ),
    CommandSpec(
        "BECOME",
        MASTER,
        master.become,
        "BECOME X",
        section=MASTERS,
        line=7,
        full="BECOME X (BECOME MASTER: the sole player of a forming game)",
    ),
    CommandSpec(
        "PROMOTE", MASTER, master.promote, "PROMOTE address", section=MASTERS, line=7, password=True
    ),
    CommandSpec("TERMINATE", SETTER, master.terminate, "TERMINATE", section=MASTERS, line=8),
    CommandSpec(
        "ROLLBACK",
        MASTER,
        master.rollback,
        "ROLLBACK [phase/n]",
        section=MASTERS,
        line=8,
        full="ROLLBACK [phase or turn n] (n of (game.NNN); ROLLBACK 1: the start)",
    ),
    CommandSpec(
        "UNSTART",
        MASTER,
        master.unstart,
        "UNSTART",
        section=MASTERS,
        line=11,
        full="UNSTART (before the first phase is processed: back to forming)",
    ),
    CommandSpec(
        "SET MANUAL",
        MASTER,
        master_settings.flag,
        "SET [NO] MANUAL PROCESS/START",
        section=MASTERS,
        line=11,
        full="SET [NO] MANUAL PROCESS, SET [NO] MANUAL START (SET AUTO PROCESS/START = NO)",
    ),
    CommandSpec(
        "SET STRICT",
        SETTER,
        master_settings.flag,
        "SET [NO] STRICT WAIT",
        section=MASTERS,
        line=11,
        full="SET [NO] STRICT WAIT (only players owing orders may SET WAIT)",
    ),
    CommandSpec(
        "SET START",
        SETTER,
        master_settings.set_start,
        "SET START date",
        section=MASTERS,
        line=12,
        full="SET START date (a forming game full by then waits for it, then starts)",
    ),
    CommandSpec(
        "SET MODERATED",
        MASTER,
        master_settings.flag,
        "SET [UN]MODERATED",
        section=MASTERS,
        line=12,
        full="SET MODERATED, SET UNMODERATED (players may change the game's settings)",
    ),
    CommandSpec(
        "FORCE BEGIN",
        MASTER,
        master.force_begin,
        "FORCE BEGIN (start short of players)",
        section=MASTERS,
        line=8,
    ),
    CommandSpec(
        "SET RULES",
        SETTER,
        house_rules.set_rules,
        "SET RULES [set] [option=choice ...] (alone: the list)",
        section=MASTERS,
        line=9,
    ),
    CommandSpec(
        "SET VICTORY", SETTER, house_rules.set_end, "SET VICTORY n", section=MASTERS, line=10
    ),
    CommandSpec(
        "SET END", SETTER, house_rules.set_end, "SET END year DRAW/MOST", section=MASTERS, line=10
    ),
    CommandSpec("SET STALE", SETTER, house_rules.set_end, "SET STALE n", section=MASTERS, line=10),
    CommandSpec(
        "SET MAXYEARS", SETTER, house_rules.set_end, "SET MAXYEARS n", section=MASTERS, line=10
    ),
    CommandSpec(
        "SET PLAYERS",
        MASTER,
        fewer_players.set_players,
        "SET PLAYERS n",
        section=MASTERS,
        line=12,
        full="SET PLAYERS n (the map's variant for n players)",
    ),
    # Taking over a free power (njudge.md section 5): the master vets newcomers.
    CommandSpec(
        "SET APPROVAL",
        MASTER,
        takeover.set_approval,
        "SET [NO] APPROVAL",
        section=MASTERS,
        line=20,
        full="SET [NO] APPROVAL (a newcomer taking over a power waits for SET APPROVE)",
    ),
    CommandSpec(
        "SET APPROVE",
        MASTER,
        takeover.set_approve,
        "SET [NOT] APPROVE X",
        section=MASTERS,
        line=20,
        full="SET [NOT] APPROVE letters (a newcomer's orders taken, or refused)",
    ),
    # Gunboat (njudge.md section 2): judge/commands/gunboat.py.
    CommandSpec(
        "SET VARIANT",
        MASTER,
        gunboat.set_variant,
        "SET VARIANT [variant] [GUNBOAT]",
        section=MASTERS,
        line=21,
        full="SET VARIANT [variant] [GUNBOAT] (before any player has joined)",
    ),
    CommandSpec(
        "SET REVEAL",
        MASTER,
        gunboat.set_flag,
        "SET [NO] REVEAL",
        section=MASTERS,
        line=21,
        full="SET [NO] REVEAL (gunboat: the players named when the game ends)",
    ),
    CommandSpec(
        "SET SHOW",
        MASTER,
        gunboat.set_flag,
        "SHOW",
        section=MASTERS,
        line=21,
        joined=True,
        full="SET [NO] SHOW (setting changes signed by the changer's address)",
    ),
    CommandSpec(
        "SET QUIET",
        MASTER,
        gunboat.set_flag,
        "QUIET",
        section=MASTERS,
        line=21,
        joined=True,
        full="SET [NO] QUIET (late and abandoned powers only counted, not named)",
    ),
    CommandSpec(
        "SET SECRET",
        MASTER,
        gunboat.set_flag,
        "SECRET",
        section=MASTERS,
        line=21,
        joined=True,
        full="SET [NO] SECRET (how many players have joined not told)",
    ),
)
BY_NAME = {spec.name: spec for spec in COMMANDS}


def announced(spec: CommandSpec) -> bool:
    """Whether a change `spec` makes is announced to the game's players (njudge: every
    SET but PASSWORD, WAIT and NOWAIT): the SETs of the game's settings, not a player's
    own (ADDRESS, ABSENCE, DRAW, CONCEDE, PREFERENCE, PROXY)."""
    return spec.name.startswith("SET ") and spec.who in (MASTER, SETTER)


def help_rows() -> list[tuple[str, str]]:
    """The players' section of HELP, one (syntax, what it does) pair per printed line: a
    joined command's syntax follows the one before it, a long entry takes more lines."""
    entries: list[tuple[str, str]] = []
    for spec in COMMANDS:
        if spec.section != PLAYERS:
            continue
        if spec.joined:
            syntax, what = entries.pop()
            entries.append((f"{syntax} / {spec.syntax}", what))
        else:
            entries.append((spec.syntax, spec.help))
    rows: list[tuple[str, str]] = []
    for syntax, what in entries:
        rows += zip_longest(syntax.split("\n"), what.split("\n"), fillvalue="")
    return rows


# The index file's groups, in its order: who may use the commands listed under each.
_INDEX_GROUPS = (ANYONE, SIGNED_ON, PLAYER, MASTER, SETTER)


def index_entries() -> list[tuple[str, list[str]]]:
    """The index file's list: for each kind of user, the full syntax of every command
    they may use, in the table's order (every command of the table, once)."""
    return [
        (who, [spec.full or spec.syntax for spec in COMMANDS if spec.who == who])
        for who in _INDEX_GROUPS
    ]


def help_lines() -> list[list[str]]:
    """The masters' section of HELP: the syntaxes on each of its lines."""
    lines: dict[int, list[str]] = {}
    for spec in COMMANDS:
        if spec.section != MASTERS:
            continue
        items = lines.setdefault(spec.line, [])
        if spec.joined:
            items[-1] = f"{items[-1]} / {spec.syntax}"
        else:
            items.append(spec.syntax)
    return [lines[n] for n in sorted(lines)]
