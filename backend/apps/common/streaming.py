"""Streaming responses that still read inside the tenant.

A StreamingHttpResponse is consumed after the view has returned: the request's transaction is over, so
on PostgreSQL the row-level-security setting is gone (every query would see no rows) and the tenant
context variable has been reset. `tenant_stream` re-enters the tenant, in a transaction of its own, for
as long as the generator runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from django.db import transaction

from apps.tenancy.context import get_current_tenant_id, tenant_context

T = TypeVar("T")


def tenant_stream(produce: Callable[[], Iterable[T]]) -> Iterator[T]:
    """Call `produce()` lazily, inside the current tenant (captured now) and one read transaction."""
    tenant_id = get_current_tenant_id()

    def generate() -> Iterator[T]:
        with transaction.atomic(), tenant_context(tenant_id):
            yield from produce()

    return generate()
