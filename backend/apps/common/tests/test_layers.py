"""House rules of docs/architecture.md checked on the source: domain modules (services, selectors, models,
PDFs, tasks: everything outside an app's `api/` package) do not import an API package, and services and
selectors raise domain errors, never DRF exceptions. The few modules that are part of the HTTP layer
although they live outside `api/` are listed with the reason; a new import fails until it is moved or listed.
"""

from __future__ import annotations

import ast
from pathlib import Path

APPS = Path(__file__).resolve().parents[2]

# module -> why it may import an API package
HTTP_LAYER_OUTSIDE_API = {
    "apps/common/apps.py": "registers the OpenAPI field extensions on start",
    "apps/accounting/apps.py": "registers the invoice answer's accounting state and its OpenAPI schema",
    "apps/common/middleware.py": "answers HTTP errors in the API's envelope",
    "apps/eudr/public_trace_fast.py": "middleware: answers a scan from its stored HTTP answer, throttled as the view",
    "apps/eudr/trace_store.py": "stores each carton's public HTTP answer, rendered by the API's serializer",
    "apps/common/imports.py": "the import framework: a viewset mixin and its job serializer",
    "apps/common/commentable.py": "comment visibility by user type, shared with the comment views",
    "apps/customers/importers.py": "imports validate each row with the API's serializer (docs/api-contract.md)",
    "apps/products/importers.py": "imports validate each row with the API's serializer (docs/api-contract.md)",
    "apps/suppliers/importers.py": "imports validate each row with the API's serializer (docs/api-contract.md)",
    "apps/printing/selectors.py": "label print jobs select cartons with the cartons list's own filters",
    "apps/reports/selectors.py": "the report lab scopes supplier users like every list (user_type)",
}


def _domain_modules():
    for path in sorted(APPS.rglob("*.py")):
        relative = path.relative_to(APPS.parent).as_posix()
        parts = path.relative_to(APPS).parts
        if "api" in parts or "tests" in parts or "migrations" in parts or "management" in parts:
            continue
        yield relative, ast.parse(path.read_text(), filename=relative)


def _imported_modules(tree: ast.AST, module: str) -> set[str]:
    package = module.rsplit("/", 1)[0].replace("/", ".")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def test_domain_modules_do_not_import_an_api_package():
    offending = {}
    for module, tree in _domain_modules():
        api_imports = sorted(
            name
            for name in _imported_modules(tree, module)
            if ".api." in f".{name}." and name.startswith("apps.")
        )
        if api_imports and module not in HTTP_LAYER_OUTSIDE_API:
            offending[module] = api_imports
    assert offending == {}


def test_the_listed_exceptions_still_need_their_place():
    still_importing = {
        module
        for module, tree in _domain_modules()
        if any(
            ".api." in f".{name}." and name.startswith("apps.") for name in _imported_modules(tree, module)
        )
    }
    assert set(HTTP_LAYER_OUTSIDE_API) - still_importing == set()


def test_services_and_selectors_raise_no_drf_exception():
    offending = {}
    for module, tree in _domain_modules():
        if not (module.endswith(("/services.py", "/selectors.py")) or "/services/" in module):
            continue
        drf = sorted(name for name in _imported_modules(tree, module) if name.startswith("rest_framework"))
        if drf:
            offending[module] = drf
    assert offending == {}, offending
    assert any("/services/" in module for module, _ in _domain_modules()), "the services packages are read"
