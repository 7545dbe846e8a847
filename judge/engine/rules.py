"""The rule options: one field per disputed point of DATC section 4.

Every default is the DATC's preferred choice. `OPTIONS` lists, for each field, the DATC
issue it settles and every choice a game may make, with the DATC's letter for it; the
resolver reads its choices from the `Rules` object it is given. `RULE_SETS` names whole
sets of choices (the DATC's preferences, the Alexander Rules).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple


@dataclass(frozen=True)
class Rules:
    multi_route_convoy_disruption: str = "all_routes"  # 4.A.1 b
    convoy_paradox: str = "szykman"  # 4.A.2 d
    convoy_to_adjacent_place: str = "2000_intent"  # 4.A.3 d
    convoyed_attack_on_supporter_cuts: bool = False  # 4.A.4 a: attack from target never cuts
    retreat_to_convoying_attacker_origin: bool = True  # 4.A.5 b
    convoy_path_specification: str = "ignored"  # 4.A.6 a
    dislodged_unit_affects_attacker_origin: str = "unless_head_to_head"  # 4.A.7 b
    missing_coast_when_two_possible: str = "fails"  # 4.B.1 a
    missing_coast_when_one_possible: str = "only_possible_coast"  # 4.B.2 a
    impossible_coast: str = "fails"  # 4.B.3 b
    coast_in_support: str = "optional_must_match"  # 4.B.4 d
    missing_coast_in_build: str = "fails"  # 4.B.7 a
    multiple_orders_to_unit: str = "last_legal"  # 4.D.3 (the judge's rule: last legal one)
    too_many_builds: str = "first_legal"  # 4.D.4 b
    multiple_builds_one_area: str = "first"  # 4.D.5 b
    too_many_removals: str = "first_legal"  # 4.D.6 b
    waiving_builds: bool = True  # 4.D.7 a
    civil_disorder_removal_distance: str = "dptg"  # 4.D.8 d
    hold_support_for_civil_disorder: bool = True  # 4.D.9 b
    illegal_orders: str = "invalid_in_current_position"  # 4.E.1 d
    implicit_orders: bool = False  # 4.E.3 b
    perpetual_orders: bool = False  # 4.E.4 b
    proxy_orders: str = "none"  # 4.E.5 c

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> Rules:
        """Rules from a JSON object: option names to choices, and optionally `"set"`
        naming a rule set the other options then change. Unknown names and choices are
        refused with a ValueError that lists what is allowed."""
        if not data:
            return DEFAULT_RULES
        if not isinstance(data, dict):
            raise ValueError("rules must be an object of option names and choices")
        base = DEFAULT_RULES
        changes = dict(data)
        if "set" in changes:
            set_name = str(changes.pop("set")).lower()
            if set_name not in RULE_SETS:
                raise ValueError(
                    f"unknown rule set {set_name!r} (known: {', '.join(sorted(RULE_SETS))})"
                )
            base = RULE_SETS[set_name]
        for key, value in changes.items():
            check_choice(key, value)
        return replace(base, **changes)

    def to_json(self) -> dict[str, Any]:
        """The options that differ from the DATC's preferred choices."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(Rules)
            if getattr(self, f.name) != getattr(DEFAULT_RULES, f.name)
        }


class Option(NamedTuple):
    """One DATC section 4 issue: its id, a short title, and its choices as
    {value: (DATC letter, what it means)}. A NamedTuple: as immutable as a frozen
    dataclass, and no code generated for it at each start."""

    issue: str
    title: str
    choices: dict[Any, tuple[str, str]]


