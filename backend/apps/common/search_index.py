"""A trigram index for list search that PostgreSQL can use under row-level security.

Django's `icontains` is `UPPER(col::text) LIKE UPPER('%term%')`. PostgreSQL evaluates the tenant policy
before any condition whose operator is not LEAKPROOF; `LIKE` (and pg_trgm's and full-text search's
operators) are not, so no index answers `LIKE '%x%'` for the app's role. Equality on text and integers
is leakproof. So each searched row's trigrams are kept in one table, `common_searchgram`
(`SearchGram`: tenant, kind, gram, object_id; the primary key is the index), and the search reads it by
equality:

- a gram is a three-character substring of `upper(col::text)` (exactly the string `icontains` compares),
  computed by the SQL function `search_grams(text)`, in PostgreSQL only, so Python's own case mapping
  (`'ß'.upper() == 'SS'`) never disagrees with the database's;
- if `UPPER(term)` is a substring of `UPPER(col)`, every gram of the term is a gram of the column, so the
  rows holding the term's grams are a superset of the matches; the search (apps/common/api/search.py)
  takes those candidates and applies the unchanged `icontains` condition to them: the results are
  exactly the old search's, whatever the grams let through;
- the grams are written by statement-level triggers on each searched table (with transition tables: one
  `INSERT ... SELECT` per statement, not per row), so `save()`, `bulk_create()`, `queryset.update()`,
  imports and raw SQL all keep them right. An update rewrites the grams of the rows whose searched
  columns changed only; a delete removes the old row's grams by the primary key.

`sync()` runs after every `migrate` (like the RLS policies, apps/tenancy/rls.py): it (re)creates the
functions and triggers of `INDEXED` and rebuilds the grams of every kind whose definition changed, tenant
by tenant (the tables are under forced RLS, so each tenant is entered in turn). Adding a model or a
field to `INDEXED` therefore needs no hand-written migration. SQLite (the embedded mode) has no grams:
its search stays `LIKE`.

`common_searchgramcount` (`SearchGramCount`) counts, per tenant and kind, the grams held by many rows,
refreshed hourly and after every rebuild (`counts_refresh`), never by the triggers. `candidates()` reads
them first, in the same statement: a term whose grams are all common enough that more than
`CANDIDATE_LIMIT` rows would hold them skips the probe and scans at once. Until the first refresh (and
for a rare gram) there is no count, and the term is probed. A term found too common (by the counts or by
its probe) is remembered per process for `VERDICT_SECONDS`, so the same search again and its next pages
scan without asking.
"""

# SQL here is composed of table and column names of the models and integer constants; values are parameters.
# ruff: noqa: S608

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.apps import apps
from django.db import connection as default_connection
from django.db import transaction

GRAM_TABLE = "common_searchgram"
COUNT_TABLE = "common_searchgramcount"
GRAM_LENGTH = 3
FUNCTION_PREFIX = "search_gram_sync_"


@dataclass(frozen=True)
class IndexedModel:
    kind: int  # stored in every gram row: never reuse a number
    model: str  # app_label.ModelName
    fields: tuple[str, ...]  # concrete fields whose `icontains` the grams answer

    def model_class(self):
        return apps.get_model(self.model)


# The lists whose own rows can be many: their own text fields and the related rows they search
# (`lines__product_number`, `contacts__name`, `supplier__name`, ...). Carton labels are left out: carton
# generation writes thousands per request and must stay close to a COPY (docs/performance.md).
INDEXED: tuple[IndexedModel, ...] = (
    IndexedModel(
        1, "products.Product", ("article_number", "name", "name_zh", "hs_code", "barcode", "visma_code")
    ),
    IndexedModel(2, "purchaseorders.PurchaseOrder", ("order_number", "description")),
    IndexedModel(3, "purchaseorders.PurchaseOrderLine", ("product_number",)),
    IndexedModel(
        4, "customers.Customer", ("number", "name", "email", "vat_id", "visma_code", "billing_city")
    ),
    IndexedModel(5, "customers.CustomerContact", ("name", "email")),
    IndexedModel(6, "suppliers.ParentVendor", ("name", "cname", "code", "contact")),
    IndexedModel(7, "suppliers.Supplier", ("number", "name", "visma_code", "email")),
    IndexedModel(
        8,
        "eudr.RawMaterialDelivery",
        ("delivery_number", "description", "forest_supplier_name", "material_sc_number"),
    ),
    IndexedModel(9, "salesorders.SalesOrder", ("order_number", "customer_reference", "description")),
    # goods receipts (purchase receipts, the warehouse's receiving), inbound shipments (the purchase and
    # warehouse shipment lists), sales shipments (sales shipments, warehouse deliveries) and their
    # dispatches (the carriers' pickups)
    IndexedModel(10, "purchaseorders.Receipt", ("receipt_number", "note")),
    IndexedModel(11, "logistics.ShipmentInfo", ("container_number", "seal_number", "vessel", "voyage")),
    IndexedModel(12, "salesorders.Shipment", ("shipment_number", "tracking_number")),
    IndexedModel(13, "logistics.Dispatch", ("tracking_number", "vehicle")),  # one per sales shipment
)


