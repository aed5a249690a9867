"""What a GET answers matches what the schema says it answers, for a company that has nothing yet.

A single-record view without its record (TRACES account, accounting connection, company settings before
anything is saved) answers an unsaved default whose timestamps are null; the schema must then say so. This
walks every GET operation without path parameters, as an administrator of an empty tenant, and checks the
answer's `data` against the operation's 200 schema: a null where the schema does not allow one, a missing
required property, or a value of the wrong JSON type fails.
"""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

_TYPES = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "array": list,
    "object": dict,
}


def _resolve(schema: dict, components: dict) -> dict:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _mismatches(value, schema: dict, components: dict, where: str) -> list[str]:
    schema = _resolve(schema, components)
    if value is None:
        nullable = schema.get("nullable") or any(
            _resolve(s, components).get("nullable") or s.get("type") == "null"
            for s in schema.get("oneOf", []) + schema.get("anyOf", [])
        )
        return [] if nullable or not schema else [f"{where}: null, schema {schema}"]
    for key in ("allOf",):
        if key in schema:
            return [m for part in schema[key] for m in _mismatches(value, part, components, where)]
    if "oneOf" in schema or "anyOf" in schema:
        options = schema.get("oneOf", []) + schema.get("anyOf", [])
        if any(not _mismatches(value, option, components, where) for option in options):
            return []
        return [f"{where}: matches none of {len(options)} options"]
    expected = schema.get("type")
    if expected in _TYPES and (
        not isinstance(value, _TYPES[expected])
        or (expected in ("integer", "number") and isinstance(value, bool))
    ):
        return [f"{where}: {type(value).__name__}, schema says {expected}"]
    found = []
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                found.append(f"{where}.{name}: missing")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                found += _mismatches(value[name], sub, components, f"{where}.{name}")
    elif isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value[:5]):
            found += _mismatches(item, schema["items"], components, f"{where}[{i}]")
    return found


def test_every_parameterless_get_answers_what_the_schema_says_for_an_empty_tenant(tenant3, make_user, api):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    admin = api(make_user(tenant3, "Administrator", is_staff=True), tenant3)
    checked, failures = [], []
    for path, operations in sorted(schema["paths"].items()):
        get = operations.get("get")
        if (
            get is None
            or "{" in path
            or "/export" in path
            or "/download" in path
            or path.endswith("/schema/")
        ):
            continue
        content = get.get("responses", {}).get("200", {}).get("content", {})
        if "application/json" not in content:
            continue
        response = admin.get(path)
        if (
            response.status_code != 200
            or response.get("Content-Type", "").split(";")[0] != "application/json"
        ):
            continue
        body_schema = _resolve(content["application/json"]["schema"], components)
        data_schema = body_schema.get("properties", {}).get("data")
        if data_schema is None:
            continue
        checked.append(path)
        failures += _mismatches(response.json()["data"], data_schema, components, path)
    assert "/api/eudr/traces-account/" in checked and len(checked) > 40
    assert failures == []
