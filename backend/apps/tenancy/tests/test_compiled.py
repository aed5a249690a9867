"""Queries compiled once per process give what the queryset itself gives, for each request's own values."""

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.common.api import permissions as api_permissions
from apps.eudr.models import RawMaterialDelivery
from apps.tenancy.compiled import CompiledOnce
from apps.tenancy.models import Membership
from apps.tenancy.permissions import _ROLE_PERMISSIONS, tenant_permissions

pytestmark = pytest.mark.django_db


def _memberships():
    return CompiledOnce(
        lambda user, tenant: Membership.objects.select_related("tenant").filter(
            user_id=user, tenant_id=tenant
        ),
        "user",
        "tenant",
    )


def test_model_rows_with_their_relation_are_those_of_the_queryset(tenant2, tenant3, make_user):
    first = make_user(tenants=[tenant2, tenant3])
    second = make_user(tenant3)
    compiled = _memberships()
    for user, tenant in [(first, tenant2), (first, tenant3), (second, tenant3), (second, tenant2)]:
        expected = list(Membership.objects.select_related("tenant").filter(user=user, tenant=tenant))
        got = compiled.all(user=user.pk, tenant=tenant.pk)
        assert [m.pk for m in got] == [m.pk for m in expected]
        for found, wanted in zip(got, expected, strict=True):
            assert (found.user_id, found.tenant_id, found.is_active, found.created_at) == (
                wanted.user_id,
                wanted.tenant_id,
                wanted.is_active,
                wanted.created_at,
            )
            with CaptureQueriesContext(connection) as later:
                assert found.tenant.name == wanted.tenant.name  # came with the row: no statement
            assert len(later.captured_queries) == 0
    assert compiled.all(user=second.pk, tenant=tenant2.pk) == []


def test_the_sql_is_compiled_once_and_bound_anew(tenant2, tenant3, make_user, monkeypatch):
    user = make_user(tenants=[tenant2, tenant3])
    compiled = _memberships()
    compiles = []
    original = CompiledOnce._compile
    monkeypatch.setattr(
        CompiledOnce, "_compile", lambda self, using: compiles.append(using) or original(self, using)
    )
    with CaptureQueriesContext(connection) as captured:
        assert compiled.all(user=user.pk, tenant=tenant2.pk)[0].tenant_id == tenant2.pk
        assert compiled.all(user=user.pk, tenant=tenant3.pk)[0].tenant_id == tenant3.pk
    assert compiles == ["default"]
    assert captured.captured_queries[0]["sql"] != captured.captured_queries[1]["sql"]  # the values differ


def test_value_rows_are_those_of_values_list(tenant3, make_user, in_tenant):
    user = make_user(tenant3, "Administrator")
    with in_tenant(tenant3):  # row-level security on the roles
        expected = set(
            Permission.objects.filter(
                roles__memberships__user=user,
                roles__memberships__tenant=tenant3,
                roles__memberships__is_active=True,
            ).values_list("content_type__app_label", "codename")
        )
        got = _ROLE_PERMISSIONS.rows(user=user.pk, tenant=tenant3.pk)
        assert got and set(got) == expected
        assert len(got) == len(expected)  # distinct
        assert "eudr.view_rawmaterialdelivery" in tenant_permissions(user, tenant3)


def test_a_tenant_scoped_queryset_or_a_value_it_does_not_bind_is_refused(tenant3, in_tenant):
    with in_tenant(tenant3):
        scoped = CompiledOnce(lambda number: RawMaterialDelivery.objects.filter(pk=number), "number")
        with pytest.raises(TypeError):
            scoped.all(number=1)
    unbound = CompiledOnce(lambda user, tenant: Membership.objects.filter(user_id=user), "user", "tenant")
    with pytest.raises(ValueError):
        unbound.all(user=1, tenant=2)


@pytest.mark.parametrize(
    ("tenant_id", "status"),
    [("99999999999999999999999999", 403), ("9223372036854775807", 403), ("²", 400), ("٣", 400)],
)
def test_a_tenant_id_no_tenant_can_have_is_refused_not_an_error(tenant_id, status, api, tenant3, make_user):
    client = api(make_user(tenant3), None)
    response = client.get(f"/api/eudr/raw-materials/?tenant_id={tenant_id}")
    assert response.status_code == status, response.content


def test_the_request_membership_comes_from_the_compiled_read(api, tenant3, make_user, monkeypatch):
    calls = []
    original = api_permissions._MEMBERSHIP_ENTERING.all

    def counting(**values):
        calls.append(values)
        return original(**values)

    monkeypatch.setattr(api_permissions._MEMBERSHIP_ENTERING, "all", counting)
    user = make_user(tenant3)
    assert api(user, tenant3).get("/api/eudr/raw-materials/").status_code == 200
    if connection.vendor == "postgresql":
        assert calls == [{"user": user.pk, "tenant": tenant3.pk}]