OPTIONS: dict[str, Option] = {
    "multi_route_convoy_disruption": Option(
        "4.A.1",
        "multi-route convoy disruption",
        {
            "any_route": ("a", "a convoy is disrupted when any route is (1971, DPTG)"),
            "all_routes": ("b", "a convoy is disrupted only when all routes are (1982, 2000)"),
        },
    ),
    "convoy_paradox": Option(
        "4.A.2",
        "convoy disruption paradoxes",
        {
            "1971": ("a", "1971 rule, all-hold when it gives no answer"),
            "1982": ("b", "1982 rule: no cut of a support into water holding a convoying fleet"),
            "2000": ("c", "2000 rule, all-hold when it gives no answer"),
            "szykman": ("d", "Szykman: the convoys in the paradox fail"),
            "all_hold": ("e", "all moves in the paradox fail"),
            "dptg": ("f", "DPTG: all convoys disrupted if that is a resolution, else all hold"),
            "alexander": ("-", "Alexander Rules IV.5.f"),
        },
    ),
    "convoy_to_adjacent_place": Option(
        "4.A.3",
        "convoying to an adjacent place",
        {
            "convoy_route": ("a", "the convoy route is always taken (kidnapping possible)"),
            "land_unless_opposite": ("b", "land route unless the target moves the other way"),
            "land_unless_opposite_and_convoy": (
                "c",
                "land route unless the target moves the other way and a convoy succeeds",
            ),
            "2000_intent": ("d", "by intent: VIA, or an own fleet convoys (1982, 2000)"),
            "explicit_via": ("e", "only with VIA, and then only by convoy (DPTG)"),
            "land_unless_via": ("-", "land route unless VIA, land if all convoys fail (Alexander)"),
        },
    ),
    "convoyed_attack_on_supporter_cuts": Option(
        "4.A.4",
        "support cut by a convoyed attack on itself",
        {False: ("a", "the support is not cut"), True: ("b", "the support is cut (DPTG)")},
    ),
    "retreat_to_convoying_attacker_origin": Option(
        "4.A.5",
        "retreat when dislodged by convoy",
        {
            False: ("a", "no retreat to the attacker's starting place"),
            True: ("b", "may retreat to a convoyed attacker's starting place (DPTG)"),
        },
    ),
    "convoy_path_specification": Option(
        "4.A.6",
        "convoy path specification",
        {
            "ignored": ("a", "a path in a convoyed move is ignored"),
            "allowed": ("b", "a path may be given and is then the only route"),
            "required": ("c", "a convoyed move must give its path"),
        },
    ),
    "dislodged_unit_affects_attacker_origin": Option(
        "4.A.7",
        "a dislodged unit bouncing a third unit",
        {
            "never": ("a", "a dislodged unit never affects the attacker's origin"),
            "unless_head_to_head": ("b", "it does unless it lost a head-to-head battle (DPTG)"),
        },
    ),
    "missing_coast_when_two_possible": Option(
        "4.B.1",
        "move with no coast where two are possible",
        {
            "fails": ("a", "the move fails"),
            "default_coast": ("b", "the move goes to the map's default coast"),
        },
    ),
    "missing_coast_when_one_possible": Option(
        "4.B.2",
        "move with no coast where one is possible",
        {
            "only_possible_coast": ("a", "the move goes to the only possible coast"),
            "default_coast": ("b", "the move goes to the map's default coast"),
            "fails": ("c", "the move fails"),
        },
    ),
    "impossible_coast": Option(
        "4.B.3",
        "move to an impossible coast",
        {
            "possible_coast": ("a", "the coast is ignored and the possible one taken"),
            "fails": ("b", "the move fails"),
        },
    ),
    "coast_in_support": Option(
        "4.B.4",
        "coast in a support order",
        {
            "mandatory": ("a", "a coast must be given and match"),
            "mandatory_default": ("b", "a missing coast means the default coast"),
            "poorly_written": ("c", "a missing coast is fine for an own fleet or one coast"),
            "optional_must_match": ("d", "a coast may be given and must then match"),
            "ignored": ("e", "coasts in supports are ignored (DPTG)"),
        },
    ),
    "missing_coast_in_build": Option(
        "4.B.7",
        "fleet build with no coast",
        {
            "fails": ("a", "the build fails"),
            "default_coast": ("b", "the fleet is built on the default coast"),
        },
    ),
    "waiving_builds": Option(
        "4.D.7",
        "waiving builds",
        {True: ("a", "builds may be waived"), False: ("b", "builds may not be waived")},
    ),
    "civil_disorder_removal_distance": Option(
        "4.D.8",
        "removing a unit in civil disorder",
        {
            "convoy_one_move": ("a", "a convoy counts one move, no fleets needed"),
            "convoy_own_fleets": ("b", "a convoy counts one move through own fleets"),
            "convoy_any_fleets": ("c", "a convoy counts one move through any fleets"),
            "dptg": ("d", "armies may also move as fleets (DPTG)"),
            "both_abilities": ("e", "armies and fleets both move anywhere"),
        },
    ),
    "hold_support_for_civil_disorder": Option(
        "4.D.9",
        "hold support for a unit in civil disorder",
        {False: ("a", "the support fails"), True: ("b", "the support succeeds")},
    ),
    "illegal_orders": Option(
        "4.E.1",
        "which orders are illegal",
        {
            "any_format": ("a", "any order of the right form is legal"),
            "valid_places": ("b", "legal if it names places on the map"),
            "valid_geography": ("c", "legal if the map's geography allows it"),
            "invalid_in_current_position": ("d", "legal only if possible in this position"),
        },
    ),
    "implicit_orders": Option(
        "4.E.3",
        "implicit orders",
        {True: ("a", "implicit orders are allowed"), False: ("b", "they are not")},
    ),
    "perpetual_orders": Option(
        "4.E.4",
        "perpetual orders",
        {True: ("a", "a power's last orders repeat"), False: ("b", "they do not")},
    ),
    "proxy_orders": Option(
        "4.E.5",
        "proxy orders",
        {
            "notified": ("a", "a power may hand a unit to another player, told to the judge"),
            "in_order_set": ("b", "a player may order another power's unit in its orders"),
            "none": ("c", "proxy orders are not allowed"),
        },
    ),
}


