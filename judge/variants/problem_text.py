"""The words of the engine's reasons: a Problem's template, templates/problems/<code>.txt,
rendered with the problem's values.

It lives here, below game and commands, because Contract 1's output gives these words
too (json_contract.outcome_to_json, which `judge adjudicate` runs); the judge's own
callers of the engine use this same function.

Most of these templates are plain sentences with `{{ name }}` fields; given text
values, such a template is filled in directly, as Jinja would fill it (the tests compare
both on every template). Any other template, or other values, goes through Jinja, which
is imported only then: `judge adjudicate` starts without it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from judge.engine.problems import Problem, Reason, Value
from judge.paths import data_dir

if TYPE_CHECKING:
    import jinja2


@cache
def _environment() -> jinja2.Environment:
    import jinja2  # here: the plain templates (_plain) need no Jinja at all

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
    # Random and real games repeat the same few hundred reasons: rendered once each.
    return _render(problem)


def _render(problem: Problem) -> str:
    plain = _plain(problem.code)
    values = problem.values
    if plain is not None and all(type(values.get(f)) is str for f in plain[1::2]):
        return _fill(plain, values)
    template = _environment().get_template(f"problems/{problem.code}.txt")
    return template.render(values).removesuffix("\n")


# A comment alone on the first line (trim_blocks drops its newline), then the sentence.
_LEADING_COMMENT = re.compile(r"\{#.*?#\}\n", re.DOTALL)
_FIELD = re.compile(r"\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}")


@cache
def _plain(code: str) -> tuple[str, ...] | None:
    """The template of `code` split into text and field names (text, name, text, ...,
    text) when it is only text and `{{ name }}` fields after its leading comment; None
    when it needs Jinja (tags, filters, expressions, comments elsewhere)."""
    path = data_dir("templates") / "problems" / f"{code}.txt"
    if "/" in code or "\\" in code or not path.is_file():
        return None  # Jinja says what is wrong
    text = path.read_text(encoding="utf-8")
    if comment := _LEADING_COMMENT.match(text):
        text = text[comment.end() :]
    parts = tuple(_FIELD.split(text))
    if any(mark in part for part in parts[::2] for mark in ("{{", "{%", "{#", "\r")):
        return None
    return parts


def _fill(parts: tuple[str, ...], values: Mapping[str, Value]) -> str:
    """A plain template's text with each field's text value, as Jinja renders it (one
    line: the file's last newline dropped)."""
    out = [part if i % 2 == 0 else str(values[part]) for i, part in enumerate(parts)]
    return "".join(out).removesuffix("\n")
