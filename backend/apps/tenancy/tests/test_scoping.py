"""The tenant-scoped managers fail closed; cross-tenant foreign keys are refused."""

import pytest
from django.core.exceptions import ValidationError

from apps.suppliers.models import ParentVendor, Supplier
from apps.tenancy.context import TenantNotSet, tenant_context

pytestmark = pytest.mark.django_db


def test_querying_outside_a_tenant_raises(tenant2):
    with tenant_context(tenant2):
        ParentVendor.objects.create(name="A")
    with pytest.raises(TenantNotSet):
        list(ParentVendor.objects.all())
    with pytest.raises(TenantNotSet):
        ParentVendor.objects.count()
    with pytest.raises(TenantNotSet):
        ParentVendor.objects.filter(name="A").exists()


def test_saving_outside_a_tenant_raises(tenant2):
    with pytest.raises(TenantNotSet):
        ParentVendor.objects.create(name="A")


def test_the_manager_only_returns_the_current_tenants_rows(tenant2, tenant3):
    with tenant_context(tenant2):
        ParentVendor.objects.create(name="A")
    with tenant_context(tenant3):
        ParentVendor.objects.create(name="B")
        assert list(ParentVendor.objects.values_list("name", flat=True)) == ["B"]


def test_a_foreign_key_to_another_tenants_row_is_refused(tenant2, tenant3):
    with tenant_context(tenant2):
        foreign_vendor = ParentVendor.objects.create(name="A")
    with tenant_context(tenant3), pytest.raises(ValidationError):
        Supplier.objects.create(parent_vendor_id=foreign_vendor.pk, number="S1", name="x")


def test_a_row_of_another_tenant_cannot_be_saved_under_this_one(tenant2, tenant3):
    with tenant_context(tenant2):
        vendor = ParentVendor.objects.create(name="A")
    with tenant_context(tenant3), pytest.raises(TenantNotSet):
        vendor.name = "changed"
        vendor.save()


def test_bulk_create_refuses_a_foreign_key_to_another_tenants_row(tenant2, tenant3):
    with tenant_context(tenant2):
        foreign_vendor = ParentVendor.objects.create(name="A")
    with tenant_context(tenant3):
        own_vendor = ParentVendor.objects.create(name="B")
        rows = [
            Supplier(parent_vendor_id=own_vendor.pk, number="S1", name="ok"),
            Supplier(parent_vendor_id=foreign_vendor.pk, number="S2", name="foreign"),
        ]
        with pytest.raises(ValidationError) as excinfo:
            Supplier.objects.bulk_create(rows)
        assert "parent_vendor" in excinfo.value.message_dict
        assert not Supplier.objects.exists()
        # A loaded related object of another tenant is refused without a query.
        with pytest.raises(ValidationError):
            Supplier.objects.bulk_create([Supplier(parent_vendor=foreign_vendor, number="S3", name="x")])
        # Missing ids are refused too (they would only fail at commit on PostgreSQL).
        with pytest.raises(ValidationError):
            Supplier.objects.bulk_create([Supplier(parent_vendor_id=999999, number="S4", name="x")])


def test_bulk_create_checks_foreign_keys_with_one_query_per_related_model(tenant3, count_queries):
    with tenant_context(tenant3):
        vendors = [ParentVendor.objects.create(name=f"V{i}") for i in range(5)]

        def create(n):
            rows = [
                Supplier(parent_vendor_id=vendors[i % 5].pk, number=f"N{n}-{i}", name="x") for i in range(n)
            ]
            return lambda: Supplier.objects.bulk_create(rows)

        assert count_queries(create(1)) == count_queries(create(20))
        assert Supplier.objects.count() == 21


def _view_querysets():
    """The class-level `queryset` of every view the URLconf routes to."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern):
                view = getattr(pattern.callback, "cls", None)
                queryset = getattr(view, "queryset", None)
                if queryset is not None:
                    yield view, queryset

    return list(walk(get_resolver().url_patterns))


def test_no_view_keeps_a_queryset_scoped_to_the_tenant_it_was_imported_in(api, make_user, tenant2, tenant3):
    """A view's class-level queryset is built when its module is imported: scoped to no tenant, so that
    each request scopes it to its own. A request sent from inside a tenant context starts in none."""
    from apps.products.models import Product
    from apps.tenancy.managers import TenantQuerySet

    with tenant_context(tenant2):
        Product.objects.create(article_number="T2-1", name="Theirs")
    with tenant_context(tenant3):  # the test's own tenant is not the request's
        response = api(make_user(tenant2, "Administrator"), tenant2).get("/api/products/")
    assert [row["article_number"] for row in response.json()["data"]["results"]] == ["T2-1"]
    scoped = [
        view.__name__
        for view, queryset in _view_querysets()
        if isinstance(queryset, TenantQuerySet) and not queryset._tenant_missing
    ]
    assert _view_querysets() and scoped == []
