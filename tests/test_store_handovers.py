"""The game's hand-overs as its state (judge/store/handovers.py): SET PROXY's per phase
and the World War I coin's, in the games table's `proxies` and `joined` columns, and
the migration that moved them out of the settings JSON (schema version 12)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import POWERS, Judge

from judge.store import games
from judge.store.db import migrate, open_db, transaction
from judge.store.handovers import (
    Proxies,
    dump_joined,
    dump_proxies,
    load_joined,
    load_proxies,
)
from judge.store.schema import MIGRATIONS
from judge.store.settings import GameSettings

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
GM = "gm@example.org"


def test_proxies_are_typed_and_read_only() -> None:
    proxies = Proxies.from_json({"S1901M": {"LON": "FRANCE"}})
    assert proxies.handed("S1901M") == {"LON": "FRANCE"}
    assert proxies.handed("F1901M") == {}
    assert proxies.to_json() == {"S1901M": {"LON": "FRANCE"}}
    with pytest.raises(TypeError):
        proxies.phases["F1901M"] = {}  # type: ignore[index]  # what the test shows
    with pytest.raises(TypeError):
        proxies.phases["S1901M"]["EDI"] = "FRANCE"  # type: ignore[index]  # what the test shows
    # handed() is a copy: changing it changes no record.
    proxies.handed("S1901M")["EDI"] = "FRANCE"
    assert proxies.handed("S1901M") == {"LON": "FRANCE"}


def test_with_phase_makes_a_new_record() -> None:
    before = Proxies({"S1901M": {"LON": "FRANCE"}})
    after = before.with_phase("F1901M", {"BRE": "ENGLAND"})
    assert before.to_json() == {"S1901M": {"LON": "FRANCE"}}
    assert after.to_json() == {"S1901M": {"LON": "FRANCE"}, "F1901M": {"BRE": "ENGLAND"}}
    assert after.with_phase("S1901M", {}).to_json() == {"S1901M": {}, "F1901M": {"BRE": "ENGLAND"}}
    assert (bool(Proxies()), bool(before)) == (False, True)


@pytest.mark.parametrize("stored", [{"S1901M": "x"}, ["S1901M"], {"S1901M": {"LON": 1}}])
def test_proxies_of_the_wrong_shape_are_refused(stored: object) -> None:
    with pytest.raises(ValueError, match="proxies should be {phase: {province: power}}"):
        Proxies.from_json(stored)


def test_the_columns_are_null_while_nothing_was_handed_over() -> None:
    assert (dump_proxies(Proxies()), dump_joined({})) == (None, None)
    assert load_proxies(None) == Proxies()
    assert load_joined(None) == {}
    proxies = Proxies({"S1901M": {"LON": "FRANCE"}})
    assert dump_proxies(proxies) == '{"S1901M": {"LON": "FRANCE"}}'
    assert load_proxies(dump_proxies(proxies)) == proxies
    assert dump_joined({"ITALY": "AUSTRIA"}) == '{"ITALY": "AUSTRIA"}'
    joined = load_joined('{"ITALY": "AUSTRIA"}')
    assert joined == {"ITALY": "AUSTRIA"}
    with pytest.raises(TypeError):
        joined["TURKEY"] = "RUSSIA"  # type: ignore[index]  # what the test shows
    with pytest.raises(ValueError, match="joined should be {neutral power: power}"):
        load_joined('{"ITALY": ["AUSTRIA"]}')


def test_settings_stored_with_proxies_and_joined_read_without_them() -> None:
    # An older judge's keys, as any unknown key: the migration has moved their values.
    stored = {"press": "grey", "proxies": {"S1901M": {"LON": "FRANCE"}}, "joined": {"I": "A"}}
    assert GameSettings.from_json(stored) == replace(GameSettings(), press="grey")
    assert "proxies" not in GameSettings().to_json()
    assert "joined" not in GameSettings().to_json()


def test_handovers_round_trip_through_the_store_apart_from_the_settings(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        game = games.create_game(db, "war1", "standard", NOW)
        assert (game.proxies, game.joined) == (Proxies(), {})
        proxies = Proxies({"S1901M": {"LON": "FRANCE"}})
        game = games.update_game(db, game, NOW, proxies=proxies)
        game = games.update_game(db, game, NOW, joined={"ITALY": "AUSTRIA"})
    assert game.proxies == proxies
    assert game.joined == {"ITALY": "AUSTRIA"}
    assert game.settings == GameSettings()
    row = db.execute("SELECT settings, proxies, joined FROM games").fetchone()
    assert row == (
        GameSettings().dumps(),
        '{"S1901M": {"LON": "FRANCE"}}',
        '{"ITALY": "AUSTRIA"}',
    )


def test_a_malformed_column_stops_reading_the_game(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    with transaction(db):
        games.create_game(db, "war1", "standard", NOW)
        db.execute("UPDATE games SET proxies = ?", [json.dumps({"S1901M": "FRANCE"})])
    with pytest.raises(ValueError, match="proxies should be"):
        games.find_game(db, "war1")


def test_version_12_moves_proxies_and_joined_out_of_the_settings(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    db.execute("PRAGMA user_version = 0")
    db.conn.commit()
    for name in db.table_names():
        db[name].drop(ignore=True)
    migrate(db, MIGRATIONS[:11])
    settings = GameSettings().to_json()  # as version 11 stored a game's settings
    proxies = {"S1901M": {"LON": "FRANCE"}}
    rows = [
        ("war1", settings),  # nothing handed over: the keys were left out
        ("war2", {**settings, "proxies": proxies}),
        ("war3", {**settings, "joined": {"ITALY": "AUSTRIA"}, "proxies": {}}),
        ("war4", {"press": "grey", "proxies": None}),
    ]
    with transaction(db):
        for name, stored in rows:
            db.execute(
                "INSERT INTO games (name, variant, state, settings, created_at) "
                "VALUES (?, 'standard', 'active', ?, 'then')",
                [name, json.dumps(stored)],
            )
    migrate(db)
    stored = db.execute("SELECT name, settings, proxies, joined FROM games ORDER BY name")
    assert [(n, json.loads(s), p, j) for n, s, p, j in stored.fetchall()] == [
        ("war1", settings, None, None),
        ("war2", settings, '{"S1901M": {"LON": "FRANCE"}}', None),
        ("war3", settings, None, '{"ITALY": "AUSTRIA"}'),
        ("war4", {"press": "grey"}, None, None),
    ]
    war2, war3 = games.find_game(db, "war2"), games.find_game(db, "war3")
    assert war2 is not None and war2.proxies == Proxies(proxies) and war2.joined == {}
    assert war3 is not None and war3.proxies == Proxies() and war3.joined == {"ITALY": "AUSTRIA"}


def test_set_proxy_keeps_the_handover_as_state_and_the_operator_sees_it(tmp_path, capsys) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE ?war1 masterpw")
    judge.send(GM, "SIGNON Mwar1 masterpw\nSET RULES 4.E.5=a")
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    ack = judge.send("p1@example.org", "SIGNON Ewar1 pw1\nSET PROXY F LON TO FRANCE")[0].body
    assert "  F LON is handed to France for this phase of\n  war1: its order" in ack
    game = judge.game()
    assert game.proxies == Proxies({"S1901M": {"LON": "FRANCE"}})
    settings = judge.db.execute("SELECT settings FROM games").fetchone()[0]
    assert settings == game.settings.dumps() and "proxies" not in json.loads(settings)

    # `judge game` lists them among the settings, as it did when they were kept there;
    # the coin's joins too (set here by hand: the standard map has no neutral power).
    with transaction(judge.db):
        games.update_game(judge.db, game, NOW, joined={"ITALY": "AUSTRIA"})
    status, out, _ = run(capsys, "--config", str(write_config(tmp_path)), "game", "war1")
    listed = {
        **game.settings.to_json(),
        "result": None,
        "proxies": {"S1901M": {"LON": "FRANCE"}},
        "joined": {"ITALY": "AUSTRIA"},
    }
    start = out.index("Settings:") + 1
    assert out[start : out.index("Seats:")] == [
        f"  {k} = {json.dumps(v)}" for k, v in sorted(listed.items())
    ]
    assert '  proxies = {"S1901M": {"LON": "FRANCE"}}' in out
    assert status == 0
