"""What a job's outcome means for the people who look at the log: printing again a job that printed
nothing is the same print (no "COPY N"); a job queued for an offline agent says it waits; status checks
are not print jobs in the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.printing import services
from apps.printing.models import PrintAgent, PrinterDevice, PrintJob

from .conftest import closed_port

pytestmark = pytest.mark.django_db

JOBS = "/api/printing/jobs/"


def point_at(w, in_tenant, port: int) -> None:
    with in_tenant(w.tenant3):
        PrinterDevice.objects.filter(pk=w.printer.pk).update(port=port)


def print_labels(client, w) -> dict:
    response = client.post(
        JOBS, {"printer": w.printer.pk, "source": "carton_labels", "labels": [w.labels[0].pk]}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["data"]


def detail(client, job_id: int) -> dict:
    return client.get(f"{JOBS}{job_id}/").json()["data"]


def reprint(client, job_id: int) -> dict:
    response = client.post(f"{JOBS}{job_id}/reprint/")
    assert response.status_code == 201, response.json()
    return response.json()["data"]


def test_a_job_the_printer_refused_prints_again_as_the_same_print(
    printing_world, api, in_tenant, fake_printer, make_agent
):
    w = printing_world
    client = api(w.admin, w.tenant3)
    paper_out = fake_printer("paper_out")
    point_at(w, in_tenant, paper_out.port)
    first = print_labels(client, w)
    make_agent().poll_once(wait=0)
    failed = detail(client, first["id"])
    assert failed["status"] == "failed" and failed["data_sent"] is False and failed["printed_nothing"] is True
    assert paper_out.labels == 0

    ready = fake_printer("ready")
    point_at(w, in_tenant, ready.port)
    again = reprint(client, first["id"])
    assert again["copy_number"] == 1 and again["reprint_of"] == first["id"]
    assert "COPY" not in detail(client, again["id"])["zpl"]
    make_agent().poll_once(wait=0)
    assert detail(client, again["id"])["status"] == "printed"
    assert b"COPY" not in ready.received and ready.labels == 1

    # The label has come out once now: printing it again is the second copy.
    copy = reprint(client, again["id"])
    assert copy["copy_number"] == 2
    assert "COPY 2" in detail(client, copy["id"])["zpl"]


def test_an_unreachable_printer_printed_nothing(printing_world, api, in_tenant, make_agent):
    w = printing_world
    client = api(w.admin, w.tenant3)
    point_at(w, in_tenant, closed_port())
    first = print_labels(client, w)
    make_agent().poll_once(wait=0)
    assert detail(client, first["id"])["printed_nothing"] is True
    assert reprint(client, first["id"])["copy_number"] == 1


def test_an_expired_job_prints_again_as_the_same_print(printing_world, api, in_tenant):
    w = printing_world
    client = api(w.admin, w.tenant3)
    first = print_labels(client, w)
    with in_tenant(w.tenant3):
        PrintJob.objects.filter(pk=first["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert detail(client, first["id"])["status"] == "expired"
    assert reprint(client, first["id"])["copy_number"] == 1


def test_a_job_that_failed_after_sending_is_followed_by_a_copy(printing_world, api, in_tenant):
    """Data reached the printer (or may have): a label may have come out, so the next print says COPY 2."""
    w = printing_world
    client = api(w.admin, w.tenant3)
    for data_sent in (True, None):
        first = print_labels(client, w)
        with in_tenant(w.tenant3):
            agent = PrintAgent.objects.get(pk=w.agent.pk)
            claimed = [job.pk for job in services.jobs_claim(agent=agent)]
            assert first["id"] in claimed
            job = PrintJob.objects.get(pk=first["id"])
            services.job_report(
                agent=agent,
                job_id=job.pk,
                idempotency_key=str(job.idempotency_key),
                printed=False,
                error="printer reported paper out after the label was sent",
                printer_status={"state": "paper_out"},
                data_sent=data_sent,
            )
        assert detail(client, first["id"])["printed_nothing"] is False
        copy = reprint(client, first["id"])
        assert copy["copy_number"] == 2
        assert "COPY 2" in detail(client, copy["id"])["zpl"]


def test_the_agent_api_takes_data_sent_and_an_agent_that_does_not_say_is_unknown(printing_world, in_tenant):
    w = printing_world
    from rest_framework.test import APIClient

    agent_client = APIClient()
    agent_client.credentials(HTTP_AUTHORIZATION=f"Agent {w.token}")
    for body_extra, expected in (({"data_sent": False}, False), ({}, None)):
        with in_tenant(w.tenant3):
            job = services.print_job_create(
                printer=PrinterDevice.objects.get(pk=w.printer.pk),
                source=PrintJob.Source.TEST_LABEL,
                user=w.admin,
            )
            services.jobs_claim(agent=PrintAgent.objects.get(pk=w.agent.pk))
        response = agent_client.post(
            f"/api/printer/jobs/{job.pk}/result/",
            {"idempotency_key": str(job.idempotency_key), "printed": False, "error": "x", **body_extra},
            format="json",
        )
        assert response.status_code == 200, response.json()
        assert response.json()["data"]["data_sent"] is expected
        for wrong in ("maybe", 3, [True]):
            bad = agent_client.post(
                f"/api/printer/jobs/{job.pk}/result/",
                {"idempotency_key": str(job.idempotency_key), "printed": False, "data_sent": wrong},
                format="json",
            )
            assert bad.status_code == 400


def test_a_job_for_an_offline_agent_says_it_waits(printing_world, api, in_tenant):
    w = printing_world
    client = api(w.admin, w.tenant3)
    online = print_labels(client, w)
    assert online["status"] == "queued" and online["waits_for_agent"] is False
    with in_tenant(w.tenant3):
        PrintAgent.objects.filter(pk=w.agent.pk).update(last_seen_at=timezone.now() - timedelta(minutes=10))
    offline = print_labels(client, w)
    assert offline["waits_for_agent"] is True
    listed = {row["id"]: row for row in client.get(JOBS).json()["data"]["results"]}
    assert listed[offline["id"]]["waits_for_agent"] is True
    assert detail(client, offline["id"])["waits_for_agent"] is True


def test_status_checks_are_not_listed_as_print_jobs(printing_world, api):
    w = printing_world
    client = api(w.admin, w.tenant3)
    check = client.post(f"/api/printing/devices/{w.printer.pk}/status-check/")
    assert check.status_code == 201, check.json()
    label = print_labels(client, w)
    listed = [row["id"] for row in client.get(JOBS).json()["data"]["results"]]
    assert listed == [label["id"]]
    asked = client.get(JOBS, {"source": "status_check"}).json()["data"]["results"]
    assert [row["id"] for row in asked] == [check.json()["data"]["id"]]
    # Still readable by id: the status check page follows its own job.
    assert detail(client, check.json()["data"]["id"])["source"] == "status_check"


def test_another_tenant_and_another_parent_vendor_cannot_reprint_or_see_the_outcome(printing_world, api):
    w = printing_world
    supplier_a = api(w.supplier_a, w.tenant3)
    response = supplier_a.post(
        JOBS,
        {"printer": w.vendor_printer.pk, "source": "carton_labels", "labels": [w.labels[0].pk]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    job = response.json()["data"]
    assert supplier_a.get(f"{JOBS}{job['id']}/").json()["data"]["printed_nothing"] is False
    for stranger in (api(w.admin_x, w.tenant2), api(w.supplier_b, w.tenant3)):
        assert stranger.get(f"{JOBS}{job['id']}/").status_code == 404
        assert stranger.post(f"{JOBS}{job['id']}/reprint/").status_code == 404
        assert job["id"] not in [row["id"] for row in stranger.get(JOBS).json()["data"]["results"]]
