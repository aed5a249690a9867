import pytest

from apps.purchaseorders.tests.conftest import _fast_passwords, issue_labels, make_order  # noqa: F401
from apps.salesorders.tests import conftest as sales

world = sales.world
sales_world = sales.sales_world
put_stock = sales.put_stock
bare_order = sales.bare_order


@pytest.fixture
def shelf(world, in_tenant):
    from apps.inventory.models import Location

    with in_tenant(world["tenant3"]):
        return Location.objects.get(code="A-01")


carton_codes = sales.carton_codes
make_sales_order = sales.make_sales_order
