"""The invoice answer's `accounting` field: where a posted invoice or credit note stands in the accounting
system (docs/architecture.md, "Dependencies between areas").

Accounting reads and sends invoices (accounting -> salesorders), so the sales answer imports nothing of
accounting: its `AccountingStateField` asks for the state this module registers on start
(`AccountingConfig.ready`), and the field's OpenAPI schema (the `DocumentAccounting` component, or null)
is documented here by an extension naming the field.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension

from apps.accounting import selectors
from apps.accounting.api.serializers import DocumentAccountingSerializer


def document_accounting(invoice) -> dict[str, Any] | None:
    """The answer's `accounting`: the document's state in the accounting system, null if never queued."""
    state = selectors.document_state(invoice)
    return None if state is None else DocumentAccountingSerializer(state).data


class AccountingStateFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "apps.salesorders.api.serializers.AccountingStateField"

    def map_serializer_field(self, auto_schema, direction):
        return auto_schema._map_serializer_field(DocumentAccountingSerializer(allow_null=True), direction)


def register() -> None:
    from apps.salesorders.api.serializers import register_accounting_state

    register_accounting_state(document_accounting)
