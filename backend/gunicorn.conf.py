"""gunicorn settings every CartonTrace server shares (`make run`, the test servers, docs/operations.md).

gunicorn reads this file from its working directory (backend/) by itself; command-line options still win.
"""


def post_worker_init(worker):
    # Requests gunicorn refuses before Django sees them (414 URI too long, 431, 400) answer the API's JSON
    # error envelope, not gunicorn's HTML page (apps/common/http_server_errors.py).
    from apps.common import http_server_errors

    http_server_errors.install()
