"""The outbound client (apps/common/outbound.py): addresses a tenant sets cannot reach the operator's
network nor read it back.

Local servers on 127.0.0.1 (port 0) stand in for an internal service: an HTTP service whose answer is a
secret, an HTML page, a redirect to the metadata address, and a TCP service that speaks a banner first (as
NATS does). Without the operator's allow-list nothing reaches them; with it (set explicitly here, as an
operator would for an accounting system on their own network) the answers never come back in words.
"""

from __future__ import annotations

import socket
import socketserver
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from apps.accounting.models import AccountingConnection
from apps.common import outbound
from apps.notifications.models import SmtpSettings

pytestmark = pytest.mark.django_db

CONNECTION = "/api/accounting/connection/"
SMTP = "/api/core/smtp-settings/"
SECRET = "internal-secret-4711"


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.seen.append((self.path, self.headers.get("Host")))
        kind = self.server.kind
        if kind == "redirect":
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.end_headers()
            return
        body = (
            f"<html><body>{SECRET}</body></html>".encode()
            if kind == "html"
            else f'{{"error": "unauthorized", "message": "{SECRET}"}}'.encode()
        )
        self.send_response(200 if kind == "html" else 401)
        self.send_header("Content-Type", "text/html" if kind == "html" else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET


@pytest.fixture
def internal():
    """internal(kind) -> a local HTTP server answering `kind` ("secret", "html", "redirect")."""
    servers = []

    def start(kind="secret"):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.kind, server.seen = kind, []
        threading.Thread(target=server.serve_forever, daemon=True).start()
        server.url = f"http://127.0.0.1:{server.server_address[1]}"
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


class _Banner(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.sendall(f'INFO {{"server_id":"{SECRET}","version":"2.10"}}\r\n'.encode())


@pytest.fixture
def banner_server():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Banner)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def admins(tenant2, tenant3, make_user):
    return {"t3": make_user(tenant3, "Administrator"), "t2": make_user(tenant2, "Administrator")}


@pytest.mark.parametrize(
    ("address", "allowed"),
    [
        ("127.0.0.1", False),
        ("127.8.9.10", False),
        ("::1", False),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("100.64.0.1", False),  # shared address space (carrier NAT)
        ("169.254.169.254", False),  # link-local: cloud metadata
        ("fe80::1", False),
        ("fc00::1", False),
        ("224.0.0.1", False),
        ("ff02::1", False),
        ("240.0.0.1", False),
        ("0.0.0.0", False),
        ("::", False),
        ("::ffff:127.0.0.1", False),  # IPv4-mapped
        ("::ffff:10.0.0.1", False),
        ("2002:7f00:1::", False),  # 6to4 around 127.0.0.1
        ("192.0.2.1", False),  # documentation
        ("not-an-address", False),
        ("93.184.215.14", True),
        ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", True),
    ],
)
def test_address_policy(address, allowed):
    assert outbound.address_allowed(address) is allowed


def test_the_operator_allow_list_lets_a_network_through(settings):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["10.20.0.0/16"]
    assert outbound.address_allowed("10.20.3.4") is True
    assert outbound.address_allowed("10.21.3.4") is False


def test_every_address_a_name_resolves_to_must_be_public(monkeypatch):
    def two_answers(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", two_answers)
    with pytest.raises(outbound.OutboundRefused) as refused:
        outbound.resolve("rebind.example", 443)
    assert refused.value.reason == outbound.OutboundRefused.ADDRESS


def test_check_url_https_only_unless_the_operator_allows_http(settings):
    outbound.check_url("https://api.example.com/v1/")
    with pytest.raises(outbound.OutboundRefused):
        outbound.check_url("http://api.example.com/v1/")
    for url in ("ftp://api.example.com/", "file:///etc/passwd", "gopher://x/", "https:///nohost"):
        with pytest.raises(outbound.OutboundRefused):
            outbound.check_url(url)
    with pytest.raises(outbound.OutboundRefused):
        outbound.check_url("https://127.0.0.1/")
    settings.OUTBOUND_ALLOW_HTTP = True
    outbound.check_url("http://api.example.com/v1/")


def test_the_client_connects_to_the_checked_address_and_keeps_the_host_name(settings, internal, monkeypatch):
    """The name is resolved once, by the guard; the request goes to that address with the name as Host."""
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    server = internal("secret")
    port = server.server_address[1]
    real = socket.getaddrinfo

    def fake_dns(host, *args, **kwargs):
        return real("127.0.0.1" if host == "accounting.example" else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake_dns)
    with outbound.http_client() as client:
        response = client.get(f"http://accounting.example:{port}/x")
    assert response.status_code == 401
    assert server.seen == [("/x", f"accounting.example:{port}")]


def test_redirects_are_not_followed(settings, internal):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    server = internal("redirect")
    with outbound.http_client() as client:
        response = client.get(f"{server.url}/")
    assert response.status_code == 302  # a status, not a second request to 169.254.169.254
    with pytest.raises(outbound.OutboundRefused):
        with outbound.http_client() as client:
            client.get("http://169.254.169.254/latest/meta-data/")


def test_timeouts_are_bounded(settings):
    settings.OUTBOUND_TIMEOUT_SECONDS = 15
    assert outbound.GuardedSmtpBackend(host="smtp.example.com", port=587, timeout=120).timeout == 15
    with outbound.http_client() as client:
        assert client.timeout.read == 15 and client.timeout.connect == 5


# -- through the API -------------------------------------------------------------------------------------


def test_accounting_urls_on_private_addresses_or_plain_http_are_refused_on_save(admins, tenant3, api):
    client = api(admins["t3"], tenant3)
    body = {"provider": "visma_net", "client_id": "c", "client_secret": "s", "company_id": "1"}
    for base_url, token_url in [
        ("http://127.0.0.1:8000/", "https://identity.example.com/token"),
        ("https://10.0.0.5/", "https://identity.example.com/token"),
        ("https://api.example.com/", "https://169.254.169.254/token"),
        ("http://api.example.com/", "https://identity.example.com/token"),
        ("https://[::1]/", "https://identity.example.com/token"),
    ]:
        response = client.put(
            CONNECTION, {**body, "base_url": base_url, "token_url": token_url}, format="json"
        )
        assert response.status_code == 400, (base_url, token_url)


def _stored_connection(in_tenant, tenant, url):
    with in_tenant(tenant):
        return AccountingConnection.objects.create(
            provider="visma_eaccounting",
            base_url=f"{url}/v2/",
            token_url=f"{url}/token",
            client_id="c",
            client_secret="s",
            refresh_token="r",
        )


def test_a_connection_test_never_reaches_an_internal_service(
    admins, tenant3, api, in_tenant, internal, settings
):
    """A row stored before the policy (or whose name resolves to loopback) is refused at connect time."""
    settings.OUTBOUND_ALLOW_HTTP = True
    server = internal("secret")
    _stored_connection(in_tenant, tenant3, server.url)
    response = api(admins["t3"], tenant3).post(f"{CONNECTION}test/")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["ok"] is False and "not allowed" in data["message"]
    assert server.seen == []


def test_a_connection_test_does_not_read_back_the_answer(admins, tenant3, api, in_tenant, internal, settings):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    for kind in ("secret", "html"):
        server = internal(kind)
        with in_tenant(tenant3):
            AccountingConnection.objects.all().delete()
        _stored_connection(in_tenant, tenant3, server.url)
        response = api(admins["t3"], tenant3).post(f"{CONNECTION}test/")
        assert response.status_code == 200, response.content  # an HTML 200 is no 500
        assert server.seen, "the allowed server was called"
        assert SECRET not in response.content.decode()
        assert response.json()["data"]["ok"] is False
        with in_tenant(tenant3):
            assert SECRET not in AccountingConnection.objects.get().last_test_message


def test_the_html_answer_of_a_visma_net_api_is_refused_in_words(
    admins, tenant3, api, in_tenant, internal, settings
):
    """Visma.net reads a token first: an HTML token answer and an HTML API answer both become words."""
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True
    server = internal("html")
    with in_tenant(tenant3):
        AccountingConnection.objects.create(
            provider="visma_net",
            base_url=f"{server.url}/v1/",
            token_url=f"{server.url}/token",
            client_id="c",
            client_secret="s",
            company_id="1",
        )
    response = api(admins["t3"], tenant3).post(f"{CONNECTION}test/")
    assert response.status_code == 200
    assert response.json()["data"]["ok"] is False and SECRET not in response.content.decode()


def test_smtp_test_refuses_loopback_and_private_hosts(admins, tenant3, api, banner_server):
    client = api(admins["t3"], tenant3)
    for host in ("127.0.0.1", "localhost", "10.0.0.1", "169.254.169.254"):
        response = client.post(
            f"{SMTP}test/", {"host": host, "port": banner_server, "from_email": "a@b.example"}
        )
        assert response.status_code == 200, response.content
        data = response.json()["data"]
        assert data["ok"] is False and "not allowed" in data["message"], (host, data)


def test_smtp_test_never_returns_what_the_server_said(admins, tenant3, api, banner_server, settings):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    client = api(admins["t3"], tenant3)
    response = client.post(
        f"{SMTP}test/",
        {"host": "127.0.0.1", "port": banner_server, "from_email": "a@b.example", "timeout": 5},
    )
    data = response.json()["data"]
    assert data["ok"] is False
    assert SECRET not in response.content.decode() and "INFO" not in data["message"]


def test_connection_tests_are_rate_limited_per_company(admins, tenant2, tenant3, api, in_tenant, settings):
    settings.OUTBOUND_TEST_RATE = "3/min"
    body = {"host": "127.0.0.1", "port": 25, "from_email": "a@b.example"}
    client = api(admins["t3"], tenant3)
    for _ in range(3):
        assert client.post(f"{SMTP}test/", body).status_code == 200
    refused = client.post(f"{SMTP}test/", body)
    assert refused.status_code == 429
    assert refused.json()["error"] == "outbound_tests_too_frequent"
    _stored_connection(in_tenant, tenant3, "https://api.example.com")
    assert client.post(f"{CONNECTION}test/").status_code == 429  # one budget for every kind of test
    # another company has its own budget
    assert api(admins["t2"], tenant2).post(f"{SMTP}test/", body).status_code == 200


def test_sending_through_a_company_server_on_a_private_address_is_refused(settings):
    backend = outbound.GuardedSmtpBackend(host="127.0.0.1", port=25, timeout=5, fail_silently=False)
    with pytest.raises(outbound.OutboundRefused):
        backend.open()
    config = SmtpSettings(host="10.0.0.7", port=25, security="none", from_email="a@b.example", timeout=5)
    from apps.notifications.services import smtp_backend

    with pytest.raises(outbound.OutboundRefused):
        smtp_backend(config).open()


def test_mock_transports_pass_the_guard_too():
    calls = []
    transport = httpx.MockTransport(lambda request: calls.append(request) or httpx.Response(200))
    with pytest.raises(outbound.OutboundRefused):
        with outbound.http_client(transport=transport) as client:
            client.get("https://127.0.0.1/")
    assert calls == []


def test_a_company_servers_tracking_backend_keeps_the_guard():
    from apps.notifications.smtp import GuardedTrackingSmtpBackend

    backend = GuardedTrackingSmtpBackend(host="127.0.0.1", port=25, timeout=5, fail_silently=False)
    assert issubclass(backend.connection_class, outbound.GuardedConnect)
    with pytest.raises(outbound.OutboundRefused):
        backend.open()


def test_a_backend_without_the_guard_in_its_smtp_class_is_refused():
    import smtplib

    class Unguarded(outbound.GuardedSmtpBackend):
        smtp_class = smtplib.SMTP

    with pytest.raises(TypeError):
        _ = Unguarded(host="smtp.example.com", port=25).connection_class
