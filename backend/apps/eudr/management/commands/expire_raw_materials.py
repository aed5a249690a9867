"""Stores `expired` on every tenant's active raw-material deliveries whose FM or COC certificate has
passed its expiry date (run daily, e.g. from cron or Celery beat; reads already show them expired)."""

from django.core.management.base import BaseCommand
from django.db import transaction

from apps.eudr.services import raw_materials_expire
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Tenant


class Command(BaseCommand):
    help = "Mark raw-material deliveries with an expired certificate as expired, in every tenant."

    def handle(self, *args, **options):
        total = 0
        for tenant in Tenant.objects.filter(is_active=True).order_by("pk"):
            with transaction.atomic(), tenant_context(tenant):
                changed = raw_materials_expire()
            total += changed
            if changed:
                self.stdout.write(f"{tenant.name}: {changed} deliveries expired")
        self.stdout.write(self.style.SUCCESS(f"{total} deliveries expired."))
