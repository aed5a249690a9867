"""The public carton trace (GET /api/eudrtrack/{code}/): no sign-in, no tenant_id, rate-limited, cacheable.

The answer is precomputed per carton (apps/eudr/trace_store.py) and served by a middleware before any
of this runs (apps/eudr/public_trace_fast.py); this view answers what the fast path leaves: an unknown
code (404), a client over its rate (429) and a carton whose answer is not stored yet (built from the
live rows, apps/eudr/public_trace.py, and stored). Responses carry `Cache-Control: public, max-age=N,
s-maxage=N` (the company's `public_trace_max_age`) and a strong ETag (If-None-Match -> 304).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.common.api.throttling import ScopedClientThrottle
from apps.eudr import trace_store
from apps.eudr.errors import CartonNotFound
from apps.eudr.public_trace import public_trace_of
from apps.eudr.public_trace_fast import CHECKED, answer


class PublicTraceThrottle(ScopedClientThrottle):
    """Per client address (apps.common.client_ip); the rate is read at request time (PUBLIC_TRACE_RATE).

    A counter, not DRF's list of every request's time: the window opens with a client's first request
    and lasts the rate's period (the counter's expiry), each request adds one (`add`, then `incr`: two
    small operations in Redis or local memory). DRF's list is read, unpickled, pickled and written whole
    on every request, which at a rate of thousands per minute cost more than the rest of a scan. Over the
    limit, `Retry-After` is the period (at most that long until the window closes)."""

    def allow_request(self, request, view):
        self.scope = getattr(view, self.scope_attr, None)
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        key = self.cache_format % {"scope": self.scope, "ident": f"n_{self.get_ident(request)}"}
        if self.cache.add(key, 1, self.duration):
            return True
        try:
            count = self.cache.incr(key)
        except ValueError:  # expired between the two: a new window
            self.cache.add(key, 1, self.duration)
            return True
        return count <= self.num_requests

    def wait(self):
        return self.duration


class PublicSupplierSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="Parent vendor name")
    cname = serializers.CharField(help_text="Parent vendor name in Chinese (may be empty)")


class PublicSpeciesSerializer(serializers.Serializer):
    scientific_name = serializers.CharField()
    common_name = serializers.CharField()


class PublicOriginSerializer(serializers.Serializer):
    country_code = serializers.CharField(help_text="ISO 3166-1 alpha-2")
    country_name = serializers.CharField()
    species = PublicSpeciesSerializer(many=True)
    forest_supplier_name = serializers.CharField()
    harvest_begin_month = serializers.CharField(help_text="YYYY-MM or empty")
    harvest_end_month = serializers.CharField(help_text="YYYY-MM or empty")


class PublicCertificationSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["FM", "COC"], help_text="Forest management or chain of custody")
    scheme = serializers.CharField(help_text="FSC, PEFC, other or empty")
    claim = serializers.CharField()
    certificate_number = serializers.CharField()
    valid_until = serializers.DateField(allow_null=True)


class PublicWarehouseStepSerializer(serializers.Serializer):
    kind = serializers.CharField(
        help_text="received (scanned in), stocked (posted to stock), put_away (moved inside the "
        "warehouse), shipped or delivered (the sales shipment reached its customer)"
    )
    date = serializers.DateField()
    country_code = serializers.CharField(help_text="Country of the company that held the carton")


class PublicTraceSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The carton's public code (the QR code's)")
    article_number = serializers.CharField()
    product_name = serializers.CharField()
    product_name_zh = serializers.CharField()
    production_batch_code = serializers.CharField()
    production_date = serializers.DateField(allow_null=True, help_text="From the batch code (date + letter)")
    batch_sequence = serializers.IntegerField()
    supplier = PublicSupplierSerializer()
    origin = PublicOriginSerializer()
    certifications = PublicCertificationSerializer(many=True)
    geolocation_confidential = serializers.BooleanField(
        help_text="True: the producer keeps the plots confidential; `plots` is then null"
    )
    plots_under_review = serializers.BooleanField(
        help_text="True: a plot lies outside its country of production and is being checked; `plots` is "
        "then null"
    )
    plots = serializers.JSONField(
        allow_null=True,
        help_text="GeoJSON FeatureCollection of the validated plots (properties ProducerName, ProducerCountry, "
        "ProductionPlace, Area and the computed area_ha), or null",
    )
    dds_reference_number = serializers.CharField(
        help_text="The reference number of the operator's filed due diligence statement, else of the "
        "referenced upstream statement (never a verification number); may be empty"
    )
    dds_reference_kind = serializers.ChoiceField(
        choices=["own", "upstream", ""],
        help_text="`own`: the operator's own statement; `upstream`: another operator's statement the paper "
        "came under (shown as such); empty when there is none",
    )
    warehouse_history = PublicWarehouseStepSerializer(
        many=True, required=False, help_text="Warehouse steps (never the customer)"
    )


ERROR_ENVELOPE = inline_serializer(
    "PublicTraceError",
    fields={
        "code": serializers.IntegerField(),
        "message": serializers.CharField(),
        "error": serializers.CharField(),
        "data": serializers.JSONField(allow_null=True),
    },
)


class PublicTraceView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [PublicTraceThrottle]
    throttle_scope = "public_trace"

    def get_throttles(self):
        # The fast path (apps/eudr/public_trace_fast.py) counted this request already.
        if getattr(self.request._request, CHECKED, False):
            return []
        return super().get_throttles()

    @extend_schema(
        operation_id="eudrtrack_retrieve",
        summary="Public trace of one carton (no sign-in, no tenant_id)",
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                required=False,
                description="The ETag of a cached response: 304 when unchanged",
            )
        ],
        responses={
            200: PublicTraceSerializer,
            304: OpenApiResponse(description="Not modified (the ETag matches)"),
            404: OpenApiResponse(response=ERROR_ENVELOPE, description="carton_not_found"),
            429: OpenApiResponse(
                response=ERROR_ENVELOPE, description="Too many requests (rate limit `public_trace`)"
            ),
        },
        auth=[],
        tags=["eudrtrack"],
    )
    def get(self, request, code: str):
        """The slow path: the carton's answer is not stored yet (a carton whose rebuild has not run or
        failed), so it is built from the live rows, stored for the next scan and answered alike."""
        found = public_trace_of(code, then=trace_store.store_one)
        if found is None:
            raise CartonNotFound()
        return answer(request._request, *found)