def check_choice(key: str, value: Any) -> None:
    """Raise ValueError unless `value` is one of option `key`'s choices."""
    option = OPTIONS.get(key)
    if option is None:
        raise ValueError(f"unknown rule option {key!r}")
    if value not in option.choices or type(value) is not type(next(iter(option.choices))):
        allowed = ", ".join(_show(v) for v in option.choices)
        raise ValueError(f"rule option {key}={_show(value)} is not one of: {allowed}")


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def describe(rules: Rules) -> list[str]:
    """One line per option that differs from the DATC's preferred choice, for headers
    and LIST; empty when the game follows every preference."""
    out = []
    for key, value in rules.to_json().items():
        option = OPTIONS[key]
        letter, meaning = option.choices[value]
        choice = f"choice {letter}" if letter != "-" else "not a DATC choice"
        out.append(f"DATC {option.issue} ({choice}): {meaning}")
    return out


DEFAULT_RULES = Rules()

RULE_SETS: dict[str, Rules] = {
    "datc": DEFAULT_RULES,
    # The Alexander Rules: their own paradox rule (IV.5.f) and land routes unless VIA
    # (IV.5.e); on every other point they agree with the DATC's preferences.
    "alexander": replace(
        DEFAULT_RULES, convoy_paradox="alexander", convoy_to_adjacent_place="land_unless_via"
    ),
}


def binds_order_sets(rules: Rules) -> bool:
    """Whether the game chose otherwise than the DATC on any option order_sets.py binds
    (4.D.9, 4.E.1, 4.E.3, 4.E.5): order_sets.applies, here so that a phase under the
    DATC's choices needs order_sets (and invalid_orders) not even imported."""
    return (
        rules.illegal_orders != "invalid_in_current_position"  # invalid_orders.STRICT
        or rules.implicit_orders
        or rules.proxy_orders == "in_order_set"
        or not rules.hold_support_for_civil_disorder
    )
