"""The SOAP client against a local server that answers as the EU information system documents: success
with identifiers, business fault, authentication fault, timeout; the envelope, WS-Security header and
body of each request."""

import base64
import hashlib
from datetime import UTC, datetime

import pytest
from lxml import etree

from apps.eudr.dds import xml as dds_xml
from apps.eudr.traces import (
    TracesAuthenticationError,
    TracesBusinessError,
    TracesClient,
    TracesCredentials,
    TracesNotFound,
    TracesUnavailable,
)
from apps.eudr.traces.client import BASE_NS, SOAP_NS, WSSE_NS, WSU_NS, environment_url

from . import traces_server as fake

CREDENTIALS = TracesCredentials(username="eurotrade-ws", auth_key="s3cret-Key", client_id="eudr-test")
REQUEST = {
    "operatorRole": "OPERATOR",
    "statement": {
        "internalReferenceNumber": "DLV-2026-001-ABCD1234",
        "activityType": "IMPORT",
        "countryOfActivity": "NL",
        "commodities": [
            {
                "position": 1,
                "descriptors": {"descriptionOfGoods": "Cartons", "goodsMeasure": {"netWeight": 3.4}},
                "hsHeading": "4819",
                "speciesInfo": [{"scientificName": "Picea abies", "commonName": "Norway spruce"}],
            }
        ],
        "geoLocationConfidential": False,
    },
}


@pytest.fixture
def server():
    with fake.FakeTraces() as running:
        yield running


def client_of(server, **kwargs) -> TracesClient:
    return TracesClient(CREDENTIALS, base_url=server.url, **kwargs)


def test_submit_answers_the_uuid_and_sends_a_ws_security_envelope(server):
    moment = datetime(2026, 12, 30, 9, 0, 0, 123000, tzinfo=UTC)
    uuid = client_of(server, now=lambda: moment).submit_dds(dds_xml.submit_request(REQUEST))
    assert uuid == fake.UUID
    [(path, action, body)] = server.requests
    assert path == "/tracesnt/ws/EUDRDueDiligenceStatementServiceV3"
    assert action == "submitDds"
    root = etree.fromstring(body)
    assert root.tag == f"{{{SOAP_NS}}}Envelope"
    header, soap_body = root
    security = header.find(f"{{{WSSE_NS}}}Security")
    timestamp = security.find(f"{{{WSU_NS}}}Timestamp")
    assert timestamp.findtext(f"{{{WSU_NS}}}Created") == "2026-12-30T09:00:00.123Z"
    assert timestamp.findtext(f"{{{WSU_NS}}}Expires") == "2026-12-30T09:05:00.123Z"
    token = security.find(f"{{{WSSE_NS}}}UsernameToken")
    assert token.findtext(f"{{{WSSE_NS}}}Username") == "eurotrade-ws"
    password = token.find(f"{{{WSSE_NS}}}Password")
    assert password.get("Type").endswith("#PasswordDigest")
    nonce = base64.b64decode(token.findtext(f"{{{WSSE_NS}}}Nonce"))
    created = token.findtext(f"{{{WSU_NS}}}Created")
    assert created == "2026-12-30T09:00:00.123Z" and len(nonce) == 16
    expected = base64.b64encode(hashlib.sha1(nonce + created.encode() + b"s3cret-Key").digest()).decode()
    assert password.text == expected
    assert b"s3cret-Key" not in body  # the key itself never travels
    assert header.findtext(f"{{{BASE_NS}}}WebServiceClientId") == "eudr-test"
    [request] = soap_body
    assert request.tag == f"{{{dds_xml.DDS_NS}}}SubmitDdsRequest"
    assert dds_xml.validate_request(request) == []
    assert (
        request.find(f"{{{dds_xml.DDS_NS}}}statement").findtext(
            f"{{{dds_xml.DDS_NS}}}internalReferenceNumber"
        )
        == "DLV-2026-001-ABCD1234"
    )


def test_each_nonce_is_new(server):
    client = client_of(server)
    client.submit_dds(dds_xml.submit_request(REQUEST))
    client.submit_dds(dds_xml.submit_request(REQUEST))
    nonces = {
        etree.fromstring(body).find(f".//{{{WSSE_NS}}}Nonce").text for _path, _action, body in server.requests
    }
    assert len(nonces) == 2


def test_a_business_fault_carries_the_systems_messages(server):
    server.answer("submitDds", fake.FAULT_BUSINESS, status=500)
    with pytest.raises(TracesBusinessError) as caught:
        client_of(server).submit_dds(dds_xml.submit_request(REQUEST))
    error = caught.value
    assert error.error == "traces_business_rules"
    assert error.messages == [
        {
            "id": "EUDR-GEOJSON-AREA-TOO-SMALL",
            "message": "The area of a point must be at least 0.1 ha",
            "field": "Geolocation",
        },
        {"id": "EUDR-HS-CODE-INVALID", "message": "HS code not allowed", "field": ""},
    ]
    assert error.describe() == "Geolocation: The area of a point must be at least 0.1 ha; HS code not allowed"


