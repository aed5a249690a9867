"""Actions of a delivery that only internal users take (`internal_only_actions`, checked by the
InternalOnlyActions permission of every tenant-scoped view): a supplier user of the delivery's own
vendor gets 403 with the sentence, before the record is looked up, and nothing changes."""

import pytest

from apps.eudr.models import CapApproval, RawMaterialDelivery

from . import factories

pytestmark = pytest.mark.django_db

RAW = "/api/eudr/raw-materials/"
DDS_ONLY = "Only internal users record the filed due diligence statement."


@pytest.fixture
def delivery(eudr_world, in_tenant):
    with in_tenant(eudr_world.tenant3):
        return factories.delivery(eudr_world.vendor_a)


@pytest.mark.parametrize(
    ("method", "path", "body", "message"),
    [
        ("post", "set-status/", {"status": "inactive"}, "Only internal users change a delivery's status."),
        ("post", "approve-over-cap/", {"extra_cartons": 5, "reason": "more"}, None),
        (
            "post",
            "filed-dds/",
            {"dds_reference_number": "26NLQ8M3ZP41TK", "dds_verification_number": "K7"},
            DDS_ONLY,
        ),
        ("delete", "filed-dds/", None, DDS_ONLY),
    ],
)
def test_supplier_users_are_refused_with_the_reason(
    eudr_world, api, in_tenant, delivery, method, path, body, message
):
    w = eudr_world
    client = api(w.supplier_a, w.tenant3)
    kwargs = {"format": "json"} if body is not None else {}
    response = getattr(client, method)(f"{RAW}{delivery.pk}/{path}", body, **kwargs)
    assert response.status_code == 403
    payload = response.json()
    assert payload["error"] == "permission_denied"
    if message:
        assert payload["message"] == message
    # before the lookup: a delivery that does not exist is refused the same way, not 404
    missing = getattr(client, method)(f"{RAW}999999/{path}", body, **kwargs)
    assert missing.status_code == 403
    with in_tenant(w.tenant3):
        fresh = RawMaterialDelivery.objects.get(pk=delivery.pk)
        assert fresh.status == delivery.status
        assert fresh.dds_reference_number == delivery.dds_reference_number
        assert not CapApproval.objects.filter(delivery=fresh).exists()


def test_internal_users_take_the_actions(eudr_world, api, delivery):
    response = api(eudr_world.purchaser, eudr_world.tenant3).post(
        f"{RAW}{delivery.pk}/set-status/", {"status": "inactive"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["data"]["status"] == "inactive"


def _view_for(user):
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from apps.eudr.api.views import RawMaterialDeliveryViewSet

    view = RawMaterialDeliveryViewSet()
    view.request = Request(APIRequestFactory().get(RAW))
    view.request.user = user
    view.format_kwarg = None
    return view


def test_a_write_is_rechecked_against_what_the_user_may_see(eudr_world, in_tenant, django_assert_num_queries):
    """The base viewset's check after a write: a supplier user's row of another vendor is refused."""
    from apps.common.errors import OutsideParentVendor

    w = eudr_world
    with in_tenant(w.tenant3):
        own = factories.delivery(w.vendor_a)
        other = factories.delivery(w.vendor_b)
        supplier_view = _view_for(w.supplier_a)
        supplier_view.check_visible(own)
        with pytest.raises(OutsideParentVendor) as refused:
            supplier_view.check_visible(other)
        assert (refused.value.status_code, refused.value.error) == (403, "permission_denied")
        # internal users: the tenant base model already enforces the tenant, no extra query
        with django_assert_num_queries(0):
            _view_for(w.purchaser).check_visible(other)
