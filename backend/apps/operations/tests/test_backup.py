"""A backup taken by the documented procedure restores with every row, row-level security forced and
secrets readable; the application's own role cannot take one that is silently empty."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from apps.operations import backup
from apps.suppliers.models import ParentVendor
from apps.tenancy.context import tenant_context

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BACKUP_ROLE = "cartontrace_backup"


def _url(params: dict, *, user: str, dbname: str) -> str:
    return f"postgresql://{user}@{params.get('host') or '127.0.0.1'}:{params.get('port') or 5432}/{dbname}"


@pytest.fixture
def superuser_url():
    params = connection.get_connection_params()
    url = _url(params, user="postgres", dbname="postgres")
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            if not conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]:
                pytest.skip("the postgres role is not a superuser here")
    except psycopg.OperationalError as exc:
        pytest.skip(f"no superuser connection for creating the backup role: {exc}")
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump/pg_restore are not installed")
    return url


@pytest.fixture
def backup_role(superuser_url):
    """The documented backup role: reads every row (BYPASSRLS, pg_read_all_data), writes nothing."""
    with psycopg.connect(superuser_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [BACKUP_ROLE]).fetchone()
        if not exists:
            conn.execute(f"CREATE ROLE {BACKUP_ROLE} LOGIN BYPASSRLS NOSUPERUSER")
        conn.execute(f"GRANT pg_read_all_data TO {BACKUP_ROLE}")
    return BACKUP_ROLE


@pytest.fixture
def restored_database(superuser_url):
    name = f"cartontrace_restore_{uuid.uuid4().hex[:8]}"
    owner = connection.get_connection_params()["user"]
    with psycopg.connect(superuser_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" OWNER "{owner}"')
    yield name
    with psycopg.connect(superuser_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _rows(tenant2, tenant3):
    from apps.notifications.models import SmtpSettings

    with tenant_context(tenant2):
        ParentVendor.objects.create(name="Shanghai Evergreen Packaging", code="SEP")
        ParentVendor.objects.create(name="Ningbo Bluewave Cartons", code="NBC")
        SmtpSettings.objects.create(host="smtp.example.com", from_email="a@example.com", password="s3cret!")
    with tenant_context(tenant3):
        ParentVendor.objects.create(name="Guangzhou Forest Paper", code="GFP")


def test_backup_restores_every_tenants_rows(
    tenant2, tenant3, backup_role, restored_database, superuser_url, tmp_path, settings
):
    _rows(tenant2, tenant3)
    params = connection.get_connection_params()
    source = _url(params, user=backup_role, dbname=params["dbname"])
    media = Path(settings.MEDIA_ROOT)
    (media / "tenants" / str(tenant2.pk)).mkdir(parents=True)
    (media / "tenants" / str(tenant2.pk) / "certificate.pdf").write_bytes(b"%PDF-1.4 certificate")

    call_command("backup_create", str(tmp_path / "b"), "--database-url", source)
    manifest = (tmp_path / "b" / backup.MANIFEST).read_text()
    assert '"suppliers_parentvendor": 3' in manifest

    dump = tmp_path / "b" / backup.DUMP
    restore_env = backup._libpq_env(_url(params, user="postgres", dbname=restored_database))
    subprocess.run(
        ["pg_restore", "--exit-on-error", f"--dbname={restored_database}", str(dump)],
        env=restore_env,
        check=True,
    )

    target = _url(params, user=backup_role, dbname=restored_database)
    report = backup.verify(database_url=target, manifest_path=tmp_path / "b" / backup.MANIFEST)
    assert report.ok, report.problems
    assert report.secrets == 1
    call_command("backup_verify", str(tmp_path / "b"), "--database-url", target)

    # The application's role sees the restored rows only inside a tenant: RLS came back forced.
    app_url = _url(params, user=params["user"], dbname=restored_database)
    with psycopg.connect(app_url) as conn:
        assert conn.execute("SELECT count(*) FROM suppliers_parentvendor").fetchone()[0] == 0
        conn.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant2.pk)])
        assert conn.execute("SELECT count(*) FROM suppliers_parentvendor").fetchone()[0] == 2

    restored_media = tmp_path / "restored-media"
    assert backup.restore_media(backup_dir=tmp_path / "b", media_root=restored_media)
    assert (
        restored_media / "tenants" / str(tenant2.pk) / "certificate.pdf"
    ).read_bytes() == b"%PDF-1.4 certificate"


def test_verify_finds_missing_rows_and_unreadable_secrets(
    tenant2, tenant3, backup_role, restored_database, superuser_url, tmp_path, settings
):
    _rows(tenant2, tenant3)
    params = connection.get_connection_params()
    call_command(
        "backup_create",
        str(tmp_path / "b"),
        "--no-media",
        "--database-url",
        _url(params, user=backup_role, dbname=params["dbname"]),
    )
    restore_env = backup._libpq_env(_url(params, user="postgres", dbname=restored_database))
    subprocess.run(
        ["pg_restore", f"--dbname={restored_database}", str(tmp_path / "b" / backup.DUMP)],
        env=restore_env,
        check=True,
    )
    with psycopg.connect(_url(params, user="postgres", dbname=restored_database), autocommit=True) as conn:
        conn.execute("DELETE FROM suppliers_parentvendor WHERE code = 'GFP'")
        conn.execute("ALTER TABLE suppliers_parentvendor NO FORCE ROW LEVEL SECURITY")

    from cryptography.fernet import Fernet

    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]  # the keys were not kept
    report = backup.verify(
        database_url=_url(params, user=backup_role, dbname=restored_database),
        manifest_path=tmp_path / "b" / backup.MANIFEST,
    )
    assert "suppliers_parentvendor: 2 rows restored, 3 backed up" in report.problems
    assert (
        "suppliers_parentvendor: row-level security is not forced with the tenant policy" in report.problems
    )
    assert any("unreadable" in problem for problem in report.problems)
    with pytest.raises(CommandError, match="differs from the backup"):
        call_command(
            "backup_verify",
            str(tmp_path / "b"),
            "--database-url",
            _url(params, user=backup_role, dbname=restored_database),
        )


def test_the_applications_role_cannot_take_a_backup(tmp_path):
    params = connection.get_connection_params()
    with pytest.raises(CommandError, match="BYPASSRLS"):
        call_command(
            "backup_create",
            str(tmp_path / "b"),
            "--database-url",
            _url(params, user=params["user"], dbname=params["dbname"]),
        )
