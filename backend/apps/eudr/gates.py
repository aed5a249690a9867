"""What due diligence checks before an EUDR write (docs/architecture.md, "Dependencies between areas").

Due diligence assesses the EUDR deliveries and statements (apps.duediligence reads them), so no EUDR module
imports it: before filing or recording a statement, and before deleting a record a filed statement rests
on, the EUDR services call the checks here, which due diligence registers on start
(`DueDiligenceConfig.ready`). Each check raises the domain error that refuses the write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# delivery -> None, or raises (the statement may not be filed or recorded yet)
_filing_gates: list[Callable[..., None]] = []
# (delivery_id, message) -> None, or raises (a filed statement keeps the record)
_retention_checks: list[Callable[..., None]] = []


def register_filing_gate(check: Callable[..., None]) -> None:
    if check not in _filing_gates:
        _filing_gates.append(check)


def register_retention_check(check: Callable[..., None]) -> None:
    if check not in _retention_checks:
        _retention_checks.append(check)


def filing_gate_check(*, delivery: Any) -> None:
    """Refuses filing or recording a statement for the delivery while its due diligence is incomplete."""
    for check in _filing_gates:
        check(delivery=delivery)


def refuse_if_kept(*, delivery_id: int | None, message=None) -> None:
    """Refuses deleting a record of the delivery while a filed statement rests on it."""
    for check in _retention_checks:
        check(delivery_id=delivery_id, message=message)
