"""SOAP 1.1 client of the EU information system's EUDR services, V3 (docs/regulation.md, "The V3 submission";
Operator API reference, sections 3 and 4.1).

    client = TracesClient(TracesCredentials(username, auth_key, client_id, environment))
    client.echo()                                   -> "OK"-like status (connectivity and credentials)
    client.submit_dds(request_element)              -> uuid
    client.amend_dds(amend_element)                 -> (uuid, status)
    client.withdraw_dds(uuid)                       -> (uuid, status)
    client.get_dds(uuid)                            -> [DdsOverview]
    client.get_dds_by_internal_reference(reference) -> [DdsOverview]
    client.get_dds_by_identifiers(reference, verification) -> ReferencedStatement (non-SME companies)
    client.verify_declaration(reference, verification)     -> Verification (EUDRVerifyDeclarationServiceV3)

Every request carries a WS-Security header: a `wsu:Timestamp` (Created, Expires = Created + 5 min) and a
`UsernameToken` with the user name, `PasswordDigest` = Base64(SHA-1(nonce + created + authentication key)),
the Base64 `Nonce` and `wsu:Created`; and the `WebServiceClientId` header of the environment. Faults are
parsed into the domain errors of errors.py with the system's messages; no answer (timeout, connection
refused, a server error without a fault) is `TracesUnavailable`, whose outcome is unknown.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from django.conf import settings
from lxml import etree

from apps.common.outbound import GuardedTransport, OutboundRefused
from apps.eudr.dds.xml import COMMON_NS, DDS_NS

from . import rate
from .errors import (
    TracesAddressRefused,
    TracesAuthenticationError,
    TracesBusinessError,
    TracesError,
    TracesNotFound,
    TracesPermissionDenied,
    TracesServerFault,
    TracesUnavailable,
)

logger = logging.getLogger(__name__)

SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/"
WSSE_NS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
WSU_NS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
BASE_NS = "http://ec.europa.eu/sanco/tracesnt/base/v4"
ECHO_NS = "http://ec.europa.eu/tracesnt/eudr/echo"
PASSWORD_DIGEST = (
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest"
)
BASE64_BINARY = (
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary"
)
DDS_PATH = "ws/EUDRDueDiligenceStatementServiceV3"
VERIFY_PATH = "ws/EUDRVerifyDeclarationServiceV3"
VERIFY_NS = "http://ec.europa.eu/tracesnt/certificate/eudr/verify-declaration/v3"
# The binding's soapAction in the service's WSDL (release 8.2.1).
VERIFY_ACTION = "http://ec.europa.eu/tracesnt/certificate/eudr/verification/v3/verify-declaration"
VERIFY_RESULTS = ("EXISTING_USABLE", "EXISTING_NON_USABLE", "NON_EXISTENT")
# The echo service: the EU texts disagree (docs/regulation.md). The echo WSDL 1.3 names /ws/EudrEchoService with the
# action http://ec.europa.eu/tracesnt/eudr/echo; the 2026 reference /ws/eudr/echo with .../echo/testEcho.
# The WSDL's is tried first, the reference's when the first gives no SOAP answer; the result says which.
ECHO_PATH = "ws/eudr/echo"
ECHO_VARIANTS = (
    ("wsdl", "ws/EudrEchoService", "http://ec.europa.eu/tracesnt/eudr/echo"),
    ("reference", ECHO_PATH, "http://ec.europa.eu/tracesnt/eudr/echo/testEcho"),
)
TIMESTAMP_TTL = timedelta(minutes=5)

ENVIRONMENTS = {
    "acceptance": "https://acceptance.eudr.webcloud.ec.europa.eu/tracesnt/",
    "production": "https://eudr.webcloud.ec.europa.eu/tracesnt/",
}


def environment_url(environment: str) -> str:
    """The base URL of an environment; settings.EUDR_TRACES_URLS may override one (a local test server)."""
    overrides = getattr(settings, "EUDR_TRACES_URLS", None) or {}
    url = overrides.get(environment) or ENVIRONMENTS[environment]
    return url if url.endswith("/") else url + "/"


@dataclass(frozen=True)
class TracesCredentials:
    username: str
    auth_key: str
    client_id: str
    environment: str = "acceptance"

    def __repr__(self) -> str:  # never the key in logs or tracebacks
        return f"TracesCredentials(username={self.username!r}, environment={self.environment!r})"


@dataclass(frozen=True)
class DdsOverview:
    uuid: str
    internal_reference: str
    reference_number: str
    verification_number: str
    status: str
    rejection_reason: str = ""
    communication: str = ""
    date: str = ""


@dataclass(frozen=True)
class Verification:
    """The answer of verifyDeclaration: `result` one of VERIFY_RESULTS, the declaration's lifecycle
    `status` (absent for NON_EXISTENT) and the system's time of the answer."""

    result: str
    status: str
    checked_at: str


