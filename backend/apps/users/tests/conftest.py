import pytest

from apps.suppliers.models import ParentVendor


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def people(tenant2, tenant3, in_tenant, make_user):
    """admin3: administrator of tenant 3 only; admin_all: administrator of 2 and 3; users of each."""
    with in_tenant(tenant3):
        vendor3 = ParentVendor.objects.create(name="Vendor Three", code="PV-3")
    with in_tenant(tenant2):
        vendor2 = ParentVendor.objects.create(name="Vendor Two", code="PV-2")
    return {
        "admin3": make_user(tenant3, username="admin3"),
        "admin_all": make_user(username="admin_all", tenants=[tenant2, tenant3]),
        "admin2": make_user(tenant2, username="admin2"),
        "buyer3": make_user(tenant3, role="Purchasing", username="buyer3", email="buyer3@example.com"),
        "sales3": make_user(tenant3, role="Sales", username="sales3"),
        "only2": make_user(tenant2, role="Sales", username="only2"),
        "both": make_user(role="Sales", username="both", tenants=[tenant2, tenant3]),
        "supplier3": make_user(
            tenant3, role="Supplier", username="supplier3", is_supplier=True, parent_vendor=vendor3
        ),
        "vendor3": vendor3,
        "vendor2": vendor2,
    }
