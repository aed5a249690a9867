"""JSON log lines: one object per record, on one line (a traceback is a field, not forty lines).

`LOG_FORMAT=json` (the default in production) selects it; `plain` keeps the human-readable lines of the
embedded default. Every line carries the request id, the user id and the tenant id
(apps/operations/request_id.py).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "user_id": getattr(record, "user_id", None),
            "tenant_id": getattr(record, "tenant_id", None),
        }
        request = record.__dict__.get("request")
        if request is not None and hasattr(request, "META"):
            from apps.common.client_ip import client_ip

            entry["client_ip"] = client_ip(request)
            entry["method"] = getattr(request, "method", None)
            entry["path"] = getattr(request, "path", None)
        for key, value in record.__dict__.items():
            if key in _STANDARD or key in entry or key == "request" or key.startswith("_"):
                continue
            entry[key] = value if isinstance(value, str | int | float | bool | type(None)) else repr(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
