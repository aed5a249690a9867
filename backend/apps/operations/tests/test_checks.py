"""`check --deploy` refuses a production node without PostgreSQL, Redis and Celery workers."""

from __future__ import annotations

from apps.operations import checks
from apps.operations.checks import production_services


def test_production_without_postgres_or_redis_fails(settings, monkeypatch):
    settings.PRODUCTION = True
    monkeypatch.setattr(checks, "database_engine", lambda: "django.db.backends.sqlite3")
    settings.REDIS_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    ids = {error.id for error in production_services()}
    assert ids == {"operations.E001", "operations.E002", "operations.E003"}


def test_production_with_its_services_passes(settings, monkeypatch):
    settings.PRODUCTION = True
    monkeypatch.setattr(checks, "database_engine", lambda: "django.db.backends.postgresql")
    settings.REDIS_URL = "redis://cache.internal:6379/0"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert production_services() == []


def test_the_embedded_default_is_not_checked(settings):
    settings.PRODUCTION = False
    settings.REDIS_URL = ""
    assert production_services() == []


def test_a_missing_document_font_is_an_error_in_production_and_a_warning_elsewhere(settings, tmp_path):
    settings.DOCUMENT_FONT_DIR = tmp_path
    settings.PRODUCTION = True
    [error] = checks.document_fonts()
    assert error.id == "operations.E004" and "NotoSansSC-Regular.ttf" in error.msg
    settings.PRODUCTION = False
    [warning] = checks.document_fonts()
    assert warning.id == "operations.W002"


def test_the_installed_document_font_passes(settings):
    settings.PRODUCTION = True
    assert checks.document_fonts() == []
