from apps.purchaseorders.tests.conftest import _fast_passwords, issue_labels, make_order, world  # noqa: F401
