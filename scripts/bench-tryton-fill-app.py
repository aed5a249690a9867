"""Fills the demo tenant of a demo server's database with the catalogue of `make bench-tryton`.

The same products as the list benchmark (backend/bench/test_bench_lists.py, big_catalogue): article
number B{i:07d} and name "Carton {i}" for i in 0..rows-1, through Product.objects.bulk_create in slices
of 5,000 inside the tenant's context (the database's triggers write the search grams in the same
statements, apps/common/search_index.py), then VACUUM (ANALYZE) of the products and the grams, as
big_catalogue does. Run in the backend's environment with the server's DATABASE_URL:
  cd backend && DATABASE_URL=... ../.tools/bin/uv run --frozen python ../scripts/bench-tryton-fill-app.py [tenant id] [rows]
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "backend"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402

from apps.products.models import Product  # noqa: E402
from apps.tenancy.context import tenant_context  # noqa: E402
from apps.tenancy.models import Tenant  # noqa: E402

TENANT_ID = int(sys.argv[1]) if len(sys.argv) > 1 else 3  # the demo tenant (scripts/bench-http.py)
ROWS = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000

if connection.vendor != "postgresql":
    sys.exit("bench-tryton-fill-app: PostgreSQL only (DATABASE_URL)")
tenant = Tenant.objects.get(pk=TENANT_ID)
started = time.monotonic()
with tenant_context(tenant):
    if Product.objects.filter(article_number__startswith="B0").exists():
        sys.exit(f"bench-tryton-fill-app: tenant {tenant.pk} already has products B0...")
    for first in range(0, ROWS, 5000):  # in slices, as big_catalogue: never all instances in memory
        Product.objects.bulk_create(
            [
                Product(article_number=f"B{i:07d}", name=f"Carton {i}", weight_per_carton_kg="0.350")
                for i in range(first, min(first + 5000, ROWS))
            ]
        )
with tenant_context(tenant), connection.cursor() as cursor:
    cursor.execute(
        "SELECT count(*) FROM products_product WHERE tenant_id = %s AND article_number LIKE 'B0%%'",
        [tenant.pk],
    )
    (count,) = cursor.fetchone()
    cursor.execute("SELECT count(*) FROM common_searchgram WHERE tenant_id = %s", [tenant.pk])
    (grams,) = cursor.fetchone()
if count != ROWS or grams < ROWS:
    sys.exit(f"bench-tryton-fill-app: {count} products and {grams} search grams in tenant {tenant.pk}")
print(
    f"bench-tryton-fill-app: {count} products, {grams} search grams, {time.monotonic() - started:.0f} s",
    flush=True,
)
# VACUUM runs outside a transaction, hence outside the tenant context (as in big_catalogue).
with connection.cursor() as cursor:
    cursor.execute("VACUUM (ANALYZE) products_product")
    cursor.execute("VACUUM (ANALYZE) common_searchgram")
print(f"bench-tryton-fill-app: vacuumed, {time.monotonic() - started:.0f} s", flush=True)
