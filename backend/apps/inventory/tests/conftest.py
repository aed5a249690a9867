from apps.purchaseorders.tests.conftest import _fast_passwords, make_order  # noqa: F401
from apps.salesorders.tests import conftest as sales

world = sales.world
sales_world = sales.sales_world
put_stock = sales.put_stock
bare_order = sales.bare_order
