"""Sets up a company on a real installation: `manage.py create_tenant "Acme Packaging BV" --country NL`.

Creates the tenant with the default roles (Administrator, Sales, Purchasing, Warehouse, Supplier) and
prints its id, which `create_admin --tenant <id>` and the web app's `tenant_id` use.
"""

from django.core.management.base import BaseCommand, CommandError

from apps.tenancy.services import tenant_create

OPTIONAL_FIELDS = ("legal_name", "country", "vat_number", "eori_number", "email", "phone", "address")


class Command(BaseCommand):
    help = "Create a tenant (company) with its default roles; prints the tenant id."

    def add_arguments(self, parser):
        parser.add_argument("name", help="The company's display name (unique).")
        parser.add_argument("--code", default="", help="Short unique code (default: from the name).")
        for field in OPTIONAL_FIELDS:
            parser.add_argument(f"--{field.replace('_', '-')}", dest=field, default="")

    def handle(self, *args, name: str, code: str, **options):
        fields = {field: options[field] for field in OPTIONAL_FIELDS if options.get(field)}
        if "country" in fields:
            fields["country"] = fields["country"].upper()
        try:
            tenant = tenant_create(name=name, code=code, **fields)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Created tenant {tenant.pk}: {tenant.name} ({tenant.code})"))
        self.stdout.write(f"Next: manage.py create_admin <username> --tenant {tenant.pk}")
