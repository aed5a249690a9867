"""Loads the demo data: tenants, roles, users, and each area's records (<app>/demo.py).

The areas load in app order, except that a demo module may name the areas whose data it needs in
`DEMO_AFTER` (app labels): it then loads after them (e.g. the warehouse receives cartons the EUDR area
issues, and the sales demo ships cartons the warehouse has in stock). Steps a module appends to
`ctx["after_all_areas"]` run once every area has loaded, in the order they were added.

`--if-empty` does nothing when the database already has tenants: demo data never overwrites real work.
"""

from importlib import import_module
from types import ModuleType

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.tenancy.models import Tenant


def demo_modules() -> list[tuple[str, ModuleType]]:
    """The areas' demo modules in loading order: app order, each module after those in its
    `DEMO_AFTER` (a stable topological order; an unknown label is ignored, a cycle is an error)."""
    modules: dict[str, ModuleType] = {}
    for config in apps.get_app_configs():
        if not config.name.startswith("apps."):
            continue
        try:
            modules[config.label] = import_module(f"{config.name}.demo")
        except ModuleNotFoundError as exc:
            if exc.name != f"{config.name}.demo":
                raise
    waiting = list(modules)
    ordered: list[str] = []
    while waiting:
        for label in waiting:
            needs = [n for n in getattr(modules[label], "DEMO_AFTER", ()) if n in modules and n != label]
            if all(n in ordered for n in needs):
                break
        else:
            raise CommandError(f"The demo modules wait for each other: {', '.join(waiting)}")
        waiting.remove(label)
        ordered.append(label)
    return [(label, modules[label]) for label in ordered]


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
            for label, module in demo_modules():
                module.load(ctx)
                self.stdout.write(f"  demo data: {label}")
            # Steps that need every area's data (e.g. the pickups planned for the sales shipments).
            for step in ctx.pop("after_all_areas", []):
                step(ctx)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
