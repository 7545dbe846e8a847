"""The commands' ERROR lines: a code and values, worded by templates/errors/<code>.txt
(issue 15), whether the handler or the game's reader it calls (dates, SET RULES, preference
lists) or the command reader refuses the text. Each reads exactly as the message the
code wrote before, and every code used has its template and every template a code."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from error_words import words as error_words

from judge.commands.language import read_commands
from judge.config import Config
from judge.game.errors import CommandError, Refusal
from judge.mail import compose
from judge.variants.maps import map_names

CONFIG = Config(name="TEST", address="judge@example.org", timezone="UTC")
ROOT = Path(__file__).resolve().parents[1]
ERRORS = ROOT / "templates" / "errors"

# code -> (values, the line as the command wrote it before the templates)
CASES: dict[str, tuple[dict[str, object], str]] = {
    # judge/commands/phase_orders.py, judge/game/pending_orders.py, judge/game/conditions.py
    "phase_unreadable": (
        {"written": "Fall 19O5"},
        "Invalid phase Fall 19O5: write e.g. PHASE Fall 1905 Movement or PHASE F1905M.\n"
        "  Phased orders will be ignored up to the next PHASE.",
    ),
    "phase_past": (
        {"phase": "S1901M", "current": "F1901M"},
        "Invalid phase S1901M: the game is at Fall 1901 Movement (F1901M).\n"
        "  Phased orders will be ignored up to the next PHASE.",
    ),
    "phase_too_far": (
        {"phase": "S1907M", "current": "F1901M", "years": 5},
        "Invalid phase S1907M: orders may be held for at most 5 years\n"
        "  after Fall 1901 Movement (F1901M).\n"
        "  Phased orders will be ignored up to the next PHASE.",
    ),
    "condition_needs_phase": (
        {},
        "Conditional orders (IF, ELSE, ENDIF) are only taken after a PHASE line\n"
        "  naming a later phase.",
    ),
    "held_order_bad": (
        {"phase": "F1901M", "order": "A Mun - Xyz", "reason": "No such place."},
        "Invalid phase order rejected: -> A Mun - Xyz\n"
        "  (Fall 1901 Movement (F1901M): No such place.)",
    ),
    "held_refused": (
        {"phase": "F1901M", "why": "condition_place", "words": "Atlantis"},
        "the orders of this mail for Fall 1901 Movement (F1901M) are not kept:\n"
        '  "Atlantis" is not [power] [unit] province on this map.',
    ),
    "held_too_many": ({"limit": 100}, "at most 100 lines may be held for one phase."),
    "condition_bad": (
        {"word": "XOR"},
        'a condition is [NOT] [power] [unit] province, joined by AND or OR (not "XOR").',
    ),
    "condition_place": (
        {"words": "Atlantis"},
        '"Atlantis" is not [power] [unit] province on this map.',
    ),
    "condition_too_deep": ({"limit": 4}, "conditions may be nested at most 4 deep."),
    "condition_too_long": ({"limit": 12}, "a condition may name at most 12 places."),
    "condition_order": ({"word": "ENDIF"}, "ENDIF without an IF before it."),
    # judge/commands/takeover.py
    "takeover_again": (
        {"game": "war1", "power": "France"},
        "France in war1 was taken over in this phase already:\n"
        "  it may be taken over again once the phase is processed.",
    ),
    "takeover_playing": (
        {"game": "war1"},
        "You already play a power in war1, so you cannot take over another one.",
    ),
    "not_approved": (
        {"game": "war1"},
        "You are not approved to make moves: please contact the Master.",
    ),
    "approve_letters": (
        {"letters": "XYZ", "game": "war1"},
        "XYZ are not the initials of powers of war1; write e.g. SET APPROVE F.",
    ),
    # judge/commands/fewer_players.py
    "players_none": (
        {"written": "9", "counts": [2, 3, 7]},
        "No variant of this game's map is for 9 players.\n  It has games for 2, 3 or 7 players.",
    ),
    "players_joined": (
        {"game": "war1", "joined": 5, "wanted": 4},
        "war1 already has 5 players: SET PLAYERS 4 would\n  leave some without a power.",
    ),
    # judge/commands/registry.py
    "register_lines": ({"limit": 30}, "Nothing registered: a form has at most 30 lines."),
    "register_field": (
        {"written": "Pasword", "fields": ("Name", "Phone", "Site", "Address", "Country", "Sex")},
        'Nothing registered: "Pasword" is not a field.\n'
        "  Write one Field: value a line. The fields: Name, Phone, Site, Address,\n"
        "  Country, Sex.",
    ),
    "register_twice": ({"name": "Name"}, "Nothing registered: the form has Name: twice."),
    "register_long": (
        {"name": "Site", "limit": 100},
        "Nothing registered: Site: is at most 100 characters.",
    ),
    "register_emails": (
        {"limit": 10},
        "Nothing registered: the Email: line lists at most 10 addresses.",
    ),
    "register_secret": (
        {"name": "Name"},
        "Nothing registered: Name: has a word like SIGNON or PASSWORD in it,\n"
        "  and what follows such a word may be a password. Leave it out.",
    ),
    "register_value": (
        {"name": "Package", "allowed": ("Yes", "No")},
        "Nothing registered: Package: is one of\n  Yes, No.",
    ),
    "register_email": (
        {"name": "Email", "address": "me@"},
        "Nothing registered: me@ on the Email: line is not a mail address.",
    ),
    "register_name": ({}, "Nothing registered: the form needs a Name: line."),
    "not_registered": ({"address": "x@example.org"}, "x@example.org is not registered here."),
    "also_registered": (
        {"address": "b@example.org"},
        "b@example.org is registered on its own.\n"
        "  Send I AM ALSO from an address that is not registered yet.",
    ),
    "also_not_listed": (
        {"address": "a@example.org", "sender": "b@example.org"},
        "The registration of a@example.org does not list b@example.org on its\n"
        "  Email: line. Send REGISTER from a@example.org with b@example.org on that\n"
        "  line first, then I AM ALSO again.",
    ),
    # judge/commands/language.py
    "usage": ({"name": "FORCE"}, "Expected FORCE BEGIN."),
    "alone_on_line": ({"name": "CLEAR"}, "Expected CLEAR on its own line."),
    "alone": ({"name": "SET WAIT"}, "Expected SET WAIT on its own."),
    "variant_expected": (
        {"variants": ("standard", "standard-6")},
        "Expected a variant after the password, one of: standard, standard-6.",
    ),
    "set_variant": (
        {"variants": ("chaos", "standard")},
        "Expected SET VARIANT followed by a variant, GUNBOAT, or both (e.g. SET VARIANT\n"
        "  standard GUNBOAT); the variants: chaos, standard.",
    ),
    "variant_differs": (
        {"game": "x", "variant": "standard", "gunboat": True, "use": "gunboat"},
        "Game 'x' is not of the gunboat standard variant.\n  Use: signon ?x password gunboat",
    ),
    "variant_joined": (
        {"game": "x", "joined": 1},
        "1 player has joined x: its variant can no longer change.",
    ),
    "set_unknown": (
        {"word": "WIAT", "guess": "WAIT"},
        "I don't know SET WIAT. Did you mean SET WAIT?",
    ),
    "too_many_lines": (
        {"limit": 100},
        "Only the first 100 command lines of a mail are read; this line and the rest were not.",
    ),
    "not_understood": ({}, "I don't understand this line."),
    # A line carrying a password, too long to be read whole (judge/commands/language.py).
    "password_line_too_long": (
        {"limit": 1000},
        "not read: a line that carries a password may have 1000 characters at most.",
    ),
    # GET (judge/commands/files.py): new words, njudge's for an unknown file.
    "no_file": ({"name": "nosuch"}, "Sorry, there is no file nosuch available."),
    "files_limit": (
        {"limit": 5},
        "Only 5 files are sent for one mail; ask for this one in another.",
    ),
    # HISTORY (judge/commands/language.py and judge/game/history_window.py): new words;
    # history_date, which passed Python's own message through, is no more.
    "history_word": (
        {"word": "since"},
        "I don't know 'since' here; write HISTORY [name] [FROM date] [TO date] [LINES n], "
        "or HISTORY [name] EXCLSTART turn [EXCLEND turn] [BROAD].",
    ),
    "history_twice": ({"word": "FROM"}, "FROM is given twice; write it once."),
    "history_forms": (
        {"dates": "FROM", "turns": "EXCLSTART"},
        "FROM and EXCLSTART belong to two forms of HISTORY; write HISTORY [name] [FROM date] "
        "[TO date] [LINES n], or HISTORY [name] EXCLSTART turn [EXCLEND turn] [BROAD].",
    ),
    "whogame_word": (
        {"word": "all"},
        "WHOGAME takes a game's name and, to add the observers, FULL: not all.",
    ),
    "list_value": (
        {"written": "on"},
        'SET LIST takes a mail address (the game\'s mailing list) or NONE, not "on"; SET LIST '
        "alone shows the game in LIST, SET NOLIST hides it.",
    ),
    "history_value": ({"word": "LINES"}, "Expected LINES followed by a number, e.g. LINES 200."),
    "lines_unreadable": (
        {"written": "many", "limit": 1000},
        "Expected LINES followed by a number of lines from 1 to 1000, not 'many'.",
    ),
    "turn_unreadable": (
        {"written": "S1902"},
        "I could not read 'S1902' as a turn; write it like S1902M, F1902R, F1902B or W1902A.",
    ),
    "past_date_unreadable": (
        {"written": "soon"},
        "I could not read 'soon' as a date; write it like Jan 1 2026, 1 Jan 2026 23:59, Mon, "
        "Dec 31 or 2026-01-01.",
    ),
    "year_out_of_range": (
        {"year": 9999, "first": 1900, "last": 8999},
        "The year 9999 is too far away; write a year from 1900 to 8999.",
    ),
    # judge/game/rules.py
    "rules_missing": (
        {"sets": ("DATC", "ALEXANDER")},
        "Write a rule set (DATC or ALEXANDER) or option=choice pairs.",
    ),
    "rules_not_a_set": (
        {"word": "HOUSE", "sets": ("DATC", "ALEXANDER")},
        "HOUSE is not a rule set (DATC, ALEXANDER) and not an option=choice pair.",
    ),
    "rules_set_first": ({}, "Name the rule set first, then the options that differ."),
    "rules_not_an_option": (
        {"option": "paradox"},
        "paradox is not a rule option. Send SET RULES alone for the list.",
    ),
    "rules_not_a_choice": (
        {
            "written": "z",
            "option": "convoy_paradox",
            "issue": "4.A.2",
            "choices": (
                {"value": "1971", "letter": "a"},
                {"value": "alexander", "letter": "-"},
            ),
        },
        "z is not a choice for convoy_paradox (4.A.2); choose 1971 (a), alexander.",
    ),
    "rules_after_start": ({}, "The rules can be changed only before the game starts."),
    "number_range": ({"low": 1, "high": 34}, "Expected a number from 1 to 34."),
    "end_year": (
        {"first_year": 1901},
        "Expected SET END year [DRAW or MOST], the year 1901 or later.",
    ),
    "end_mode": ({}, "Expected DRAW (the survivors draw) or MOST (most centres wins)."),
    "no_proxies": ({}, "Proxy orders are not allowed in this game."),
    "proxy_not_movement": ({}, "Units are handed over for a movement phase only."),
    "proxy_syntax": ({}, "Expected SET PROXY unit TO power."),
    "no_unit": ({"place": "Mun"}, "You have no unit in Mun."),
    "not_another_power": ({"power": "Narnia"}, "Narnia is not another power."),
    "no_game": ({"game": "war1"}, "There is no game called war1."),
    "game_unreadable": (  # judge/commands/dispatch.py: the game's row damaged on disk
        {"game": "war1"},
        "war1 cannot be read from the judge's store (a fault on its disk or a\n"
        "  hand edit): the game is paused, and its master and the judge's keeper are told.\n"
        "  Nothing of this is stored.",
    ),
    "game_map_missing": (  # judge/commands/dispatch.py: the game's map file removed
        {"game": "war1", "map": "removed_map", "paused": True},
        "war1 cannot be played just now: its map, removed_map, is no longer among the\n"
        "  judge's maps. Nothing of this is stored.\n"
        "  The game is paused, and its master and the judge's keeper are told.",
    ),
    "not_a_phase": (
        {"named": "Sprung 1901", "phase": "S1901M"},
        "Sprung 1901 is not a phase; write e.g. PROCESS S1901M.",
    ),
    "no_player": ({"power": "X", "game": "war1"}, "No one plays X in war1."),
    "promote_already": (
        {"address": "a@example.org", "game": "war1"},
        "a@example.org is a master of war1 already.",
    ),
    "masters_full": (
        {"game": "war1", "limit": 10},
        "war1 has 10 masters, the most a game may have: no one was promoted.",
    ),
    "no_observer": (
        {"address": "a@example.org", "game": "war1"},
        "a@example.org is not an observer of war1.",
    ),
    "replace_syntax": ({}, "Expected REPLACE power address, e.g. REPLACE F new@example.org."),
    "not_an_address": ({"address": "nobody"}, "nobody is not a mail address."),
    "address_refused": (
        {"address": "judge@example.org", "reason": "judges_own"},
        "judge@example.org cannot be used here: it is the judge's own address.",
    ),
    "no_earlier_phase": ({"game": "war1", "phase": "F1901M"}, "war1 has no earlier phase F1901M."),
    "no_such_turn": (
        {"game": "war1", "turn": "3", "current": 3, "phase": "W1901A"},
        "war1 has no turn 3 to go back to: it is at turn 3 (W1901A); write ROLLBACK 1 to"
        " ROLLBACK 2.",
    ),
    "unstart_too_late": (
        {"game": "war1", "phase": "F1901M"},
        "war1 cannot be unstarted: a phase has been processed, and it is now in F1901M."
        " ROLLBACK 1 takes it back to its first phase.",
    ),
    "wait_not_allowed": ({}, "You are not allowed to set wait!"),
    "clock_part": (
        {"part": "DAYS", "reason": "after_noon", "value": "-MtWTF-"},
        "DAYS -MtWTF- cannot be set here: a lower-case day (after noon only) has no equal in"
        " this judge; write the day in capitals or -.",
    ),
    "grace_before_deadline": (
        {"deadline": "Monday 23 November 2026 12:08 UTC"},
        "The grace cannot end before the deadline, Monday 23 November 2026 12:08 UTC.",
    ),
    "start_date": (
        {"game": "war1"},
        "war1 has started already; SET DEADLINE date moves the current deadline.",
    ),
    "become_master_not_alone": (
        {"game": "war1"},
        "Only the sole player of a game that is still forming may BECOME MASTER of it;"
        " war1 is not such a game for you.",
    ),
    "njudge_only": (
        {"words": "SET STRICT GRACE"},
        "SET STRICT GRACE is an njudge setting this judge does not have; nothing was changed.",
    ),
    "press_value": ({}, "Expected SET PRESS WHITE, GREY or NONE."),
    "map_value": ({}, "Expected SET MAP ON or OFF."),
    # judge/commands/listing_settings.py
    "comment_too_long": (
        {"length": 61, "limit": 59},
        "The comment has 61 characters; it may have 59 at most. For a longer one, use SET "
        "COMMENT BEGIN with the comment on the lines below it.",
    ),
    "long_comment_too_long": (
        {"lines": 41, "chars": 300, "max_lines": 40, "max_chars": 2000},
        "The long comment has 41 lines and 300 characters; it may have 40 lines and 2000 "
        "characters at most.",
    ),
    "partial_value": ({}, "Expected SET PARTIAL YES or NO."),
    "observer_press_value": ({}, "Expected SET OBSERVER PRESS YES or NO."),
    "absence_syntax": ({}, "Expected SET ABSENCE <from> TO <to>."),
    "no_absence": (
        {"day": "Wednesday 2 December 2026 00:00 UTC"},
        "None of your absences still to come includes Wednesday 2 December 2026 00:00 UTC.",
    ),
    "absence_slots": (
        {"most": 3},
        "You have 3 absences pending already, the most a player may have; another may be set"
        " once one has ended.",
    ),
    "absence_backwards": ({}, "The absence must end after it starts."),
    "concede_to": ({"power": "F"}, "Expected another power to concede to, not F."),
    "press_empty": ({}, "The press has no text."),
    "unknown_power": ({"power": "Narnia"}, "I don't know the power 'Narnia'."),
    # judge/commands/press.py, judge/game/press_rules.py (njudge's press, issue 18)
    "press_no_options": (
        {},
        "You have specified no options. If you want to send a plain message to everyone, "
        "please use the BROADCAST command.",
    ),
    "press_no_grey": ({"game": "war1"}, "Game 'war1' does not allow grey press."),
    "press_no_white": ({"game": "war1"}, "Game 'war1' does not allow white press."),
    "press_no_fake": ({"game": "war1"}, "Game 'war1' does not allow fake press."),
    "press_observer_white": ({"game": "war1"}, "Game 'war1' allows observers only white press."),
    "press_no_minor": (
        {"game": "war1"},
        "Game 'war1' does not allow press in retreat and build phases (NO MINOR PRESS).",
    ),
    "press_no_late": (
        {"game": "war1"},
        "Game 'war1' does not allow press from players whose orders are late (NO LATE PRESS).",
    ),
    "press_paused": (
        {"game": "war1"},
        "Game 'war1' is paused: only press to the master (PRESS TO M) is allowed.",
    ),
    "press_option_twice": (
        {"word": "TO"},
        "The press option TO is given twice; each option may be given once.",
    ),
    "press_option_order": (
        {"word": "TO"},
        "TO after FAKE: the real readers come first, then FAKE and the ones shown (PRESS TO "
        "FRG FAKE, PRESS FAKE TO FRG).",
    ),
    "press_option_unknown": (
        {"word": "LOUDLY"},
        "LOUDLY is no press option: WHITE, GREY, TO letters, TO ALL BUT letters, +letters, "
        "-letters, FAKE [BROADCAST], NO FAKE, FAKE TO letters.",
    ),
    "press_fake_partial": (
        {},
        "FAKE PARTIAL must be followed by TO letters, TO ALL BUT letters, +letters or -letters.",
    ),
    "press_no_readers": (
        {"word": "TO"},
        "TO names no readers: give the powers' letters run together (TO FRG), M for the "
        "master, O for the observers.",
    ),
    "press_options_long": ({"limit": 40}, "Too many press options: at most 40 words."),
    # judge/commands/diary.py
    "diary_no_entry": ({"number": 3}, "You have no diary entry #3 (DIARY LIST lists them)."),
    "diary_empty": ({}, "The diary entry has no text."),
    "diary_too_long": (
        {"limit": 20000},
        "The diary entry is too long: at most 20000 characters.",
    ),
    "diary_full": (
        {"limit": 200},
        "You have recorded 200 diary entries in this game, the most there may be.",
    ),
    "diary_read_limit": (
        {"limit": 40000},
        "One mail's answer shows at most 40000 characters of diary entries;\n"
        "  read this one in another mail.",
    ),
    # judge/commands/answers.py
    "answered_above": (
        {"at": 2},
        "Answered above, at line 2: one mail is answered once for each question.",
    ),
    "answers_limit": (
        {"limit": 10},
        "Only 10 questions (LIST, WHOGAME, SUMMARY, HISTORY, HELP, VERSION,\n"
        "  DIARY LIST or READ) are answered for one mail; ask this one in another.",
    ),
    "diary_observers_full": (
        {"game": "war1", "limit": 400000, "left": 12},
        "This entry was not recorded: the observers' diaries\n"
        "  of war1 may hold 400000 characters together, 12 left.",
    ),
    "diary_game_full": (
        {"game": "war1", "limit": 1600000, "left": 0},
        "This entry was not recorded: the players' and masters' diaries\n"
        "  of war1 may hold 1600000 characters together, 0 left.",
    ),
    # judge/commands/player.py (OBSERVE) and judge/commands/press.py: amplification limits
    "observers_full": (
        {"game": "war1", "limit": 50},
        "The observer list of war1 is full: a game has at most 50 observers,\n"
        "  so you were not added.",
    ),
    # judge/commands/player.py: observers confirm their address, CREATE's limits
    "confirm_nothing": (
        {"game": "war1"},
        "This address has nothing of war1 to confirm (the code comes in\n"
        "  the mail that OBSERVE, PROMOTE, REPLACE or SET ADDRESS sends to it).",
    ),
    "address_pending_already": (
        {"address": "new@example.org"},
        "Not moved: new@example.org already waits to confirm, from this\n"
        "  mail. One new address a mail; a later mail's SET ADDRESS replaces it.",
    ),
    "confirm_wrong": (
        {"game": "war1"},
        "That is not the code mailed to this address for war1.\n"
        "  A wrong code counts as a wrong password.",
    ),
    "confirm_locked": (
        {"until": "Saturday 21 November 2026 13:05 UTC"},
        "Refused, and the code was not checked: too many wrong passwords\n"
        "  or codes from your address in the last hour. Codes are checked again\n"
        "  from Saturday 21 November 2026 13:05 UTC, or before then in an answer to\n"
        "  the judge's notice about it.",
    ),
    "observer_unconfirmed": (
        {"game": "war1"},
        "Your observer seat of war1 is not confirmed yet: mail\n"
        "  CONFIRM war1 code, with the code mailed to its address.",
    ),
    "create_forming": (
        {"limit": 5},
        "You have 5 games forming already, the most one address may have:\n"
        "  the game was not created. Create it once one of them has started.",
    ),
    "create_per_day": (
        {"limit": 10},
        "You have created 10 games in the last day, the most one address may:\n"
        "  the game was not created. Try again tomorrow.",
    ),
    "press_too_long": (
        {"limit": 20000},
        "The press is too long: at most 20000 characters. It was not sent.",
    ),
    "press_per_mail": (
        {"limit": 10},
        "A mail may send at most 10 press messages: this one was not sent.\n"
        "  Send it in another mail.",
    ),
    "press_per_hour": (
        {"game": "war1", "limit": 60},
        "You have sent 60 press messages in war1 within the last hour, the most\n"
        "  there may be: this one was not sent. Send it again later.",
    ),
    # judge/game/assignment.py
    "preference_twice": (
        {"power": "France"},
        "France is in your list twice; list each power only once.",
    ),
    "preference_unclosed": ({}, "A bracket is opened but never closed; add the closing bracket."),
    "preference_nested": ({}, "Brackets inside brackets are not allowed; use one level only."),
    "preference_unopened": (
        {"bracket": "]"},
        "There is a ']' without a matching opening bracket.",
    ),
    "preference_empty_brackets": (
        {},
        "There is an empty pair of brackets; put powers inside them.",
    ),
    "preference_alone": ({"word": "*"}, "'*' must stand alone: write only '*' for no preference."),
    "preference_no_initial": (
        {"initial": "X", "initials": ("A", "E", "F")},
        "No power has the initial 'X'; the initials are A, E, F.",
    ),
    "preference_not_a_power": (
        {"word": "Prussia", "initials": ("A", "E", "F")},
        "'Prussia' is not a power; write power names or their initials (A, E, F).",
    ),
    # judge/game/dates.py
    "moment_missing": (
        {},
        "Give a date and time, like 2026-12-01 23:30, Tuesday 23:30, tomorrow 18:00 or +36h.",
    ),
    "moment_unreadable": (
        {"written": "soon"},
        "I could not read 'soon' as a date and time; "
        "write it like 2026-12-01 23:30, Tuesday 23:30, tomorrow 18:00 or +36h.",
    ),
    "moment_too_far": (
        {"latest": "Saturday 27 November 2027 15:00 UTC"},
        "That is more than a year ahead; give a moment no later than "
        "Saturday 27 November 2027 15:00 UTC.",
    ),
    "moment_passed": (
        {"moment": "Friday 27 November 2026 09:00 UTC"},
        "That time has already passed (Friday 27 November 2026 09:00 UTC); "
        "give a moment that is still ahead.",
    ),
    "length_negative": ({}, "A length of time cannot be negative; write it like 48h or 2d."),
    "length_unreadable": (
        {"written": "2 fortnights"},
        "I could not read '2 fortnights' as a length of time; write it like 48h, 2d, 1d12h or 90m.",
    ),
    "length_too_long": (
        {"days": 30},
        "A length of time can be at most 30 days; write it like 48h or 2d.",
    ),
    "length_too_short": (
        {},
        "A length of time must be at least one minute; write it like 48h or 2d.",
    ),
    "weekdays_unreadable": (
        {"written": "funday"},
        "I could not read 'funday' as days of the week; "
        "write them like Mon-Fri, Mon,Wed,Fri, weekdays or all.",
    ),
    "time_of_day_unreadable": (
        {"written": "2330"},
        "I could not read '2330' as a time of day; write it like 23:30, 11:30pm or noon.",
    ),
    "not_a_time": (
        {"written": "25:00"},
        "'25:00' is not a time of day; write it like 23:30 or 11:30pm.",
    ),
    "next_ambiguous": (
        {},
        "'next' is ambiguous; write 'Tuesday 23:30' for the coming Tuesday, "
        "or give the date like 2026-12-01 23:30.",
    ),
    "not_a_date": (
        {"written": "2026-13-01"},
        "'2026-13-01' is not a date; write it like 2026-12-01 (year-month-day).",
    ),
    "date_ambiguous": (
        {"written": "1/12"},
        "'1/12' could be day/month or month/day; write the date like 2026-12-01 or 1 December.",
    ),
    "no_such_day": (
        {"day": 31, "month": "February", "year": None},
        "There is no 31 February; check the day and the month.",
    ),
    "wrong_weekday": (
        {"day": 1, "month": "December", "year": 2026, "weekday": "Tuesday", "named": "Monday"},
        "1 December 2026 is a Tuesday, not a Monday; check the date.",
    ),
    "not_an_offset": (
        {"written": "+25:00"},
        "'+25:00' is not a time zone offset; write it like +01:00.",
    ),
    "zone_not_in_force": (
        {"written": "CET", "zone": "Europe/Amsterdam"},
        "'CET' is not the time zone in force then; leave it off "
        "(times are read as Europe/Amsterdam time) or write UTC.",
    ),
}


def _line(code: str, with_line: bool = True, **values: object) -> str:
    event = {"kind": "error", "code": code, **values}
    if with_line:
        event |= {"line": 3, "text": "THE LINE"}
    sub = SimpleNamespace(subject="orders")
    _, body = compose.render("acknowledgement", CONFIG, sub=sub, events=[event], errors=True)
    return body


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_error_reads_as_before(code: str) -> None:
    # The same words; a line too long for 78 columns broken at spaces, no other touched.
    values, words = CASES[code]
    before = f"Line 3: THE LINE\n  ERROR: {words}\n"
    body = _line(code, **values)
    assert body.split() == before.split()
    assert max(len(line) for line in body.split("\n")) <= 78
    if max(len(line) for line in before.split("\n")) <= 78:
        assert body == before


def test_a_long_error_is_broken_at_a_space_before_column_79() -> None:
    assert _line("too_many_lines", with_line=False, limit=100) == (
        "  ERROR: Only the first 100 command lines of a mail are read; this line and\n"
        "  the rest were not.\n"
    )


def test_a_word_longer_than_a_line_is_not_cut() -> None:
    # A 90-character "address" gets a line of its own, longer than 78 but whole.
    assert _line("list_value", with_line=False, written="x" * 90) == (
        "  ERROR: SET LIST takes a mail address (the game's mailing list) or NONE, not\n"
        f'  "{"x" * 90}";\n'
        "  SET LIST alone shows the game in LIST, SET NOLIST hides it.\n"
    )


def test_the_words_that_depend_on_the_values() -> None:
    # ROLLBACK alone, with no phase before it, and a power quoted the way Python does.
    assert _line("no_earlier_phase", game="g", phase="") == (
        "Line 3: THE LINE\n  ERROR: g has no earlier phase.\n"
    )
    assert _line("unknown_power", power="O'Neil") == (
        "Line 3: THE LINE\n  ERROR: I don't know the power \"O'Neil\".\n"
    )
    # A day of a month in a given year.
    assert _line("no_such_day", day=29, month="February", year=2027) == (
        "Line 3: THE LINE\n  ERROR: There is no 29 February 2027; check the day and the month.\n"
    )


def _event(kind: str, **values: object) -> str:
    sub = SimpleNamespace(subject="new")
    event = {"kind": kind, **values}
    _, body = compose.render("acknowledgement", CONFIG, sub=sub, events=[event], errors=True)
    return body


def test_a_variant_that_is_not_there() -> None:
    body = _event(
        "create_bad",
        line=1,
        text="CREATE ?g ****",
        variant="x",
        variants=["standard", "standard-6"],
    )
    assert body == (
        "Line 1: CREATE ?g ****\n  ERROR: the game was not created: there is no variant"
        " called x (there are:\n  standard, standard-6).\n"
    )


# The events that write an ERROR line of their own, with the longest values they get: a
# game name of 20 characters (games.MAX_GAME_NAME), the longest phase's words, every map.
LONG_GAME = "g" * 20
LONG_EVENTS: dict[str, tuple[dict[str, object], str]] = {
    "create_bad": (
        {"variant": "v" * 20, "variants": map_names()},
        "  ERROR: the game was not created: there is no variant called\n"
        "  vvvvvvvvvvvvvvvvvvvv (there are: archipelago, chaos, decapolis, duel,\n"
        "  fleet_rome, standard, standard-1898, standard-2, standard-3a, standard-3b,\n"
        "  standard-4, standard-5, standard-6, standard-anycenter).\n",
    ),
    "create_taken": (
        {"game": LONG_GAME},
        f"  ERROR: there is already a game called {LONG_GAME}; choose another\n  name.\n",
    ),
    "join_failed": (
        {"game": LONG_GAME, "reason": "observing"},
        f"  ERROR: you already observe {LONG_GAME} (SIGNON\n"
        f"  O{LONG_GAME} password acts as its observer).\n",
    ),
    "process_refused": (
        {"now": "W1901A", "game": LONG_GAME, "code": "W1901A", "arrived": "W1901A"},
        "  ERROR: not processed: this mail arrived during Winter 1901 Adjustments\n"
        f"  (W1901A), which has already been processed; {LONG_GAME} is now in\n"
        "  Winter 1901 Adjustments (W1901A).\n"
        "  To process that phase too, send PROCESS W1901A.\n",
    ),
    "rollback_refused": (
        {"now": "W1901A", "game": LONG_GAME, "code": "W1901A", "arrived": "W1901A"},
        "  ERROR: not rolled back: this mail arrived during Winter 1901 Adjustments\n"
        f"  (W1901A), and {LONG_GAME} has moved since; it is now in Winter 1901\n"
        "  Adjustments (W1901A). Name the phase to return to, e.g. ROLLBACK W1901A.\n",
    ),
    "signon_locked": (
        {"until": "Wednesday 30 September 2026 23:59 UTC"},
        "  ERROR: signon refused, and the password was not checked: too many wrong\n"
        "  passwords in the last hour for this power or from your address. Passwords\n"
        "  are checked again from Wednesday 30 September 2026 23:59 UTC,\n"
        "  or before then in an answer to the judge's notice about it.\n",
    ),
    "address_bad": (
        {"address": "a" * 20 + "@example.org", "own": True, "reason": "too_long"},
        "  ERROR: not done: your address aaaaaaaaaaaaaaaaaaaa@example.org cannot be an\n"
        "  address of record,\n"
        "  because it is too long (at most 254 characters, 64 before the @).\n"
        "  Please write from an address with only ASCII characters before the @.\n",
    ),
}


@pytest.mark.parametrize("kind", sorted(LONG_EVENTS))
def test_an_events_own_error_line_is_broken_to_fit_with_its_longest_values(kind: str) -> None:
    values, expected = LONG_EVENTS[kind]
    assert _event(kind, **values) == expected
    assert max(len(line) for line in expected.split("\n")) <= 78


def test_an_address_of_254_characters_stays_whole_on_its_own_line() -> None:
    address = "a" * 64 + "@" + "b" * 185 + ".org"
    assert _event("address_bad", address=address, reason="bad_domain") == (
        f"  ERROR: {address}\n"
        "  cannot be your address of record,\n"
        "  because the part after the @ is not a valid domain name.\n"
    )


# The calls that name a code, and which of their arguments is the code.
_CODE_ARGUMENT = {"refuse": 2, "CommandError": 0, "DateError": 0, "_error": 2}


def _codes_used() -> set[str]:
    """The codes judge/commands/ and judge/game/ give refuse(run, cmd, code, ...),
    CommandError(code), DateError(code) and the command reader's _error(number, text, code),
    read from the source (a code that is not a literal is passed on from an error)."""
    codes: set[str] = set()
    paths = [*(ROOT / "judge" / "commands").glob("*.py"), *(ROOT / "judge" / "game").glob("*.py")]
    for path in sorted(paths):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            index = _CODE_ARGUMENT.get(call.func.id)
            if index is None or len(call.args) <= index:
                continue
            code = call.args[index]
            if isinstance(code, ast.Constant):
                codes.add(code.value)
            else:
                passed_on = ("e.code", "command.error.code")
                assert ast.unparse(code) in passed_on, f"{path.name}:{call.lineno}"
    return codes


def test_every_code_has_its_template_and_every_template_a_code() -> None:
    files = {p.stem for p in ERRORS.glob("*.txt")}
    assert _codes_used() == files == set(CASES)
    assert sorted(p.name for p in ERRORS.iterdir() if p.suffix != ".txt") == []


# Lines the command reader refuses, and the words their ERROR had before the templates.
READER_ERRORS = [
    (
        "DIARY READ x",
        "Expected DIARY [RECORD] (the entry below it, up to ENDPRESS), DIARY LIST, "
        "DIARY READ n or DIARY DELETE n.",
    ),
    ("REPLACE F", "Expected REPLACE power address (or REPLACE alone before orders)."),
    ("FORCE", "Expected FORCE BEGIN."),
    ("EJECT", "Expected EJECT power."),
    ("BECOME", "Expected BECOME power."),
    ("PROMOTE", "Expected PROMOTE address."),
    ("SET STRICT", "Expected SET STRICT WAIT or SET NO STRICT WAIT."),
    ("SET START", "Expected SET START followed by a date, e.g. SET START Dec 1 12:00."),
    ("SET MODERATED now", "Expected SET MODERATED or SET UNMODERATED on its own."),
    ("SET NO APPROVAL now", "Expected SET APPROVAL or SET NO APPROVAL on its own."),
    (
        "SET NOT APPROVE",
        "Expected SET APPROVE followed by power initials, e.g. SET APPROVE F"
        " (SET NOT APPROVE F withdraws it).",
    ),
    (
        "SET MANUAL",
        "Expected SET MANUAL PROCESS or SET MANUAL START (SET NO MANUAL or SET AUTO to undo).",
    ),
    ("OBSERVE war1", "Expected OBSERVE name password."),
    ("LIST a b", "Expected LIST or LIST name."),
    ("WHOGAME", "Expected WHOGAME name."),
    ("SUMMARY", "Expected SUMMARY name."),
    ("HISTORY", "Expected HISTORY name [FROM date] [TO date]."),
    ("ENDPRESS", "Expected PRESS or BROADCAST, then the press, before ENDPRESS."),
    ("CLEAR now", "Expected CLEAR on its own line."),
    ("RESIGN x", "Expected RESIGN on its own line."),
    ("MERGE x", "Expected MERGE on its own line."),
    ("PAUSE x", "Expected PAUSE on its own line."),
    ("RESUME x", "Expected RESUME on its own line."),
    ("PREDICT x", "Expected PREDICT on its own line."),
    ("TERMINATE x", "Expected TERMINATE on its own line."),
    ("VERSION x", "Expected VERSION on its own line."),
    ("GET", "Expected GET followed by a file's name, e.g. GET info (GET index lists them all)."),
    ("WHOIS", "Expected WHOIS address."),
    ("SET PLAYERS", "Expected SET PLAYERS followed by a number of players, e.g. SET PLAYERS 6."),
    (
        "I AM ALSO a@example.org b@example.org",
        "Expected I AM ALSO address (an address that is registered).",
    ),
    (
        "SEND ME",
        "Expected GET followed by a file's name, e.g. GET info (GET index lists them all).",
    ),
    (
        "GET info guide",
        "Expected GET followed by a file's name, e.g. GET info (GET index lists them all).",
    ),
    ("CREATE ?g", "Expected CREATE ?name password [variant], e.g. CREATE ?game1 secret."),
    (
        "CREATE ?g pw nosuch",
        f"Expected a variant after the password, one of: {', '.join(sorted(map_names()))}.",
    ),
    (
        "SIGNON F",
        "Expected SIGNON Xname password (X the power's initial, ? to join, M for the master).",
    ),
    ("SET", "Expected SET followed by what to set, e.g. SET WAIT."),
    ("SET WIAT", "I don't know SET WIAT. Did you mean SET WAIT?"),
    ("SET ZZZZZZZZ", "I don't know SET ZZZZZZZZ."),
    (
        "SET DEADLINE",
        "Expected SET DEADLINE followed by a date, e.g. SET DEADLINE 2026-12-01 23:30.",
    ),
    ("SET GRACE", "Expected SET GRACE followed by a length, e.g. SET GRACE 24h."),
    ("SET DELAY", "Expected SET DELAY followed by a length, e.g. SET DELAY 30m."),
    (
        "SET REMINDER",
        "Expected SET REMINDER followed by a length before the deadline, e.g. SET REMINDER 12h.",
    ),
    ("SET TIME", "Expected SET TIME followed by a time of day or NONE, e.g. SET TIME 23:30."),
    (
        "SET DAYS",
        "Expected SET DAYS followed by the days deadlines may fall on, e.g. SET DAYS Mon-Fri, "
        "or ALL.",
    ),
    (
        "SET ABSENCE",
        "Expected SET ABSENCE followed by two dates, e.g. SET ABSENCE 2026-12-01 TO 2026-12-05.",
    ),
    (
        "SET NOABSENCE",
        "Expected SET NOABSENCE followed by a date in the absence to cancel, e.g. SET NOABSENCE"
        " 2026-12-02.",
    ),
    ("SET MOVE LENGTH", "Expected SET MOVE LENGTH followed by a length, e.g. SET MOVE LENGTH 48h."),
    (
        "SET RETREAT LENGTH",
        "Expected SET RETREAT LENGTH followed by a length, e.g. SET RETREAT LENGTH 24h.",
    ),
    (
        "SET ADJUST LENGTH",
        "Expected SET ADJUST LENGTH followed by a length, e.g. SET ADJUST LENGTH 24h.",
    ),
    ("SET PRESS", "Expected SET PRESS followed by WHITE, GREY or NONE."),
    ("SET MAP", "Expected SET MAP followed by ON or OFF."),
    (
        "SET CONCEDE",
        "Expected SET CONCEDE followed by the power you concede to, e.g. SET CONCEDE F.",
    ),
    ("SET OBSERVER PRESS", "Expected SET OBSERVER PRESS followed by YES or NO."),
    (
        "SET VICTORY",
        "Expected SET VICTORY followed by a number of supply centres, e.g. SET VICTORY 18.",
    ),
    (
        "SET END",
        "Expected SET END followed by a year and DRAW or MOST, e.g. SET END 1910 DRAW, or NONE.",
    ),
    ("SET STALE", "Expected SET STALE followed by a number of years or OFF, e.g. SET STALE 7."),
    (
        "SET MAXYEARS",
        "Expected SET MAXYEARS followed by a number of years or OFF, e.g. SET MAXYEARS 35.",
    ),
    (
        "SET PROXY",
        "Expected SET PROXY followed by a unit and a power, e.g. SET PROXY F NTH TO FRANCE, "
        "or NONE.",
    ),
    ("SET WAIT x", "Expected SET WAIT on its own."),
    ("SET NOWAIT x", "Expected SET NOWAIT on its own."),
    ("SET NMR x", "Expected SET NMR on its own."),
    ("SET NONMR x", "Expected SET NONMR on its own."),
    ("SET DRAW x", "Expected SET DRAW on its own."),
    ("SET NODRAW x", "Expected SET NODRAW on its own."),
    ("SET PASSWORD", "Expected SET PASSWORD followed by a new password."),
    ("SET PASSWORD a b", "Expected SET PASSWORD followed by a new password."),
    ("SET ADDRESS", "Expected SET ADDRESS followed by a mail address."),
    (
        "SET PREFERENCE",
        "Expected SET PREFERENCE followed by power initials, e.g. SET PREFERENCE FGR.",
    ),
    ("SET ORDERS", "Expected SET ORDERS MERGE or SET ORDERS REPLACE."),
    ("SET ORDERS x", "Expected SET ORDERS MERGE or SET ORDERS REPLACE."),
    ("SET ORDERS merge x", "Expected SET ORDERS MERGE or SET ORDERS REPLACE."),
    ("SET MOVE LENGTH", "Expected SET MOVE LENGTH followed by a length, e.g. SET MOVE LENGTH 48h."),
    ("SET OBSERVER PRESS", "Expected SET OBSERVER PRESS followed by YES or NO."),
    (
        "PHASE",
        "Expected PHASE followed by a later phase, e.g. PHASE Fall 1905 Movement or PHASE F1905M.",
    ),
    ("IF", "Expected IF followed by a condition, e.g. IF NOT French Army Ruhr."),
    ("ELSE x", "Expected ELSE on its own line, or ELSE IF followed by a condition."),
    ("ENDIF now", "Expected ENDIF on its own line."),
]


@pytest.mark.parametrize(("line", "words"), READER_ERRORS)
def test_each_line_the_reader_refuses_reads_as_before(line: str, words: str) -> None:
    (command,) = read_commands(line)
    assert command.name == "ERROR" and command.error is not None
    assert error_words(command.error) == words


def test_the_table_reaches_every_usage_in_the_template() -> None:
    # usage.txt words how each command is written; each entry is used, each one checked.
    used = {
        str(c.error.values["name"])
        for line, _ in READER_ERRORS
        for c in read_commands(line)
        if c.error is not None and c.error.code == "usage"
    }
    template = (ERRORS / "usage.txt").read_text(encoding="utf-8")
    assert used == set(re.findall(r'^    "([A-Z ]+)": ', template, re.MULTILINE))


@pytest.mark.parametrize("name", ["kind", "command", "line", "text", "code"])
def test_a_value_may_not_take_a_name_of_the_event(name: str) -> None:
    # Run.event(kind, command, **data) adds line, text and code itself: a value of one of
    # these names would clash with them (a TypeError mid-mail) or hide the line echoed.
    with pytest.raises(ValueError, match=f"'{name}'"):
        Refusal("usage", {name: "x"})
    if name != "code":  # CommandError(code, code=...) cannot even be written
        with pytest.raises(ValueError, match=f"'{name}'"):
            CommandError("usage", **{name: "x"})
