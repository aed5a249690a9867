import pytest

from apps.suppliers.models import ParentVendor, Supplier


@pytest.fixture
def world(tenant2, tenant3, in_tenant, make_user):
    """Tenant 3 with two parent vendors (A with two suppliers, B with one), tenant 2 with one of each,
    and users of every kind."""
    with in_tenant(tenant3):
        vendor_a = ParentVendor.objects.create(name="Vendor A", cname="甲", code="PV-A", country="CN")
        vendor_b = ParentVendor.objects.create(name="Vendor B", cname="乙", code="PV-B", country="CN")
        supplier_a1 = Supplier.objects.create(
            parent_vendor=vendor_a, number="S-A1", name="Factory A1", country="CN"
        )
        supplier_a2 = Supplier.objects.create(
            parent_vendor=vendor_a, number="S-A2", name="Factory A2", country="VN"
        )
        supplier_b1 = Supplier.objects.create(
            parent_vendor=vendor_b, number="S-B1", name="Factory B1", country="CN"
        )
    with in_tenant(tenant2):
        vendor_x = ParentVendor.objects.create(name="Vendor X", code="PV-X")
        supplier_x = Supplier.objects.create(parent_vendor=vendor_x, number="S-X", name="Factory X")
    return {
        "admin": make_user(tenant3, username="boss"),
        "purchaser": make_user(tenant3, role="Purchasing", username="buyer"),
        "sales": make_user(tenant3, role="Sales", username="seller"),
        "warehouse": make_user(tenant3, role="Warehouse", username="wh", is_warehouse=True),
        "supplier_a": make_user(
            tenant3, role="Supplier", username="sa", is_supplier=True, parent_vendor=vendor_a
        ),
        "supplier_b": make_user(
            tenant3, role="Supplier", username="sb", is_supplier=True, parent_vendor=vendor_b
        ),
        "other_admin": make_user(tenant2, username="stranger"),
        "vendor_a": vendor_a,
        "vendor_b": vendor_b,
        "vendor_x": vendor_x,
        "a1": supplier_a1,
        "a2": supplier_a2,
        "b1": supplier_b1,
        "x": supplier_x,
    }


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
