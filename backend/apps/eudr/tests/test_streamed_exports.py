"""Streamed exports read their rows inside the tenant on PostgreSQL (row-level security), not only inside
the test's transaction: these tests are transactional, so the request's transaction really ends before the
response is read, as it does on a real server. Before the shared mechanism (apps/tenancy/streaming.py) the
label PDF came back valid with zero pages."""

import csv
import io

import pytest
from django.urls import get_resolver
from pypdf import PdfReader

from apps.eudr.models import CartonLabel

from . import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CARTONS = "/api/eudr/cartons/"


@pytest.fixture
def labels(eudr_world, in_tenant, pg_role_check):
    w = eudr_world
    with in_tenant(w.tenant3):
        w.delivery = factories.delivery(w.vendor_a, weight="1000")
        factories.generate(w.delivery, w.line_a, 150)
        w.codes = set(CartonLabel.objects.values_list("code", flat=True))
    return w


def download(response) -> bytes:
    assert response.status_code == 200, response.content[:500]
    assert response.streaming
    return b"".join(response.streaming_content)


@pytest.mark.parametrize("template", ["default", "compact"])
def test_label_pdf_has_one_page_per_label(labels, api, template):
    w = labels
    for user in (w.purchaser, w.supplier_a):
        pdf = download(
            api(user, w.tenant3).get(
                f"{CARTONS}export/", {"format": "pdf", "template": template, "raw_material": w.delivery.pk}
            )
        )
        assert len(PdfReader(io.BytesIO(pdf)).pages) == 150


def test_label_csv_has_every_label(labels, api):
    w = labels
    text = download(api(w.purchaser, w.tenant3).get(f"{CARTONS}export/", {"format": "csv"})).decode(
        "utf-8-sig"
    )
    rows = list(csv.reader(io.StringIO(text)))
    assert {row[0] for row in rows[1:]} == w.codes


def test_another_tenant_streams_nothing_of_it(labels, api):
    w = labels
    pdf = download(api(w.admin_x, w.tenant2).get(f"{CARTONS}export/", {"format": "pdf"}))
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 0


def test_list_csv_exports_read_inside_the_tenant(labels, api):
    """Every list's `export/` (the shared CSV export) over HTTP: the rows of the tenant are there."""
    w = labels
    client = api(w.admin, w.tenant3)
    expected = {
        "/api/suppliers/parent-vendors/export/": "Shanghai Evergreen Packaging",
        "/api/purchaseorders/orders/export/": w.line_a.order.order_number,
        "/api/eudr/raw-materials/export/": w.delivery.delivery_number,
    }
    for path, needle in expected.items():
        text = download(client.get(path, {"format": "csv"})).decode("utf-8-sig")
        assert needle in text, path


def test_every_export_route_is_streamed_inside_the_tenant(labels, api):
    """Every `export/` route of the API: a streamed answer is bound to the tenant by the middleware
    (a route added later is covered without being named here)."""
    w = labels
    client = api(w.admin, w.tenant3)
    paths = sorted(
        {
            "/" + str(pattern).replace("^", "").replace("\\Z", "").replace("$", "")
            for pattern in _route_patterns(get_resolver())
            if str(pattern).endswith(("export/$", "export/\\Z")) and "(?P<" not in str(pattern)
        }
    )
    assert len(paths) >= 10, paths
    for path in paths:
        response = client.get(path, {"format": "csv"})
        if response.status_code != 200 or not response.streaming:
            continue
        assert getattr(response, "_tenant_bound", False), path
        b"".join(response.streaming_content)


def _route_patterns(resolver, prefix=""):
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if hasattr(entry, "url_patterns"):
            yield from _route_patterns(entry, pattern)
        else:
            yield pattern
