"""Takes a backup: the database as the backup role sees it (every tenant's rows) and the media folder."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.operations import backup


class Command(BaseCommand):
    help = (
        "Dump the database with the backup role (BACKUP_DATABASE_URL or --database-url) and the local media "
        "folder into a directory, with a manifest of row counts taken from the same snapshot."
    )

    def add_arguments(self, parser):
        parser.add_argument("target", help="directory to write (database.dump, media.tar.gz, manifest.json)")
        parser.add_argument("--database-url", default=None, help="connection of the backup role")
        parser.add_argument("--no-media", action="store_true", help="leave the media folder out (S3 storage)")

    def handle(self, *args, target, database_url, no_media, **options):
        import os

        url = database_url or os.environ.get("BACKUP_DATABASE_URL")
        if not url:
            raise CommandError("Give --database-url or set BACKUP_DATABASE_URL (the backup role).")
        try:
            manifest = backup.create(
                database_url=url,
                target=Path(target),
                media_root=None if no_media else backup.default_media_root(),
            )
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Backed up {len(manifest['tables'])} tables, {manifest['rows']} rows"
            f"{', media' if manifest['media'] else ''} into {target}."
        )
