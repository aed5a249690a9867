"""Concurrent writers against the embedded default (a real SQLite file): run by
test_sqlite_concurrency.py in its own process, with the settings of `make run` (no DATABASE_URL).

Prints one JSON line: {"requests": n, "errors": [...], "journal_mode": ..., "seconds": ...}.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

THREADS = int(os.environ.get("PROBE_THREADS", 8))
ROUNDS = int(os.environ.get("PROBE_ROUNDS", 12))


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.apps import apps
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, connections
    from django.test import Client

    from apps.tenancy.context import tenant_context
    from apps.tenancy.models import Membership, Tenant
    from apps.users.models import User
    from apps.users.roles import roles_ensure_defaults

    # The tables straight from the models (as `pytest --nomigrations` does: the schema is the same, and
    # replaying every migration would take minutes); a fast password hash for the sign-ins.
    settings.MIGRATION_MODULES = {config.label: None for config in apps.get_app_configs()}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if os.environ.get("PROBE_SQLITE_OPTIONS"):  # to measure other settings against the same load
        options = settings.DATABASES["default"]["OPTIONS"]
        options.clear()
        options.update(json.loads(os.environ["PROBE_SQLITE_OPTIONS"]))
    call_command("migrate", run_syncdb=True, verbosity=0, interactive=False)
    tenant = Tenant.objects.create(name="Probe AB", code="probe")
    with tenant_context(tenant):
        admin_role = roles_ensure_defaults()["Administrator"]
    for n in range(THREADS):
        user = User.objects.create_user(username=f"writer{n}", password="demo1234")
        membership = Membership.objects.create(user=user, tenant=tenant)
        with tenant_context(tenant):
            membership.roles.set([admin_role])
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        journal_mode = cursor.fetchone()[0]
    connections.close_all()

    errors: list[str] = []
    count = {"n": 0}
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def worker(n: int, token: dict) -> None:
        client = Client()
        start.wait()
        try:
            for round_ in range(ROUNDS):
                calls = [
                    # sign-in: last_login, outstanding token, lockout bookkeeping (writes)
                    lambda: client.post(
                        "/api/users/login/",
                        {"username": f"writer{n}", "password": "demo1234"},
                        content_type="application/json",
                    ),
                    lambda: client.get("/api/tenants/", HTTP_AUTHORIZATION=f"Bearer {token['access']}"),
                    # a tenant write: a department (each thread its own name)
                    lambda: client.post(
                        f"/api/users/departments/?tenant_id={tenant.pk}",
                        {"name": f"Dept {n}-{round_}"},
                        content_type="application/json",
                        HTTP_AUTHORIZATION=f"Bearer {token['access']}",
                    ),
                    lambda: client.patch(
                        "/api/users/me/",
                        {"phone": f"+46 {n} {round_}"},
                        content_type="application/json",
                        HTTP_AUTHORIZATION=f"Bearer {token['access']}",
                    ),
                ]
                for call in calls:
                    response = call()
                    with lock:
                        count["n"] += 1
                        if response.status_code >= 500 or response.status_code in (401, 403):
                            errors.append(f"{response.status_code} {response.content[:200]!r}")
                    if response.status_code == 200 and b'"refresh"' in response.content:
                        token["access"] = response.json()["data"]["access"]
        finally:
            connections.close_all()

    tokens = {}
    for n in range(THREADS):
        login = Client().post(
            "/api/users/login/",
            {"username": f"writer{n}", "password": "demo1234"},
            content_type="application/json",
        )
        tokens[n] = {"access": login.json()["data"]["access"]}
    connections.close_all()
    began = time.monotonic()
    threads = [threading.Thread(target=worker, args=(n, tokens[n])) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(
        json.dumps(
            {
                "requests": count["n"],
                "errors": errors,
                "journal_mode": journal_mode,
                "seconds": round(time.monotonic() - began, 2),
            }
        )
    )


if __name__ == "__main__":
    sys.exit(main())
