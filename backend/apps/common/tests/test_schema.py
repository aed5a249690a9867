"""The `tenant_id` query parameter is declared once (TenantAutoSchema) and reaches every operation of a
tenant-scoped view, and only those."""

from __future__ import annotations

import re

from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator

from apps.common.api.schema import is_tenant_scoped


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def _operations():
    """(path, method, operation, view class) of every documented operation."""
    views = {
        (_shape(path), method.lower()): callback.cls
        for path, _, method, callback in EndpointEnumerator().get_api_endpoints()
    }
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield path, method, operation, views[(_shape(path), method)]


def test_every_tenant_scoped_operation_requires_tenant_id():
    checked = 0
    for path, method, operation, view in _operations():
        parameters = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "query"}
        if is_tenant_scoped(view):
            checked += 1
            assert "tenant_id" in parameters, f"{method.upper()} {path} lacks tenant_id"
            assert parameters["tenant_id"]["required"] is True, f"{method.upper()} {path}"
    assert checked > 250


def test_operations_outside_a_tenant_do_not_take_tenant_id():
    for path, method, operation, view in _operations():
        names = {p["name"] for p in operation.get("parameters", [])}
        if not is_tenant_scoped(view) and "tenant_id" in names:
            # The signed-in user's own endpoints read tenant_id optionally; nothing else outside a tenant.
            assert path.startswith("/api/users/me/"), f"{method.upper()} {path}"


def test_an_action_documented_as_a_page_answers_a_page():
    """An extra GET action of a paginated view is documented as a page (count, results) unless it sets
    `pagination_class=None`; one that answers a plain list must say so, or clients read `results` of a
    list. Its code has to paginate."""
    import inspect

    checked = 0
    for path, method, operation, view in _operations():
        if method != "get":
            continue
        ref = str(operation["responses"].get("200", {}))
        name = path.rstrip("/").rsplit("/", 1)[-1].replace("-", "_")
        handler = getattr(view, name, None)
        if "Paginated" not in ref or handler is None or not hasattr(handler, "mapping"):
            continue
        checked += 1
        assert "paginate" in inspect.getsource(handler), f"GET {path} is documented as a page"
    assert checked >= 3
