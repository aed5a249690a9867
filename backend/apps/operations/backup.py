"""Backups that restore (docs/operations.md, "Backups").

Row-level security is forced on every tenant table, so the application's own role dumps empty tables (or
fails). A backup is taken by a separate role that may read every row: `BYPASSRLS` plus the predefined
`pg_read_all_data` role, no write rights. `backup_create` opens one REPEATABLE READ transaction as that
role, exports its snapshot, counts every table's rows inside it and runs `pg_dump --snapshot` on the same
snapshot, so the manifest's counts are exactly what the dump holds. `backup_verify` checks a restored
database against that manifest: the same rows per table, row-level security forced with our policy on
every tenant table, and every stored secret readable with the keys given.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlparse

import psycopg
from django.apps import apps

MANIFEST = "manifest.json"
DUMP = "database.dump"
MEDIA = "media.tar.gz"


class BackupError(RuntimeError):
    """The backup or the check could not be done; the message says why."""


def _libpq_env(url: str) -> dict[str, str]:
    """pg_dump/pg_restore take the connection from the environment: the password never shows in `ps`."""
    parts = urlparse(url)
    env = {**os.environ}
    env.update(
        {
            "PGHOST": parts.hostname or "",
            "PGPORT": str(parts.port or 5432),
            "PGUSER": unquote(parts.username or ""),
            "PGDATABASE": unquote(parts.path.lstrip("/")),
        }
    )
    if parts.password:
        env["PGPASSWORD"] = unquote(parts.password)
    return env


def _tables(conn) -> list[str]:
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname"
    ).fetchall()
    return [row[0] for row in rows]


def _counts(conn) -> dict[str, int]:
    counts = {}
    for table in _tables(conn):
        quoted = psycopg.sql.Identifier(table)
        counts[table] = conn.execute(psycopg.sql.SQL("SELECT count(*) FROM {}").format(quoted)).fetchone()[0]
    return counts


def _check_backup_role(conn) -> None:
    superuser, bypass = conn.execute(
        "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    if not (superuser or bypass):
        raise BackupError(
            "The backup role is subject to row-level security and would dump empty tenant tables: use a "
            "role with BYPASSRLS (docs/operations.md, 'Backups')."
        )


def create(*, database_url: str, target: Path, media_root: Path | None = None) -> dict:
    """Dumps the database (and the local media folder, if given) into `target` with a manifest."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError("pg_dump is not installed (Debian: postgresql-client).")
    target.mkdir(parents=True, exist_ok=True)
    # Autocommit, so that the snapshot's transaction is the one begun here, before any query.
    with psycopg.connect(database_url, autocommit=True) as conn:
        _check_backup_role(conn)
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
        counts = _counts(conn)
        server_version = conn.execute("SHOW server_version").fetchone()[0]
        # The arguments are ours; the connection comes from the environment (no shell, no password in ps).
        result = subprocess.run(  # noqa: S603
            [pg_dump, "--format=custom", f"--snapshot={snapshot}", f"--file={target / DUMP}"],
            env=_libpq_env(database_url),
            capture_output=True,
            text=True,
            check=False,
        )
        conn.execute("ROLLBACK")
    if result.returncode != 0:
        raise BackupError(f"pg_dump failed: {result.stderr.strip()[-500:]}")
    manifest = {
        "created_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
        "server_version": server_version,
        "tables": counts,
        "rows": sum(counts.values()),
        "media": None,
    }
    if media_root is not None and Path(media_root).is_dir():
        with tarfile.open(target / MEDIA, "w:gz") as archive:
            archive.add(media_root, arcname="media")
        manifest["media"] = MEDIA
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True))
    return manifest


@dataclass
class Verification:
    problems: list[str] = field(default_factory=list)
    tables: int = 0
    rows: int = 0
    secrets: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def _encrypted_columns() -> list[tuple[str, str]]:
    from apps.common.secrets import EncryptedTextField

    columns = []
    for model in apps.get_models():
        for model_field in model._meta.concrete_fields:
            if isinstance(model_field, EncryptedTextField):
                columns.append((model._meta.db_table, model_field.column))
    return columns


def verify(*, database_url: str, manifest_path: Path) -> Verification:
    """Checks a restored database (connect as a role that reads every row) against a backup manifest."""
    from apps.common.secrets import SecretUnreadable, decrypt
    from apps.tenancy import rls

    manifest = json.loads(Path(manifest_path).read_text())
    report = Verification()
    with psycopg.connect(database_url) as conn:
        _check_backup_role(conn)
        counts = _counts(conn)
        for table, expected in sorted(manifest["tables"].items()):
            found = counts.get(table)
            if found is None:
                report.problems.append(f"{table}: missing from the restored database")
            elif found != expected:
                report.problems.append(f"{table}: {found} rows restored, {expected} backed up")
        report.tables = len(counts)
        report.rows = sum(counts.values())
        tenant_tables = [table for table in rls.tenant_tables() if table in counts]
        rows = conn.execute(
            "SELECT c.relname, c.relforcerowsecurity, "
            "EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = %s) "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relname = ANY(%s)",
            [rls.POLICY_NAME, tenant_tables],
        ).fetchall()
        for table, forced, has_policy in rows:
            if not forced or not has_policy:
                report.problems.append(f"{table}: row-level security is not forced with the tenant policy")
        for table, column in _encrypted_columns():
            if table not in counts:
                continue
            query = psycopg.sql.SQL("SELECT {} FROM {} WHERE {} <> ''").format(
                psycopg.sql.Identifier(column), psycopg.sql.Identifier(table), psycopg.sql.Identifier(column)
            )
            unreadable = 0
            for (value,) in conn.execute(query):
                try:
                    decrypt(value)
                    report.secrets += 1
                except SecretUnreadable:
                    unreadable += 1
            if unreadable:
                report.problems.append(
                    f"{table}.{column}: {unreadable} secret(s) unreadable with the configured "
                    "FIELD_ENCRYPTION_KEYS (restore the keys with the backup)"
                )
    return report


def restore_media(*, backup_dir: Path, media_root: Path) -> bool:
    archive_path = backup_dir / MEDIA
    if not archive_path.exists():
        return False
    media_root.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive_path, "r:gz") as archive:
        members = [m for m in archive.getmembers() if m.name == "media" or m.name.startswith("media/")]
        for member in members:
            member.name = member.name[len("media/") :] if member.name.startswith("media/") else "."
        archive.extractall(media_root, members=members, filter="data")
    return True


def default_media_root() -> Path | None:
    """The local media folder, or None when files live in object storage (backed up by the bucket)."""
    from django.core.files.storage import FileSystemStorage, default_storage

    return Path(default_storage.location) if isinstance(default_storage, FileSystemStorage) else None