def indexed_fields(model) -> tuple[int, frozenset[str]] | None:
    """(kind, indexed field names) of a model, or None when its rows have no grams."""
    label = model._meta.label
    for entry in INDEXED:
        if entry.model == label:
            return entry.kind, frozenset(entry.fields)
    return None


# Distinct grams of upper(value): the same upper() as icontains, so the same characters. STRICT: NULL has
# none. IMMUTABLE, so for a constant (the search term) the planner computes it once, when planning, and
# the condition on the gram table is `gram = ANY('{...}')`, an equality (leakproof) usable in the index.
GRAMS_FUNCTION_BODY = f"""
SELECT coalesce(array_agg(DISTINCT substr(s.u, i, {GRAM_LENGTH})), '{{}}')
FROM (SELECT upper(value) AS u) AS s, generate_series(1, length(s.u) - {GRAM_LENGTH - 1}) AS i
"""


def grams_function_sql() -> str:
    return (
        "CREATE OR REPLACE FUNCTION search_grams(value text) RETURNS text[] "
        f"LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $body${GRAMS_FUNCTION_BODY}$body$"
    )


def _columns(entry: IndexedModel) -> tuple[str, str, str, list[str]]:
    model = entry.model_class()
    meta = model._meta
    quote = default_connection.ops.quote_name
    columns = [quote(meta.get_field(name).column) for name in entry.fields]
    return quote(meta.db_table), quote(meta.pk.column), quote(meta.get_field("tenant").column), columns


def _grams_from(alias: str, columns: list[str]) -> str:
    """FROM items giving `g.gram`, every gram of the row `alias` (repeated ones too): the same
    substrings of upper(col::text) as `search_grams()`, inline (a function call per column and row
    costs more than the rest of the trigger)."""
    values = ", ".join(f"upper({alias}.{column}::text)" for column in columns)
    return (
        f"CROSS JOIN LATERAL unnest(ARRAY[{values}]) AS v(u) "
        f"CROSS JOIN LATERAL generate_series(1, length(v.u) - {GRAM_LENGTH - 1}) AS i "
        f'CROSS JOIN LATERAL (SELECT substr(v.u, i, {GRAM_LENGTH}) COLLATE "C" AS gram) AS g'
    )


def _same_row(pk: str, tenant: str, columns: list[str]) -> str:
    same = [f"n.{pk} = o.{pk}", f"n.{tenant} = o.{tenant}"]
    same += [f"n.{column}::text IS NOT DISTINCT FROM o.{column}::text" for column in columns]
    return " AND ".join(same)


def _insert_sql(entry: IndexedModel, source: str, where: str = "", on_conflict: bool = False) -> str:
    _table, pk, tenant, columns = _columns(entry)
    return (
        f"INSERT INTO {GRAM_TABLE} (tenant_id, kind, gram, object_id) "
        f"SELECT DISTINCT n.{tenant}, {entry.kind}, g.gram, n.{pk} FROM {source} AS n "
        f"{_grams_from('n', columns)} {where}" + (" ON CONFLICT DO NOTHING" if on_conflict else "")
    )


