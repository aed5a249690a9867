"""Templates and conditions.

Templates are Jinja2 rendered in a `SandboxedEnvironment` with only the event's variables (plain data
built by events.py): no attribute starting with an underscore, no callables of Python objects, no
globals beyond Jinja's harmless filters; an unknown variable is an error (StrictUndefined), so a typo
shows in the preview instead of sending an empty line. HTML bodies are autoescaped, subjects and text
bodies are not (they are not HTML).

Conditions are data: [{"field": "order.status", "operator": "eq", "value": "on_hold"}], all must hold.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

_text_env = ImmutableSandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
_html_env = ImmutableSandboxedEnvironment(undefined=StrictUndefined, autoescape=True)
for _env in (_text_env, _html_env):
    # nothing from the outside: no range() (a loop of 10^9), no lipsum/dict/cycler/joiner/namespace
    _env.globals.clear()

MAX_OUTPUT = 500_000


class RenderError(Exception):
    pass


def check_syntax(source: str, *, html: bool = False) -> str | None:
    """The syntax error of a template, or None."""
    try:
        (_html_env if html else _text_env).parse(source or "")
    except TemplateError as exc:
        return str(exc)
    return None


def render(source: str, context: dict[str, Any], *, html: bool = False) -> str:
    try:
        out = (_html_env if html else _text_env).from_string(source or "").render(context)
    except TemplateError as exc:  # includes SecurityError and UndefinedError
        raise RenderError(str(exc)) from exc
    except (ArithmeticError, TypeError, ValueError, RecursionError) as exc:
        raise RenderError(str(exc)) from exc
    if len(out) > MAX_OUTPUT:
        raise RenderError("the rendered text is too long")
    return out


# -- conditions ----------------------------------------------------------------------------------------

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "not_in", "contains", "is_empty", "is_not_empty")
NO_VALUE = ("is_empty", "is_not_empty")


def lookup(context: dict[str, Any], path: str) -> Any:
    value: Any = context
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _comparable(left: Any, right: Any) -> tuple[Any, Any]:
    """Numbers compare as numbers, dates as ISO text, everything else as text."""
    if isinstance(left, (date, datetime)):
        left = left.isoformat()
    try:
        if isinstance(left, (int, float, Decimal)) and not isinstance(left, bool):
            return Decimal(str(left)), Decimal(str(right))
    except (InvalidOperation, ValueError):
        pass
    return ("" if left is None else str(left)), ("" if right is None else str(right))


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip() for v in value]
    return [v.strip() for v in str(value or "").split(",")]


def condition_holds(condition: dict[str, Any], context: dict[str, Any]) -> bool:
    op = condition["operator"]
    actual = lookup(context, condition["field"])
    expected = condition.get("value")
    if op == "is_empty":
        return actual in (None, "", [], {})
    if op == "is_not_empty":
        return actual not in (None, "", [], {})
    if op in ("in", "not_in"):
        found = ("" if actual is None else str(actual)) in _as_list(expected)
        return found if op == "in" else not found
    if op == "contains":
        return str(expected or "").lower() in ("" if actual is None else str(actual)).lower()
    left, right = _comparable(actual, expected)
    try:
        return {
            "eq": left == right,
            "ne": left != right,
            "gt": left > right,
            "gte": left >= right,
            "lt": left < right,
            "lte": left <= right,
        }[op]
    except TypeError:
        return False


def conditions_hold(conditions: list[dict[str, Any]], context: dict[str, Any]) -> bool:
    return all(condition_holds(c, context) for c in conditions or [])
