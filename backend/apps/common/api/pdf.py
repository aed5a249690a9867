"""PDF answers of the API: the sales documents' and the purchase order's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from rest_framework.views import APIView

PDF_RESPONSE = {(200, "application/pdf"): OpenApiTypes.BINARY}


if TYPE_CHECKING:
    _Base = APIView
else:
    _Base = object


class PdfNegotiationMixin(_Base):
    """A PDF action answers a file whatever the Accept header asks (no 406)."""

    pdf_actions: tuple[str, ...] = ()

    def perform_content_negotiation(self, request, force=False):
        if getattr(self, "action", None) in self.pdf_actions:
            renderer = self.get_renderers()[0]
            return renderer, renderer.media_type
        return super().perform_content_negotiation(request, force)


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
