"""Printing fixtures: tenant 3 with carton labels, two printers and a paired agent; tenant 2 with its own
agent and printer; a fake ZPL printer on 127.0.0.1 (a real TCP server that answers ~HS); the print agent
(printagent/cartontrace_printagent.py) loaded as a module, talking to the API through the test client."""

from __future__ import annotations

import importlib.util
import json
import socket
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.eudr.models import CartonLabel
from apps.eudr.tests import factories
from apps.printing import services
from apps.printing.models import PrinterDevice

AGENT_FILE = Path(settings.BASE_DIR).parent / "printagent" / "cartontrace_printagent.py"


def load_agent_module():
    spec = importlib.util.spec_from_file_location("cartontrace_printagent", AGENT_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cartontrace_printagent", module)
    spec.loader.exec_module(module)
    return module


agent_module = load_agent_module()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class FakePrinter:
    """A ZPL printer on 127.0.0.1: keeps the bytes it receives and answers `~HS` with the documented
    three STX/ETX framed strings for `state`; `silent` never answers, `drop` closes every connection,
    `drop_after_data` answers the first `~HS` ready, takes the label and closes the connection."""

    def __init__(self, state: str = "ready") -> None:
        self.state = state
        self.received = b""
        self.connections = 0
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def labels(self) -> int:
        return self.received.count(b"^XZ")

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                if self.state == "drop":
                    continue
                conn.settimeout(5)
                pending = b""
                try:
                    while True:
                        chunk = conn.recv(65536)
                        if not chunk:
                            break
                        pending += chunk
                        while b"~HS" in pending:
                            before, pending = pending.split(b"~HS", 1)
                            self.received += before.strip(b"\r\n")
                            if self.state == "drop_after_data" and before.strip(b"\r\n"):
                                raise ConnectionAbortedError  # took the label, hangs up
                            if self.state == "drop_after_data":
                                conn.sendall(agent_module.host_status_strings("ready"))
                            elif self.state != "silent":
                                conn.sendall(agent_module.host_status_strings(self.state))
                except OSError:
                    pass
                self.received += pending

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def fake_printer():
    printers = []

    def make(state: str = "ready") -> FakePrinter:
        printer = FakePrinter(state)
        printers.append(printer)
        return printer

    yield make
    for printer in printers:
        printer.close()


def closed_port() -> int:
    """A port on 127.0.0.1 nobody listens on (connection refused)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


class ClientServer:
    """The agent's `Server`, speaking to the API through Django's test client (same paths, same JSON,
    same `Authorization: Agent <token>`), so the agent's own code runs unchanged."""

    def __init__(self, token: str) -> None:
        self.base_url = "http://testserver"
        self.token = token
        self.client = APIClient()

    def call(self, method: str, path: str, body=None, timeout=None):
        headers = {"HTTP_AUTHORIZATION": f"Agent {self.token}"} if self.token else {}
        if method == "GET":
            response = self.client.get(path, **headers)
        else:
            response = self.client.generic(
                method, path, data=json.dumps(body or {}), content_type="application/json", **headers
            )
        payload = response.json()
        if response.status_code >= 400:
            raise agent_module.ServerError(
                response.status_code, payload.get("message", ""), payload.get("error", "")
            )
        return payload["data"]


@pytest.fixture
def printing_world(tenant3, tenant2, in_tenant, make_user, tmp_path):
    w = factories.world(tenant3, tenant2, in_tenant, make_user)
    with in_tenant(w.tenant3):
        w.delivery = factories.delivery(w.vendor_a, weight="100")
        factories.generate(w.delivery, w.line_a, 3, container="MSKU1234567")
        w.labels = list(CartonLabel.objects.order_by("batch_sequence"))
        _, code = services.pairing_code_create(name="Line 1 PC", user=w.admin)
    w.agent, w.token = services.agent_pair(code=code, hostname="line1")
    with in_tenant(w.tenant3):
        w.printer = PrinterDevice.objects.create(
            name="Zebra line 1", host="127.0.0.1", port=closed_port(), agent=w.agent, site="Plant A"
        )
        w.vendor_printer = PrinterDevice.objects.create(
            name="Vendor A printer",
            host="127.0.0.1",
            port=closed_port(),
            agent=w.agent,
            parent_vendor=w.vendor_a,
        )
    with in_tenant(w.tenant2):
        _, code_x = services.pairing_code_create(name="Other PC", user=w.admin_x)
    w.agent_x, w.token_x = services.agent_pair(code=code_x)
    with in_tenant(w.tenant2):
        w.printer_x = PrinterDevice.objects.create(
            name="Other printer", host="127.0.0.1", port=9100, agent=w.agent_x
        )
    w.store_dir = tmp_path / "agent"
    return w


@pytest.fixture
def make_agent(printing_world):
    def make(token: str | None = None):
        return agent_module.Agent(
            ClientServer(token or printing_world.token), agent_module.Store(printing_world.store_dir)
        )

    return make
