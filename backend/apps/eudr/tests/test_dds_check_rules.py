"""The checks of a delivery's package are a list of small named rules (apps/eudr/dds/checks.py, `RULES`):
each has its own name and says in its docstring what it checks."""

from __future__ import annotations

import inspect
from datetime import date

from apps.eudr.dds import checks
from apps.eudr.dds.checks import ERROR, RULES, WARNING, DdsCheck


def test_the_rules_have_unique_names():
    names = [rule.__name__ for rule in RULES]
    assert len(names) == len(set(names)), names
    assert all(name.startswith("check_") for name in names), names


def test_every_rule_is_documented():
    undocumented = [rule.__name__ for rule in RULES if not (inspect.getdoc(rule) or "").strip()]
    assert undocumented == []


def test_every_rule_takes_the_facts_and_the_day():
    wrong = [
        rule.__name__ for rule in RULES if list(inspect.signature(rule).parameters) != ["facts", "today"]
    ]
    assert wrong == []


def test_run_checks_lists_the_findings_of_each_rule_in_order(monkeypatch):
    first = DdsCheck("first", "one", ERROR)
    second = DdsCheck("second", "two", WARNING, 0)
    seen = []

    def check_a(facts, today):
        """A."""
        seen.append(("a", facts, today))
        return [first]

    def check_b(facts, today):
        """B."""
        seen.append(("b", facts, today))
        return [second, first]

    monkeypatch.setattr(checks, "RULES", (check_b, check_a))
    day = date(2025, 6, 1)
    assert checks.run_checks("facts", today=day) == [second, first, first]
    assert seen == [("b", "facts", day), ("a", "facts", day)]