def trigger_function_body(entry: IndexedModel) -> str:
    _table, pk, tenant, columns = _columns(entry)
    unchanged_old = f"NOT EXISTS (SELECT 1 FROM new_rows AS n WHERE {_same_row(pk, tenant, columns)})"
    unchanged_new = f"NOT EXISTS (SELECT 1 FROM old_rows AS o WHERE {_same_row(pk, tenant, columns)})"
    delete_old = (
        f"DELETE FROM {GRAM_TABLE} AS s USING ("
        f"SELECT o.{tenant} AS tenant_id, o.{pk} AS object_id, g.gram FROM old_rows AS o "
        f"{_grams_from('o', columns)} WHERE %s) AS d "
        f"WHERE s.tenant_id = d.tenant_id AND s.kind = {entry.kind} AND s.gram = d.gram "
        "AND s.object_id = d.object_id"
    )
    return f"""
BEGIN
  IF TG_OP = 'INSERT' THEN
    {_insert_sql(entry, "new_rows")};
  ELSIF TG_OP = 'UPDATE' THEN
    {delete_old % unchanged_old};
    {_insert_sql(entry, "new_rows", "WHERE " + unchanged_new, on_conflict=True)};
  ELSE
    {delete_old % "true"};
  END IF;
  RETURN NULL;
END
"""


def trigger_sql(entry: IndexedModel) -> list[str]:
    table = _columns(entry)[0]
    function = f"{FUNCTION_PREFIX}{entry.kind}"
    statements = [
        # work_mem: the DISTINCT over a bulk insert's grams (16 a product, 80,000 for 5,000 products)
        # stays in memory instead of spilling to disk
        f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql SET work_mem = '64MB' AS "
        f"$body${trigger_function_body(entry)}$body$"
    ]
    for event, referencing in (
        ("INSERT", "NEW TABLE AS new_rows"),
        ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"),
        ("DELETE", "OLD TABLE AS old_rows"),
    ):
        name = f"{function}_{event.lower()}"
        statements += [
            f"DROP TRIGGER IF EXISTS {name} ON {table}",
            f"CREATE TRIGGER {name} AFTER {event} ON {table} REFERENCING {referencing} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
        ]
    return statements


def _function_sources(cursor) -> dict[str, str]:
    cursor.execute(
        "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace "
        "AND (proname = 'search_grams' OR proname LIKE %s)",
        [FUNCTION_PREFIX + "%"],
    )
    return dict(cursor.fetchall())


def _tenant_ids(cursor) -> list[int]:
    cursor.execute("SELECT id FROM tenancy_tenant ORDER BY id")
    return [row[0] for row in cursor.fetchall()]


def tenant_ids(using_connection=None) -> list[int]:
    conn = using_connection or default_connection
    with conn.cursor() as cursor:
        return _tenant_ids(cursor)


def rebuild(kinds: set[int], using_connection=None, tenants: list[int] | None = None) -> dict[int, int]:
    """Rewrite the grams of `kinds` from their tables, and their counts, tenant by tenant (forced RLS:
    each is entered), in one transaction; `tenants`: only those (default: every tenant). Returns the
    grams written per tenant."""
    conn = using_connection or default_connection
    entries = [entry for entry in INDEXED if entry.kind in kinds]
    counted = COUNT_TABLE in conn.introspection.table_names()  # not yet, migrated back before 0008
    written: dict[int, int] = {}
    with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
        cursor.execute("SELECT current_setting('app.tenant_id', true)")
        previous = cursor.fetchone()[0] or ""
        cursor.execute("SET LOCAL work_mem = '256MB'")
        for tenant_id in _tenant_ids(cursor) if tenants is None else tenants:
            cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [str(tenant_id)])
            cursor.execute(
                f"DELETE FROM {GRAM_TABLE} WHERE tenant_id = %s AND kind = ANY(%s)",
                [tenant_id, sorted(kinds)],
            )
            written[tenant_id] = 0
            for entry in entries:
                table, _pk, tenant, _cols = _columns(entry)
                cursor.execute(_insert_sql(entry, table, f"WHERE n.{tenant} = %s"), [tenant_id])
                written[tenant_id] += max(cursor.rowcount, 0)
            if counted:
                _counts_write(cursor, tenant_id, entries)
        cursor.execute("SELECT set_config('app.tenant_id', %s, true)", [previous])
    verdicts_forget()
    return written


