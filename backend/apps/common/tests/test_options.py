"""OPTIONS on every path of the schema answers without a server error (apps/common/api/metadata.py), for
an administrator of the tenant (the single-record views without their record included, e.g.
/api/eudr/traces-account/ before an account is stored) and for anonymous callers."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


def test_options_on_every_path_is_never_a_server_error(tenant3, make_user, api):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = sorted(re.sub(r"\{[^}]+\}", "1", path) for path in schema["paths"])
    assert "/api/eudr/traces-account/" in paths and len(paths) > 100
    admin = api(make_user(tenant3, "Administrator", is_staff=True), tenant3)
    anonymous = api(None, tenant3)
    failures = []
    for path in paths:
        for client in (admin, anonymous):
            response = client.options(path)
            if response.status_code >= 500:
                failures.append((path, response.status_code))
    assert failures == []
