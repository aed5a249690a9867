from .context import _current_tenant_id


class TenantContextMiddleware:
    """Guarantees that no tenant leaks from one request into the next on a reused thread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _current_tenant_id.set(None)
        try:
            return self.get_response(request)
        finally:
            _current_tenant_id.reset(token)