# The counts of the grams (SearchGramCount): only grams held by at least this many rows are counted; a
# gram without a count is rare, and a term with a rare gram is always probed (below).
COUNTED_GRAM_MIN = 100


# two refreshes of one tenant at once: the later one's counts win, neither fails on the other's rows
_COUNT_CONFLICT = "ON CONFLICT (tenant_id, kind, gram) DO UPDATE SET postings = EXCLUDED.postings"


def _counts_write(cursor, tenant_id: int, entries: list[IndexedModel]) -> int:
    """Replace the current tenant's gram counts of `entries` (the tenant entered by the caller)."""
    kinds = sorted(entry.kind for entry in entries)
    cursor.execute(f"DELETE FROM {COUNT_TABLE} WHERE tenant_id = %s AND kind = ANY(%s)", [tenant_id, kinds])
    cursor.execute(
        f"INSERT INTO {COUNT_TABLE} (tenant_id, kind, gram, postings) "
        f"SELECT tenant_id, kind, gram, count(*) FROM {GRAM_TABLE} WHERE tenant_id = %s AND kind = ANY(%s) "
        f"GROUP BY tenant_id, kind, gram HAVING count(*) >= {COUNTED_GRAM_MIN} {_COUNT_CONFLICT}",
        [tenant_id, kinds],
    )
    written = max(cursor.rowcount, 0)
    for entry in entries:
        table, _pk, tenant, _cols = _columns(entry)
        cursor.execute(
            f"INSERT INTO {COUNT_TABLE} (tenant_id, kind, gram, postings) "
            f"SELECT %s, {entry.kind}, '', count(*) FROM {table} WHERE {tenant} = %s {_COUNT_CONFLICT}",
            [tenant_id, tenant_id],
        )
        written += 1
    return written


def counts_refresh(kinds: set[int] | None = None) -> dict[int, int]:
    """Count again the common grams of `kinds` (default: every indexed kind) in every tenant, one
    transaction per tenant; returns the counts written per tenant. Run hourly (`common.count_search_grams`)
    and by every rebuild: the counts only steer the search between its probe and its scan, so stale
    counts cost speed, never a wrong answer."""
    from apps.tenancy.context import tenant_context

    if default_connection.vendor != "postgresql":
        return {}
    existing = set(default_connection.introspection.table_names())
    if COUNT_TABLE not in existing:
        return {}
    entries = [
        entry
        for entry in INDEXED
        if (kinds is None or entry.kind in kinds) and entry.model_class()._meta.db_table in existing
    ]
    written: dict[int, int] = {}
    for tenant_id in tenant_ids():
        with transaction.atomic(), tenant_context(tenant_id), default_connection.cursor() as cursor:
            cursor.execute("SET LOCAL work_mem = '256MB'")
            written[tenant_id] = _counts_write(cursor, tenant_id, entries)
    verdicts_forget()
    return written


def sync(using_connection=None) -> set[int]:
    """Create or update the grams function and every indexed table's triggers; rebuild the grams of the
    kinds whose definition changed. Returns those kinds."""
    conn = using_connection or default_connection
    if conn.vendor != "postgresql":
        return set()
    existing_tables = set(conn.introspection.table_names())
    if GRAM_TABLE not in existing_tables:
        return set()
    changed: set[int] = set()
    with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
        sources = _function_sources(cursor)
        grams_changed = sources.get("search_grams") != GRAMS_FUNCTION_BODY
        if grams_changed:
            cursor.execute(grams_function_sql())
        wanted = set()
        for entry in INDEXED:
            if entry.model_class()._meta.db_table not in existing_tables:
                continue
            function = f"{FUNCTION_PREFIX}{entry.kind}"
            wanted.add(function)
            if grams_changed or sources.get(function) != trigger_function_body(entry):
                for statement in trigger_sql(entry):
                    cursor.execute(statement)
                changed.add(entry.kind)
        # kinds no longer indexed: their triggers and grams go
        dropped = {name for name in sources if name.startswith(FUNCTION_PREFIX)} - wanted
        for function in sorted(dropped):
            cursor.execute(f"DROP FUNCTION {function}() CASCADE")
            changed.add(int(function.removeprefix(FUNCTION_PREFIX)))
    if changed:
        rebuild(changed, conn)
    return changed


