"""Every document number of the application comes from here (docs/architecture.md, "Document numbers").

A series is a kind of document (purchase orders, receipts, sales orders...) with its prefix; its numbers
are "<prefix>-<year>-<00001>", counted per tenant and year in one `Counter` row. Taking a number locks that
row (SELECT ... FOR UPDATE) until the caller's transaction ends: two concurrent writers never get the same
number, and a rolled-back write gives its number back with the rollback.

- Ordinary series (`gapless=False`) skip a number a user typed in for a document (`taken`), so a typed
  number and a counted one never clash.
- Gapless series (invoices, credit notes: the law asks for an unbroken sequence) are numbered when the
  document is posted, in the posting transaction; no number is skipped and none is given twice. They take
  no `taken` callable: nobody types such a number in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from apps.numbering.models import Counter


@dataclass(frozen=True)
class Series:
    key: str
    prefix: str
    gapless: bool = False


PURCHASE_ORDER = Series("purchase_order", "PO")
RECEIPT = Series("receipt", "RC")
SALES_ORDER = Series("sales_order", "SO")
SALES_SHIPMENT = Series("sales_shipment", "SH")
SALES_QUOTATION = Series("sales_quotation", "Q")
STOCK_COUNT = Series("stock_count", "SC")
INVOICE = Series("invoice", "INV", gapless=True)
CREDIT_NOTE = Series("credit_note", "CN", gapless=True)

SERIES: dict[str, Series] = {
    s.key: s
    for s in (
        PURCHASE_ORDER,
        RECEIPT,
        SALES_ORDER,
        SALES_SHIPMENT,
        SALES_QUOTATION,
        STOCK_COUNT,
        INVOICE,
        CREDIT_NOTE,
    )
}


@dataclass(frozen=True)
class Number:
    series: Series
    year: int
    value: int  # the position in the series and year: 1, 2, 3...
    text: str  # "PO-2026-00001"


def format_number(series: Series, year: int, value: int) -> str:
    return f"{series.prefix}-{year}-{value:05d}"


def _counter_locked(series: Series, year: int) -> Counter:
    """The tenant's counter row of (series, year), created if missing, locked until the transaction ends."""
    Counter.objects.get_or_create(series=series.key, year=year)
    return Counter.objects.select_for_update().get(series=series.key, year=year)


def number_next(series: Series, *, year: int, taken: Callable[[str], bool] | None = None) -> Number:
    """The next number of `series` in `year` for the current tenant. Call it inside the transaction that
    writes the document; `taken(number) -> bool` (ordinary series only) skips numbers already in use."""
    if series.gapless and taken is not None:
        raise ValueError(f"the {series.key} series is gapless: it skips no number")
    counter = _counter_locked(series, year)
    while True:
        counter.last_value += 1
        text = format_number(series, year, counter.last_value)
        if taken is None or not taken(text):
            break
    counter.save(update_fields=["last_value"])
    return Number(series=series, year=year, value=counter.last_value, text=text)


def last_value(series: Series, *, year: int) -> int:
    """The last number given in (series, year) of the current tenant; 0 before the first (no lock)."""
    counter = Counter.objects.filter(series=series.key, year=year).first()
    return counter.last_value if counter is not None else 0