@dataclass(frozen=True)
class ReferencedStatement:
    """What getDdsByIdentifiers answers of another operator's statement, as far as we show it."""

    activity_type: str
    commodities: list[dict[str, Any]]
    geolocation_confidential: bool


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def password_digest(nonce: bytes, created: str, auth_key: str) -> str:
    """Base64(SHA-1(nonce + created + key)): the WS-Security UsernameToken profile's PasswordDigest."""
    # SHA-1 is what the profile (and the EU system) prescribe; it is not our choice of hash.
    digest = hashlib.sha1(nonce + created.encode() + auth_key.encode(), usedforsecurity=False).digest()
    return base64.b64encode(digest).decode()


class TracesClient:
    def __init__(
        self,
        credentials: TracesCredentials,
        *,
        base_url: str | None = None,
        timeout: float | None = None,
        transport: httpx.BaseTransport | None = None,
        now=None,
    ) -> None:
        self.credentials = credentials
        self.base_url = base_url or environment_url(credentials.environment)
        seconds = timeout if timeout is not None else getattr(settings, "EUDR_TRACES_TIMEOUT", 30.0)
        self.timeout = httpx.Timeout(seconds, connect=min(seconds, 10.0))
        self.transport = transport
        self._now = now or (lambda: datetime.now(UTC))

    # -- envelope --------------------------------------------------------------------------------------

    def envelope(self, body: etree._Element) -> bytes:
        soap = etree.Element(
            f"{{{SOAP_NS}}}Envelope",
            nsmap={"soapenv": SOAP_NS, "v4": BASE_NS, "dds": DDS_NS, "eudrCommon": COMMON_NS},
        )
        header = etree.SubElement(soap, f"{{{SOAP_NS}}}Header")
        security = etree.SubElement(header, f"{{{WSSE_NS}}}Security", nsmap={"wsse": WSSE_NS, "wsu": WSU_NS})
        security.set(f"{{{SOAP_NS}}}mustUnderstand", "1")
        now = self._now()
        created = _iso(now)
        timestamp = etree.SubElement(security, f"{{{WSU_NS}}}Timestamp")
        timestamp.set(f"{{{WSU_NS}}}Id", "TS-" + secrets.token_hex(8))
        etree.SubElement(timestamp, f"{{{WSU_NS}}}Created").text = created
        etree.SubElement(timestamp, f"{{{WSU_NS}}}Expires").text = _iso(now + TIMESTAMP_TTL)
        token = etree.SubElement(security, f"{{{WSSE_NS}}}UsernameToken")
        token.set(f"{{{WSU_NS}}}Id", "UT-" + secrets.token_hex(8))
        etree.SubElement(token, f"{{{WSSE_NS}}}Username").text = self.credentials.username
        nonce = secrets.token_bytes(16)
        password = etree.SubElement(token, f"{{{WSSE_NS}}}Password", Type=PASSWORD_DIGEST)
        password.text = password_digest(nonce, created, self.credentials.auth_key)
        nonce_el = etree.SubElement(token, f"{{{WSSE_NS}}}Nonce", EncodingType=BASE64_BINARY)
        nonce_el.text = base64.b64encode(nonce).decode()
        etree.SubElement(token, f"{{{WSU_NS}}}Created").text = created
        etree.SubElement(header, f"{{{BASE_NS}}}WebServiceClientId").text = self.credentials.client_id
        etree.SubElement(soap, f"{{{SOAP_NS}}}Body").append(body)
        return etree.tostring(soap, xml_declaration=True, encoding="UTF-8")

    # -- transport -------------------------------------------------------------------------------------

    def call(self, path: str, action: str, body: etree._Element) -> etree._Element:
        """Posts the envelope; returns the first element of the answer's Body, or raises a TracesError."""
        payload = self.envelope(body)
        # At most EUDR_TRACES_RATE calls per second from the installation, every process together (rate.py).
        rate.take(httpx.URL(self.base_url).host or "traces")
        try:
            # Through the outbound policy like every address a tenant's settings choose (the environment is
            # the tenant's): public addresses only unless OUTBOUND_ALLOWED_NETWORKS, no redirects, no proxies
            # from the environment (docs/eudr.md).
            with httpx.Client(
                timeout=self.timeout,
                transport=GuardedTransport(self.transport),
                follow_redirects=False,
                trust_env=False,
            ) as http:
                response = http.post(
                    self.base_url + path,
                    content=payload,
                    headers={"Content-Type": "text/xml; charset=utf-8", "SOAPAction": f'"{action}"'},
                )
        except OutboundRefused as exc:
            logger.warning("TRACES %s refused by the outbound policy: %s", action, exc.reason)
            raise TracesAddressRefused(exc.message) from exc
        except httpx.TimeoutException as exc:
            logger.warning("TRACES %s timed out: %s", action, exc)
            raise TracesUnavailable() from exc
        except httpx.HTTPError as exc:
            logger.warning("TRACES %s failed: %s", action, exc)
            raise TracesUnavailable() from exc
        return self._answer(response, action)

    def _answer(self, response: httpx.Response, action: str) -> etree._Element:
        try:
            root = etree.fromstring(
                response.content, parser=etree.XMLParser(resolve_entities=False, no_network=True)
            )
        except etree.XMLSyntaxError:
            root = None
        body = root.find(f"{{{SOAP_NS}}}Body") if root is not None else None
        first = body[0] if body is not None and len(body) else None
        if first is not None and first.tag == f"{{{SOAP_NS}}}Fault":
            raise fault_error(first, http_status=response.status_code)
        if response.status_code in (401, 403):
            raise TracesAuthenticationError()
        if response.status_code >= 400 or first is None:
            logger.warning("TRACES %s answered HTTP %s without a SOAP body", action, response.status_code)
            raise TracesUnavailable()
        return first

    # -- operations ------------------------------------------------------------------------------------

    def echo(self, query: str = "CartonTrace") -> str:
        return self.echo_with_variant(query)[0]

    def echo_with_variant(self, query: str = "CartonTrace") -> tuple[str, str, str]:
        """(status, variant, path): tries the echo WSDL's path and action, then the 2026 reference's when
        the first gives no SOAP answer (a fault such as refused credentials is an answer: no fallback)."""
        last: TracesError | None = None
        for variant, path, action in ECHO_VARIANTS:
            request = etree.Element(f"{{{ECHO_NS}}}EudrEchoRequest", nsmap={"echo": ECHO_NS})
            etree.SubElement(request, f"{{{ECHO_NS}}}query").text = query
            try:
                answer = self.call(path, action, request)
            except TracesError as exc:
                if not exc.outcome_unknown:
                    raise
                last = exc
                continue
            return _text(answer, "status") or "OK", variant, "/" + path
        assert last is not None
        raise last

    def submit_dds(self, request: etree._Element) -> str:
        answer = self.call(DDS_PATH, f"{DDS_NS}/submitDds", request)
        uuid = _text(answer, "uuid")
        if not uuid:
            raise TracesError(_no_identifier())
        return uuid

    def amend_dds(self, request: etree._Element) -> tuple[str, str]:
        answer = self.call(DDS_PATH, f"{DDS_NS}/amendDds", request)
        return _text(answer, "uuid"), _text(answer, "status")

    def withdraw_dds(self, uuid: str) -> tuple[str, str]:
        request = etree.Element(f"{{{DDS_NS}}}WithdrawDdsRequest", nsmap={"dds": DDS_NS})
        etree.SubElement(request, f"{{{DDS_NS}}}uuid").text = uuid
        answer = self.call(DDS_PATH, f"{DDS_NS}/withdrawDds", request)
        return _text(answer, "uuid") or uuid, _text(answer, "status")

    def get_dds(self, uuid: str) -> list[DdsOverview]:
        request = etree.Element(f"{{{DDS_NS}}}GetDdsRequest", nsmap={"dds": DDS_NS})
        etree.SubElement(request, f"{{{DDS_NS}}}uuidList").text = uuid
        return _overviews(self.call(DDS_PATH, f"{DDS_NS}/getDds", request))

    def get_dds_by_internal_reference(self, reference: str) -> list[DdsOverview]:
        request = etree.Element(f"{{{DDS_NS}}}GetDdsByInternalReferenceRequest", nsmap={"dds": DDS_NS})
        etree.SubElement(request, f"{{{DDS_NS}}}internalReference").text = reference
        try:
            return _overviews(self.call(DDS_PATH, f"{DDS_NS}/getDdsByInternalReference", request))
        except TracesNotFound:
            return []

    def get_dds_by_identifiers(self, reference: str, verification: str) -> ReferencedStatement:
        """The full content of a statement by its reference and verification numbers (non-SME only)."""
        request = etree.Element(
            f"{{{DDS_NS}}}GetDdsByIdentifiersRequest", nsmap={"dds": DDS_NS, "eudrCommon": COMMON_NS}
        )
        pair = etree.SubElement(request, f"{{{DDS_NS}}}referenceAndVerificationNumber")
        etree.SubElement(pair, f"{{{COMMON_NS}}}referenceNumber").text = reference
        etree.SubElement(pair, f"{{{COMMON_NS}}}verificationNumber").text = verification
        answer = self.call(DDS_PATH, f"{DDS_NS}/getDdsByIdentifiers", request)
        statement = next((c for c in answer if _local(c.tag) == "statement"), None)
        if statement is None:
            raise TracesError(_unexpected_answer())
        commodities = []
        for item in statement:
            if _local(item.tag) != "commodities":
                continue
            commodities.append(
                {
                    "hs_heading": _child_text(item, "hsHeading"),
                    "description": _text(item, "descriptionOfGoods"),
                    "net_weight": _text(item, "netWeight"),
                    "species": [
                        {"scientific_name": _text(s, "scientificName"), "common_name": _text(s, "commonName")}
                        for s in item
                        if _local(s.tag) == "speciesInfo"
                    ],
                    "producer_countries": sorted(
                        {_text(p, "country") for p in item if _local(p.tag) == "producers"} - {""}
                    ),
                }
            )
        return ReferencedStatement(
            activity_type=_child_text(statement, "activityType"),
            commodities=commodities,
            geolocation_confidential=_child_text(statement, "geoLocationConfidential").lower() == "true",
        )

    def verify_declaration(self, reference: str, verification: str) -> Verification:
        """Whether a statement or simplified declaration exists and may be relied on
        (EUDRVerifyDeclarationServiceV3; operators, representatives and downstream operators and traders)."""
        request = etree.Element(f"{{{VERIFY_NS}}}VerifyDeclarationRequest", nsmap={"verify": VERIFY_NS})
        etree.SubElement(request, f"{{{VERIFY_NS}}}referenceNumber").text = reference
        etree.SubElement(request, f"{{{VERIFY_NS}}}verificationNumber").text = verification
        answer = self.call(VERIFY_PATH, VERIFY_ACTION, request)
        result = _child_text(answer, "result")
        if result not in VERIFY_RESULTS:
            logger.warning("TRACES verifyDeclaration answered an unknown result %r", result)
            raise TracesError(_unexpected_answer())
        return Verification(
            result=result, status=_child_text(answer, "status"), checked_at=_child_text(answer, "dateTime")
        )


