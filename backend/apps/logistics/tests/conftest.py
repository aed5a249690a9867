from apps.purchaseorders.tests.conftest import _fast_passwords, issue_labels, make_order, world  # noqa: F401
from apps.salesorders.tests.conftest import bare_order, put_stock, sales_world  # noqa: F401
