"""Signals one area sends and another listens to, so that the sender need not import the listener.

`public_trace_changed`: something a carton's public trace shows changed in a bulk write that sends no
model signal (`bulk_create`, `bulk_update`, `update()`). Keyword arguments as
`apps.eudr.trace_store.changed` takes them (`tenant_id`, and `labels`, `submissions`, ... as id lists);
the EUDR area listens (trace_store.connect) and rebuilds the stored answers when the transaction commits.
The warehouse sends it from the carton's state machine and on its cartons' save and delete
(apps/inventory/trace.py) without importing the EUDR area's store, which reads the warehouse history
through the functions the warehouse registers (apps/eudr/warehouse.py): inventory -> eudr, one way.

`invoice_posted` (keyword `invoice`) and `supplier_saved` (keywords `record`, `level`: "supplier" or
"parent_vendor"): a sales invoice or credit note was posted, a supplier or parent vendor created or
changed, inside the writing transaction. Accounting listens (AccountingConfig.ready) and queues them for
the accounting system; it reads invoices and suppliers, so sales and suppliers do not import it.
"""

from __future__ import annotations

from django.dispatch import Signal

public_trace_changed = Signal()
invoice_posted = Signal()
supplier_saved = Signal()
