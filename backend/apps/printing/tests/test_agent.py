"""The print agent against a real TCP server playing a printer, and the agent API it calls."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.printing import services
from apps.printing.models import PrinterDevice, PrintJob

from .conftest import agent_module, closed_port

pytestmark = pytest.mark.django_db


def queue_labels(w, in_tenant, printer=None, **kwargs) -> PrintJob:
    from apps.eudr.models import CartonLabel

    with in_tenant(w.tenant3):
        return services.print_job_create(
            printer=printer or PrinterDevice.objects.get(pk=w.printer.pk),
            source=PrintJob.Source.CARTON_LABELS,
            user=w.admin,
            labels=CartonLabel.objects.filter(pk__in=[label.pk for label in w.labels]).select_related(
                "raw_material__parent_vendor", "product"
            ),
            base_url="https://trace.example.com",
            **kwargs,
        )


def point_at(w, in_tenant, port: int) -> None:
    with in_tenant(w.tenant3):
        PrinterDevice.objects.filter(pk=w.printer.pk).update(port=port)


def job_of(w, in_tenant, job_id: int) -> PrintJob:
    with in_tenant(w.tenant3):
        return PrintJob.objects.select_related("printer").get(pk=job_id)


def test_printed(printing_world, in_tenant, fake_printer, make_agent):
    w = printing_world
    printer = fake_printer("ready")
    point_at(w, in_tenant, printer.port)
    job = queue_labels(w, in_tenant)
    agent = make_agent()
    assert agent.poll_once(wait=0) == 1
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.PRINTED
    assert done.printer_status["state"] == "ready"
    assert len(done.printer_status["raw"]) == 3
    assert done.attempts == 1 and done.finished_at is not None
    assert printer.labels == 3
    assert printer.received.startswith(b"^XA")
    assert done.printer.last_status == "ready" and done.printer.last_seen_at is not None


@pytest.mark.parametrize(
    ("state", "expected"),
    [("paper_out", "paper out"), ("head_open", "head open"), ("paused", "paused")],
)
def test_printer_not_ready_gets_no_data(printing_world, in_tenant, fake_printer, make_agent, state, expected):
    w = printing_world
    printer = fake_printer(state)
    point_at(w, in_tenant, printer.port)
    job = queue_labels(w, in_tenant)
    make_agent().poll_once(wait=0)
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.FAILED
    assert expected in done.error
    assert done.printer_status["state"] == state
    assert printer.labels == 0
    assert done.printer.last_status == state


@pytest.mark.parametrize("state", ["silent", "drop"])
def test_no_answer_is_an_error(printing_world, in_tenant, fake_printer, make_agent, monkeypatch, state):
    w = printing_world
    monkeypatch.setattr(agent_module, "STATUS_TIMEOUT", 0.5)
    printer = fake_printer(state)
    point_at(w, in_tenant, printer.port)
    job = queue_labels(w, in_tenant)
    make_agent().poll_once(wait=0)
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.FAILED
    assert done.printer_status["state"] == "no_answer"
    assert printer.labels == 0
    assert done.printer.last_status == "no_answer"


def test_a_printer_that_hangs_up_after_taking_the_label_printed_it(
    printing_world, in_tenant, fake_printer, make_agent, monkeypatch
):
    w = printing_world
    monkeypatch.setattr(agent_module, "STATUS_TIMEOUT", 2)
    printer = fake_printer("drop_after_data")
    point_at(w, in_tenant, printer.port)
    job = queue_labels(w, in_tenant)
    make_agent().poll_once(wait=0)
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.PRINTED, done.error
    assert printer.labels == 3


def test_connection_refused(printing_world, in_tenant, make_agent):
    w = printing_world
    point_at(w, in_tenant, closed_port())
    job = queue_labels(w, in_tenant)
    make_agent().poll_once(wait=0)
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.FAILED
    assert "refused" in done.error
    assert done.printer_status["state"] == "unreachable"


def test_printed_once_when_polled_twice(printing_world, in_tenant, fake_printer, make_agent):
    w = printing_world
    printer = fake_printer("ready")
    point_at(w, in_tenant, printer.port)
    job = queue_labels(w, in_tenant)
    agent = make_agent()
    first = agent.server.call("GET", "/api/printer/jobs/?wait=0")["jobs"]
    second = agent.server.call("GET", "/api/printer/jobs/?wait=0")["jobs"]
    assert [j["id"] for j in first] == [job.pk]
    assert second == []
    agent.report(first[0], agent.process(first[0]))
    assert printer.labels == 3
    # The answer of the report got lost: the server offers the job again after the lease...
    with in_tenant(w.tenant3):
        PrintJob.objects.filter(pk=job.pk).update(
            status=PrintJob.Status.SENT, sent_at=timezone.now() - timedelta(minutes=5)
        )
    again = agent.server.call("GET", "/api/printer/jobs/?wait=0")["jobs"]
    assert [j["id"] for j in again] == [job.pk]
    # ...and the agent's journal reports it without printing it a second time.
    agent.report(again[0], agent.process(again[0]))
    assert printer.labels == 3
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.PRINTED and done.attempts == 2


def test_repeated_result_changes_nothing(printing_world, in_tenant, fake_printer, make_agent):
    w = printing_world
    printer = fake_printer("ready")
    point_at(w, in_tenant, printer.port)
    job = queue_labels(w, in_tenant)
    agent = make_agent()
    jobs = agent.server.call("GET", "/api/printer/jobs/?wait=0")["jobs"]
    agent.report(jobs[0], agent.process(jobs[0]))
    body = {
        "idempotency_key": jobs[0]["idempotency_key"],
        "printed": False,
        "error": "late",
        "printer_status": {},
    }
    answer = agent.server.call("POST", f"/api/printer/jobs/{job.pk}/result/", body)
    assert answer["status"] == "printed"


def test_expired_job_is_not_handed_out(printing_world, in_tenant, make_agent):
    w = printing_world
    job = queue_labels(w, in_tenant)
    with in_tenant(w.tenant3):
        PrintJob.objects.filter(pk=job.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert make_agent().server.call("GET", "/api/printer/jobs/?wait=0")["jobs"] == []
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.EXPIRED
    assert done.finished_at is not None and done.error


def test_expiry_shows_in_the_job_list(printing_world, in_tenant, api, settings):
    w = printing_world
    settings.PRINT_JOB_TTL_SECONDS = 0
    job = queue_labels(w, in_tenant)
    rows = api(w.admin, w.tenant3).get("/api/printing/jobs/").json()["data"]["results"]
    assert [(r["id"], r["status"]) for r in rows] == [(job.pk, "expired")]


def test_a_token_never_sees_another_tenants_jobs(printing_world, in_tenant, make_agent):
    w = printing_world
    job = queue_labels(w, in_tenant)
    other = make_agent(w.token_x)
    assert other.server.call("GET", "/api/printer/jobs/?wait=0")["jobs"] == []
    beat = other.server.call(
        "POST", "/api/printer/heartbeat/", {"printers": [{"id": w.printer.pk, "state": "paper_out"}]}
    )
    assert [p["id"] for p in beat["printers"]] == [w.printer_x.pk]
    with pytest.raises(agent_module.ServerError) as refused:
        other.server.call(
            "POST",
            f"/api/printer/jobs/{job.pk}/result/",
            {"idempotency_key": str(job.idempotency_key), "printed": True},
        )
    assert refused.value.status == 404
    assert job_of(w, in_tenant, job.pk).status == PrintJob.Status.QUEUED
    assert job_of(w, in_tenant, job.pk).printer.last_status == "unknown"


def test_unknown_or_revoked_token_is_refused(printing_world, in_tenant, make_agent):
    w = printing_world
    with pytest.raises(agent_module.ServerError) as refused:
        make_agent("not-a-token").server.call("GET", "/api/printer/jobs/?wait=0")
    assert refused.value.status == 401 and refused.value.error == "agent_token_invalid"
    with in_tenant(w.tenant3):
        services.agent_revoke(agent=w.agent)
    with pytest.raises(agent_module.ServerError) as revoked:
        make_agent().server.call("POST", "/api/printer/heartbeat/", {})
    assert revoked.value.status == 401


def test_heartbeat_marks_agent_and_printers(printing_world, in_tenant, fake_printer, make_agent):
    w = printing_world
    printer = fake_printer("head_open")
    point_at(w, in_tenant, printer.port)
    agent = make_agent()
    agent.printers = [{"id": w.printer.pk, "name": "x", "host": "127.0.0.1", "port": printer.port}]
    agent.heartbeat()
    assert {p["id"] for p in agent.printers} == {w.printer.pk, w.vendor_printer.pk}
    with in_tenant(w.tenant3):
        device = PrinterDevice.objects.select_related("agent").get(pk=w.printer.pk)
    assert device.last_status == "head_open"
    assert device.agent.is_online
    with in_tenant(w.tenant3):
        type(device.agent).objects.filter(pk=device.agent.pk).update(
            last_seen_at=timezone.now() - timedelta(seconds=91)
        )
        device.agent.refresh_from_db()
    assert not device.agent.is_online


def test_status_check_job(printing_world, in_tenant, fake_printer, make_agent):
    w = printing_world
    printer = fake_printer("paper_out")
    point_at(w, in_tenant, printer.port)
    with in_tenant(w.tenant3):
        job = services.print_job_create(
            printer=PrinterDevice.objects.get(pk=w.printer.pk),
            source=PrintJob.Source.STATUS_CHECK,
            user=w.admin,
        )
    make_agent().poll_once(wait=0)
    done = job_of(w, in_tenant, job.pk)
    assert done.status == PrintJob.Status.FAILED
    assert done.printer_status["state"] == "paper_out"
    assert printer.labels == 0


def test_long_poll_waits_and_is_bounded(printing_world, make_agent, monkeypatch):
    from apps.printing.api import agent_views

    slept = []
    clock = {"now": 0.0}
    monkeypatch.setattr(agent_views.time, "monotonic", lambda: clock["now"])

    def sleep(seconds):
        slept.append(seconds)
        clock["now"] += seconds

    monkeypatch.setattr(agent_views.time, "sleep", sleep)
    answer = make_agent().server.call("GET", "/api/printer/jobs/?wait=999")
    assert answer["jobs"] == []
    assert sum(slept) == pytest.approx(25)


def test_decode_host_status_strings():
    decode = agent_module.decode_host_status
    ok = decode(["030,0,0,1245,000,0,0,0,000,0,0,0", "001,0,0,0,0,2,6,0,00000000,1,000", "1234,0"])
    assert ok["state"] == "ready" and ok["flags"] == []
    assert (
        decode(["030,1,0,1245,000,0,0,0,000,0,0,0", "001,0,0,0,0,2,6,0,00000000,1,000"])["words"]
        == "paper out"
    )
    assert (
        decode(["030,0,1,1245,000,0,0,0,000,0,0,0", "001,0,1,0,0,2,6,0,00000000,1,000"])["state"]
        == "head_open"
    )
    ribbon = decode(["030,0,0,1245,000,0,0,0,000,0,0,0", "001,0,0,1,1,2,6,0,00000000,1,000"])
    assert ribbon["state"] == "ribbon_out"
    with pytest.raises(agent_module.PrinterError):
        decode(["garbage"])


def _poll(token: str, wait: int):
    from rest_framework.test import APIClient

    return APIClient().get(f"/api/printer/jobs/?wait={wait}", HTTP_AUTHORIZATION=f"Agent {token}")


def test_at_most_one_open_poll_per_agent(printing_world, monkeypatch):
    """A second poll of the same agent while its first waits is refused at once, not a second thread."""
    from apps.printing.api import agent_views

    clock = {"now": 0.0}
    during = []
    monkeypatch.setattr(agent_views.time, "monotonic", lambda: clock["now"])

    def sleep(seconds):
        if not during:
            during.append(_poll(printing_world.token, 20))
            during.append(_poll(printing_world.token, 0))  # a short poll never waits and is not refused
        clock["now"] += seconds

    monkeypatch.setattr(agent_views.time, "sleep", sleep)
    first = _poll(printing_world.token, 3)
    assert first.status_code == 200 and first.json()["data"]["jobs"] == []
    second, short = during
    assert second.status_code == 429 and second.json()["error"] == "poll_already_open"
    assert second["Retry-After"] == "20"
    assert short.status_code == 200
    # the slot is free again once the first poll has answered
    clock["now"] = 0.0
    during.append("done")
    assert _poll(printing_world.token, 1).status_code == 200


def test_the_server_caps_waiting_polls(printing_world, settings, monkeypatch):
    from django.core.cache import cache

    from apps.printing.api import agent_views

    settings.PRINT_LONG_POLLS_MAX = 2
    cache.set(agent_views._POLLS_OPEN_KEY, 2, timeout=None)  # two other agents are waiting
    busy = _poll(printing_world.token, 10)
    assert busy.status_code == 429 and busy.json()["error"] == "polls_busy" and busy["Retry-After"] == "5"
    assert cache.get(agent_views._POLLS_OPEN_KEY) == 2  # the refused poll took no slot
    cache.set(agent_views._POLLS_OPEN_KEY, 1, timeout=None)
    monkeypatch.setattr(agent_views.time, "sleep", lambda seconds: None)
    clock = iter(range(0, 1000, 5))
    monkeypatch.setattr(agent_views.time, "monotonic", lambda: float(next(clock)))
    assert _poll(printing_world.token, 10).status_code == 200
    assert cache.get(agent_views._POLLS_OPEN_KEY) == 1
