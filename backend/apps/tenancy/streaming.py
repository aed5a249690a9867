"""Streamed responses read inside the tenant, by construction.

A StreamingHttpResponse is consumed after the view has returned: the request's transaction
(ATOMIC_REQUESTS) is over, so on PostgreSQL the row-level-security setting `app.tenant_id` is gone (every
query would see no rows: a label PDF of zero pages) and the tenant context variable has been reset.

No view has to remember this: `TenantContextMiddleware` hands every streamed response of a request that
entered a tenant to `bind_stream_to_tenant`, which re-enters that tenant, in one read transaction of its
own, for as long as the stream is read. A view simply returns `StreamingHttpResponse(generator)`.
Plain file downloads (`FileResponse` of a stored file) read no rows and are left as they are, so the
server can still send them with `wsgi.file_wrapper`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from django.db import transaction
from django.http import FileResponse, HttpResponseBase, StreamingHttpResponse

from apps.tenancy.context import get_current_tenant_id, tenant_context

T = TypeVar("T")


def tenant_stream(produce: Callable[[], Iterable[T]], *, tenant_id: int | None = None) -> Iterator[T]:
    """Call `produce()` lazily, inside the tenant (the current one, captured now, unless given) and one
    read transaction."""
    if tenant_id is None:
        tenant_id = get_current_tenant_id()

    def generate() -> Iterator[T]:
        with transaction.atomic(), tenant_context(tenant_id):
            yield from produce()

    return generate()


def bind_stream_to_tenant(response: HttpResponseBase, tenant_id: int | None) -> HttpResponseBase:
    """Make a streamed response read its rows inside `tenant_id` (no-op for other responses)."""
    if tenant_id is None or not getattr(response, "streaming", False):
        return response
    if isinstance(response, FileResponse) and getattr(response, "file_to_stream", None) is not None:
        return response
    if getattr(response, "_tenant_bound", False):
        return response
    assert isinstance(response, StreamingHttpResponse)  # `streaming` is set only by StreamingHttpResponse
    original: Any = response.streaming_content  # a synchronous iterator under WSGI
    response.streaming_content = tenant_stream(lambda: original, tenant_id=tenant_id)
    response._tenant_bound = True  # type: ignore[attr-defined]
    return response
