"""The management API: tenant isolation, supplier scoping, query counts, job creation and validation."""

from __future__ import annotations

import pytest

from apps.printing import services
from apps.printing.models import PrinterDevice, PrintJob

pytestmark = pytest.mark.django_db

DEVICES = "/api/printing/devices/"
AGENTS = "/api/printing/agents/"
JOBS = "/api/printing/jobs/"


def results(response):
    assert response.status_code == 200, response.json()
    return response.json()["data"]["results"]


def queue(w, in_tenant, count=1):
    with in_tenant(w.tenant3):
        printer = PrinterDevice.objects.get(pk=w.printer.pk)
        for _ in range(count):
            services.print_job_create(printer=printer, source=PrintJob.Source.TEST_LABEL, user=w.admin)


def test_lists_show_only_the_tenants_rows(printing_world, api, in_tenant):
    w = printing_world
    queue(w, in_tenant)
    mine = api(w.admin, w.tenant3)
    assert {r["name"] for r in results(mine.get(DEVICES))} == {"Zebra line 1", "Vendor A printer"}
    assert {r["name"] for r in results(mine.get(AGENTS))} == {"Line 1 PC"}
    assert len(results(mine.get(JOBS))) == 1
    other = api(w.admin_x, w.tenant2)
    assert {r["name"] for r in results(other.get(DEVICES))} == {"Other printer"}
    assert {r["name"] for r in results(other.get(AGENTS))} == {"Other PC"}
    assert results(other.get(JOBS)) == []
    assert other.get(f"{DEVICES}{w.printer.pk}/").status_code == 404
    assert other.patch(f"{DEVICES}{w.printer.pk}/", {"name": "x"}, format="json").status_code == 404
    assert other.post(f"{DEVICES}{w.printer.pk}/test-label/").status_code == 404
    assert other.post(f"{AGENTS}{w.agent.pk}/revoke/").status_code == 404
    job = results(mine.get(JOBS))[0]
    assert other.get(f"{JOBS}{job['id']}/").status_code == 404
    assert other.post(f"{JOBS}{job['id']}/reprint/").status_code == 404


def test_another_tenants_printer_or_agent_cannot_be_used(printing_world, api):
    w = printing_world
    mine = api(w.admin, w.tenant3)
    response = mine.post(JOBS, {"printer": w.printer_x.pk, "source": "test_label"}, format="json")
    assert response.status_code == 400 and "printer" in response.json()["data"]
    response = mine.post(
        DEVICES,
        {
            "name": "N",
            "host": "127.0.0.1",
            "agent": w.agent_x.pk,
            "label_width_mm": "100",
            "label_height_mm": "50",
        },
        format="json",
    )
    assert response.status_code == 400 and "agent" in response.json()["data"]


