"""The rule options: one field per disputed point of DATC section 4.

Every default is the DATC's preferred choice. The resolver reads its choices from here,
so per-game options can be added without reshaping it; today only the preferred choices
are implemented, and asking for another is refused with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Rules:
    multi_route_convoy_disruption: str = "all_routes"  # 4.A.1 b: disrupted when all are
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

    @staticmethod
    def from_json(data: dict | None) -> Rules:
        """Rules from a JSON object; unknown names and unsupported choices are refused."""
        if not data:
            return DEFAULT_RULES
        known = {f.name: f for f in fields(Rules)}
        for name, value in data.items():
            if name not in known:
                raise ValueError(f"unknown rule option {name!r}")
            default = known[name].default
            if value != default:
                raise ValueError(
                    f"rule option {name}={value!r} is not supported yet (only {default!r})"
                )
        return DEFAULT_RULES


DEFAULT_RULES = Rules()
