"""One settings module, driven by environment variables (docs/operations.md lists them).

Embedded default (no DATABASE_URL): SQLite under var/, Celery eager, e-mail to the console, files under
var/media. Production: DJANGO_ENV=production, DATABASE_URL (PostgreSQL), REDIS_URL, DJANGO_SECRET_KEY,
FIELD_ENCRYPTION_KEYS.
"""

import json
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from apps.common.static_headers import static_headers
from config import fixed_clock, keyfiles

BASE_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = BASE_DIR.parent
VAR_DIR = Path(os.environ.get("APP_VAR_DIR", REPO_DIR / "var"))
FRONTEND_DIST = Path(os.environ.get("FRONTEND_DIST", REPO_DIR / "frontend" / "dist"))
# The font every company document embeds (apps/common/document_pdf.py): Noto Sans SC, regular and bold,
# copied here by `make install` from the npm package pinned in frontend/package-lock.json.
DOCUMENT_FONT_DIR = Path(os.environ.get("DOCUMENT_FONT_DIR", BASE_DIR / "fonts"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_urls(name: str, names: tuple[str, ...]) -> dict[str, str]:
    """A JSON object of base URLs by name from the environment ({} when unset); refuses anything else."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not JSON: {exc}") from exc
    if not isinstance(value, dict) or not all(
        key in names and isinstance(url, str) and url.startswith(("http://", "https://"))
        for key, url in value.items()
    ):
        raise ImproperlyConfigured(f"{name} must map {' or '.join(names)} to an http(s) URL")
    return value


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "development") == "production"
# Debug is off unless asked for (DJANGO_DEBUG=1, development only): the embedded default (`make run`) is a
# demonstration of the production system, with its error pages and headers.
DEBUG = env_bool("DJANGO_DEBUG", default=False)
# Keys (docs/operations.md, "Keys"). No key is a constant in the source: production takes them from the
# environment and refuses to start without them; any other installation (the embedded default, `make run`)
# generates its own on first start and keeps them under var/ (mode 0600, never committed; config/keyfiles.py).
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip()
if not SECRET_KEY:
    if PRODUCTION:
        raise RuntimeError("DJANGO_SECRET_KEY must be set in production")
    SECRET_KEY = keyfiles.load_or_create(VAR_DIR / "secret_key", keyfiles.new_signing_key)

# Keys of secrets stored at rest (apps/common/secrets.py): Fernet keys, newest first, comma-separated,
# independent of the signing key (a leaked signing key does not open the stored SMTP passwords, accounting
# and TRACES keys, nor the other way round). Rotation: docs/operations.md.
FIELD_ENCRYPTION_KEYS = env_list("FIELD_ENCRYPTION_KEYS")
if not FIELD_ENCRYPTION_KEYS:
    if PRODUCTION:
        raise RuntimeError("FIELD_ENCRYPTION_KEYS must be set in production")
    FIELD_ENCRYPTION_KEYS = [
        keyfiles.load_or_create(VAR_DIR / "field_encryption_key", keyfiles.new_fernet_key)
    ]

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_simplejwt.token_blacklist",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "apps.tenancy",
    "apps.users",
    "apps.common",
    "apps.numbering",
    "apps.products",
    "apps.customers",
    "apps.suppliers",
    "apps.purchaseorders",
    "apps.salesorders",
    "apps.logistics",
    "apps.inventory",
    "apps.eudr",
    "apps.duediligence",
    "apps.printing",
    "apps.notifications",
    "apps.reports",
    "apps.accounting",
    "apps.operations",
    "django_prometheus",
]

MIDDLEWARE = [
    "apps.common.client_ip.TrustedProxyMiddleware",
    "apps.operations.request_id.RequestIdMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.common.security.SecurityHeadersMiddleware",
    # WhiteNoise, answering the public trace page's addresses with the built trace.html too
    "apps.common.static_files.AppWhiteNoiseMiddleware",
    # The public trace answered from its precomputed row, like a static file (apps/eudr/public_trace_fast.py)
    "apps.eudr.public_trace_fast.PublicTraceMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "apps.common.middleware.ApiCommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "apps.tenancy.middleware.TenantContextMiddleware",
    "apps.duediligence.audit.AuditActorMiddleware",
    "apps.common.middleware.ApiErrorMiddleware",
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
AUTH_USER_MODEL = "users.User"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

# Database: PostgreSQL when DATABASE_URL is set (production, CI), SQLite under var/ otherwise.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(VAR_DIR / "db.sqlite3")),
            # Served by one process with several threads (gunicorn --threads 8): readers must not wait for
            # writers (WAL journal), a writer waits for another instead of failing (busy timeout), and a
            # write transaction takes the write lock when it begins (IMMEDIATE), so two transactions
            # never both read and then fail to upgrade to writing ("database is locked").
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000; "
                    "PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }
# Every request runs in one transaction: writes are atomic and the PostgreSQL tenant setting
# (SET LOCAL app.tenant_id) lives exactly as long as the request's transaction.
DATABASES["default"]["ATOMIC_REQUESTS"] = True
IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith(("postgresql", "postgis"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Password rules for new users, administrators' resets and password changes (demo users are seeded with
# their printed demo password directly). 12 characters at least: NIST SP 800-63B and OWASP (2026) ask for
# length rather than character classes; common and all-digit passwords and ones close to the user's
# own names are refused.
PASSWORD_MIN_LENGTH = int(os.environ.get("PASSWORD_MIN_LENGTH", 12))
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": PASSWORD_MIN_LENGTH},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Repeated and sequential characters (aaaaaaaaaaaa, abcdefghijkl, 123456789012): apps/users/password_validators.py
    {"NAME": "apps.users.password_validators.StrengthValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
# Test servers whose pages are compared as pictures run on a fixed clock (config/fixed_clock.py).
fixed_clock.start()
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
# The built React app: WhiteNoise serves its files at the site root (index.html via the SPA view).
WHITENOISE_ROOT = FRONTEND_DIST if FRONTEND_DIST.exists() else None
WHITENOISE_INDEX_FILE = False
# Hashed /assets/ files: a year, immutable; the service worker and HTML: revalidated (apps/common/spa.py).
WHITENOISE_ADD_HEADERS_FUNCTION = static_headers

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}


# S3-compatible object storage: the default as soon as there are two nodes (docs/operations.md, "Files").
# Credentials from S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY, else boto3's own chain (AWS_ACCESS_KEY_ID and
# AWS_SECRET_ACCESS_KEY, a shared credentials file, the machine's instance role).
def s3_storage_options(environ=os.environ) -> dict:
    return {
        "bucket_name": environ["S3_BUCKET"],
        "endpoint_url": environ.get("S3_ENDPOINT_URL") or None,
        "region_name": environ.get("S3_REGION") or None,
        "access_key": environ.get("S3_ACCESS_KEY_ID") or None,
        "secret_key": environ.get("S3_SECRET_ACCESS_KEY") or None,
        # "path" for servers without bucket subdomains (SeaweedFS, MinIO); boto3 decides when unset.
        "addressing_style": environ.get("S3_ADDRESSING_STYLE") or None,
        "signature_version": "s3v4",
        "default_acl": None,
        "querystring_auth": True,
        "querystring_expire": int(environ.get("S3_URL_EXPIRE_SECONDS", 300)),
        "file_overwrite": False,
    }


if os.environ.get("S3_BUCKET"):
    STORAGES["default"] = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": s3_storage_options()}

# Uploads
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 30 * 1024 * 1024
ATTACHMENT_MAX_BYTES = int(os.environ.get("ATTACHMENT_MAX_BYTES", 20 * 1024 * 1024))

# The client's address (apps/common/client_ip.py): X-Forwarded-For is believed only through the number of
# reverse proxies the deployment declares in front of the app (0: the socket's address, header ignored).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", 0))
# The proxies' own addresses or networks: proxy headers from any other peer are dropped.
TRUSTED_PROXY_ADDRESSES = env_list("TRUSTED_PROXY_ADDRESSES")

# A list's count reads at most this many rows (+1); above it the answer is a lower bound with
# count_more: true (apps/common/api/pagination.py, docs/performance.md "Counts of big lists").
LIST_COUNT_LIMIT = int(os.environ.get("LIST_COUNT_LIMIT", 10_000))
# The same for a list's search (?search=): a common term's count would otherwise scan every row.
SEARCH_COUNT_LIMIT = int(os.environ.get("SEARCH_COUNT_LIMIT", 1_000))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["apps.users.tokens.SessionJWTAuthentication"],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["apps.common.api.envelope.EnvelopeJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "apps.common.api.parsers.SafeJSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "apps.common.api.pagination.StandardPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_FILTER_BACKENDS": [
        "apps.common.api.filters.TenantFilterBackend",
        "apps.common.api.search.JoinFreeSearchFilter",
        "apps.common.api.filters.PriceAwareOrderingFilter",
    ],
    "EXCEPTION_HANDLER": "apps.common.api.envelope.exception_handler",
    "DEFAULT_METADATA_CLASS": "apps.common.api.metadata.SafeMetadata",
    "DEFAULT_SCHEMA_CLASS": "apps.common.api.schema.TenantAutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "public_trace": os.environ.get("PUBLIC_TRACE_RATE", "120/min"),
        "login": os.environ.get("LOGIN_RATE", "30/min"),
        "printer_pairing": os.environ.get("PRINTER_PAIRING_RATE", "20/min"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # `?format=csv|xlsx|pdf` selects an export's file format, not a DRF renderer.
    "URL_FORMAT_OVERRIDE": None,
    "COERCE_DECIMAL_TO_STRING": True,
}

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=int(os.environ.get("JWT_ACCESS_MINUTES", 15))),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=int(os.environ.get("JWT_REFRESH_DAYS", 7))),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "UPDATE_LAST_LOGIN": True,
    "SIGNING_KEY": SECRET_KEY,
    "USER_AUTHENTICATION_RULE": "apps.users.auth.user_can_authenticate",
    "TOKEN_OBTAIN_SERIALIZER": "apps.users.api.serializers.LoginSerializer",
    "TOKEN_REFRESH_SERIALIZER": "apps.users.tokens.SessionRefreshSerializer",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "CartonTrace API",
    "DESCRIPTION": (
        "Multi-tenant sales, purchasing, warehouse and EUDR carton traceability. Every response is wrapped "
        'in the envelope {"code", "message", "data"} (errors add "error"); tenant-scoped endpoints need '
        "?tenant_id=. See docs/api-contract.md."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apps.common.api.schema.wrap_in_envelope",
        "apps.common.api.schema.blankable_email_without_format",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ForestLayerKindEnum": "apps.duediligence.models.ForestLayer.Kind",
        "ForestLayerStatusEnum": "apps.duediligence.models.ForestLayer.Status",
        "RawMaterialStatusEnum": "apps.eudr.models.RawMaterialDelivery.Status",
        "MaterialTypeEnum": "apps.eudr.models.MaterialType",
        "CartonLabelStatusEnum": "apps.eudr.models.CartonLabel.Status",
        "PurchaseOrderStatusEnum": "apps.purchaseorders.models.PurchaseOrder.Status",
        "ShipmentStatusEnum": "apps.logistics.models.ShipmentInfo.Status",
        "CartonEventKindEnum": "apps.inventory.models.CartonEvent.Kind",
        "StockMoveKindEnum": "apps.inventory.models.StockMove.Kind",
        "LocationKindEnum": "apps.inventory.models.Location.Kind",
        "WarehouseCartonStatusEnum": "apps.inventory.models.WarehouseCarton.Status",
        "SalesOrderStatusEnum": "apps.salesorders.models.SalesOrder.Status",
        "SalesShipmentStatusEnum": "apps.salesorders.models.Shipment.Status",
        "SalesQuotationStatusEnum": "apps.salesorders.models.SalesQuotation.Status",
        "InvoiceStatusEnum": "apps.salesorders.models.Invoice.Status",
        "InvoiceKindEnum": "apps.salesorders.models.Invoice.Kind",
        "InvoicePaymentSourceEnum": "apps.salesorders.models.InvoicePayment.Source",
        "SourceEnum": "apps.printing.models.PrintJob.Source",
        "DocumentLanguageEnum": "apps.salesorders.models.Language",
        "PrintJobStatusEnum": "apps.printing.models.PrintJob.Status",
        "PrinterStatusEnum": "apps.printing.models.PrinterStatus",
        "EmailMessageStatusEnum": "apps.notifications.models.EmailMessage.Status",
        "EmailScenarioLanguageEnum": "apps.notifications.models.EmailScenario.LanguageMode",
        "EmailRecipientTypeEnum": "apps.notifications.api.serializers.RECIPIENT_TYPES",
        "UserLanguageEnum": "apps.users.api.serializers.LANGUAGE_CHOICES",
        "PurchaseOrderTypeEnum": "apps.purchaseorders.models.PurchaseOrder.Type",
        "SupplierInvoiceStatusEnum": "apps.purchaseorders.models.SupplierInvoice.Status",
        "MatchStatusEnum": "apps.purchaseorders.models.MatchStatus",
        "SyncEntryStatusEnum": "apps.accounting.models.SyncEntry.Status",
        "SyncEntryActionEnum": "apps.accounting.models.SyncEntry.Action",
        "AccountingRecordKindEnum": "apps.accounting.models.MappingKind",
        "AccountingProviderEnum": "apps.accounting.models.Provider",
        "AccountingSupplierLevelEnum": "apps.accounting.models.SupplierLevel",
        "ImportJobStatusEnum": "apps.common.models.ImportJob.Status",
        "DdsSubmissionStatusEnum": "apps.eudr.filing_models.DdsSubmission.Status",
        "ImportJobPhaseEnum": "apps.common.api.import_serializers.IMPORT_PHASES",
    },
    "DISABLE_ERRORS_AND_WARNINGS": env_bool("SPECTACULAR_QUIET", True),
}

# Login lockout (django-axes): 5 failures for a user name FROM one client address lock that pair for 15
# minutes. The owner signing in from their own address is not locked out by someone guessing elsewhere;
# the guesser is slowed down (and limited per address by the login throttle, LOGIN_RATE).
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "apps.common.client_ip.axes_client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "apps.users.auth.axes_username"
AXES_LOCKOUT_CALLABLE = "apps.users.auth.axes_lockout_response"
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_VERBOSE = False

# Cache: Redis when REDIS_URL is set, local memory otherwise. Redis is a cache, not a single point of
# failure: while it does not answer, reads miss and rate limits count in the process (apps/common/cache.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_TIMEOUT_SECONDS = float(os.environ.get("REDIS_TIMEOUT_SECONDS", 0.5))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "apps.common.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", REDIS_URL or "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Exactly once under faults (docs/operations.md, "Exactly once"): a task is acknowledged after it has
# finished, and a task whose worker died is handed to another worker, never dropped. Each job's state is
# in the database and every external call is looked up before it is repeated, so running twice is safe.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A message not acknowledged within this time is delivered again (Redis broker): longer than the
# longest task (imports: 30 minutes).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_SECONDS", 3600))
}
# A request that queues a job does not hang on a broker that is down: two quick tries, then the job
# waits in its table for its recovery sweep (apps/common/jobs.py).
# Separate queues, so one hanging partner delays only its own work (docs/operations.md, "Queues"): each
# partner's calls, the imports and everything else. Run a worker per queue (or group) with its own
# concurrency; EUDR_DDS_QUEUE and IMPORT_QUEUE, when set, still win for their tasks.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_QUEUE_EUDR = os.environ.get("CELERY_QUEUE_EUDR", "partner.eudr")
CELERY_QUEUE_ACCOUNTING = os.environ.get("CELERY_QUEUE_ACCOUNTING", "partner.accounting")
CELERY_QUEUE_EMAIL = os.environ.get("CELERY_QUEUE_EMAIL", "partner.email")
CELERY_QUEUE_IMPORTS = os.environ.get("CELERY_QUEUE_IMPORTS", "imports")
CELERY_TASK_ROUTES = {
    "eudr.file_dds": {"queue": CELERY_QUEUE_EUDR},
    "accounting.process_outbox": {"queue": CELERY_QUEUE_ACCOUNTING},
    "accounting.read_payment_status": {"queue": CELERY_QUEUE_ACCOUNTING},
    "notifications.send_message": {"queue": CELERY_QUEUE_EMAIL},
    "common.run_import": {"queue": CELERY_QUEUE_IMPORTS},
}
# Per-partner timeouts of one call, in seconds (the EU system: EUDR_TRACES_TIMEOUT; SMTP: the company's
# SMTP settings or EMAIL_TIMEOUT).
# The EU information system accepts 5 calls per second from one address: every process paces its calls
# through one Redis token bucket, PostgreSQL's advisory lock while Redis is down (apps/eudr/traces/rate.py).
EUDR_TRACES_RATE = float(os.environ.get("EUDR_TRACES_RATE", 5))
EUDR_TRACES_BURST = int(os.environ.get("EUDR_TRACES_BURST", 1))
# Another base URL for an environment of the EU system, as JSON ({"acceptance": "http://127.0.0.1:…/tracesnt/"}):
# the end-to-end server points it at its local system (apps/eudr/tests/traces_system.py). Unset, the
# published addresses apply (apps/eudr/traces/client.py ENVIRONMENTS).
EUDR_TRACES_URLS = env_urls("EUDR_TRACES_URLS", names=("acceptance", "production"))
ACCOUNTING_HTTP_TIMEOUT = float(os.environ.get("ACCOUNTING_HTTP_TIMEOUT", 20))
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# Imports run as Celery jobs (apps/common/import_jobs.py): a job still queued or running this long after it
# was created is taken as lost (its worker died) and no longer blocks the next import of its kind.
IMPORT_JOB_STALE_SECONDS = int(os.environ.get("IMPORT_JOB_STALE_SECONDS", 3600))
# A failed import that another run may cure keeps its file this long for a Retry from the page.
IMPORT_RETRY_KEEP_HOURS = int(os.environ.get("IMPORT_RETRY_KEEP_HOURS", 24))
IMPORT_QUEUE = os.environ.get("IMPORT_QUEUE") or None
# How long an Idempotency-Key's first answer is kept (apps/common/idempotency.py).
IDEMPOTENCY_KEY_HOURS = int(os.environ.get("IDEMPOTENCY_KEY_HOURS", 24))
# Periodic jobs, run by ONE `celery -A config beat` process (docs/operations.md, "Background work").
CELERY_BEAT_SCHEDULE = {
    # Certificates expire at the end of their expiry date: store `expired` shortly after midnight.
    "eudr-expire-raw-materials": {
        "task": "eudr.expire_raw_materials",
        "schedule": crontab(hour=0, minute=10),
    },
    # E-mail scenarios of dates: certificates expiring in N days, invoices N days overdue. Sent every hour
    # from 06:00: the first run of the day emits it, the others emit only the days a run missed (a run
    # beat could not send while the broker was down; apps/notifications/daily.py, apps/common/periodic.py).
    "notifications-daily-events": {
        "task": "notifications.daily_events",
        "schedule": crontab(hour="6-23", minute=0),
    },
    # Idempotency keys are kept a day (apps/common/idempotency.py).
    "common-purge-idempotent-requests": {
        "task": "common.purge_idempotent_requests",
        "schedule": crontab(hour=3, minute=30),
    },
    # The counts of the search's common grams (apps/common/search_index.py, SearchGramCount): a term
    # too common for its grams scans without probing them first. Stale counts cost speed only.
    "common-count-search-grams": {
        "task": "common.count_search_grams",
        "schedule": crontab(minute=40),
    },
    # Import jobs whose worker died (apps/common/import_jobs.py): failed at once, "start it again".
    "common-recover-imports": {
        "task": "common.recover_imports",
        "schedule": crontab(minute="*/2"),
    },
    # Filings left pending by a worker that died or a message that was lost: looked up, then finished.
    "eudr-recover-filings": {
        "task": "eudr.recover_filings",
        "schedule": crontab(minute="*/2"),
    },
    # Statements' status, read no sooner than 30 minutes after a submit or amend (docs/eudr.md).
    "eudr-read-due-statuses": {
        "task": "eudr.read_due_statuses",
        "schedule": crontab(minute="*/5"),
    },
    # E-mail retries whose backoff has passed, lost messages, and "sending" left by a dead worker.
    "notifications-sweep-queued": {
        "task": "notifications.sweep_queued",
        "schedule": crontab(),
    },
    # Accounting (docs/accounting.md): outbox entries whose backoff has passed; payment status read back.
    "accounting-process-outbox": {
        "task": "accounting.process_outbox",
        "schedule": crontab(minute="*/5"),
    },
    "accounting-read-payment-status": {
        "task": "accounting.read_payment_status",
        "schedule": crontab(minute=20),
    },
}

# E-mail (docs/notifications.md): the installation's SMTP server when EMAIL_HOST is set, otherwise the local
# outbox (var/outbox/*.eml, shown in the e-mail log). A company can set its own server in the web app.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 587))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", 20))
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "apps.notifications.smtp.TrackingSmtpBackend"
    if EMAIL_HOST
    else "apps.notifications.outbox.OutboxBackend",
)
NOTIFICATIONS_OUTBOX_DIR = Path(os.environ.get("NOTIFICATIONS_OUTBOX_DIR", VAR_DIR / "outbox"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "noreply@cartontrace.local")

# Outbound connections to addresses a tenant sets (accounting URLs, the company's SMTP host):
# apps/common/outbound.py, docs/tenancy.md ("Outbound connections"). Public addresses only, https only,
# bounded timeouts, a rate per tenant. OUTBOUND_ALLOWED_NETWORKS (CIDRs) lets an operator's own networks
# through; OUTBOUND_ALLOW_HTTP allows plain http.
OUTBOUND_ALLOWED_NETWORKS = env_list("OUTBOUND_ALLOWED_NETWORKS")
OUTBOUND_ALLOW_HTTP = env_bool("OUTBOUND_ALLOW_HTTP", False)
OUTBOUND_TIMEOUT_SECONDS = int(os.environ.get("OUTBOUND_TIMEOUT_SECONDS", 15))
OUTBOUND_RATE = os.environ.get("OUTBOUND_RATE", "120/min")
OUTBOUND_TEST_RATE = os.environ.get("OUTBOUND_TEST_RATE", "10/min")

# The public base URL printed in carton QR codes (https://trace.example.com). Defaults to the request's.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "")

# How long a print job waits for an agent before it is `expired` (docs/printing.md).
PRINT_JOB_TTL_SECONDS = int(os.environ.get("PRINT_JOB_TTL_SECONDS", "600"))
# Print agents' long polls waiting at once on one server (each holds a thread; docs/printing.md "Long poll").
PRINT_LONG_POLLS_MAX = int(os.environ.get("PRINT_LONG_POLLS_MAX", "4"))

# Logs (docs/operations.md, "Logs"): JSON lines in production (LOG_FORMAT=json|plain), each with the request
# id, the user id and the tenant id.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_context": {"()": "apps.operations.request_id.RequestContextFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "apps.operations.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
            "filters": ["request_context"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"level": "ERROR"}, "axes": {"level": "WARNING"}},
}

# Metrics (apps/operations/metrics.py): /api/metrics/ answers a scraper sending this bearer token; unset,
# the endpoint does not exist. Errors to an error-reporting service (Sentry's protocol) when a DSN is set.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production" if PRODUCTION else "development"),
        send_default_pii=False,  # no user names, addresses or bodies leave the installation
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )

# Health (apps/operations/health.py): whether a node with no recent Celery worker is "not ready".
HEALTH_READY_REQUIRES_WORKERS = env_bool("HEALTH_READY_REQUIRES_WORKERS", False)
HEALTH_READY_REQUIRES_REDIS = env_bool("HEALTH_READY_REQUIRES_REDIS", True)
CELERY_BEAT_SCHEDULE["operations-worker-heartbeat"] = {
    "task": "operations.worker_heartbeat",
    "schedule": crontab(minute="*"),
}

# Security headers on every response, in production and in the embedded default alike (the transport
# ones, HSTS and the HTTPS redirect, only in production: the embedded default serves plain HTTP on
# 127.0.0.1, where browsers ignore HSTS). apps.common.security adds the Content-Security-Policy, the
# Permissions-Policy and Cache-Control: no-store on personal (API) answers.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    # A balancer probes the nodes over plain HTTP on the private network.
    SECURE_REDIRECT_EXEMPT = [r"^api/health/"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 31536000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
