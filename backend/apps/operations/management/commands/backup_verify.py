"""Checks a restored database against its backup's manifest."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.operations import backup


class Command(BaseCommand):
    help = (
        "Check a restored database against a backup manifest: rows per table, row-level security forced "
        "with the tenant policy, every stored secret readable with the configured keys."
    )

    def add_arguments(self, parser):
        parser.add_argument("backup_dir", help="the backup's directory (its manifest.json)")
        parser.add_argument("--database-url", required=True, help="the restored database, as the backup role")

    def handle(self, *args, backup_dir, database_url, **options):
        try:
            report = backup.verify(
                database_url=database_url, manifest_path=Path(backup_dir) / backup.MANIFEST
            )
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        for problem in report.problems:
            self.stderr.write(problem)
        if not report.ok:
            raise CommandError(
                f"The restored database differs from the backup: {len(report.problems)} problem(s)."
            )
        self.stdout.write(
            f"Restore verified: {report.tables} tables, {report.rows} rows, row-level security forced, "
            f"{report.secrets} secret(s) readable."
        )
