import pytest

from apps.eudr.tests.conftest import _fast_passwords  # noqa: F401
from apps.eudr.tests.factories import world
from apps.users.models import Role


@pytest.fixture
def lab(tenant3, tenant2, in_tenant, make_user):
    """The EUDR test world, with cartons: vendor A 3 cartons in two batches, vendor B 2, tenant 2 one.
    Supplier users are given the report lab (their default role does not have it)."""
    from django.contrib.auth.models import Permission

    from apps.eudr.tests import factories

    w = world(tenant3, tenant2, in_tenant, make_user)
    with in_tenant(tenant3):
        w.delivery_a = factories.delivery(w.vendor_a, weight="1000")
        w.delivery_b = factories.delivery(w.vendor_b, weight="400")
        factories.generate(w.delivery_a, w.line_a, 2, code="20261101A")
        factories.generate(w.delivery_a, w.line_a, 1, code="20261102A")
        factories.generate(w.delivery_b, w.line_b, 2, code="20261101B")
        role = Role.objects.get(name="Supplier")
        role.permissions.add(
            Permission.objects.get(content_type__app_label="reports", codename="view_savedreport")
        )
    with in_tenant(tenant2):
        w.delivery_x = factories.delivery(w.vendor_x, weight="500")
        factories.generate(w.delivery_x, w.line_x, 1, code="20261101X")
    return w
