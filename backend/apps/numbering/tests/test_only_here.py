"""Document numbers come from the numbering module only: no other module of the backend defines a counter
model, imports the numbering module's counter, locks it, or reaches its table in SQL. A new series is a
`Series` in apps/numbering/services.py, taken with `number_next`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

APPS = Path(__file__).resolve().parents[2]
NUMBERING = APPS / "numbering"
COUNTER_NAME = re.compile(r"(Counter|Sequence)$")
COUNTER_FIELDS = {"last_value", "next_value", "current_value"}


def _modules():
    for path in sorted(APPS.rglob("*.py")):
        if NUMBERING in path.parents or "migrations" in path.parts:
            continue
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _is_model(node: ast.ClassDef) -> bool:
    return any(
        (isinstance(base, ast.Name) and base.id.endswith("Model"))
        or (isinstance(base, ast.Attribute) and base.attr.endswith("Model"))
        for base in node.bases
    )


def _field_names(node: ast.ClassDef) -> set[str]:
    return {
        target.id
        for statement in node.body
        if isinstance(statement, ast.Assign)
        for target in statement.targets
        if isinstance(target, ast.Name)
    }


def _imports_counter(node: ast.ImportFrom | ast.Import) -> bool:
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith("apps.numbering.models")
    return any(alias.name.startswith("apps.numbering.models") for alias in node.names)


def _findings() -> list[str]:
    found = []
    for path, tree in _modules():
        where = path.relative_to(APPS.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and _is_model(node):
                if COUNTER_NAME.search(node.name) or _field_names(node) & COUNTER_FIELDS:
                    found.append(f"{where}:{node.lineno} defines the counter model {node.name}")
            elif isinstance(node, ast.ImportFrom | ast.Import) and _imports_counter(node):
                found.append(f"{where}:{node.lineno} imports the numbering module's counter")
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "select_for_update":
                receiver = ast.unparse(node.func.value)
                if COUNTER_NAME.search(receiver.split(".")[0]):
                    found.append(f"{where}:{node.lineno} locks a counter: {receiver}")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and "numbering_counter" in node.value
            ):
                found.append(f"{where}:{node.lineno} reaches a counter table in SQL")
    return found


def test_no_module_but_numbering_defines_or_locks_a_counter():
    assert _findings() == []


def test_the_scan_sees_a_counter_defined_or_locked_elsewhere(tmp_path, monkeypatch):
    """The scan itself: a module with a counter model and a lock on it is reported."""
    area = tmp_path / "apps" / "somearea"
    area.mkdir(parents=True)
    (area / "models.py").write_text(
        "class OrderSequence(TenantModel):\n    last_value = 1\n\n"
        "def take():\n    return OrderSequence.objects.select_for_update().get()\n"
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "APPS", tmp_path / "apps")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "NUMBERING", tmp_path / "apps" / "numbering")
    found = _findings()
    assert len(found) == 2
    assert "defines the counter model OrderSequence" in found[0]
    assert "locks a counter: OrderSequence.objects" in found[1]
