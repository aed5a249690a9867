"""Stores `expired` on every tenant's active raw-material deliveries whose FM or COC certificate has
passed its expiry date (reads already show them expired). Celery beat runs the same job daily as the task
`eudr.expire_raw_materials` (config/settings.py, CELERY_BEAT_SCHEDULE; docs/operations.md)."""

from django.core.management.base import BaseCommand

from apps.eudr.services import raw_materials_expire_all_tenants


class Command(BaseCommand):
    help = "Mark raw-material deliveries with an expired certificate as expired, in every tenant."

    def handle(self, *args, **options):
        changed = raw_materials_expire_all_tenants()
        for name, count in changed.items():
            self.stdout.write(f"{name}: {count} deliveries expired")
        self.stdout.write(self.style.SUCCESS(f"{sum(changed.values())} deliveries expired."))
