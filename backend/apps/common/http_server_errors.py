"""The HTTP server's own refusals in the API's error envelope.

gunicorn answers a request it cannot parse (a request line over `limit_request_line`, too many or too large
headers, a malformed request line) before Django sees it, with a small HTML page. A client of the API
would then get the one answer outside the envelope of docs/api-contract.md. `backend/gunicorn.conf.py`
installs `write_envelope_error` in each worker in place of gunicorn's HTML writer, so these answers keep
their status and carry `{"code", "message", "error", "data"}` like every other error.

No request was parsed, so there is no language to choose: the message is English, and the stable `error`
key is what a client reads.
"""

from __future__ import annotations

import json

from apps.common.errors import CommonErrorCode

# Status -> (stable key, readable sentence). gunicorn decides the status (400, 403, 414, 417, 431, 500,
# 501); a status not listed keeps gunicorn's reason as its message.
_ANSWERS: dict[int, tuple[str, str]] = {
    400: (CommonErrorCode.BAD_REQUEST, "The request could not be read."),
    403: (CommonErrorCode.PERMISSION_DENIED, "The request is not allowed."),
    414: (
        CommonErrorCode.URI_TOO_LONG,
        "The address is too long. Send fewer or shorter query parameters.",
    ),
    431: (CommonErrorCode.HEADERS_TOO_LARGE, "The request's headers are too large."),
    500: (CommonErrorCode.SERVER_ERROR, "An unexpected error occurred. Please try again later."),
}


def envelope_error_bytes(status: int, reason: str) -> bytes:
    """The whole HTTP/1.1 answer (status line, headers, JSON body) for a refusal by the server."""
    key, message = _ANSWERS.get(
        status, (CommonErrorCode.BAD_REQUEST if status < 500 else CommonErrorCode.SERVER_ERROR, reason)
    )
    body = json.dumps({"code": status, "message": message, "error": str(key), "data": None}).encode()
    reason = "".join(ch for ch in reason if 32 <= ord(ch) < 127) or "Error"
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    )
    return head.encode("latin-1") + body


def write_envelope_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error` signature. `mesg` (gunicorn's detail, which may echo the request) is
    left out of the answer: the access log has it."""
    from gunicorn import util

    util.write_nonblock(sock, envelope_error_bytes(int(status_int), str(reason)))


def install() -> None:
    """Replace gunicorn's HTML error writer in this process (called from each worker's post_worker_init)."""
    from gunicorn import util

    util.write_error = write_envelope_error
