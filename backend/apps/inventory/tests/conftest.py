from apps.purchaseorders.tests.conftest import _fast_passwords, make_order, world  # noqa: F401
