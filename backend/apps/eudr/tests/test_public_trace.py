"""The public carton trace: GET /api/eudrtrack/{code}/ (no sign-in, no tenant, nothing it must not show)."""

import json

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from apps.eudr.models import CartonLabel
from apps.eudr.tests.trace_data import (
    ORDER_NUMBER,
    UNIT_COST,
    UPSTREAM_REFERENCE,
    VERIFICATION,
    make_cartons,
    make_delivery,
)


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def cartons(tenant3, in_tenant):
    with in_tenant(tenant3):
        delivery = make_delivery()
        return make_cartons(delivery, count=3)


def url(code):
    return f"/api/eudrtrack/{code}/"


@pytest.mark.postgres
def test_trace_statements_are_pinned(cartons, django_capture_on_commit_callbacks):
    """A scan on PostgreSQL reads the carton's stored answer: one statement (apps/eudr/trace_store.py).
    Without a stored answer (the slow path, before its rebuild has run): the stored answer looked for,
    the code looked up under its own setting (set, read, cleared), the tenant entered, the carton's rows
    read, the answer stored, the tenant left; no savepoint but the request's own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = APIClient().get(url(cartons[0].code))
    assert response.status_code == 200
    statements = [q["sql"] for q in captured.captured_queries]
    # the request's own transaction (ATOMIC_REQUESTS) is a savepoint inside the test's; none other
    assert len([sql for sql in statements if "SAVEPOINT" in sql.upper()]) == 2, statements
    statements = [sql for sql in statements if "SAVEPOINT" not in sql.upper()]
    settings = [sql for sql in statements if "set_config" in sql]
    assert len(settings) == 3, statements  # the code set; cleared with the tenant entered; the tenant left
    # the stored answer (none), the code read, the label, its delivery's lines, the covering statement, the warehouse
    # history, the company's cache time, the answer stored
    assert len(statements) == 11, statements

    with CaptureQueriesContext(connection) as captured:
        again = APIClient().get(url(cartons[0].code))
    assert again.content == response.content
    assert len(captured.captured_queries) == 1, captured.captured_queries  # was 8 before it was stored


def test_trace_needs_no_sign_in_and_no_tenant(cartons, django_assert_max_num_queries):
    client = APIClient()
    # the slow path: lookup, label, lines, covering statement, history, cache time, store (+ settings
    # and savepoints on PostgreSQL)
    with django_assert_max_num_queries(15):
        response = client.get(url(cartons[0].code))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["code"] == 200
    data = body["data"]
    assert data["code"] == cartons[0].code
    assert data["article_number"] == "CT-4711"
    assert data["product_name"] == "Export carton 600x400x400"
    assert data["product_name_zh"] == "出口纸箱 600x400x400"
    assert data["production_batch_code"] == "20261121A"
    assert data["production_date"] == "2026-11-21"
    assert data["batch_sequence"] == 1
    assert data["supplier"] == {"name": "Shanghai Evergreen Packaging", "cname": "上海常青包装"}
    origin = data["origin"]
    assert origin["country_code"] == "FI"
    assert origin["country_name"] == "Finland"
    assert origin["forest_supplier_name"] == "Metsä Forest Oy"
    assert origin["species"] == [
        {"scientific_name": "Picea abies", "common_name": "Norway spruce"},
        {"scientific_name": "Pinus sylvestris", "common_name": "Scots pine"},
    ]
    assert (origin["harvest_begin_month"], origin["harvest_end_month"]) == ("2025-01", "2025-06")
    kinds = {c["kind"]: c for c in data["certifications"]}
    assert kinds["FM"]["scheme"] == "FSC" and kinds["FM"]["certificate_number"] == "FSC-C012345"
    assert kinds["COC"]["claim"] == "FSC Mix 70%" and kinds["COC"]["certificate_number"] == "SGSCH-COC-001234"
    assert data["geolocation_confidential"] is False
    plots = data["plots"]
    assert plots["type"] == "FeatureCollection" and len(plots["features"]) == 2
    assert plots["features"][0]["properties"]["area_ha"] > 0
    assert plots["features"][1]["properties"]["area_ha"] == 3.2
    assert data["dds_reference_number"] == UPSTREAM_REFERENCE
    assert data["dds_reference_kind"] == "upstream"  # shown as another operator's, never as ours


def test_trace_never_shows_verification_number_prices_orders_or_other_cartons(cartons):
    response = APIClient().get(url(cartons[1].code))
    assert response.status_code == 200
    text = response.content.decode()
    assert VERIFICATION not in text
    assert "verification" not in text.lower()
    for secret in (str(UNIT_COST), "1.8765", "0.9911", "2.4567", "98765", ORDER_NUMBER, "SC-INTERNAL-77"):
        assert secret not in text, secret
    assert "price" not in text.lower() and "cost" not in text.lower()
    assert "purchase_order" not in text and "MSKU1234565" not in text
    for other in (cartons[0].code, cartons[2].code):
        assert other not in text
    assert set(json.loads(text)["data"]) == {
        "code",
        "article_number",
        "product_name",
        "product_name_zh",
        "production_batch_code",
        "production_date",
        "batch_sequence",
        "supplier",
        "origin",
        "certifications",
        "geolocation_confidential",
        "plots_under_review",
        "plots",
        "dds_reference_number",
        "dds_reference_kind",
        "warehouse_history",
    }


def test_response_is_cacheable_with_etag(cartons):
    client = APIClient()
    response = client.get(url(cartons[0].code))
    assert response["Cache-Control"] == "public, max-age=300, s-maxage=300"
    etag = response["ETag"]
    assert etag.startswith('"')
    again = client.get(url(cartons[0].code), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    changed = client.get(url(cartons[0].code), HTTP_IF_NONE_MATCH='"stale"')
    assert changed.status_code == 200


def test_a_signed_in_user_or_a_tenant_id_changes_nothing(cartons, make_user, tenant3):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-valid-token")
    response = client.get(url(cartons[0].code) + "?tenant_id=999")
    assert response.status_code == 200
    assert response.json()["data"]["code"] == cartons[0].code


def test_lower_case_code_is_accepted(cartons):
    response = APIClient().get(url(cartons[0].code.lower()))
    assert response.status_code == 200


def test_geolocation_confidential_hides_the_plots(tenant3, in_tenant):
    with in_tenant(tenant3):
        delivery = make_delivery(geolocation_confidential=True)
        label = make_cartons(delivery, count=1)[0]
    response = APIClient().get(url(label.code))
    data = response.json()["data"]
    assert data["geolocation_confidential"] is True
    assert data["plots"] is None
    assert "27.6" not in response.content.decode()


@pytest.mark.parametrize("code", ["NOSUCHCODE123", "bad-code!", "x" * 40])
def test_unknown_code_is_a_clear_404(cartons, code):
    response = APIClient().get(url(code))
    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "carton_not_found"
    assert "No carton was found" in body["message"]
    assert body["data"] is None


def test_voided_carton_is_not_found(cartons, tenant3, in_tenant):
    with in_tenant(tenant3):
        CartonLabel.objects.filter(pk=cartons[0].pk).update(status="voided", voided_at=timezone.now())
    assert APIClient().get(url(cartons[0].code)).status_code == 404
    assert APIClient().get(url(cartons[1].code)).status_code == 200


def test_each_tenants_carton_is_found_by_its_own_code_only(tenant2, tenant3, in_tenant):
    with in_tenant(tenant3):
        ours = make_cartons(make_delivery(), count=1)[0]
    with in_tenant(tenant2):
        theirs = make_cartons(
            make_delivery(vendor_name="Ningbo Bluewave Cartons", country_code="BR", country_name="Brazil"),
            count=1,
            article="NB-1",
        )[0]
    client = APIClient()
    mine = client.get(url(ours.code)).json()["data"]
    other = client.get(url(theirs.code)).json()["data"]
    assert mine["supplier"]["name"] == "Shanghai Evergreen Packaging"
    assert other["supplier"]["name"] == "Ningbo Bluewave Cartons"
    assert other["origin"]["country_code"] == "BR"
    assert theirs.code not in json.dumps(mine) and ours.code not in json.dumps(other)


def test_trace_is_rate_limited(cartons, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "public_trace": "3/min",
        },
    }
    client = APIClient()
    statuses = [client.get(url(cartons[0].code)).status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    refused = client.get(url(cartons[0].code))
    assert refused.status_code == 429
    assert refused.json()["error"] == "throttled"
    assert "Retry-After" in refused
    # unknown codes count too: guessing codes is throttled the same way
    assert client.get(url("GUESS0001")).status_code == 429


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_trace_works_under_row_level_security(pg_role_check, tenant2, tenant3, in_tenant):
    from django.db import transaction

    with transaction.atomic(), in_tenant(tenant3):
        label = make_cartons(make_delivery(), count=1)[0]
    with transaction.atomic(), in_tenant(tenant2):
        other = make_cartons(make_delivery(vendor_name="Ningbo Bluewave Cartons"), count=1, article="NB-1")[0]
    response = APIClient().get(url(label.code))
    assert response.status_code == 200, response.content
    assert response.json()["data"]["supplier"]["name"] == "Shanghai Evergreen Packaging"
    assert APIClient().get(url(other.code)).json()["data"]["supplier"]["name"] == "Ningbo Bluewave Cartons"


def test_a_scan_costs_one_round_trip_on_a_kept_connection(monkeypatch):
    """The fast path marks the kept connection's health check done (Django then sends no SELECT 1
    before the read): its own read checks the connection. A connection that died fails that read; it is
    closed and the view answers the scan."""
    from django.db import OperationalError
    from django.db import connection as real
    from django.test import RequestFactory

    from apps.eudr import public_trace_fast

    class Cursor:
        def __init__(self, owner):
            self.owner = owner

        def __enter__(self):
            if self.owner.dead:
                raise OperationalError("server closed the connection unexpectedly")
            self.owner.checked_before_read = self.owner.health_check_done
            return self

        def __exit__(self, *args):
            return False

        def execute(self, sql, params):
            self.owner.statements.append(sql)

        def fetchone(self):
            return (b"{}", '"etag"', 300)

    class Kept:
        """A kept connection of a served request: open, outside a transaction, not checked yet."""

        ops = real.ops
        connection = object()
        in_atomic_block = False

        def __init__(self, dead=False):
            self.dead, self.health_check_done, self.statements, self.closed = dead, False, [], False

        def cursor(self):
            return Cursor(self)

        def close(self):
            self.closed = True

    kept = Kept()
    monkeypatch.setattr(public_trace_fast, "connection", kept)
    assert public_trace_fast.stored("ABC123") == (b"{}", '"etag"', 300)
    assert kept.checked_before_read is True and len(kept.statements) == 1

    dead = Kept(dead=True)
    monkeypatch.setattr(public_trace_fast, "connection", dead)
    reached = []
    middleware = public_trace_fast.PublicTraceMiddleware(
        lambda request: reached.append(request.path) or "view"
    )
    assert middleware(RequestFactory().get("/api/eudrtrack/ABC123/")) == "view"
    assert dead.closed and reached == ["/api/eudrtrack/ABC123/"]
