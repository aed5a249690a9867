from .context import _current_tenant_id


class TenantContextMiddleware:
    """Guarantees that no tenant leaks from one request into the next on a reused thread, and that a
    streamed response is read inside the tenant its request entered (apps/tenancy/streaming.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from .streaming import bind_stream_to_tenant

        token = _current_tenant_id.set(None)
        try:
            response = self.get_response(request)
            return bind_stream_to_tenant(response, _current_tenant_id.get())
        finally:
            _current_tenant_id.reset(token)