def _unexpected_answer():
    from django.utils.translation import gettext

    return gettext("The EU information system answered in a form we do not recognise.")


def _no_identifier():
    from django.utils.translation import gettext

    return gettext("The EU information system answered without an identifier.")


def _local(tag: Any) -> str:
    return tag.split("}", 1)[-1] if isinstance(tag, str) else ""


def _text(element: etree._Element, name: str) -> str:
    for child in element.iter():
        if _local(child.tag) == name and child.text:
            return child.text.strip()
    return ""


def _child_text(element: etree._Element, name: str) -> str:
    """The text of a direct child (not a descendant of the same name deeper down)."""
    for child in element:
        if _local(child.tag) == name:
            return (child.text or "").strip()
    return ""


def _overviews(answer: etree._Element) -> list[DdsOverview]:
    found = []
    for item in answer:
        if _local(item.tag) != "ddsOverviewList":
            continue
        communication = next((c for c in item if _local(c.tag) == "communicationToOperator"), None)
        found.append(
            DdsOverview(
                uuid=_text(item, "uuid"),
                internal_reference=_text(item, "internalReferenceNumber"),
                reference_number=_text(item, "referenceNumber"),
                verification_number=_text(item, "verificationNumber"),
                status=_text(item, "status"),
                rejection_reason=_text(item, "rejectionReason"),
                communication=_text(communication, "content") if communication is not None else "",
                date=next((c.text or "" for c in item if _local(c.tag) == "date"), ""),
            )
        )
    return found


