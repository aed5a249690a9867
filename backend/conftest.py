"""Shared test fixtures.

- Tests run on PostgreSQL when DATABASE_URL is set (as an ordinary role, so row-level security is really
  tested), on SQLite otherwise; `@pytest.mark.postgres` tests are skipped on SQLite with the reason shown.
- `tenant2`, `tenant3`: two tenants; `in_tenant(t)` enters one (needed to create rows: the managers and,
  on PostgreSQL, RLS refuse rows outside a tenant).
- `api(user, tenant)`: a DRF client signed in as `user` whose requests carry `?tenant_id=` of `tenant`.
- `make_user(...)`: a user with a membership and roles in a tenant.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlparse, urlunparse

import pytest
from django.conf import settings
from django.db import connection
from django.utils import translation
from rest_framework.test import APIClient

from apps.tenancy.context import _current_tenant_id, tenant_context
from apps.tenancy.models import Membership, Tenant


def pytest_collection_modifyitems(config, items):
    # The files marked `runs_long` are collected first. `make test-backend` hands whole files to its worker
    # processes in collection order (pytest-xdist --dist loadfile): a long file handed out last kept one
    # worker busy for minutes after the other had finished; handed out first, the other worker takes the
    # short files meanwhile. The order within each group is unchanged.
    items.sort(key=lambda item: "runs_long" not in item.keywords)
    if settings.IS_POSTGRES:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL): row-level security / row locks")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.NOTIFICATIONS_OUTBOX_DIR = tmp_path / "outbox"


@pytest.fixture(autouse=True)
def _language_per_test():
    """A request's Accept-Language stays active on the thread after the response (LocaleMiddleware does
    not reset it): each test starts and ends in the default language, so messages of code called
    outside a request do not depend on the test that ran before."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate counters (throttles, the outbound client's per-company limits) start at zero in every test: the
    test cache is local memory, and a count left by an earlier test must not refuse a later one's call."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _no_search_verdicts():
    """Terms found too common for their grams are remembered per process (apps/common/search_index.py):
    tenant ids repeat from test to test, so each test starts with none."""
    from apps.common import search_index

    search_index.verdicts_forget()
    yield


@pytest.fixture(autouse=True)
def _no_lockout_leak(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK}


@pytest.fixture
def in_tenant():
    return tenant_context


@pytest.fixture
def tenant2(db):
    return Tenant.objects.create(pk=2, name="Nordic Packaging AB", code="nordic")


@pytest.fixture
def tenant3(db):
    return Tenant.objects.create(pk=3, name="EuroTrade Goods BV", code="eurotrade", eori_number="NL862345678")


@pytest.fixture
def roles(db):
    """role name -> Role, per tenant id, created lazily."""
    from apps.users.roles import roles_ensure_defaults

    cache: dict[int, dict] = {}

    def get(tenant: Tenant, name: str):
        if tenant.pk not in cache:
            with tenant_context(tenant):
                cache[tenant.pk] = roles_ensure_defaults()
        return cache[tenant.pk][name]

    return get


@pytest.fixture
def make_user(db, roles):
    from apps.users.models import User

    counter = {"n": 0}

    def make(
        tenant: Tenant | None = None,
        role: str | None = "Administrator",
        *,
        username: str | None = None,
        tenants: list[Tenant] | None = None,
        password: str = "demo1234",
        **fields,
    ) -> User:
        counter["n"] += 1
        user = User.objects.create_user(
            username=username or f"user{counter['n']}", password=password, **fields
        )
        for t in tenants or ([tenant] if tenant else []):
            membership = Membership.objects.create(user=user, tenant=t)
            if role:
                with tenant_context(t):
                    membership.roles.set([roles(t, role)])
        return user

    return make


class TenantClient(APIClient):
    """An APIClient that appends ?tenant_id= to every request (unless the path already has one)."""

    tenant_id: int | None = None

    def _with_tenant(self, path: str) -> str:
        if self.tenant_id is None:
            return path
        parts = urlparse(path)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        query.setdefault("tenant_id", str(self.tenant_id))
        return urlunparse(parts._replace(query=urlencode(query)))

    def generic(self, method, path, *args, **kwargs):
        # A request starts in no tenant, as on a server's thread, even when the test sends it from inside
        # tenant_context(): otherwise whatever the request imports first (the URLconf, from
        # LocaleMiddleware) would build its class-level querysets scoped to the test's tenant.
        token = _current_tenant_id.set(None)
        try:
            return super().generic(method, self._with_tenant(path), *args, **kwargs)
        finally:
            _current_tenant_id.reset(token)

    def get(self, path, data=None, follow=False, **extra):
        if data:
            path = f"{path}{'&' if '?' in path else '?'}{urlencode(data, doseq=True)}"
        return super().get(self._with_tenant(path), None, follow, **extra)


@pytest.fixture
def api():
    def make(user=None, tenant: Tenant | int | None = None) -> TenantClient:
        client = TenantClient()
        client.tenant_id = tenant.pk if isinstance(tenant, Tenant) else tenant
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def pg_role_check():
    """Fails loudly when the tests would connect as a role that bypasses row-level security."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        superuser, bypass = cursor.fetchone()
    assert not superuser and not bypass, (
        "Tests connect as a superuser or BYPASSRLS role: row-level security would be bypassed. "
        "Use an ordinary role (see docs/tenancy.md; `make pg-role`)."
    )


@pytest.fixture
def count_queries():
    """count_queries(fn) -> number of SQL queries fn() ran (compare 1 row with many: must be equal)."""
    from django.test.utils import CaptureQueriesContext

    def run(fn) -> int:
        with CaptureQueriesContext(connection) as context:
            fn()
        return len(context.captured_queries)

    return run
