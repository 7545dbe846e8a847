"""The words of the engine's reasons: a Problem's template, templates/problems/<code>.txt,
rendered with the problem's values.

It lives here, below game and commands, because Contract 1's output gives these words
too (json_contract.outcome_to_json, which `judge adjudicate` runs); the judge's own
callers of the engine use this same function.
"""

from __future__ import annotations

from functools import cache, lru_cache

import jinja2

from judge.engine.problems import Problem, Reason
from judge.paths import data_dir


@cache
def _environment() -> jinja2.Environment:
    # As the mail templates' environment (judge/mail/compose.py): a tag alone on its
    # line leaves nothing behind, a missing value is an error rather than a blank.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(data_dir("templates")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # plain text
    )
    # `reason`: the words of a Problem wrapped as a value (DATC 4.E.1's sentences wrap
    # the reason the order cannot be valid). `quoted`: a word as the player wrote it,
    # quoted as Python quotes it (single quotes unless the word holds one).
    env.filters["reason"] = reason_text
    env.filters["quoted"] = repr
    return env


def reason_text(reason: Reason) -> str:
    """The reason in words: a Problem's template rendered (one line, no newline at the
    end; a Problem among its values rendered the same way), or a sentence as it is."""
    if isinstance(reason, str):
        return reason
    try:
        return _rendered(reason)
    except TypeError:  # a value that cannot be hashed: rendered each time
        return _render(reason)


@lru_cache(maxsize=4096)
def _rendered(problem: Problem) -> str:
    # Random and real games repeat the same few hundred reasons: Jinja once for each.
    return _render(problem)


def _render(problem: Problem) -> str:
    template = _environment().get_template(f"problems/{problem.code}.txt")
    return template.render(problem.values).removesuffix("\n")
