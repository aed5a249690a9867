"""Where a tenant's files live in the storage: every path starts with `tenants/<tenant id>/`.

The prefix comes from the row when it already has its tenant, otherwise from the tenant the code runs in
(a file is often saved before its row, with `save=False`, when the row's tenant is not set yet). Outside
any tenant it fails closed instead of writing under `tenants/None/`.
"""

from __future__ import annotations

from .context import require_tenant_id


def tenant_prefix(instance) -> str:
    tenant_id = getattr(instance, "tenant_id", None) or require_tenant_id()
    return f"tenants/{tenant_id}"
