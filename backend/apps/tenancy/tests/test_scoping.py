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
