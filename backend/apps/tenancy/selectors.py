"""Reads of the company settings that other areas use."""

from __future__ import annotations

from apps.tenancy.context import get_current_tenant_id
from apps.tenancy.models import Tenant

DEFAULT_PAYMENT_TERMS_DAYS = 30


def company_payment_terms_days(tenant_id: int | None = None) -> int:
    """The company's default payment terms (days): what a new customer gets unless it is given others."""
    tenant_id = tenant_id if tenant_id is not None else get_current_tenant_id()
    if tenant_id is None:
        return DEFAULT_PAYMENT_TERMS_DAYS
    terms = Tenant.objects.filter(pk=tenant_id).values_list("payment_terms_days", flat=True).first()
    return DEFAULT_PAYMENT_TERMS_DAYS if terms is None else terms
