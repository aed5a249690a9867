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
