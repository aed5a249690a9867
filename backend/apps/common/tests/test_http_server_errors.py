"""Requests the HTTP server refuses before Django sees them answer the API's JSON envelope.

A real gunicorn, started with backend/gunicorn.conf.py as every server is, on a port the system chooses.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from apps.common.http_server_errors import envelope_error_bytes

BACKEND = Path(__file__).resolve().parents[3]


def test_answer_is_a_complete_http_response_with_the_envelope():
    raw = envelope_error_bytes(414, "URI Too Long")
    head, body = raw.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 414 URI Too Long\r\n")
    assert b"Content-Type: application/json" in head
    assert f"Content-Length: {len(body)}".encode() in head
    assert json.loads(body) == {
        "code": 414,
        "message": "The address is too long. Send fewer or shorter query parameters.",
        "error": "uri_too_long",
        "data": None,
    }


def test_unknown_status_keeps_the_servers_reason_and_a_stable_key():
    body = json.loads(envelope_error_bytes(417, "Expectation Failed").split(b"\r\n\r\n", 1)[1])
    assert body == {"code": 417, "message": "Expectation Failed", "error": "bad_request", "data": None}


@pytest.fixture(scope="module")
def gunicorn_port():
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--threads",
            "2",
            "--log-level",
            "info",
        ],
        cwd=BACKEND,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    port = None
    try:
        for line in proc.stderr:  # gunicorn logs where it listens, then each worker it boots
            found = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
            if port and "Booting worker" in line:
                break
        assert port, "gunicorn did not start"
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        proc.stderr.close()


def _raw_request(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, body = b"".join(chunks).split(b"\r\n\r\n", 1)
    status, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (h.split(":", 1) for h in header_lines)}
    return status, headers, body


def test_an_over_long_query_string_answers_414_in_the_envelope(gunicorn_port):
    query = "search=" + "x" * 10_000
    status, headers, body = _raw_request(
        gunicorn_port, f"GET /api/products/products/?{query} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
    )
    assert status.startswith("HTTP/1.1 414")
    assert headers["content-type"] == "application/json"
    payload = json.loads(body)
    assert payload["code"] == 414 and payload["error"] == "uri_too_long" and payload["data"] is None
    assert "xxxx" not in body.decode()  # the request is not echoed back


def test_over_large_headers_answer_431_in_the_envelope(gunicorn_port):
    status, _headers, body = _raw_request(
        gunicorn_port,
        b"GET /api/health/live HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n",
    )
    assert status.startswith("HTTP/1.1 431")
    assert json.loads(body)["error"] == "headers_too_large"


def test_a_malformed_request_line_answers_400_in_the_envelope(gunicorn_port):
    status, _headers, body = _raw_request(gunicorn_port, b"GET\x00 / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert status.startswith("HTTP/1.1 400")
    assert json.loads(body) == {
        "code": 400,
        "message": "The request could not be read.",
        "error": "bad_request",
        "data": None,
    }
