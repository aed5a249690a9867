"""The tenant of a public carton code, found without a tenant (the public trace page), and on PostgreSQL
under row-level security: the code's own row and nothing else."""

import pytest
from django.db import connection

from apps.eudr.models import CartonLabel
from apps.eudr.selectors import carton_tenant_for_public_code

from . import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tenants_with_cartons(eudr_world, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        d3 = factories.delivery(w.vendor_a)
        factories.generate(d3, w.line_a, 3)
        codes3 = list(CartonLabel.objects.values_list("code", flat=True))
    with in_tenant(w.tenant2):
        d2 = factories.delivery(w.vendor_x)
        factories.generate(d2, w.line_x, 2)
        codes2 = list(CartonLabel.objects.values_list("code", flat=True))
    return w, codes3, codes2


def test_finds_the_tenant_of_a_code(two_tenants_with_cartons, in_tenant):
    w, codes3, codes2 = two_tenants_with_cartons
    assert carton_tenant_for_public_code(codes3[0]) == w.tenant3.pk
    assert carton_tenant_for_public_code(codes2[1].lower()) == w.tenant2.pk
    assert carton_tenant_for_public_code("AAAAAAAAAAAAAAAAAAAA") is None
    assert carton_tenant_for_public_code("") is None
    assert carton_tenant_for_public_code("x' OR '1'='1") is None
    with in_tenant(w.tenant3):
        CartonLabel.objects.filter(code=codes3[0]).update(status="voided")
    assert carton_tenant_for_public_code(codes3[0]) is None


@pytest.mark.postgres
def test_row_level_security_shows_only_the_code_asked_for(two_tenants_with_cartons, pg_role_check):
    w, codes3, codes2 = two_tenants_with_cartons
    table = CartonLabel._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('app.tenant_id', '', true)")
        cursor.execute(f"SELECT count(*) FROM {table}")
        assert cursor.fetchone()[0] == 0  # no tenant, no code: nothing
        cursor.execute("SELECT set_config('app.public_code', %s, true)", [codes3[1]])
        cursor.execute(f"SELECT code, tenant_id FROM {table}")
        assert cursor.fetchall() == [(codes3[1], w.tenant3.pk)]  # one code reveals only its own row
        cursor.execute(f"UPDATE {table} SET container = 'X'")
        assert cursor.rowcount == 0  # the public policy is read-only
        cursor.execute("SELECT set_config('app.public_code', '', true)")
    assert carton_tenant_for_public_code(codes2[0]) == w.tenant2.pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.public_code', true)")
        assert cursor.fetchone()[0] in ("", None)  # cleared after the lookup
        cursor.execute(f"SELECT count(*) FROM {table}")
        assert cursor.fetchone()[0] == 0
