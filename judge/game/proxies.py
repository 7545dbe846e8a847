"""Proxy orders told to the judge (DATC 4.E.5 a): a player hands one of its units to
another power for the current movement phase, and that power's order for the unit is
used instead of the owner's.

The hand-overs of a phase are the game's state (Game.proxies, judge/store/handovers.py:
phase -> {province: power}). The engine's proxy rule (4.E.5 b: an order for another
power's unit counts when its own power gives it none) then adjudicates them; the judge
only lets through the orders a hand-over allows.
"""

from __future__ import annotations

from dataclasses import replace

from judge.engine.board import Position
from judge.engine.problems import Problem
from judge.engine.rules import Rules
from judge.engine.validation import CheckedOrder
from judge.store import games


def handed_over(game: games.Game) -> dict[str, str]:
    """Province of a unit handed over this phase -> the power that orders it."""
    return game.proxies.handed(game.phase or "")


def engine_rules(rules: Rules) -> Rules:
    """Told proxies are adjudicated by the engine's rule for proxy orders in order sets."""
    return (
        replace(rules, proxy_orders="in_order_set") if rules.proxy_orders == "notified" else rules
    )


def screen(
    game: games.Game, position: Position, power: str, checked: list[CheckedOrder]
) -> list[CheckedOrder]:
    """The checked orders with those no hand-over allows refused: an order for another
    power's unit not handed to `power`, or for `power`'s own unit it handed away. Their
    reasons are Problems (templates/problems/proxy_not_handed.txt, proxy_handed_away.txt),
    put in words with the engine's by play.submit_orders."""
    proxies = handed_over(game)
    return [_screened(position, power, c, proxies) for c in checked]


def _screened(
    position: Position, power: str, c: CheckedOrder, proxies: dict[str, str]
) -> CheckedOrder:
    unit = position.unit_in(c.key) if c.accepted and c.key else None
    if unit is None or c.key is None:
        return c
    if unit.power != power and proxies.get(c.key) != power:
        return replace(c, error=Problem("proxy_not_handed"))
    if unit.power == power and c.key in proxies:
        return replace(c, error=Problem("proxy_handed_away"))
    return c


def effective(
    game: games.Game, position: Position, orders: dict[str, list[str]]
) -> dict[str, list[str]]:
    """The orders on file without the owners' orders for units they handed away."""
    proxies = handed_over(game)
    if not proxies:
        return orders
    return {
        power: [line for line in lines if not _handed_own(position, power, line, proxies)]
        for power, lines in orders.items()
    }


def _handed_own(position: Position, power: str, line: str, proxies: dict[str, str]) -> bool:
    words = line.split()  # canonical short form: "F NTH - NWG"
    unit = position.unit_in(words[1].split("/")[0]) if len(words) > 1 else None
    return unit is not None and unit.power == power and unit.province in proxies
