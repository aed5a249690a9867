"""The demo has one company in each EUDR role (docs/eudr.md, "The company's role"): a micro or small primary
operator with its simplified declaration identifier, a downstream trader keeping its suppliers' reference
numbers, and the importing operator that files statements."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from apps.eudr.received_models import ReceivedReference
from apps.eudr.references import is_verification, reference_kind
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant

pytestmark = pytest.mark.django_db


def test_one_company_in_each_role_and_the_downstream_traders_references():
    call_command("load_demo", stdout=io.StringIO())
    sandbox, nordic, eurotrade = (Tenant.objects.get(pk=pk) for pk in (1, 2, 3))
    assert sandbox.eudr_primary_role == "micro_small_primary"
    assert reference_kind(sandbox.simplified_declaration_id) == "sd"
    assert nordic.eudr_purchase_role == "downstream" and nordic.eudr_import_role == "none"
    assert eurotrade.eudr_import_role == "operator"
    with tenant_context(nordic):
        kept = list(ReceivedReference.objects.order_by("received_on"))
    assert {r.kind for r in kept} == {"dds", "sd"}
    for reference in kept:
        assert reference_kind(reference.reference_number) == reference.kind
        assert is_verification(reference.verification_number)
        assert reference.keep_until.year == reference.received_on.year + 5
        # not verified: the demo has no TRACES account, the page's "Verify" asks the system
        assert reference.verification_result == "" and reference.verified_at is None
    with tenant_context(eurotrade):
        assert not ReceivedReference.objects.exists()
    # loading again adds nothing
    call_command("load_demo", stdout=io.StringIO())
    with tenant_context(nordic):
        assert ReceivedReference.objects.count() == len(kept)
