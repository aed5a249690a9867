"""Every download's schema says what it serves: each list export and import template is fetched in every
format it offers, and the answer's Content-Type must be one the operation documents (not a generic
`application/octet-stream` in front of a CSV)."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


def _format_enum(operation: dict) -> list[str]:
    for parameter in operation.get("parameters", []):
        if parameter.get("name") == "format" and parameter.get("in") == "query":
            return parameter.get("schema", {}).get("enum", [])
    return []


def test_every_download_serves_a_documented_media_type(tenant3, make_user, api):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    admin = api(make_user(tenant3, "Administrator", is_staff=True), tenant3)
    checked, failures = [], []
    for path, operations in sorted(schema["paths"].items()):
        get = operations.get("get")
        if get is None or "{" in path:
            continue
        documented = list(get.get("responses", {}).get("200", {}).get("content", {}))
        if not documented or documented == ["application/json"]:
            continue
        assert "application/octet-stream" not in documented, f"{path} documents a generic download"
        needs = [
            p["name"]
            for p in get.get("parameters", [])
            if p.get("required") and p.get("in") == "query" and p["name"] not in ("format", "tenant_id")
        ]
        if needs:  # e.g. the loading list of chosen dispatches: covered by its own tests
            continue
        for fmt in _format_enum(get) or [None]:
            response = admin.get(path, {"format": fmt} if fmt else {})
            if response.status_code != 200:
                failures.append(f"{path}?format={fmt}: {response.status_code}")
                continue
            served = response["Content-Type"].split(";")[0].strip()
            if served not in documented and "*/*" not in documented:
                failures.append(f"{path}?format={fmt}: serves {served}, documents {documented}")
            checked.append((path, fmt))
    assert ("/api/products/export/", "xlsx") in checked and len(checked) > 40
    assert failures == []
