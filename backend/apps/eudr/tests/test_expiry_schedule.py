"""The nightly expiry runs on its own: Celery beat schedules the task daily, and the task expires the
deliveries with an expired certificate in every tenant (the same job as `manage.py expire_raw_materials`)."""

from datetime import date, timedelta

import pytest
from celery.schedules import crontab
from django.conf import settings

from apps.eudr.models import RawMaterialDelivery
from apps.eudr.tasks import expire_raw_materials
from config.celery import app

from . import factories


def test_beat_runs_the_expiry_task_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["eudr-expire-raw-materials"]
    assert entry["task"] == "eudr.expire_raw_materials"
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    assert schedule.hour == {0} and schedule.minute == {10}
    assert schedule.day_of_week == set(range(7)) and schedule.day_of_month == set(range(1, 32))
    # the Celery app reads the schedule from the settings and knows the task by that name
    assert app.conf.beat_schedule["eudr-expire-raw-materials"]["task"] == "eudr.expire_raw_materials"
    app.loader.import_default_modules()
    assert "eudr.expire_raw_materials" in app.tasks


@pytest.mark.django_db
def test_the_task_expires_deliveries_in_every_tenant(eudr_world, in_tenant):
    w = eudr_world
    with in_tenant(w.tenant3):
        old = factories.delivery(w.vendor_a)
        fine = factories.delivery(w.vendor_a)
        RawMaterialDelivery.objects.filter(pk=old.pk).update(
            coc_certificate_expiry=date.today() - timedelta(days=1)
        )
    with in_tenant(w.tenant2):
        other = factories.delivery(w.vendor_x)
        RawMaterialDelivery.objects.filter(pk=other.pk).update(
            fm_certificate_expiry=date.today() - timedelta(days=5)
        )
    result = expire_raw_materials.apply().get()
    assert result == {w.tenant3.name: 1, w.tenant2.name: 1}
    with in_tenant(w.tenant3):
        assert RawMaterialDelivery.objects.get(pk=old.pk).status == "expired"
        assert RawMaterialDelivery.objects.get(pk=fine.pk).status == "active"
    with in_tenant(w.tenant2):
        assert RawMaterialDelivery.objects.get(pk=other.pk).status == "expired"
    # nothing left to do the next night
    assert expire_raw_materials.apply().get() == {}
