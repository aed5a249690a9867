"""Production checks (`manage.py check --deploy`): a production node must not run on the embedded
default's SQLite database or with tasks inline in the web process, and should name the proxies it
believes."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from apps.common.client_ip import proxy_networks


def database_engine() -> str:
    return settings.DATABASES["default"]["ENGINE"]


@register(Tags.database, deploy=True)
def production_services(app_configs=None, **kwargs):
    if not getattr(settings, "PRODUCTION", False):
        return []
    errors = []
    engine = database_engine()
    if "postgresql" not in engine:
        errors.append(
            Error(
                "Production runs on PostgreSQL: set DATABASE_URL (postgres://…).",
                hint="Without it the node would use the embedded default's SQLite file.",
                id="operations.E001",
            )
        )
    if not getattr(settings, "REDIS_URL", ""):
        errors.append(
            Error(
                "Production needs Redis: set REDIS_URL (cache, task broker, shared rate limits).",
                hint="Without it tasks run inline in the web process and every node counts alone.",
                id="operations.E002",
            )
        )
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        errors.append(
            Error(
                "Production runs background tasks in Celery workers: CELERY_TASK_ALWAYS_EAGER must be off.",
                id="operations.E003",
            )
        )
    return errors


@register(Tags.security, deploy=True)
def proxy_addresses(app_configs=None, **kwargs):
    """Believing proxy headers from any peer lets a client that reaches a node directly forge them."""
    if not getattr(settings, "PRODUCTION", False):
        return []
    proxy_networks()  # a malformed list stops here with its message
    if int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0) > 0 and not getattr(
        settings, "TRUSTED_PROXY_ADDRESSES", None
    ):
        return [
            Warning(
                "TRUSTED_PROXY_COUNT is set but TRUSTED_PROXY_ADDRESSES is not: a client that reaches a node "
                "directly can forge X-Forwarded-For and X-Forwarded-Proto.",
                hint="Set TRUSTED_PROXY_ADDRESSES to the proxies' addresses or networks (docs/operations.md).",
                id="operations.W001",
            )
        ]
    return []


@register()
def document_fonts(app_configs=None, **kwargs):
    """The font every company document embeds (apps/common/document_pdf.py). Without it no invoice, order
    or statement summary can be made: an error in production, a warning elsewhere (so `make lint` and
    `make messages` still run on a checkout whose fonts are not copied yet)."""
    from apps.common.document_pdf import missing_font_files

    missing = missing_font_files()
    if not missing:
        return []
    kind, check_id = (
        (Error, "operations.E004") if getattr(settings, "PRODUCTION", False) else (Warning, "operations.W002")
    )
    return [
        kind(
            "The document font is missing: {}.".format(", ".join(missing)),
            hint="Run `make install` (or `make fonts`), or set DOCUMENT_FONT_DIR to the directory holding "
            "NotoSansSC-Regular.ttf and NotoSansSC-Bold.ttf (docs/operations.md).",
            id=check_id,
        )
    ]
