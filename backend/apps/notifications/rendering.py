"""Templates and conditions.

Templates are Jinja2 rendered in a `SandboxedEnvironment` with only the event's variables (plain data
built by events.py): no attribute starting with an underscore, no callables of Python objects, no
globals beyond Jinja's harmless filters; an unknown variable is an error (StrictUndefined), so a typo
shows in the preview instead of sending an empty line. HTML bodies are autoescaped, subjects and text
bodies are not (they are not HTML).

The sandbox is bounded so that no template costs more than a small fixed budget (a saved template renders
at every matching business event):
- operators on large operands: `*`, `**`, `+` and `%` are checked before they run (`BoundedSandbox`):
  no text or list longer than MAX_OPERAND, no number of more than MAX_INT_BITS bits, no `%` formatting
  of text (`'%99999999s' % x`);
- filter arguments: numbers at most MAX_FILTER_NUMBER (`center(10**8)`, `indent`, `wordwrap`), text
  arguments at most MAX_OPERAND, a `format` with a width over MAX_FILTER_NUMBER and a `replace` whose
  result would pass MAX_OUTPUT are refused;
- loop steps and time: the template's own code is traced while it renders; more than MAX_STEPS steps
  or RENDER_SECONDS seconds end it (`'x'*30000` looped in a loop);
- the output: MAX_OUTPUT characters.
Each limit is a `RenderError` (the preview shows it; a send fails in words). Tests: test_sandbox_bounds.py.

Conditions are data: [{"field": "order.status", "operator": "eq", "value": "on_hold"}], all must hold.
"""

from __future__ import annotations

import re
import sys
import time
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _
from jinja2 import StrictUndefined, TemplateError
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_OUTPUT = 500_000
MAX_OPERAND = 100_000  # characters or items of a text or list an operator may build
MAX_INT_BITS = 256
MAX_FILTER_NUMBER = 1_000
MAX_STEPS = 200_000  # lines of template code run in one render
RENDER_SECONDS = 2.0


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else 0


class BoundedSandbox(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(count, int) and _size(seq) * max(count, 0) > MAX_OPERAND:
                    raise SecurityError(_("The result of * would be too large."))
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and left.bit_length() + right.bit_length() > MAX_INT_BITS
            ):
                raise SecurityError(_("The result of * would be too large."))
        elif operator == "**":
            numbers = isinstance(right, (int, float)) and isinstance(left, (int, float))
            if numbers and (
                abs(right) > 64
                or (abs(left) > 2 and abs(right) * max(1, int(abs(left)).bit_length()) > MAX_INT_BITS)
            ):
                raise SecurityError(_("The result of ** would be too large."))
        elif operator == "+":
            if _size(left) + _size(right) > MAX_OPERAND:
                raise SecurityError(_("The result of + would be too large."))
        elif operator == "%" and isinstance(left, str):
            raise SecurityError(
                _("Formatting text with the percent operator is not available; use the format filter.")
            )
        return super().call_binop(context, operator, left, right)


def _check_filter(name: str, value: Any, args: tuple, kwargs: dict) -> None:
    for arg in (*args, *kwargs.values()):
        if isinstance(arg, bool):
            continue
        if isinstance(arg, (int, float)) and abs(arg) > MAX_FILTER_NUMBER:
            raise SecurityError(_("The argument of %(filter)s is too large.") % {"filter": name})
        if _size(arg) > MAX_OPERAND:
            raise SecurityError(_("The argument of %(filter)s is too long.") % {"filter": name})
    if name == "format" and isinstance(value, str) and re.search(r"%[^a-zA-Z%]*\d{4,}", value):
        raise SecurityError(_("The width in format is too large."))
    if name == "replace" and len(args) >= 2 and isinstance(value, str):
        old, new = str(args[0]), str(args[1])
        hits = len(value) + 1 if old == "" else value.count(old)
        if len(value) + hits * len(new) > MAX_OUTPUT:
            raise SecurityError(_("The result of replace would be too long."))


def _bounded_filter(name: str, function):
    """The filter with its arguments checked first (filters that take the context first included)."""
    if getattr(function, "jinja_pass_arg", None) is not None:

        def check_with_context(ctx: Any, value: Any, *args: Any, **kwargs: Any):
            _check_filter(name, value, args, kwargs)
            return function(ctx, value, *args, **kwargs)

        check_with_context.jinja_pass_arg = function.jinja_pass_arg  # type: ignore[attr-defined]
        return check_with_context

    def check(value: Any, *args: Any, **kwargs: Any):
        _check_filter(name, value, args, kwargs)
        return function(value, *args, **kwargs)

    return check


_text_env = BoundedSandbox(undefined=StrictUndefined, autoescape=False)
_html_env = BoundedSandbox(undefined=StrictUndefined, autoescape=True)
for _env in (_text_env, _html_env):
    # nothing from the outside: no range() (a loop of 10^9), no lipsum/dict/cycler/joiner/namespace
    _env.globals.clear()
    for _name, _function in list(_env.filters.items()):
        _env.filters[_name] = _bounded_filter(_name, _function)


class _Budget:
    """Counts the lines the template's own code runs (the compiled template's frames only) and ends the
    render when MAX_STEPS or RENDER_SECONDS are passed."""

    def __init__(self) -> None:
        self.steps = 0
        self.deadline = time.monotonic() + RENDER_SECONDS

    def trace(self, frame, event, arg):
        if frame.f_code.co_filename != "<template>":
            return None
        return self.local

    def local(self, frame, event, arg):
        if event == "line":
            self.steps += 1
            if self.steps > MAX_STEPS or (self.steps % 1000 == 0 and time.monotonic() > self.deadline):
                raise SecurityError(_("The template runs too long (a loop that does too much?)."))
        return self.local


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
    template_source = source or ""
    previous = sys.gettrace()
    try:
        template = (_html_env if html else _text_env).from_string(template_source)
        sys.settrace(_Budget().trace)
        try:
            out = template.render(context)
        finally:
            sys.settrace(previous)
    except TemplateError as exc:  # includes SecurityError and UndefinedError
        raise RenderError(str(exc)) from exc
    except (ArithmeticError, TypeError, ValueError, RecursionError) as exc:
        raise RenderError(str(exc)) from exc
    if len(out) > MAX_OUTPUT:
        raise RenderError(_("The rendered text is too long."))
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
