"""Rewrites the list search's trigram table (`common_searchgram`, apps/common/search_index.py) from the
rows themselves, tenant by tenant, one transaction per tenant. The triggers keep the grams right on every
write and `migrate` rebuilds a kind whose definition changed, so this is for repairs: after a change of
the database's collation or `upper()` (as a `REINDEX` would be), after restoring only some tables, or to
check the table against the rows (docs/performance.md, "List search")."""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from apps.common import search_index
from apps.tenancy.models import Tenant


def _kinds_of(names: list[str]) -> set[int]:
    """Kinds of models named `app_label.ModelName` or `ModelName` (any case)."""
    kinds = set()
    for name in names:
        wanted = name.lower()
        found = [
            entry.kind
            for entry in search_index.INDEXED
            if wanted in (entry.model.lower(), entry.model.split(".")[1].lower())
        ]
        if not found:
            raise CommandError(f"{name} has no search grams; indexed: {', '.join(_indexed())}")
        kinds.update(found)
    return kinds


def _indexed() -> list[str]:
    return [f"{entry.model} ({entry.kind})" for entry in search_index.INDEXED]


class Command(BaseCommand):
    help = "Rebuild the list search's trigram table from the rows, tenant by tenant."

    def add_arguments(self, parser):
        parser.add_argument(
            "--model",
            action="append",
            default=[],
            help="only this model's grams (app_label.ModelName or ModelName; repeatable)",
        )
        parser.add_argument(
            "--kind", action="append", type=int, default=[], help="only this kind (repeatable)"
        )
        parser.add_argument("--tenant", action="append", type=int, default=[], help="only this tenant id")

    def handle(self, *args, **options):
        if connection.vendor != "postgresql":
            self.stdout.write("SQLite has no search grams: its list search reads the tables (nothing to do).")
            return
        known = {entry.kind for entry in search_index.INDEXED}
        unknown = set(options["kind"]) - known
        if unknown:
            raise CommandError(f"unknown kind {sorted(unknown)}; indexed: {', '.join(_indexed())}")
        kinds = set(options["kind"]) | _kinds_of(options["model"])
        kinds = kinds or known
        # the function and the triggers first (created by `migrate`; recreated here if missing)
        search_index.sync()
        tenants = search_index.tenant_ids()
        if options["tenant"]:
            missing = set(options["tenant"]) - set(tenants)
            if missing:
                raise CommandError(f"no tenant {sorted(missing)}")
            tenants = [tenant for tenant in tenants if tenant in options["tenant"]]
        names = dict(Tenant.objects.filter(pk__in=tenants).values_list("pk", "name"))
        total = 0
        for tenant_id in tenants:
            written = search_index.rebuild(kinds, tenants=[tenant_id])[tenant_id]
            total += written
            self.stdout.write(f"{names.get(tenant_id, tenant_id)}: {written} grams")
        models = ", ".join(entry.model for entry in search_index.INDEXED if entry.kind in kinds)
        self.stdout.write(self.style.SUCCESS(f"{total} grams of {models} rebuilt in {len(tenants)} tenants."))