AUTH_HINTS = (
    "authenticat",
    "unauthori",
    "failedauthentication",
    "invalidsecurity",
    "security token",
    "password",
)


def fault_error(fault: etree._Element, *, http_status: int = 500) -> TracesError:
    """The domain error of a SOAP Fault: its kind from the detail's element (BusinessRulesValidationException,
    PermissionDeniedException, NotFoundException) or the fault code (WS-Security failures); the system's
    messages from the detail's Error items (ID, Message, Field), else from faultstring / errorMessage."""
    code = (fault.findtext("faultcode") or "").strip()
    reason = (fault.findtext("faultstring") or "").strip()
    detail = fault.find("detail")
    kind = ""
    messages: list[dict[str, str]] = []
    if detail is not None and len(detail):
        kind = _local(detail[0].tag)
        for error in detail.iter():
            if _local(error.tag) != "Error":
                continue
            item = {"id": _text(error, "ID"), "message": "", "field": ""}
            for child in error:
                if _local(child.tag) == "Message":
                    item["message"] = (child.text or "").strip()
                elif _local(child.tag) == "Field":
                    item["field"] = (child.text or "").strip()
            messages.append(item)
        if not messages:
            text = _text(detail[0], "errorMessage") or _text(detail[0], "message")
            if text:
                messages.append({"id": kind, "message": text, "field": ""})
    if not messages and reason:
        messages.append({"id": _local(code), "message": reason, "field": ""})
    lowered = " ".join([code, reason, kind, *(m["message"] for m in messages)]).lower()
    if "businessrules" in kind.lower():
        return TracesBusinessError(messages=messages)
    if "permissiondenied" in kind.lower():
        return TracesPermissionDenied(messages=messages)
    if "notfound" in kind.lower():
        return TracesNotFound(messages=messages)
    if http_status in (401, 403) or any(hint in lowered for hint in AUTH_HINTS):
        return TracesAuthenticationError(messages=messages)
    if _local(code).lower().endswith("client"):
        return TracesBusinessError(messages=messages)
    if detail is None or not len(detail):
        # A server fault that says nothing of what happened: the outcome is unknown (looked up first).
        return TracesServerFault(messages=messages)
    return TracesError(messages=messages)
