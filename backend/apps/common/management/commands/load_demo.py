"""Loads the demo data: tenants, roles, users, and each area's records (<app>/demo.py, in app order).

`--if-empty` does nothing when the database already has tenants: demo data never overwrites real work.
"""

from importlib import import_module

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import transaction

from apps.tenancy.models import Tenant


class Command(BaseCommand):
    help = "Load the demo tenants, users and records."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Only load into a database without tenants."
        )

    def handle(self, *args, if_empty: bool = False, **options):
        if if_empty and Tenant.objects.exists():
            self.stdout.write("Database already has data: demo data not loaded.")
            return
        ctx: dict = {}
        with transaction.atomic():
            for config in apps.get_app_configs():
                if not config.name.startswith("apps."):
                    continue
                try:
                    module = import_module(f"{config.name}.demo")
                except ModuleNotFoundError as exc:
                    if exc.name != f"{config.name}.demo":
                        raise
                    continue
                module.load(ctx)
                self.stdout.write(f"  demo data: {config.label}")
            # Steps that need every area's data (e.g. the warehouse receiving cartons issued by EUDR).
            for step in ctx.pop("after_all_areas", []):
                step(ctx)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