def test_supplier_sees_and_uses_only_its_vendors_printers(printing_world, api, in_tenant):
    w = printing_world
    supplier = api(w.supplier_a, w.tenant3)
    assert [r["name"] for r in results(supplier.get(DEVICES))] == ["Vendor A printer"]
    assert supplier.post(DEVICES, {"name": "x", "host": "h"}, format="json").status_code == 403
    response = supplier.post(
        JOBS,
        {"printer": w.vendor_printer.pk, "source": "carton_labels", "labels": [w.labels[0].pk]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    refused = supplier.post(
        JOBS, {"printer": w.printer.pk, "source": "carton_labels", "labels": [w.labels[0].pk]}, format="json"
    )
    assert refused.status_code == 404
    assert [r["printer_name"] for r in results(supplier.get(JOBS))] == ["Vendor A printer"]
    # vendor B's supplier sees neither the printer nor the job, and cannot print vendor A's labels
    other = api(w.supplier_b, w.tenant3)
    assert results(other.get(DEVICES)) == []
    assert results(other.get(JOBS)) == []
    with in_tenant(w.tenant3):
        PrinterDevice.objects.filter(pk=w.vendor_printer.pk).update(parent_vendor=w.vendor_b)
    response = other.post(
        JOBS,
        {"printer": w.vendor_printer.pk, "source": "carton_labels", "labels": [w.labels[0].pk]},
        format="json",
    )
    assert response.status_code == 400 and response.json()["error"] == "labels_not_selected"


@pytest.mark.parametrize("path", [DEVICES, AGENTS, JOBS])
def test_list_query_count_is_constant(printing_world, api, in_tenant, django_assert_max_num_queries, path):
    w = printing_world
    queue(w, in_tenant, 3)
    client = api(w.admin, w.tenant3)
    with django_assert_max_num_queries(12):
        results(client.get(path))
    with in_tenant(w.tenant3):
        codes = [services.pairing_code_create(name=f"Agent {n}", user=w.admin)[1] for n in range(5)]
        for n in range(15):
            PrinterDevice.objects.create(name=f"P{n}", host="127.0.0.1", agent=w.agent)
    for code in codes:
        services.agent_pair(code=code)
    queue(w, in_tenant, 20)
    with django_assert_max_num_queries(12):
        assert len(results(client.get(path, {"page_size": 100}))) >= 2


def test_print_carton_labels_by_selection_and_by_filter(printing_world, api):
    w = printing_world
    client = api(w.admin, w.tenant3)
    picked = client.post(
        JOBS,
        {
            "printer": w.printer.pk,
            "source": "carton_labels",
            "labels": [w.labels[1].pk],
            "template": "compact",
        },
        format="json",
    )
    assert picked.status_code == 201, picked.json()
    assert picked.json()["data"]["label_count"] == 1
    detail = client.get(f"{JOBS}{picked.json()['data']['id']}/").json()["data"]
    assert w.labels[1].code in detail["zpl"] and w.labels[0].code not in detail["zpl"]
    filtered = client.post(
        JOBS,
        {
            "printer": w.printer.pk,
            "source": "carton_labels",
            "filter": {"raw_material": w.delivery.pk},
            "copies": 2,
        },
        format="json",
    )
    assert filtered.status_code == 201, filtered.json()
    data = filtered.json()["data"]
    assert data["label_count"] == 6 and data["status"] == "queued"
    detail = client.get(f"{JOBS}{data['id']}/").json()["data"]
    assert detail["zpl"].count("^XA") == 6
    nothing = client.post(
        JOBS,
        {"printer": w.printer.pk, "source": "carton_labels", "filter": {"search": "no-such"}},
        format="json",
    )
    assert nothing.status_code == 400 and nothing.json()["error"] == "labels_not_selected"


def test_reprint_is_a_new_job_marked_copy_n(printing_world, api):
    w = printing_world
    client = api(w.admin, w.tenant3)
    first = client.post(
        JOBS, {"printer": w.printer.pk, "source": "carton_labels", "labels": [w.labels[0].pk]}, format="json"
    ).json()["data"]
    second = client.post(f"{JOBS}{first['id']}/reprint/").json()["data"]
    third = client.post(f"{JOBS}{second['id']}/reprint/").json()["data"]
    assert (second["copy_number"], third["copy_number"]) == (2, 3)
    assert second["reprint_of"] == third["reprint_of"] == first["id"]
    assert "COPY 3" in client.get(f"{JOBS}{third['id']}/").json()["data"]["zpl"]
    assert len(results(client.get(JOBS))) == 3


def test_raw_zpl_is_for_staff_only(printing_world, api):
    w = printing_world
    body = {"printer": w.printer.pk, "source": "raw_zpl", "zpl": "^XA^FO50,50^A0N,40,40^FDHi^FS^XZ"}
    assert api(w.admin, w.tenant3).post(JOBS, body, format="json").status_code == 403
    w.admin.is_staff = True
    w.admin.save()
    response = api(w.admin, w.tenant3).post(JOBS, body, format="json")
    assert response.status_code == 201
    assert (
        api(w.admin, w.tenant3).get(f"{JOBS}{response.json()['data']['id']}/").json()["data"]["zpl"]
        == body["zpl"]
    )


def test_roles_without_printing_rights_are_refused(printing_world, api):
    w = printing_world
    sales = api(w.sales, w.tenant3)
    assert sales.get(DEVICES).status_code == 403
    assert (
        sales.post(JOBS, {"printer": w.printer.pk, "source": "test_label"}, format="json").status_code == 403
    )
    purchaser = api(w.purchaser, w.tenant3)
    assert purchaser.get(DEVICES).status_code == 200
    assert purchaser.post(DEVICES, {"name": "x", "host": "h"}, format="json").status_code == 403
    assert purchaser.post(AGENTS + "pairing-code/", {"name": "x"}, format="json").status_code == 403


def test_printer_crud_and_validation(printing_world, api):
    w = printing_world
    client = api(w.admin, w.tenant3)
    body = {
        "name": "Zebra 2",
        "host": "127.0.0.1",
        "port": 9100,
        "dpi": 300,
        "label_width_mm": "100",
        "label_height_mm": "50",
        "template": "compact",
        "agent": w.agent.pk,
    }
    created = client.post(DEVICES, body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["data"]["last_status"] == "unknown"
    duplicate = client.post(DEVICES, body, format="json")
    assert duplicate.status_code == 400 and "name" in duplicate.json()["data"]
    bad = client.post(
        DEVICES,
        {
            **body,
            "name": "Z3",
            "dpi": 250,
            "port": 70000,
            "host": "a b",
            "label_width_mm": "5",
            "template": "x",
        },
        format="json",
    )
    assert bad.status_code == 400
    assert set(bad.json()["data"]) >= {"dpi", "port", "host", "label_width_mm", "template"}
    queued = client.post(f"{DEVICES}{created.json()['data']['id']}/test-label/")
    assert queued.status_code == 201 and queued.json()["data"]["source"] == "test_label"


def test_printer_without_agent_cannot_print(printing_world, api, in_tenant):
    w = printing_world
    with in_tenant(w.tenant3):
        lonely = PrinterDevice.objects.create(name="Lonely", host="127.0.0.1")
    response = api(w.admin, w.tenant3).post(f"{DEVICES}{lonely.pk}/test-label/")
    assert response.status_code == 409 and response.json()["error"] == "printer_without_agent"


@pytest.mark.parametrize(
    "body",
    [
        None,
        [],
        "x",
        {"printer": "abc", "source": "test_label"},
        {"printer": 99999999999999, "source": "carton_labels"},
        {"source": "nope"},
        {"printer": 1, "source": "carton_labels", "labels": ["a"]},
        {"printer": 1, "source": "carton_labels", "labels": list(range(1, 600))},
        {"printer": 1, "source": "carton_labels", "filter": {"raw_material": "x", "created_from": "no"}},
        {"printer": 1, "source": "carton_labels", "filter": "x"},
        {"printer": 1, "source": "raw_zpl"},
        {"printer": 1, "source": "test_label", "copies": 0},
    ],
)
def test_no_body_gives_a_server_error(printing_world, api, body):
    w = printing_world
    response = api(w.admin, w.tenant3).post(JOBS, body, format="json")
    assert response.status_code == 400, response.json()


def test_preview_is_the_same_layout_as_the_zpl(printing_world, api, settings):
    w = printing_world
    settings.PUBLIC_BASE_URL = "https://trace.example.com"
    client = api(w.admin, w.tenant3)
    response = client.post(
        "/api/printing/templates/preview/", {"label": w.labels[0].pk, "template": "compact"}, format="json"
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert (data["width"], data["height"], data["dpi"]) == (799, 400, 203)
    qr = next(e for e in data["elements"] if e["kind"] == "qr")
    assert qr["data"] == f"https://trace.example.com/eudrtrace/{w.labels[0].code}"
    assert f"^BQN,2,{qr['magnification']}" in data["zpl"]
    texts = [e["text"] for e in data["elements"] if e["kind"] == "text"]
    assert w.labels[0].code in texts
    by_printer = client.post(
        "/api/printing/templates/preview/", {"label": w.labels[0].pk, "printer": w.printer.pk}, format="json"
    ).json()["data"]
    assert by_printer["label_height_mm"] == "150.0"
    other = api(w.admin_x, w.tenant2).post(
        "/api/printing/templates/preview/", {"label": w.labels[0].pk}, format="json"
    )
    assert other.status_code == 404
    assert (
        api(w.supplier_b, w.tenant3)
        .post("/api/printing/templates/preview/", {"label": w.labels[0].pk}, format="json")
        .status_code
        == 404
    )
    templates = client.get("/api/printing/templates/").json()["data"]
    assert [t["name"] for t in templates] == ["default", "compact"]


def test_agent_download_is_the_agent_file(client):
    response = client.get("/api/printer/agent.py")
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert b"def main(" in body and b"import django" not in body
