"""Fills a Tryton database with the catalogue of `make bench-tryton` (scripts/bench-tryton.sh).

The same products as the app's list benchmark (backend/bench/test_bench_lists.py, big_catalogue): code
B{i:07d} and name "Carton {i}" for i in 0..rows-1, each a product.template with one product.product.

Tryton's ORM writes about 110 products a second here (Template.create: 46 s for 5,000), 15 minutes for
100,000. So the ORM writes the first 1,000 (the reference rows) and SQL the rest, in one statement per
table, with the ORM's sequences and the same values in every column the ORM wrote (product_template,
product_product with code = suffix_code, product_cost_price_method; nothing else gets a row per
product). Then every row is checked against the ORM's: each table holds `rows` rows, and the columns
other than ids, names, codes and dates have one distinct combination over all of them.
Run with Tryton's interpreter: fill.py <config file> <database> [rows].
"""

import sys
import time

import trytond.config

trytond.config.update_etc(sys.argv[1])

from trytond.pool import Pool  # noqa: E402 (after the configuration)
from trytond.transaction import Transaction  # noqa: E402

DATABASE = sys.argv[2]
ROWS = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
ORM_ROWS = min(1000, ROWS)

Pool.start()
pool = Pool(DATABASE)
pool.init()
started = time.monotonic()
with Transaction().start(DATABASE, 0, context={"language": "en"}) as transaction:
    Template = pool.get("product.template")
    Uom = pool.get("product.uom")
    (unit,) = Uom.search([("symbol", "=", "u")], limit=1)
    Template.create(
        [
            {
                "name": f"Carton {i}",
                "type": "goods",
                "default_uom": unit.id,
                "products": [("create", [{"suffix_code": f"B{i:07d}"}])],
            }
            for i in range(ORM_ROWS)
        ]
    )
    transaction.commit()
print(f"tryton-fill: {ORM_ROWS} products through the ORM, {time.monotonic() - started:.0f} s", flush=True)

with Transaction().start(DATABASE, 0) as transaction:
    cursor = transaction.connection.cursor()
    cursor.execute(
        """
        WITH template AS (
            INSERT INTO product_template (id, active, consumable, create_date, create_uid, default_uom, name, type)
            SELECT nextval('product_template_id_seq'), true, false, now() AT TIME ZONE 'UTC', 0, %s,
                   'Carton ' || i, 'goods'
            FROM generate_series(%s, %s) AS i
            RETURNING id, name
        ), product AS (
            INSERT INTO product_product (id, active, code, create_date, create_uid, suffix_code, template,
                                         write_date, write_uid)
            SELECT nextval('product_product_id_seq'), true, code, now() AT TIME ZONE 'UTC', 0, code, id,
                   now() AT TIME ZONE 'UTC', 0
            FROM (SELECT id, 'B' || lpad(substr(name, 8), 7, '0') AS code FROM template) AS t
        )
        INSERT INTO product_cost_price_method (id, cost_price_method, create_date, create_uid, template)
        SELECT nextval('product_cost_price_method_id_seq'), 'fixed', now() AT TIME ZONE 'UTC', 0, id FROM template
        """,
        (unit.id, ORM_ROWS, ROWS - 1),
    )
    transaction.commit()
print(f"tryton-fill: {ROWS} products, {time.monotonic() - started:.0f} s", flush=True)

CHECKS = {
    "product_template": "active, code, consumable, create_uid, default_uom, type, write_uid",
    "product_product": "active, create_uid, description, position, replaced_by, code = suffix_code, write_uid",
    "product_cost_price_method": "company, cost_price_method, create_uid, write_date, write_uid",
}
with Transaction().start(DATABASE, 0, readonly=True) as transaction:
    cursor = transaction.connection.cursor()
    for table, columns in CHECKS.items():
        cursor.execute(f"SELECT count(*), count(DISTINCT ({columns})) FROM {table}")  # noqa: S608 (constants)
        count, combinations = cursor.fetchone()
        if (count, combinations) != (ROWS, 1):
            sys.exit(f"tryton-fill: {table} has {count} rows and {combinations} combinations of ({columns})")
    cursor.execute(
        "SELECT count(*) FROM product_product p JOIN product_template t ON t.id = p.template "
        "WHERE t.name = 'Carton ' || ltrim(substr(p.code, 2), '0') OR p.code = 'B0000000' AND t.name = 'Carton 0'"
    )
    (matching,) = cursor.fetchone()
    if matching != ROWS:
        sys.exit(f"tryton-fill: {matching} of {ROWS} products have the name of their code")
print("tryton-fill: checked, every row as the ORM writes it", flush=True)
