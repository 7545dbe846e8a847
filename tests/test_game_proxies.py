"""SET PROXY's screen (judge/game/proxies.py, DATC 4.E.5 a): orders no hand-over allows
are refused with a Problem code, and the order set keeps their words
(templates/problems/proxy_*.txt), as the sentences were before the codes."""

from __future__ import annotations

import json
from dataclasses import replace

from judge_harness import POWERS, Judge

from judge.engine.board import starting_position
from judge.engine.problems import Problem
from judge.engine.rules import Rules
from judge.engine.validation import check_orders
from judge.game import proxies
from judge.store import games
from judge.store.handovers import Proxies
from judge.store.settings import GameSettings
from judge.variants.maps import load_map
from judge.variants.problem_text import reason_text

GM = "gm@example.org"
NOT_HANDED = "That unit has not been handed to you (SET PROXY)."
HANDED_AWAY = "You have handed this unit to another power for this phase."
LINES = {"ENGLAND": ["F LON - NTH", "F EDI - NWG"], "FRANCE": ["F LON - ENG", "F EDI - NTH"]}


def _game(handed: dict[str, str]) -> games.Game:
    """A standard game in S1901M whose England handed `handed` over."""
    game = games.Game(1, "war1", "standard", "active", GameSettings(), "S1901M", None)
    return replace(game, proxies=Proxies({"S1901M": handed}))


def test_the_screen_gives_codes_not_words() -> None:
    position = starting_position(load_map("standard"))
    rules = proxies.engine_rules(Rules.from_json({"proxy_orders": "notified"}))
    game = _game({"LON": "FRANCE"})
    errors = {}
    for power, lines in LINES.items():
        checked = check_orders(position, power, lines, rules)
        errors[power] = [c.error for c in proxies.screen(game, position, power, checked)]
    assert errors == {
        "ENGLAND": [Problem("proxy_handed_away"), None],
        "FRANCE": [None, Problem("proxy_not_handed")],
    }
    assert reason_text(Problem("proxy_not_handed")) == NOT_HANDED
    assert reason_text(Problem("proxy_handed_away")) == HANDED_AWAY


def test_the_order_sets_keep_the_words(tmp_path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE ?war1 masterpw")
    judge.send(GM, "SIGNON Mwar1 masterpw\nSET RULES 4.E.5=a")
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    judge.send("p1@example.org", "SIGNON Ewar1 pw1\nSET PROXY F LON TO FRANCE\nF LON - NTH")
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nF LON - ENG\nF EDI - NTH")
    rows = judge.db.execute("SELECT power, lines FROM order_sets ORDER BY id").fetchall()
    assert [(power, json.loads(lines)) for power, lines in rows] == [
        ("ENGLAND", [{"given": "F LON - NTH", "order": "F LON - NTH", "error": HANDED_AWAY}]),
        (
            "FRANCE",
            [
                {"given": "F LON - ENG", "order": "F LON - ENG", "error": None},
                {"given": "F EDI - NTH", "order": "F EDI - NTH", "error": NOT_HANDED},
            ],
        ),
    ]
