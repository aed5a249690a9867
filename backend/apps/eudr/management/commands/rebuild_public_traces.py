"""Rebuilds every carton's precomputed public trace answer (apps/eudr/trace_store.py).

Run after an upgrade that changes what the public trace shows or how it is rendered; safe at any time
(each tenant is rebuilt in one transaction; scans meanwhile read the previous answers).
"""

from django.core.management.base import BaseCommand

from apps.eudr.trace_store import rebuild_all


class Command(BaseCommand):
    help = "Rebuild the precomputed public trace answer of every active carton (after upgrades)."

    def handle(self, *args, **options):
        written = rebuild_all()
        for tenant, count in written.items():
            self.stdout.write(f"{tenant}: {count} public trace answers")
        self.stdout.write(self.style.SUCCESS(f"{sum(written.values())} public trace answers rebuilt"))