def test_a_text_binds_as_a_value_or_as_a_contains_pattern_escaped_as_django_escapes_it(tenant2, tenant3):
    from apps.tenancy.models import Tenant

    for pk, name in [(41, "Boxes 50% off"), (42, "Single_wall"), (43, "Back\\slash"), (44, "Plain")]:
        Tenant.objects.create(pk=pk, name=name, code=f"t{pk}")
    contains = CompiledOnce(
        lambda term: Tenant.objects.filter(name__icontains=term).order_by("pk").values_list("pk"),
        texts=("term",),
    )
    exact = CompiledOnce(lambda term: Tenant.objects.filter(name=term).values_list("pk"), texts=("term",))
    for term in ["50%", "%", "_", "\\", "back\\", "pack", "PLAIN", "", "nothing"]:
        wanted = list(Tenant.objects.filter(name__icontains=term).order_by("pk").values_list("pk"))
        assert contains.rows(term=term) == wanted, term
        assert exact.rows(term=term) == list(Tenant.objects.filter(name=term).values_list("pk")), term
    assert contains.rows(term="_") == [(42,)]  # LIKE's own characters are matched as themselves
    starts = CompiledOnce(lambda term: Tenant.objects.filter(name__startswith=term), texts=("term",))
    with pytest.raises(ValueError):  # a pattern of another shape would need escaping of its own
        starts.all(term="x")


def test_a_list_of_ids_binds_as_one_parameter(tenant2, tenant3):
    from django.db.models import F

    from apps.common.api.search import EqualsAny, _ids
    from apps.tenancy.models import Tenant

    compiled = CompiledOnce(
        lambda ids: Tenant.objects.filter(EqualsAny(F("pk"), _ids(ids))).order_by("pk").values_list("pk"),
        id_lists=("ids",),
    )
    assert compiled.rows(ids=[tenant3.pk, 999]) == [(tenant3.pk,)]
    assert compiled.rows(ids=[tenant2.pk, tenant3.pk]) == [(tenant2.pk,), (tenant3.pk,)]
    assert compiled.rows(ids=[]) == []


def test_a_tenant_value_scopes_every_tenant_manager_in_the_statement(tenant2, tenant3, in_tenant):
    from django.db.models import Exists, OuterRef

    from apps.eudr.models import RawMaterialDelivery as Delivery

    def build(tenant):
        # a tenant-scoped manager at the top and in a subquery: both filter by the tenant's stand-in
        inner = Delivery.objects.filter(parent_vendor_id=OuterRef("parent_vendor_id")).exclude(
            pk=OuterRef("pk")
        )
        return Delivery.objects.filter(Exists(inner)).values_list("pk")

    compiled = CompiledOnce(build, "tenant", tenant="tenant")
    with CaptureQueriesContext(connection) as captured:
        sql, params = compiled.sql(tenant=tenant3.pk)
    assert captured.captured_queries == []  # building under the stand-in sent nothing
    assert params.count(tenant3.pk) == 2 and sql.count("tenant_id") >= 2
    assert compiled.sql(tenant=tenant2.pk)[1].count(tenant2.pk) == 2
    with in_tenant(tenant3):
        assert compiled.rows(tenant=tenant3.pk) == []
    with pytest.raises(ValueError):
        CompiledOnce(build, "number", tenant="tenant")


def test_a_counted_slice_is_the_bounded_count_and_the_slice_in_one_statement(db):
    from apps.tenancy.models import Tenant

    for number in range(4):
        Tenant.objects.create(name=f"Counted {number}", code=f"counted-{number}")

    def build(prefix):  # names containing the prefix
        return Tenant.objects.filter(name__contains=prefix).order_by("-name").values_list("name", "pk")

    compiled = CompiledOnce(build, texts=("prefix",))
    rows = compiled.rows(prefix="Counted")
    assert [name for name, _ in rows] == ["Counted 3", "Counted 2", "Counted 1", "Counted 0"]
    with CaptureQueriesContext(connection) as captured:
        assert compiled.counted_slice(1, 2, 5, prefix="Counted") == (4, rows[1:3])
    assert len(captured.captured_queries) == 1
    assert compiled.counted_slice(0, 2, 3, prefix="Counted") == (3, rows[:2])  # the count stops at the bound
    assert compiled.counted_slice(3, 2, 5, prefix="Counted") == (4, rows[3:])
    assert compiled.counted_slice(0, 2, 5, prefix="Nothing") == (0, [])
    assert compiled.counted_slice(4, 1, 5, prefix="Counted") == (None, [])  # past the end: no row counts
    with pytest.raises(ValueError):
        compiled.counted_slice(4, 2, 5, prefix="Counted")  # the page would pass the counted rows
