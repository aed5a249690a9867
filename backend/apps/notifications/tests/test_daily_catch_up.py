"""Periodic runs that beat could not send (the broker was down) are made up: the date events of every day
since the last one emitted go out with the next run, each day once; a new tenant starts with today; a
long outage is made up for CATCH_UP_DAYS at most. And every periodic task names how it catches up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from apps.eudr.tests.trace_data import make_delivery
from apps.notifications.daily import CATCH_UP_DAYS, daily_events_all_tenants
from apps.notifications.models import DailyEventsRun
from apps.notifications.tests.test_events import _log, _scenario

pytestmark = pytest.mark.django_db


def run(today, capture):
    with capture(execute=True):
        return daily_events_all_tenants(today=today)


def test_the_days_a_run_missed_are_emitted_by_the_next_run_once(
    world, in_tenant, django_capture_on_commit_callbacks
):
    today = timezone.localdate()
    with in_tenant(world["tenant3"]):
        _scenario("raw_material.expiring", days=30, subject="{{ delivery.number }} expiring")
        # expires 30 days after yesterday: yesterday's run was the one to announce it
        make_delivery(delivery_number="DLV-Y", suffix="-y", coc_certificate_expiry=today + timedelta(days=29))
        make_delivery(delivery_number="DLV-T", suffix="-t", coc_certificate_expiry=today + timedelta(days=30))
    assert run(today - timedelta(days=2), django_capture_on_commit_callbacks) == {}
    # yesterday's run never came (beat could not send it); today's makes it up, then does today
    assert run(today, django_capture_on_commit_callbacks) == {"EuroTrade Goods BV": 2}
    assert sorted(subject for _e, subject, _s in _log(world, in_tenant)) == [
        "DLV-T expiring",
        "DLV-Y expiring",
    ]
    with in_tenant(world["tenant3"]):
        days = sorted(DailyEventsRun.objects.values_list("day", "emitted"))
    assert days == [(today - timedelta(days=2), 0), (today - timedelta(days=1), 1), (today, 1)]
    # the runs of the rest of the day (beat sends it every hour) find nothing to do
    assert run(today, django_capture_on_commit_callbacks) == {}
    assert len(_log(world, in_tenant)) == 2


def test_a_tenant_without_a_recorded_day_starts_with_today_and_an_outage_is_made_up_for_a_week(
    world, in_tenant, django_capture_on_commit_callbacks
):
    today = timezone.localdate()
    with in_tenant(world["tenant3"]):
        _scenario("raw_material.expiring", days=30, subject="{{ delivery.number }}")
        make_delivery(
            delivery_number="DLV-OLD", suffix="-o", coc_certificate_expiry=today + timedelta(days=29)
        )
    run(today, django_capture_on_commit_callbacks)
    assert _log(world, in_tenant) == []  # yesterday is not history this tenant ever had to send
    with in_tenant(world["tenant3"]):
        make_delivery(
            delivery_number="DLV-W", suffix="-w", coc_certificate_expiry=today + timedelta(days=30 + 20)
        )
        make_delivery(
            delivery_number="DLV-X", suffix="-x", coc_certificate_expiry=today + timedelta(days=30 + 9)
        )
    later = today + timedelta(days=20)
    assert run(later, django_capture_on_commit_callbacks) == {"EuroTrade Goods BV": 1}
    assert [subject for _e, subject, _s in _log(world, in_tenant)] == ["DLV-W"]  # DLV-X's day is too far back
    with in_tenant(world["tenant3"]):
        caught_up = DailyEventsRun.objects.filter(day__gt=today).count()
    assert caught_up == CATCH_UP_DAYS


def test_every_periodic_task_names_how_a_missed_run_is_made_up():
    from apps.common.periodic import CATCH_UP

    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled == set(CATCH_UP), "a periodic task without a catch-up in apps/common/periodic.py"
    daily = settings.CELERY_BEAT_SCHEDULE["notifications-daily-events"]["schedule"]
    assert len(daily.hour) > 1  # sent again later the same day, so a run beat could not send is made up


def test_beat_does_not_send_again_a_run_the_broker_refused_so_the_next_run_makes_it_up(
    world, in_tenant, caplog, django_capture_on_commit_callbacks
):
    """The premise, against a REAL redis-server as the broker: beat's scheduler sends a due run, drops
    the one due while the broker is stopped (logged, the entry moved on to its next time) and does not
    send it when the broker is back. What that run should have emitted goes out with the next run."""
    import redis
    from celery import Celery
    from celery.beat import Scheduler

    from apps.common.tests.test_redis_down import REDIS_SERVER, RedisProcess

    if not REDIS_SERVER:
        pytest.skip("needs redis-server on PATH")
    server = RedisProcess()
    server.start()
    try:
        app = Celery("beat-premise", broker=server.url, set_as_current=False)
        app.conf.update(
            broker_connection_timeout=0.5,
            task_publish_retry_policy=settings.CELERY_TASK_PUBLISH_RETRY_POLICY,
            beat_schedule={"daily": {"task": "notifications.daily_events", "schedule": timedelta(hours=1)}},
        )
        scheduler = Scheduler(app=app)

        def due_now():
            scheduler.schedule["daily"].last_run_at = app.now() - timedelta(hours=2)
            scheduler._heap = None  # the scheduler's next times are computed again from the entries

        due_now()
        scheduler.tick()
        assert redis.Redis.from_url(server.url).llen("celery") == 1  # sent
        server.stop()
        due_now()
        scheduler.tick()  # the broker is down: logged, not raised
        assert "Couldn't apply scheduled task daily" in caplog.text
        assert not scheduler.schedule["daily"].is_due().is_due  # moved on to its next time
        server.start()  # back, empty
        scheduler.tick()
        assert redis.Redis.from_url(server.url).llen("celery") == 0  # the dropped run is not sent again
    finally:
        server.stop()

    # the run of the day the broker was down never came; the next day's run emits that day too
    today = timezone.localdate()
    with in_tenant(world["tenant3"]):
        _scenario("raw_material.expiring", days=30, subject="{{ delivery.number }}")
        make_delivery(delivery_number="DLV-D", suffix="-d", coc_certificate_expiry=today + timedelta(days=29))
    run(today - timedelta(days=2), django_capture_on_commit_callbacks)
    assert run(today, django_capture_on_commit_callbacks) == {"EuroTrade Goods BV": 1}
