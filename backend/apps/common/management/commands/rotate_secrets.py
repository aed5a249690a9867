"""Re-encrypts every stored secret with the newest key of FIELD_ENCRYPTION_KEYS (apps/common/secrets.py)."""

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from apps.common.secrets import EncryptedTextField, rotate


class Command(BaseCommand):
    help = "Re-encrypt every stored secret with the first key of FIELD_ENCRYPTION_KEYS."

    def handle(self, *args, **options):
        total = 0
        for model in apps.get_models():
            fields = [f for f in model._meta.concrete_fields if isinstance(f, EncryptedTextField)]
            if not fields:
                continue
            table = connection.ops.quote_name(model._meta.db_table)
            pk = connection.ops.quote_name(model._meta.pk.column or "id")
            for field in fields:
                column = connection.ops.quote_name(field.column or field.name)
                # Raw SQL: the values stay ciphertext end to end, and a system job reads across tenants
                # (the database role must be one that row-level security lets through, see docs/operations.md).
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute(f"SELECT {pk}, {column} FROM {table} WHERE {column} <> ''")
                    rows = cursor.fetchall()
                    for row_pk, value in rows:
                        cursor.execute(
                            f"UPDATE {table} SET {column} = %s WHERE {pk} = %s",
                            [rotate(value), row_pk],
                        )
                    total += len(rows)
        self.stdout.write(f"{total} secret(s) re-encrypted with the newest key.")
