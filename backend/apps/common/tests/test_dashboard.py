import pytest

pytestmark = pytest.mark.django_db


def test_dashboard_counts_only_what_the_user_may_view(tenant3, make_user, api, in_tenant):
    from apps.suppliers.models import ParentVendor, Supplier

    with in_tenant(tenant3):
        vendor = ParentVendor.objects.create(name="V")
        Supplier.objects.create(parent_vendor=vendor, number="1", name="F")
    admin = api(make_user(tenant3), tenant3).get("/api/common/dashboard/").json()["data"]["counts"]
    assert admin["suppliers"] == 1
    sales = (
        api(make_user(tenant3, role="Sales"), tenant3).get("/api/common/dashboard/").json()["data"]["counts"]
    )
    assert "suppliers" not in sales
