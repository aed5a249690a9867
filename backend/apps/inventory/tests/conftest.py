import pytest

from apps.purchaseorders.tests.conftest import _fast_passwords, issue_labels, make_order, world  # noqa: F401


@pytest.fixture
def shelf(world, in_tenant):  # noqa: F811
    from apps.inventory.models import Location

    with in_tenant(world["tenant3"]):
        return Location.objects.get(code="A-01")
