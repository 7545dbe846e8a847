"""Convoy paradox rules (DATC 4.A.2): what a game does when an army's convoy and the
support its attack would cut depend on each other.

movement.py finds each paradox core as a dependency cycle (DATC 5.B.9, 5.D) and breaks
it the Szykman way (choice d): the convoyed armies of the core fail and have no effect
on the place they were ordered to. The other rules differ from that in three ways:

- 1971, 1982, 2000 (a, b, c) are rules about cutting support, applied to every order
  whether or not it is in a paradox (`shielded_supports`): a support they name is not
  cut by the convoyed army, and not lost when that army dislodges the supporter (the
  common reading that they take precedence over the dislodge rule, 6.F.17). Where a
  paradox is left (second-order paradoxes, the betrayal paradox) they give no answer
  and 'All Hold' decides.
- 'All Hold' (e): every move of the core fails (`holds_all`).
- DPTG (f) and Alexander IV.5.f look at the Szykman resolution afterwards
  (`second_look`): the DPTG keeps it only if the convoys of the core really are
  disrupted in it, and otherwise holds all; Alexander lets a convoy that is not
  disrupted there go ahead, even if a fleet of it is dislodged in the end.
"""

from __future__ import annotations

from typing import Protocol

from .convoy import necessary_seas
from .geography import GameMap
from .orders import Order, Support
from .rules import Rules


class _Tables(Protocol):
    """What the support rules read of a movement phase's orders (order_tables.py has
    these; declared here so this module imports neither that one nor movement.py)."""

    gm: GameMap
    rules: Rules
    order: dict[str, Order]
    target: dict[str, str]
    convoyed: set[str]
    void: set[str]
    whole_route: dict[str, tuple[str, ...]]

    def route_fleets(self, a: str) -> tuple[str, ...] | list[str]: ...


class _Adjudicator(_Tables, Protocol):
    """What the second look reads of a movement phase's decisions (movement.py)."""

    given_fixed: dict[str, bool]
    all_hold: frozenset[str]
    cores: list[frozenset[str]]

    def route_open(self, p: str) -> bool: ...


_ALL_HOLD = frozenset(["all_hold", "1971", "1982", "2000"])  # 1971-2000: the fallback
SUPPORT_RULES = frozenset(["1971", "1982", "2000"])  # rules about cutting support


def holds_all(rules: Rules, armies: set[str], all_hold: frozenset[str]) -> bool:
    """Whether the paradox core with these convoyed armies is settled by 'All Hold':
    under that rule, as the fallback of a rule with no answer for it, or because the
    DPTG found no consistent resolution with all its convoys disrupted."""
    return rules.convoy_paradox in _ALL_HOLD or not armies.isdisjoint(all_hold)


def shielded_supports(adj: _Tables) -> dict[str, frozenset[str]]:
    """Under the 1971, 1982 and 2000 rules: supporting province -> the convoyed armies
    attacking it that neither cut its support nor, by dislodging it, take it away."""
    rule = adj.rules.convoy_paradox
    if rule not in SUPPORT_RULES or not adj.convoyed:
        return {}
    gm = adj.gm
    # 1982: "a convoying fleet" is any fleet some army is convoyed by (6.F.21: not only
    # the attacking army's).
    convoying = {s for a in adj.convoyed for s in adj.route_fleets(a)}
    shielded: dict[str, set[str]] = {}
    for a in adj.convoyed:
        fleets = adj.route_fleets(a)
        supporter = adj.target[a]
        order = adj.order.get(supporter)
        if not fleets or type(order) is not Support or supporter in adj.void:
            continue
        if rule == "1982":
            # "...a fleet which is supporting an action in a body of water; and that
            # body of water contains a convoying fleet": holds as well as moves.
            into = gm.province_of(order.dest) if order.dest else order.supported.province
            protected = gm.convoys_at(into) and into in convoying
        elif order.dest is None:
            protected = False  # 1971 and 2000 name only supports of attacks
        else:
            into = gm.province_of(order.dest)
            if rule == "1971":  # "...a fleet which is attacking one of the convoy fleets"
                protected = into in fleets
            else:  # 2000: "...an attack against one of the fleets necessary..."
                protected = into in _necessary(adj, a, fleets)
        if protected:
            shielded.setdefault(supporter, set()).add(a)
    return {p: frozenset(armies) for p, armies in shielded.items()}


def _necessary(adj: _Tables, a: str, fleets: tuple[str, ...] | list[str]) -> set[str]:
    """The fleets without which the army in `a` has no route. Where every route counts
    (4.A.1 a, a written path) that is each of them."""
    if a in adj.whole_route:
        return set(fleets)
    return necessary_seas(adj.gm, a, adj.target[a], fleets)


def second_look(adj: _Adjudicator) -> tuple[dict[str, bool], frozenset[str]] | None:
    """After a pass that broke paradoxes by the Szykman rule: under the DPTG or the
    Alexander rule, (fixed PATH decisions, armies whose cores hold all) for another pass,
    or None when the outcome stands."""
    rule = adj.rules.convoy_paradox
    if rule == "dptg":
        # Szykman's resolution is the one where every convoy of the core is disrupted
        # and has no effect; it stands if, in it, no route of those convoys holds.
        # Otherwise it is no resolution at all and the core holds.
        failed = {a for core in adj.cores if any(adj.route_open(b) for b in core) for a in core}
        if not failed:
            return None
        return adj.given_fixed, adj.all_hold | failed
    if rule == "alexander":
        # IV.5.f: a convoy that would not be disrupted but for the effects of the army
        # being convoyed (Szykman's resolution takes those effects away) is not
        # disrupted, even if a fleet of it ends up dislodged; one that would be, is.
        armies = [a for core in adj.cores for a in core]
        standing = {a for a in armies if adj.route_open(a)}
        if not standing:
            return None
        fixed = dict(adj.given_fixed)
        fixed.update((a, a in standing) for a in armies)
        return fixed, adj.all_hold
    return None
