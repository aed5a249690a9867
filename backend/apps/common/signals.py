"""Signals one area sends and another listens to, so that the sender need not import the listener.

`public_trace_changed`: something a carton's public trace shows changed in a bulk write that sends no
model signal (`bulk_create`, `bulk_update`, `update()`). Keyword arguments as
`apps.eudr.trace_store.changed` takes them (`tenant_id`, and `labels`, `submissions`, ... as id lists);
the EUDR area listens (trace_store.connect) and rebuilds the stored answers when the transaction commits.
The warehouse sends it from the carton's state machine without importing the EUDR area's store, which
reads the warehouse history: the two areas keep one direction each.
"""

from __future__ import annotations

from django.dispatch import Signal

public_trace_changed = Signal()