def sync_after_migrate(sender, app_config=None, using="default", **kwargs) -> None:
    # post_migrate fires once per app, after every migration has run: once is enough.
    if app_config is None or app_config.label != "common":
        return
    from django.db import connections

    sync(connections[using])


# The search (apps/common/api/search.py): candidate ids of a term, from its grams.
# More candidates than this: the term falls back to the list's own scan (docs/performance.md, "List
# search"). A common word ("mailer": 12,494 of 100,000 products) joined four posting lists of 12,500 rows
# and then tested 12,500 ids, slower than the scan it replaced; the probe stops after LIMIT + 1 rows.
CANDIDATE_LIMIT = 5_000
JOINED_GRAMS = 5  # grams of a long term that are intersected (any subset gives a superset of the matches)


def _gram_positions(term: str) -> list[int]:
    """1-based positions in `search_grams(term)` (distinct, sorted) to intersect: all of a short term's,
    five spread over a long one's. A position past the array's end falls back to the first gram."""
    count = len(term) - GRAM_LENGTH + 1
    if count <= JOINED_GRAMS:
        return list(range(1, count + 1))
    return sorted({1 + round(step * (count - 1) / (JOINED_GRAMS - 1)) for step in range(JOINED_GRAMS)})


def _gram_sql(position: int) -> str:
    """The term's gram at `position` of `search_grams(term)` (its first past the end): one %s, the term,
    per `search_grams`."""
    if position == 1:
        return "(search_grams(%s))[1]"
    return f"coalesce((search_grams(%s))[{position}], (search_grams(%s))[1])"


def _common_sql(kind: int, term: str, tenant_id: int) -> tuple[str, list]:
    """A row when the gram counts say the term is too common to probe: every intersected gram is counted
    (held by COUNTED_GRAM_MIN rows or more) and, were the grams independent, more than CANDIDATE_LIMIT
    rows would hold them all (the kind's rows times each gram's share). Grams of one term mostly come
    together, so the real intersection is rarely smaller than that. No row without counts, or with a
    rare gram (whose postings bound the candidates)."""
    grams = ", ".join(_gram_sql(position) for position in _gram_positions(term))
    params: list = [term] * grams.count("%s")
    sql = (
        "SELECT 1 FROM (SELECT count(c.gram) AS known, count(*) AS wanted, "
        "sum(ln(c.postings::float8 / t.postings)) AS share, max(t.postings) AS total "
        f"FROM (SELECT DISTINCT unnest(ARRAY[{grams}]) AS gram) AS w "
        f"CROSS JOIN (SELECT postings FROM {COUNT_TABLE} WHERE tenant_id = %s AND kind = {kind} "
        "AND gram = '' AND postings > 0) AS t "
        f"LEFT JOIN {COUNT_TABLE} AS c ON c.tenant_id = %s AND c.kind = {kind} AND c.gram = w.gram) AS e "
        f"WHERE known = wanted AND wanted > 0 AND total * exp(share) > {CANDIDATE_LIMIT}"
    )
    return sql, [*params, tenant_id, tenant_id]


def _candidates_sql(kind: int, term: str, tenant_id: int, gate: str = "") -> tuple[str, list]:
    """The probe: ids of the rows holding every intersected gram of `term`, up to CANDIDATE_LIMIT + 1;
    `gate`, a condition that skips it."""
    positions = _gram_positions(term)
    joins, params = [], []
    for index, position in enumerate(positions[1:], start=2):
        joins.append(
            f"JOIN {GRAM_TABLE} AS g{index} ON g{index}.tenant_id = g1.tenant_id AND g{index}.kind = g1.kind "
            f"AND g{index}.object_id = g1.object_id AND g{index}.gram = {_gram_sql(position)}"
        )
        params += [term, term]
    sql = (
        f"(SELECT {kind}, g1.object_id FROM {GRAM_TABLE} AS g1 {' '.join(joins)} "
        f"WHERE g1.tenant_id = %s AND g1.kind = {kind} AND g1.gram = {_gram_sql(1)} {gate}"
        f"LIMIT {CANDIDATE_LIMIT + 1})"
    )
    return sql, [*params, tenant_id, term]


