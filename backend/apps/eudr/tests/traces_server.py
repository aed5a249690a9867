"""A local HTTP server that answers as the EU information system's SOAP services are documented to
(Operator API reference, "Sample XML"; EUDR - API EO CF4, the fault shapes). Bound to 127.0.0.1 only.

    server.answer("submitDds", SUBMIT_OK)        # the next submitDds gets this body (status 200)
    server.answer("submitDds", FAULT_BUSINESS, status=500)
    server.answer("submitDds", DELAY)            # no answer before the client's timeout
    server.requests                              # [(path, SOAPAction, body bytes)]
    server.declarations[("26NLX7TVCZAQ2S", "SFFCB4Y3")] = ("EXISTING_USABLE", "AVAILABLE")
                                                 # verifyDeclaration answers from this register
                                                 # (NON_EXISTENT for any other pair once it is not empty)
    server.keep_statements()                     # as the system does: submitDds records the statement
                                                 # (server.statements, by internal reference) before it
                                                 # answers; getDdsByInternalReference finds it
    server.hold_answers.clear()                  # ... and then holds the answer until .set()
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DDS = "http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"
DELAY = object()

ENVELOPE = (
    '<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/">'
    "<S:Body>{body}</S:Body></S:Envelope>"
)


def envelope(body: str) -> bytes:
    return ENVELOPE.format(body=body).encode()


UUID = "071874bd-8c62-4cac-8eb6-b2fbe003410c"
SUBMIT_OK = envelope(
    f'<ns5:SubmitDdsResponse xmlns:ns5="{DDS}"><ns5:uuid>{UUID}</ns5:uuid></ns5:SubmitDdsResponse>'
)
AMEND_OK = envelope(
    f'<ns5:AmendDdsResponse xmlns:ns5="{DDS}"><ns5:uuid>{UUID}</ns5:uuid><ns5:status>AVAILABLE</ns5:status>'
    "</ns5:AmendDdsResponse>"
)
WITHDRAW_OK = envelope(
    f'<ns5:WithdrawDdsResponse xmlns:ns5="{DDS}"><ns5:uuid>{UUID}</ns5:uuid><ns5:status>WITHDRAWN</ns5:status>'
    "</ns5:WithdrawDdsResponse>"
)


def overview(
    tag: str,
    *,
    status="AVAILABLE",
    reference="26NLX7TVCZAQ2S",
    verification="SFFCB4Y3",
    internal="",
    uuid=UUID,
) -> bytes:
    return envelope(
        f'<ns5:{tag} xmlns:ns3="http://ec.europa.eu/tracesnt/certificate/eudr/common/v3" xmlns:ns5="{DDS}">'
        f"<ns5:ddsOverviewList><ns3:uuid>{uuid}</ns3:uuid>"
        f"<ns3:internalReferenceNumber>{internal}</ns3:internalReferenceNumber>"
        f"<ns3:referenceNumber>{reference}</ns3:referenceNumber>"
        f"<ns3:verificationNumber>{verification}</ns3:verificationNumber>"
        f"<ns3:status>{status}</ns3:status><ns3:date>2026-05-20T09:55:01.000Z</ns3:date>"
        f"</ns5:ddsOverviewList></ns5:{tag}>"
    )


VERIFY = "http://ec.europa.eu/tracesnt/certificate/eudr/verify-declaration/v3"


def verified(result="EXISTING_USABLE", status="AVAILABLE", when="2026-11-20T10:00:00.000Z") -> bytes:
    status_element = f"<verify:status>{status}</verify:status>" if status else ""
    return envelope(
        f'<verify:VerifyDeclarationResponse xmlns:verify="{VERIFY}"><verify:result>{result}</verify:result>'
        f"{status_element}<verify:dateTime>{when}</verify:dateTime></verify:VerifyDeclarationResponse>"
    )


VERIFY_USABLE = verified()
VERIFY_WITHDRAWN = verified("EXISTING_NON_USABLE", "WITHDRAWN")
VERIFY_NON_EXISTENT = verified("NON_EXISTENT", "")
FAULT_VERIFY_PERMISSION = envelope(
    "<S:Fault><faultcode>S:Server</faultcode><faultstring>Permission denied</faultstring><detail>"
    f'<verify:PermissionDeniedException xmlns:verify="{VERIFY}"><message>User does not have permission to '
    "verify declarations</message></verify:PermissionDeniedException></detail></S:Fault>"
)
BY_IDENTIFIERS_OK = envelope(
    f'<ns5:GetDdsByIdentifiersResponse xmlns:ns3="http://ec.europa.eu/tracesnt/certificate/eudr/common/v3" '
    f'xmlns:ns5="{DDS}"><ns5:statement><ns5:activityType>IMPORT</ns5:activityType><ns5:commodities>'
    "<ns5:position>1</ns5:position><ns5:descriptors><ns3:descriptionOfGoods>Kraft paper</ns3:descriptionOfGoods>"
    "<ns3:goodsMeasure><ns3:netWeight>12000.000000</ns3:netWeight></ns3:goodsMeasure></ns5:descriptors>"
    "<ns5:hsHeading>4804</ns5:hsHeading><ns5:speciesInfo><ns5:scientificName>Picea abies</ns5:scientificName>"
    "<ns5:commonName>Norway spruce</ns5:commonName></ns5:speciesInfo><ns5:producers><ns5:country>FI</ns5:country>"
    "<ns5:geometryGeojson>e30=</ns5:geometryGeojson></ns5:producers></ns5:commodities>"
    "<ns5:geoLocationConfidential>true</ns5:geoLocationConfidential></ns5:statement>"
    "</ns5:GetDdsByIdentifiersResponse>"
)

GET_OK = overview("GetDdsResponse")
EMPTY_BY_REFERENCE = envelope(f'<ns5:GetDdsByInternalReferenceResponse xmlns:ns5="{DDS}"/>')

FAULT_BUSINESS = envelope(
    "<S:Fault><faultcode>S:Client</faultcode><faultstring>Some business rules are not met</faultstring><detail>"
    f'<ns5:BusinessRulesValidationException xmlns:ns5="{DDS}" xmlns:ns4="http://ec.europa.eu/sanco/tracesnt/error/v01">'
    '<ns4:Error><ns4:ID>EUDR-GEOJSON-AREA-TOO-SMALL</ns4:ID><ns4:Message languageID="en">The area of a point '
    'must be at least 0.1 ha</ns4:Message><ns4:Field languageID="en">Geolocation</ns4:Field></ns4:Error>'
    '<ns4:Error><ns4:ID>EUDR-HS-CODE-INVALID</ns4:ID><ns4:Message languageID="en">HS code not allowed'
    "</ns4:Message></ns4:Error>"
    "</ns5:BusinessRulesValidationException></detail></S:Fault>"
)
FAULT_AUTH = envelope(
    '<S:Fault xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">'
    "<faultcode>wsse:FailedAuthentication</faultcode><faultstring>Unauthenticated: the security token could "
    "not be authenticated or authorized</faultstring></S:Fault>"
)
FAULT_NOT_FOUND = envelope(
    f"<S:Fault><faultcode>S:Client</faultcode><faultstring>Not found</faultstring><detail><ns5:NotFoundException "
    f'xmlns:ns5="{DDS}"/></detail></S:Fault>'
)
FAULT_WITHDRAW_GROUPED = envelope(
    "<S:Fault><faultcode>S:Client</faultcode><faultstring>Some business rules are not met</faultstring><detail>"
    f'<ns5:BusinessRulesValidationException xmlns:ns5="{DDS}" xmlns:ns4="http://ec.europa.eu/sanco/tracesnt/error/v01">'
    '<ns4:Error><ns4:ID>EUDR-DDS-GROUPED</ns4:ID><ns4:Message languageID="en">The statement is grouped and cannot '
    "be withdrawn</ns4:Message></ns4:Error></ns5:BusinessRulesValidationException></detail></S:Fault>"
)
FAULT_SERVER_NO_DETAIL = envelope(
    "<S:Fault><faultcode>S:Server</faultcode><faultstring>Internal server error</faultstring></S:Fault>"
)
ECHO_OK = envelope(
    '<echo:EudrEchoResponse xmlns:echo="http://ec.europa.eu/tracesnt/eudr/echo"><echo:status>OK</echo:status>'
    "</echo:EudrEchoResponse>"
)
ECHO_AUTH_FAULT = envelope(
    "<S:Fault><faultcode>S:Server</faultcode><faultstring>EudrEchoServiceFault</faultstring><detail>"
    '<echo:EudrEchoServiceFault xmlns:echo="http://ec.europa.eu/tracesnt/eudr/echo"><echo:errorMessage>'
    "Authentication failed</echo:errorMessage></echo:EudrEchoServiceFault></detail></S:Fault>"
)


class FakeTraces:
    def __init__(self) -> None:
        self.requests: list[tuple[str, str, bytes]] = []
        self.answers: dict[str, list[tuple[object, int]]] = {}
        self.declarations: dict[tuple[str, str], tuple[str, str]] = {}
        self.statements: dict[str, dict[str, str]] | None = None  # internal reference -> the statement
        self.hold_answers = threading.Event()
        self.hold_answers.set()
        self.held = threading.Event()  # set once a recorded statement's answer is being held
        self.lock = threading.Lock()
        self.defaults: dict[str, tuple[object, int]] = {
            "submitDds": (SUBMIT_OK, 200),
            "amendDds": (AMEND_OK, 200),
            "withdrawDds": (WITHDRAW_OK, 200),
            "getDds": (GET_OK, 200),
            "getDdsByInternalReference": (EMPTY_BY_REFERENCE, 200),
            "testEcho": (ECHO_OK, 200),
            "verify-declaration": (VERIFY_USABLE, 200),
            "getDdsByIdentifiers": (BY_IDENTIFIERS_OK, 200),
        }
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                action = (self.headers.get("SOAPAction") or "").strip('"').rsplit("/", 1)[-1]
                fake.requests.append((self.path, action, body))
                own = fake.respond(action, body)
                if own is not None:
                    self._send(*own)
                    return
                queued = fake.answers.get(action) or []
                kept = fake.statements is not None and action in ("submitDds", "getDdsByInternalReference")
                if kept:
                    answer, status = fake.from_statements(action, body), 200
                elif queued:
                    answer, status = queued.pop(0)
                elif action == "verify-declaration" and fake.declarations:
                    answer, status = fake.verify_from_register(body), 200
                else:
                    answer, status = fake.defaults.get(action, (b"", 404))
                if answer is DELAY:
                    time.sleep(1.5)
                    answer, status = SUBMIT_OK, 200
                self._send(answer, status)

            def _send(self, answer, status: int) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "text/xml; charset=utf-8")
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/tracesnt/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def respond(self, action: str, body: bytes) -> tuple[bytes, int] | None:
        """An answer of the fake's own for `action`, before the queued and default ones (none here)."""
        return None

    def verify_from_register(self, body: bytes) -> bytes:
        import re

        def value(name: str) -> str:
            found = re.search(rf"<[\w:]*{name}>([^<]*)</".encode(), body)
            return found.group(1).decode() if found else ""

        result, status = self.declarations.get(
            (value("referenceNumber"), value("verificationNumber")), ("NON_EXISTENT", "")
        )
        return verified(result, status)

    def keep_statements(self) -> None:
        self.statements = {}

    def from_statements(self, action: str, body: bytes) -> bytes:
        """submitDds records the statement, then (while `hold_answers` is clear) holds its answer, as a
        system whose answer never reaches a worker that died; getDdsByInternalReference finds it."""
        import re

        found = re.search(rb"<[\w:]*internalReference(?:Number)?>([^<]*)</", body)
        internal = found.group(1).decode() if found else ""
        assert self.statements is not None
        if action == "getDdsByInternalReference":
            with self.lock:
                kept = self.statements.get(internal)
            if kept is None:
                return EMPTY_BY_REFERENCE
            return overview("GetDdsByInternalReferenceResponse", internal=internal)
        with self.lock:
            self.statements.setdefault(internal, {"uuid": UUID, "status": "AVAILABLE"})
        if not self.hold_answers.is_set():
            self.held.set()
            self.hold_answers.wait(timeout=120)
        return SUBMIT_OK

    def answer(self, action: str, body, status: int = 200) -> None:
        self.answers.setdefault(action, []).append((body, status))

    def actions(self) -> list[str]:
        return [action for _path, action, _body in self.requests]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.hold_answers.set()
        self.server.shutdown()
        self.server.server_close()
