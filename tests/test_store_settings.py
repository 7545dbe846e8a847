"""A game's settings as a typed record (judge/store/settings.py), its result in its own
column (judge/store/result.py), and the migration that moved the result out of the
settings JSON (schema version 11)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.store import games
from judge.store.db import migrate, open_db, transaction
from judge.store.result import GameResult
from judge.store.schema import MIGRATIONS
from judge.store.settings import GameSettings, SettingsError

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

# The settings a new game was stored with up to schema version 10, "result" included.
VERSION_10_DEFAULTS = {
    "orders": "replace",
    "move_hours": 48,
    "retreat_hours": 24,
    "adjust_hours": 24,
    "deadline_time": None,
    "weekdays": None,
    "grace_hours": 24,
    "delay_minutes": 0,
    "reminder_hours": 24,
    "nmr": True,
    "absence_max_days": 7,
    "press": "white",
    "partial": True,
    "observer_press": False,
    "list": None,
    "map": True,
    "rules": {},
    "victory": None,
    "end_year": None,
    "end_mode": "draw",
    "stale_years": 7,
    "max_years": 35,
    "result": None,
}

# The listing settings (SET [NO] LIST, SET COMMENT [BEGIN]), added after version 13.
LISTING_DEFAULTS = {"listed": True, "comment": "", "long_comment": ""}


# The master's flags added since (issue 17), with a new game's values.
MASTER_FLAG_DEFAULTS = {
    "manual_process": False,
    "manual_start": False,
    "strict_wait": False,
    "moderated": True,
    "grace_until": None,
    "grace_phase": None,
}

# njudge's press settings (issue 18), defaulted for older games.
PRESS_DEFAULTS = {
    "fake": "no",
    "observer_white": False,
    "minor_press": True,
    "late_press": True,
    "postal_press": False,
    "all_press": True,
}
# SET [NO] APPROVAL and the powers waiting for SET APPROVE (issue 18, takeover).
APPROVAL_DEFAULTS = {"approval": False, "unapproved": []}
# njudge's SET START date (issue 17): no start moment unless set.
START_DEFAULTS = {"start_at": None}
# Gunboat and its flags (issue 18): an open game, revealed at the end, SHOW by default.
GUNBOAT_DEFAULTS = {"gunboat": False, "reveal": True, "show": None, "quiet": False, "secret": False}


def test_a_new_games_settings_are_stored_as_before_without_the_result() -> None:
    stored = {k: v for k, v in VERSION_10_DEFAULTS.items() if k != "result"}
    stored |= LISTING_DEFAULTS  # settings added since, defaulted for older games
    stored |= MASTER_FLAG_DEFAULTS
    stored |= PRESS_DEFAULTS
    stored |= APPROVAL_DEFAULTS
    stored |= START_DEFAULTS
    stored |= GUNBOAT_DEFAULTS
    assert GameSettings().to_json() == stored
    assert GameSettings().dumps() == json.dumps(stored)
    assert GameSettings.from_json(stored) == GameSettings()


def test_unknown_keys_are_ignored_and_missing_keys_defaulted() -> None:
    read = GameSettings.from_json({"press": "grey", "old_setting": [1, 2], "result": None})
    assert read == replace(GameSettings(), press="grey")


def test_values_are_typed_and_read_only() -> None:
    read = GameSettings.from_json(
        {
            "weekdays": [0, 4],
            "rules": {"convoy_paradox": "1982"},
            "move_hours": 72.0,
        }
    )
    assert read.weekdays == (0, 4)
    assert read.rules == {"convoy_paradox": "1982"}
    with pytest.raises(TypeError):
        read.rules["convoy_paradox"] = "szykman"  # type: ignore[index]  # what the test shows
    # Back to JSON as it came, lengths as stored (72.0 stays a float, 48 an int).
    assert read.to_json()["weekdays"] == [0, 4]
    assert json.dumps(read.to_json()["move_hours"]) == "72.0"
    assert json.dumps(GameSettings().to_json()["move_hours"]) == "48"


@pytest.mark.parametrize(
    ("stored", "error"),
    [
        ({"nmr": "yes"}, """the game setting 'nmr' should be true or false, not "yes\""""),
        ({"move_hours": True}, "the game setting 'move_hours' should be a number, not true"),
        ({"move_hours": "48"}, """the game setting 'move_hours' should be a number, not "48\""""),
        ({"victory": 18.5}, "the game setting 'victory' should be a whole number or null"),
        ({"weekdays": [7]}, "the game setting 'weekdays' should be a list of weekdays 0 to 6, "),
        ({"press": None}, "the game setting 'press' should be a string, not null"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_by_name(stored: dict, error: str) -> None:
    with pytest.raises(SettingsError) as raised:
        GameSettings.from_json(stored)
    assert str(raised.value).startswith(error)


def test_settings_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(SettingsError, match="must be a JSON object, not \\[1\\]"):
        GameSettings.loads("[1]")
    with pytest.raises(SettingsError, match="not JSON"):
        GameSettings.loads("{")


def test_with_value_checks_the_setting_it_changes() -> None:
    assert GameSettings().with_value("grace_hours", 12.0).grace_hours == 12.0
    assert GameSettings().with_value("stale_years", None).stale_years is None
    with pytest.raises(ValueError, match="'nmr' cannot be 1"):
        GameSettings().with_value("nmr", 1)
    with pytest.raises(ValueError, match="'colour' cannot be"):
        GameSettings().with_value("colour", 1)


def test_settings_and_result_round_trip_through_the_store(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        game = games.create_game(db, "war1", "standard", NOW)
        assert (game.settings, game.result) == (GameSettings(), None)
        changed = replace(game.settings, press="none", weekdays=(1, 2))
        game = games.update_game(db, game, NOW, settings=changed)
        game = games.update_game(db, game, NOW, result=GameResult("draw", ("FRANCE", "ITALY")))
    assert game.settings == changed
    assert game.result == GameResult("draw", ("FRANCE", "ITALY"))
    settings, result = db.execute("SELECT settings, result FROM games").fetchone()
    assert json.loads(settings) == {
        **{k: v for k, v in VERSION_10_DEFAULTS.items() if k != "result"},
        **LISTING_DEFAULTS,
        **MASTER_FLAG_DEFAULTS,
        **PRESS_DEFAULTS,
        **APPROVAL_DEFAULTS,
        **START_DEFAULTS,
        **GUNBOAT_DEFAULTS,
        "press": "none",
        "weekdays": [1, 2],
    }
    assert json.loads(result) == {"how": "draw", "winners": ["FRANCE", "ITALY"]}


def test_a_stored_setting_of_the_wrong_type_stops_reading_the_game(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        games.create_game(db, "war1", "standard", NOW)
        db.execute("UPDATE games SET settings = ?", [json.dumps({"grace_hours": "a day"})])
    # Named as the game's own fault (UnreadableGame, red team round 3), its cause kept.
    with pytest.raises(games.UnreadableGame, match="'grace_hours' should be a number") as e:
        games.find_game(db, "war1")
    assert isinstance(e.value.__cause__, SettingsError)
    assert e.value.name == "war1"


def test_version_11_moves_the_result_out_of_the_settings(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    db.execute("PRAGMA user_version = 0")
    db.conn.commit()
    for name in db.table_names():
        db[name].drop(ignore=True)
    migrate(db, MIGRATIONS[:10])
    finished = {**VERSION_10_DEFAULTS, "result": {"how": "victory", "winners": ["RUSSIA"]}}
    rows = [
        ("war1", VERSION_10_DEFAULTS),  # active: result null
        ("war2", finished),
        ("war3", {"press": "grey"}),  # made before "result" was a setting
    ]
    with transaction(db):
        for name, settings in rows:
            db.execute(
                "INSERT INTO games (name, variant, state, settings, created_at) "
                "VALUES (?, 'standard', 'active', ?, 'then')",
                [name, json.dumps(settings)],
            )
    migrate(db)
    stored = db.execute("SELECT name, settings, result FROM games ORDER BY name").fetchall()
    without = {k: v for k, v in VERSION_10_DEFAULTS.items() if k != "result"}
    assert [(n, json.loads(s), r) for n, s, r in stored] == [
        ("war1", without, None),
        ("war2", without, '{"how": "victory", "winners": ["RUSSIA"]}'),
        ("war3", {"press": "grey"}, None),
    ]
    war2 = games.find_game(db, "war2")
    assert war2 is not None and war2.result == GameResult("victory", ("RUSSIA",))
    assert war2.settings == GameSettings()


def test_a_change_made_with_replace_is_read_only_too() -> None:
    changed = replace(GameSettings(), rules={"convoy_paradox": "1982"}, weekdays=[0, 1])
    assert changed.weekdays == (0, 1)
    assert changed == GameSettings.from_json(
        {"rules": {"convoy_paradox": "1982"}, "weekdays": [0, 1]}
    )
    with pytest.raises(TypeError):
        changed.rules["convoy_paradox"] = "szykman"  # type: ignore[index]  # what the test shows
