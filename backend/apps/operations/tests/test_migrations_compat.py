"""Upgrades without errors: every migration from now on is backward-compatible (expand/contract).

During a rolling upgrade the previous release's code runs against the new schema. So a migration may only
*expand* the schema in a way the old code cannot trip over:
- a new NOT NULL column has a database default (`db_default`), so the old code's INSERTs, which do not
  name it, still succeed (Django's `default=` alone is dropped from the column after the migration);
- nothing the old code reads or writes disappears or is renamed in the same release: dropping a column
  or table, or renaming one, is a *contract* step that ships a release later and
  is listed in CONTRACT_STEPS below with the release whose code stopped using it.

Migrations written before this rule are listed in migrations_before_expand_contract.txt.
"""

from __future__ import annotations

from pathlib import Path

from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader

BEFORE = set((Path(__file__).parent / "migrations_before_expand_contract.txt").read_text().split())

# (app_label, migration name, operation index): why it is safe now.
CONTRACT_STEPS: dict[tuple[str, str, int], str] = {}

_CONTRACT_OPERATIONS = (
    migrations.RemoveField,
    migrations.DeleteModel,
    migrations.RenameField,
    migrations.RenameModel,
)


def _project_migrations():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for (app_label, name), migration in sorted(loader.disk_migrations.items()):
        if not type(migration).__module__.startswith("apps."):
            continue
        yield app_label, name, migration


def _problems(app_label: str, name: str, migration) -> list[str]:
    problems = []
    for index, operation in enumerate(migration.operations):
        where = f"{app_label}.{name} operation {index}"
        if (app_label, name, index) in CONTRACT_STEPS:
            continue
        if isinstance(operation, _CONTRACT_OPERATIONS):
            problems.append(f"{where}: {type(operation).__name__} is a contract step (a release later)")
        elif isinstance(operation, migrations.AddField):
            field = operation.field
            if field.many_to_many or field.null:
                continue
            if getattr(field, "db_default", models.NOT_PROVIDED) is models.NOT_PROVIDED:
                problems.append(f"{where}: new NOT NULL column {operation.name} without db_default")
    return problems


def test_every_new_migration_is_backward_compatible():
    problems = []
    for app_label, name, migration in _project_migrations():
        if f"{app_label}.{name}" in BEFORE:
            continue
        problems.extend(_problems(app_label, name, migration))
    assert not problems, "Migrations the previous release's code would trip over:\n" + "\n".join(problems)


def test_the_rule_catches_what_broke_an_upgrade():
    """A new NOT NULL counter without a database default: old code creating the row fails. This is what
    happened with a purchase-order line counter; the rule now refuses it."""

    class Migration(migrations.Migration):
        operations = [
            migrations.AddField(
                "purchaseorderline", "cartons_issued", models.PositiveIntegerField(default=0)
            ),
            migrations.AddField("purchaseorderline", "note", models.TextField(null=True)),
            migrations.AddField(
                "purchaseorderline", "flag", models.BooleanField(default=False, db_default=False)
            ),
            migrations.RemoveField("purchaseorderline", "legacy"),
        ]

    problems = _problems("purchaseorders", "9999_example", Migration("9999_example", "purchaseorders"))
    assert problems == [
        "purchaseorders.9999_example operation 0: new NOT NULL column cartons_issued without db_default",
        "purchaseorders.9999_example operation 3: RemoveField is a contract step (a release later)",
    ]