def test_an_authentication_fault_is_its_own_error(server):
    server.answer("submitDds", fake.FAULT_AUTH, status=500)
    with pytest.raises(TracesAuthenticationError) as caught:
        client_of(server).submit_dds(dds_xml.submit_request(REQUEST))
    assert "security token" in caught.value.describe()
    server.answer("testEcho", fake.ECHO_AUTH_FAULT, status=500)
    with pytest.raises(TracesAuthenticationError) as caught:
        client_of(server).echo()
    assert caught.value.describe() == "Authentication failed"


def test_a_timeout_is_unavailable_with_an_unknown_outcome(server):
    server.answer("submitDds", fake.DELAY)
    with pytest.raises(TracesUnavailable) as caught:
        client_of(server, timeout=0.3).submit_dds(dds_xml.submit_request(REQUEST))
    assert caught.value.outcome_unknown is True
    assert caught.value.error == "traces_unavailable"


def test_a_server_error_without_a_fault_and_a_refused_connection_are_unavailable(server):
    server.answer("getDds", b"<html>Bad gateway</html>", status=502)
    with pytest.raises(TracesUnavailable):
        client_of(server).get_dds(fake.UUID)
    closed = TracesClient(CREDENTIALS, base_url="http://127.0.0.1:9/tracesnt/", timeout=0.5)
    with pytest.raises(TracesUnavailable):
        closed.echo()


def test_amend_withdraw_and_status(server):
    client = client_of(server)
    amend = dds_xml.amend_request(uuid=fake.UUID, statement=REQUEST["statement"])
    assert client.amend_dds(amend) == (fake.UUID, "AVAILABLE")
    assert client.withdraw_dds(fake.UUID) == (fake.UUID, "WITHDRAWN")
    [found] = client.get_dds(fake.UUID)
    assert (found.uuid, found.reference_number, found.verification_number, found.status) == (
        fake.UUID,
        "26NLX7TVCZAQ2S",
        "SFFCB4Y3",
        "AVAILABLE",
    )
    assert client.get_dds_by_internal_reference("DLV-1") == []
    server.answer("getDdsByInternalReference", fake.FAULT_NOT_FOUND, status=500)
    assert client.get_dds_by_internal_reference("DLV-1") == []
    server.answer("getDds", fake.FAULT_NOT_FOUND, status=500)
    with pytest.raises(TracesNotFound):
        client.get_dds(fake.UUID)
    bodies = {action: etree.fromstring(body) for _path, action, body in server.requests}
    withdraw = bodies["withdrawDds"].find(f".//{{{dds_xml.DDS_NS}}}WithdrawDdsRequest")
    assert withdraw.findtext(f"{{{dds_xml.DDS_NS}}}uuid") == fake.UUID
    get = bodies["getDds"].find(f".//{{{dds_xml.DDS_NS}}}GetDdsRequest")
    assert get.findtext(f"{{{dds_xml.DDS_NS}}}uuidList") == fake.UUID


def test_echo_and_environments(server, settings):
    assert client_of(server).echo() == "OK"
    assert server.requests[-1][0] == "/tracesnt/ws/eudr/echo"
    settings.EUDR_TRACES_URLS = {}
    assert environment_url("acceptance") == "https://acceptance.eudr.webcloud.ec.europa.eu/tracesnt/"
    assert environment_url("production") == "https://eudr.webcloud.ec.europa.eu/tracesnt/"
    assert "s3cret" not in repr(CREDENTIALS)


def test_echo_tries_the_wsdls_address_first_and_says_which_answered(server):
    server.answer("echo", fake.ECHO_OK)
    assert client_of(server).echo_with_variant() == ("OK", "wsdl", "/ws/EudrEchoService")
    assert server.requests[0][:2] == ("/tracesnt/ws/EudrEchoService", "echo")
    # the WSDL's address does not answer (404 without a SOAP body): the 2026 reference's is tried
    assert client_of(server).echo_with_variant() == ("OK", "reference", "/ws/eudr/echo")
    assert [(p, a) for p, a, _b in server.requests[1:]] == [
        ("/tracesnt/ws/EudrEchoService", "echo"),
        ("/tracesnt/ws/eudr/echo", "testEcho"),
    ]
    [(_p, _a, sent)] = server.requests[2:]
    assert b'"http://ec.europa.eu/tracesnt/eudr/echo/testEcho"' not in sent  # the action is a header


def test_a_server_fault_without_detail_is_an_unknown_outcome_not_a_refusal(server):
    from apps.eudr.traces import TracesServerFault

    server.answer("submitDds", fake.FAULT_SERVER_NO_DETAIL, status=500)
    with pytest.raises(TracesServerFault) as caught:
        client_of(server).submit_dds(dds_xml.submit_request(REQUEST))
    assert caught.value.outcome_unknown is True
    assert caught.value.error == "traces_outcome_unknown"
    assert caught.value.describe() == "Internal server error"
