"""The common area's refusals (comments and their attachments, the base viewset's scope check, imports):
each a stable `error` key of the envelope (Saleor's per-domain error codes). Services raise them; the
API's exception handler turns them into the envelope. `ImportJob.error` stores the import keys."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict, DomainError, Forbidden, NotFound


class CommonErrorCode(StrEnum):
    PERMISSION_DENIED = "permission_denied"
    NOT_FOUND = "not_found"
    VALIDATION_ERROR = "validation_error"
    IMPORT_FILE_INVALID = "import_file_invalid"
    IMPORT_FILE_TOO_LARGE = "import_file_too_large"
    IMPORT_FILE_EMPTY = "import_file_empty"
    IMPORT_FILE_FORMAT = "import_file_format"
    IMPORT_FILE_ENCODING = "import_file_encoding"
    IMPORT_TOO_MANY_ROWS = "import_too_many_rows"
    IMPORT_TOO_MANY_COLUMNS = "import_too_many_columns"
    IMPORT_CELL_TOO_LONG = "import_cell_too_long"
    IMPORT_DUPLICATE_COLUMN = "import_duplicate_column"
    IMPORT_MISSING_COLUMNS = "import_missing_columns"
    IMPORT_REJECTED = "import_rejected"
    IMPORT_IN_PROGRESS = "import_in_progress"
    IMPORT_STALE = "import_stale"
    IMPORT_WORKER_LOST = "import_worker_lost"
    IMPORT_FAILED = "import_failed"
    IMPORT_CANCELLED = "import_cancelled"
    IMPORT_NOT_RETRYABLE = "import_not_retryable"
    IMPORT_NOT_CANCELLABLE = "import_not_cancellable"
    IMPORT_RUNNING = "import_running"
    RECORD_IN_USE = "record_in_use"
    OUTBOUND_TESTS_TOO_FREQUENT = "outbound_tests_too_frequent"
    IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    IDEMPOTENCY_KEY_IN_PROGRESS = "idempotency_key_in_progress"
    # Refused by the HTTP server before the application saw the request (apps/common/http_server_errors.py).
    BAD_REQUEST = "bad_request"
    URI_TOO_LONG = "uri_too_long"
    HEADERS_TOO_LARGE = "headers_too_large"
    SERVER_ERROR = "server_error"


class OutsideParentVendor(Forbidden):
    """A supplier user's write that would leave the row outside their parent vendor (check_visible)."""

    error = CommonErrorCode.PERMISSION_DENIED
    default_message = _("You cannot write records outside your parent vendor.")


class NotCommentAuthor(Forbidden):
    error = CommonErrorCode.PERMISSION_DENIED
    default_message = _("Only the author can change or delete this comment.")


class ImportNotFound(NotFound):
    """An import job of another tenant, or of a kind the user may not import: the same answer."""

    error = CommonErrorCode.NOT_FOUND
    default_message = _("The import was not found.")


class ImportFileError(DomainError):
    """The file as a whole cannot be read (format, size, headers, row limit); `error` names the reason
    (one of the `import_file_*`, `import_too_many_*` keys)."""

    status_code = 400
    error = CommonErrorCode.IMPORT_FILE_INVALID
    default_message = _("The file could not be read.")


class ImportRejected(DomainError):
    """A commit with bad rows: nothing was written; `data` is the report with the row errors."""

    status_code = 400
    error = CommonErrorCode.IMPORT_REJECTED
    default_message = _("The file has errors; nothing was imported.")


class ImportInProgress(Conflict):
    error = CommonErrorCode.IMPORT_IN_PROGRESS
    default_message = _("An import of this kind is already running. Wait until it has finished.")


class ImportNotRetryable(Conflict):
    """Retry of a job that is still running under a worker, finished, or failed in a way another run of the
    same file cannot change (its row errors, or a file no longer kept)."""

    error = CommonErrorCode.IMPORT_NOT_RETRYABLE
    default_message = _(
        "This import cannot be started again from its file: upload the file again (corrected, if it had errors)."
    )


class ImportNotCancellable(Conflict):
    """Cancel of a job that has already finished (done, failed or cancelled)."""

    error = CommonErrorCode.IMPORT_NOT_CANCELLABLE
    default_message = _("This import has already finished; there is nothing to cancel.")


class ImportRunning(Conflict):
    """Cancel of a job a live worker is running: its rows are being written in one transaction, which
    commits or rolls back as a whole; stopping it from outside is not offered."""

    error = CommonErrorCode.IMPORT_RUNNING
    default_message = _(
        "This import is being written by a worker right now and cannot be cancelled. It finishes (or fails, "
        "importing nothing) on its own within 30 minutes."
    )


class RecordInUse(Conflict):
    """A delete blocked by `on_delete=PROTECT`/`RESTRICT` (the envelope's handler raises it for Django's
    ProtectedError and RestrictedError): the record is still in use, not a server error."""

    error = CommonErrorCode.RECORD_IN_USE
    default_message = _("This record is still used by other records and cannot be deleted.")


class OutboundTestsTooFrequent(DomainError):
    """More connection tests (SMTP, accounting) of one company in a minute than OUTBOUND_TEST_RATE allows
    (apps/common/outbound.py): a test answers in words, so it is what a scan of addresses would use."""

    status_code = 429
    error = CommonErrorCode.OUTBOUND_TESTS_TOO_FREQUENT
    default_message = _("Too many connection tests for this company; try again in a minute.")


class IdempotencyKeyInvalid(DomainError):
    status_code = 400
    error = CommonErrorCode.IDEMPOTENCY_KEY_INVALID
    default_message = _("The Idempotency-Key header must be 1 to 255 visible ASCII characters.")


class IdempotencyKeyReused(DomainError):
    """The key was used before for another request (another path or body): nothing is done."""

    status_code = 422
    error = CommonErrorCode.IDEMPOTENCY_KEY_REUSED
    default_message = _("This Idempotency-Key was already used for a different request.")


class IdempotencyKeyInProgress(Conflict):
    """The first request with this key has not finished: its answer is not known yet, so none is given
    and nothing is done; the client sends the key again a moment later and gets the first answer."""

    error = CommonErrorCode.IDEMPOTENCY_KEY_IN_PROGRESS
    default_message = _(
        "A request with this Idempotency-Key is still being processed: send it again in a moment."
    )
