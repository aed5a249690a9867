"""Prints the Fernet key earlier versions derived from the signing key for stored secrets.

Earlier versions encrypted stored secrets (SMTP passwords, accounting and TRACES keys) with a key derived
from SECRET_KEY when FIELD_ENCRYPTION_KEYS was unset. To move such an installation to keys of its own
(docs/operations.md, "Keys"): set FIELD_ENCRYPTION_KEYS to `<new key>,<this key>`, run
`manage.py rotate_secrets`, then drop this key from the list.
"""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand

from apps.common.secrets import derived_key


class Command(BaseCommand):
    help = "Print the stored-secrets key earlier versions derived from the signing key (for rotation)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--secret-key-stdin",
            action="store_true",
            help="derive from the former signing key read from standard input instead of SECRET_KEY",
        )

    def handle(self, *args, **options):
        secret = sys.stdin.readline().strip() if options["secret_key_stdin"] else settings.SECRET_KEY
        self.stdout.write(derived_key(secret).decode())
