"""Error keys of the operations area (the health endpoints)."""

from enum import StrEnum


class OperationsErrorCode(StrEnum):
    NOT_READY = "not_ready"
