"""The import graph of backend/apps (docs/architecture.md, "Dependencies between areas"), read with `ast`
from the source: every import counts, at the top of a module or inside a function, and so does a module
named to `importlib.import_module`. Tests and migrations are left out (a test may look anywhere).

- No import cycle of modules spans two areas (an area is a package under apps/). Such a cycle is what a
  function-level import hides: it fails here wherever the import stands.
- No two areas import each other: every dependency between areas goes one way, the foundation's own
  too. KNOWN_TWO_WAY keeps the mechanism (a pair listed there with its reason is let through, and a listed
  pair that no longer imports both ways must leave it), and it is empty: a new pair fails.
- The foundation is layered (FOUNDATION_ORDER, bottom first): `tenancy` (tenants, the tenant context,
  the managers, row-level security, memberships and the permissions they give) imports neither `common`
  nor `users`; `common` (the shared API layer: viewsets, permission classes, filters, errors, exports,
  imports) imports `tenancy` but not `users`; `users` (accounts, roles, departments, the user and company
  views) imports both. A lower package reaches a higher one only through a hook the higher one registers
  on start (`tenancy.services.on_tenant_created`, filled by `UsersConfig.ready`).
- `notifications` imports no business area (only the foundation: common, tenancy, users): every area
  declares its events in its own `events.py` and registers them on start. The areas use only its public
  API: `apps.notifications.emit` (emit, emit_many) and `apps.notifications.events` (the registry).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

APPS = Path(__file__).resolve().parents[2]

FOUNDATION = {"common", "tenancy", "users"}
NOTIFICATIONS_PUBLIC = {"apps.notifications.emit", "apps.notifications.events"}

# The foundation's packages, bottom first: each may import only those before it (docs/architecture.md).
FOUNDATION_ORDER = ("tenancy", "common", "users")

# Areas that import each other today (either way, the reason): remove a pair once one direction is gone.
# None do: between areas, the foundation's included, every dependency goes one way.
KNOWN_TWO_WAY: dict[frozenset[str], str] = {}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, ast.AST]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if "tests" in parts or "migrations" in parts:
            continue
        found[_module_name(path, root)] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _resolve(name: str, known) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def graph(sources: dict[str, ast.AST]) -> dict[str, set[str]]:
    """module -> the modules of apps/ it imports."""
    edges: dict[str, set[str]] = defaultdict(set)
    for module, tree in sources.items():
        is_package = any(other.startswith(module + ".") for other in sources)
        package = module if is_package else module.rpartition(".")[0]
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources else base
                    for alias in node.names
                ]
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                targets = [node.args[0].value]
            for target in targets:
                resolved = _resolve(target, sources) if target.startswith("apps.") else None
                if resolved and resolved != module:
                    edges[module].add(resolved)
    return edges


def area(module: str) -> str:
    return module.split(".")[1] if module.count(".") else module


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    nodes = sorted(set(edges) | {t for targets in edges.values() for t in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def two_way_areas(edges: dict[str, set[str]]) -> dict[frozenset[str], list[str]]:
    between: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, targets in edges.items():
        for target in targets:
            if area(module) != area(target):
                between[(area(module), area(target))].append(f"{module} -> {target}")
    return {
        frozenset(pair): sorted(between[pair] + between[(pair[1], pair[0])])
        for pair in between
        if (pair[1], pair[0]) in between and pair[0] < pair[1]
    }


def test_no_import_cycle_spans_two_areas():
    across = [group for group in cycles(graph(modules(APPS))) if len({area(m) for m in group}) > 1]
    assert across == [], "import cycles across areas (break them; docs/architecture.md):\n" + "\n".join(
        " <-> ".join(group) for group in across
    )


def test_areas_that_import_each_other_are_only_the_known_pairs():
    found = two_way_areas(graph(modules(APPS)))
    new = {
        " <-> ".join(sorted(pair)): imports for pair, imports in found.items() if pair not in KNOWN_TWO_WAY
    }
    assert new == {}, "two areas now import each other; make the dependency go one way"
    gone = sorted(" <-> ".join(sorted(pair)) for pair in KNOWN_TWO_WAY if pair not in found)
    assert gone == [], "these areas no longer import each other both ways: remove them from KNOWN_TWO_WAY"


def test_no_areas_import_each_other_both_ways():
    """Every dependency between areas goes one way (docs/architecture.md), the foundation's too: the list
    of pairs let through is empty."""
    assert KNOWN_TWO_WAY == {}


def test_the_foundation_imports_only_downward():
    """tenancy imports neither common nor users; common imports tenancy, not users; users may import both
    (FOUNDATION_ORDER)."""
    assert set(FOUNDATION_ORDER) == FOUNDATION
    rank = {name: position for position, name in enumerate(FOUNDATION_ORDER)}
    edges = graph(modules(APPS))
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in edges.items()
        if area(module) in FOUNDATION
        for target in targets
        if area(target) in FOUNDATION and rank[area(target)] > rank[area(module)]
    )
    assert upward == [], "a foundation package imports one above it (register a hook on start instead)"


def test_notifications_imports_no_area():
    edges = graph(modules(APPS))
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in edges.items()
        if area(module) == "notifications"
        for target in targets
        if area(target) not in FOUNDATION | {"notifications"}
    )
    assert wrong == []


def test_areas_use_only_the_public_api_of_notifications():
    edges = graph(modules(APPS))
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in edges.items()
        if area(module) != "notifications"
        for target in targets
        if area(target) == "notifications" and target not in NOTIFICATIONS_PUBLIC
    )
    assert wrong == []


def test_the_graph_sees_function_level_and_importlib_imports(tmp_path):
    """The reader itself, on a made-up tree: a cycle hidden in a function and one through importlib."""
    root = tmp_path / "apps"
    for package in ("apps", "apps/one", "apps/two", "apps/three"):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
    (root / "one" / "services.py").write_text("from apps.two import services\n")
    (root / "two" / "services.py").write_text("def f():\n    from apps.one.services import g\n")
    (root / "three" / "events.py").write_text(
        "import importlib\nimportlib.import_module('apps.one.services')\n"
    )
    (root / "one" / "models.py").write_text("from ..three import events\n")
    edges = graph(modules(root))
    assert edges["apps.two.services"] == {"apps.one.services"}
    assert edges["apps.three.events"] == {"apps.one.services"}
    assert edges["apps.one.models"] == {"apps.three.events"}
    assert cycles(edges) == [["apps.one.services", "apps.two.services"]]
    assert set(two_way_areas(edges)) == {frozenset({"one", "two"}), frozenset({"one", "three"})}
    assert two_way_areas({"apps.one.services": {"apps.two.services"}}) == {}