# A term found too common for a kind (by the gram counts, or by a probe that passed CANDIDATE_LIMIT) is
# remembered per process for VERDICT_SECONDS: the same search again, the next page of it, or the same
# term typed on, scans at once instead of asking again. Grams change with every write, so only this
# verdict is kept, never the candidates themselves; a stale one costs a scan where a probe would have
# been cheaper, never a wrong answer (the scan applies the exact condition). At most VERDICTS_KEPT.
VERDICT_SECONDS = 600.0
VERDICTS_KEPT = 4096
_verdicts: dict[tuple, float] = {}  # (database alias, tenant, kind, term) -> when it expires
_verdicts_lock = threading.Lock()


def _clock() -> float:
    return time.monotonic()


def _known_too_common(alias: str, tenant_id: int, kinds: set[int], term: str) -> set[int]:
    now = _clock()
    return {kind for kind in kinds if _verdicts.get((alias, tenant_id, kind, term), 0.0) > now}


def _remember_too_common(alias: str, tenant_id: int, kinds: set[int], term: str) -> None:
    now = _clock()
    with _verdicts_lock:
        if len(_verdicts) + len(kinds) > VERDICTS_KEPT:
            for key in [key for key, expires in _verdicts.items() if expires <= now]:
                del _verdicts[key]
            if len(_verdicts) + len(kinds) > VERDICTS_KEPT:
                _verdicts.clear()
        for kind in kinds:
            _verdicts[(alias, tenant_id, kind, term)] = now + VERDICT_SECONDS


def verdicts_forget() -> None:
    """Forget every remembered verdict (the tests' isolation; a rebuild of the grams)."""
    with _verdicts_lock:
        _verdicts.clear()


def candidates(kinds: set[int], term: str, using_connection=None) -> dict[int, list[int] | None]:
    """For each kind, the ids of the current tenant's rows holding grams of every intersected gram of
    `term` (a superset of the rows whose indexed fields contain it), in one query; None for a kind whose
    candidates exceed CANDIDATE_LIMIT or whose gram counts say they would (the probe is then not run),
    and for every kind when the term has no gram (under three characters once uppercased). A kind found
    too common for the term within VERDICT_SECONDS is not asked again: no statement when every kind is."""
    from apps.tenancy.context import require_tenant_id

    conn = using_connection or default_connection
    if not kinds or len(term) < GRAM_LENGTH:
        return dict.fromkeys(kinds)
    tenant_id = require_tenant_id()
    known = _known_too_common(conn.alias, tenant_id, kinds, term)
    asked = set(kinds) - known
    if not asked:
        return dict.fromkeys(kinds)
    # per kind: a CTE whose row says "too common", a marker row (-kind) for it, and the probe it gates
    ctes, cte_params = [], []
    parts, params = ["SELECT 0, cardinality(search_grams(%s))::bigint"], [term]
    for kind in sorted(asked):
        common, common_params = _common_sql(kind, term, tenant_id)
        ctes.append(f"common_{kind} AS MATERIALIZED ({common})")
        cte_params += common_params
        parts.append(f"SELECT -{kind}, 0 FROM common_{kind}")
        sql, kind_params = _candidates_sql(
            kind, term, tenant_id, f"AND NOT EXISTS (SELECT FROM common_{kind}) "
        )
        parts.append(sql)
        params += kind_params
    with conn.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} " + " UNION ALL ".join(parts), [*cte_params, *params])
        rows = cursor.fetchall()
    found: dict[int, list[int]] = {kind: [] for kind in asked}
    common_kinds: set[int] = set()
    gram_count = 0
    for kind, value in rows:
        if kind == 0:
            gram_count = value
        elif kind < 0:
            common_kinds.add(-kind)
        else:
            found[kind].append(value)
    if not gram_count:
        return dict.fromkeys(kinds)
    answer: dict[int, list[int] | None] = dict.fromkeys(known)
    for kind, ids in found.items():
        answer[kind] = ids if len(ids) <= CANDIDATE_LIMIT and kind not in common_kinds else None
    too_common = {kind for kind in asked if answer[kind] is None}
    if too_common:
        _remember_too_common(conn.alias, tenant_id, too_common, term)
    return answer
