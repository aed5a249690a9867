"""The first administrator of a tenant on a real installation:

    ADMIN_PASSWORD=... manage.py create_admin alice --tenant 1 --email alice@example.com

An internal user holding every role of the tenant. The password comes from the ADMIN_PASSWORD
environment variable or is prompted for (twice); it must pass the password rules. An existing internal
user keeps their password and gains the membership (e.g. the same administrator for a second tenant).
"""

import getpass
import os

from django.core.management.base import BaseCommand, CommandError

from apps.common.exceptions import FieldErrors
from apps.tenancy.models import Tenant
from apps.users.models import User
from apps.users.services import admin_ensure

PASSWORD_ENV = "ADMIN_PASSWORD"


class Command(BaseCommand):
    help = "Create an administrator (internal user with all roles) of a tenant."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--tenant", type=int, required=True, help="Tenant id (see create_tenant).")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--staff", action="store_true", help="Also staff (sees the /test/* developer pages)."
        )
        parser.add_argument(
            "--no-input",
            action="store_false",
            dest="interactive",
            help=f"Never prompt; the password must be in {PASSWORD_ENV}.",
        )

    def handle(
        self, *args, username: str, tenant: int, email: str, staff: bool, interactive: bool, **options
    ):
        tenant_obj = Tenant.objects.filter(pk=tenant, is_active=True).first()
        if tenant_obj is None:
            raise CommandError(f"No active tenant with id {tenant}.")
        password = None
        if not User.objects.filter(username=username).exists():
            password = os.environ.get(PASSWORD_ENV) or self._prompt_password(interactive)
        try:
            user, created = admin_ensure(
                username=username, tenant=tenant_obj, password=password, email=email, staff=staff
            )
        except FieldErrors as exc:
            messages = [f"{field}: {message}" for field, items in exc.data.items() for message in items]
            raise CommandError("; ".join(messages)) from exc
        verb = "Created" if created else "Updated"
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb} administrator {user.username} of tenant {tenant_obj.pk} ({tenant_obj.name})."
            )
        )

    def _prompt_password(self, interactive: bool) -> str:
        if not interactive:
            raise CommandError(f"Set {PASSWORD_ENV} or run without --no-input to be prompted.")
        for _attempt in range(3):
            first = getpass.getpass("Password: ")
            if first and first == getpass.getpass("Password (again): "):
                return first
            self.stderr.write("The passwords are empty or do not match.")
        raise CommandError("No password given.")
