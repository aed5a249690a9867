"""dds.xml: the V3 `SubmitDdsRequest` (and `AmendDdsRequest`) as the XML body the EU information system's
SOAP service takes, made from the same data as dds.json (statement.build_request).

Namespaces (Operator API reference, "Sample XML"): the request and the statement's own elements are in
the DDS namespace; the common types' children (descriptors, goodsMeasure, the represented operator, its
address and identifiers, groupedDeclaration) in the common namespace.

`validate_request(element)` checks an element against our own XML Schema of the request
(schema/due-diligence-statement-v3.xsd, written from docs/regulation.md "The V3 submission") and returns the
schema errors as text (an empty list when it is valid).
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree

DDS_NS = "http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"
COMMON_NS = "http://ec.europa.eu/tracesnt/certificate/eudr/common/v3"
NSMAP = {"dds": DDS_NS, "eudrCommon": COMMON_NS}
SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


def _d(name: str) -> str:
    return f"{{{DDS_NS}}}{name}"


def _c(name: str) -> str:
    return f"{{{COMMON_NS}}}{name}"


def _text(parent: etree._Element, tag: str, value: Any) -> etree._Element:
    child = etree.SubElement(parent, tag)
    if isinstance(value, bool):
        child.text = "true" if value else "false"
    elif isinstance(value, float):
        child.text = format(Decimal(str(value)).quantize(Decimal("0.000001")).normalize(), "f")
    else:
        child.text = str(value)
    return child


def _represented(parent: etree._Element, data: dict[str, Any]) -> None:
    node = etree.SubElement(parent, _d("representedOperator"))
    for identifier in data.get("operatorReferenceNumber") or []:
        ref = etree.SubElement(node, _c("operatorReferenceNumber"))
        _text(ref, _c("identifierType"), identifier["identifierType"])
        _text(ref, _c("identifierValue"), identifier["identifierValue"])
    address = data.get("operatorAddress")
    if address:
        addr = etree.SubElement(node, _c("operatorAddress"))
        for key in ("country", "street", "postalCode", "city", "fullAddress"):
            if key in address:
                _text(addr, _c(key), address[key])
    for key in ("operatorEmail", "operatorPhone", "operatorName"):
        if key in data:
            _text(node, _c(key), data[key])


def _commodity(parent: etree._Element, data: dict[str, Any]) -> None:
    node = etree.SubElement(parent, _d("commodities"))
    if "position" in data:
        _text(node, _d("position"), data["position"])
    descriptors = etree.SubElement(node, _d("descriptors"))
    _text(descriptors, _c("descriptionOfGoods"), data["descriptors"]["descriptionOfGoods"])
    measure = etree.SubElement(descriptors, _c("goodsMeasure"))
    for key in (
        "percentageEstimationOrDeviation",
        "netWeight",
        "supplementaryUnit",
        "supplementaryUnitQualifier",
    ):
        if key in data["descriptors"]["goodsMeasure"]:
            _text(measure, _c(key), data["descriptors"]["goodsMeasure"][key])
    _text(node, _d("hsHeading"), data["hsHeading"])
    for species in data.get("speciesInfo") or []:
        info = etree.SubElement(node, _d("speciesInfo"))
        for key in ("scientificName", "commonName"):
            if key in species:
                _text(info, _d(key), species[key])
    for producer in data.get("producers") or []:
        item = etree.SubElement(node, _d("producers"))
        for key in ("position", "country", "name", "geometryGeojson"):
            if key in producer:
                _text(item, _d(key), producer[key])


def _statement(parent: etree._Element, statement: dict[str, Any]) -> None:
    node = etree.SubElement(parent, _d("statement"))
    if statement.get("internalReferenceNumber"):
        _text(node, _d("internalReferenceNumber"), statement["internalReferenceNumber"])
    _text(node, _d("activityType"), statement["activityType"])
    if statement.get("representedOperator"):
        _represented(node, statement["representedOperator"])
    for key in ("countryOfActivity", "borderCrossCountry", "comment"):
        if statement.get(key):
            _text(node, _d(key), statement[key])
    for commodity in statement["commodities"]:
        _commodity(node, commodity)
    _text(node, _d("geoLocationConfidential"), bool(statement["geoLocationConfidential"]))
    for grouped in statement.get("groupedDeclarations") or []:
        group = etree.SubElement(node, _d("groupedDeclarations"))
        _text(group, _c("groupedDeclaration"), grouped["groupedDeclaration"])


def submit_request(request: dict[str, Any]) -> etree._Element:
    """<dds:SubmitDdsRequest> from {"operatorRole", "statement"}."""
    root = etree.Element(_d("SubmitDdsRequest"), nsmap=NSMAP)
    _text(root, _d("operatorRole"), request["operatorRole"])
    _statement(root, request["statement"])
    return root


def amend_request(*, uuid: str, statement: dict[str, Any]) -> etree._Element:
    """<dds:AmendDdsRequest>: the statement that replaces the one filed under `uuid`."""
    root = etree.Element(_d("AmendDdsRequest"), nsmap=NSMAP)
    _text(root, _d("uuid"), uuid)
    _statement(root, statement)
    return root


def to_bytes(element: etree._Element) -> bytes:
    return etree.tostring(element, xml_declaration=True, encoding="UTF-8", pretty_print=True)


@cache
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMA_DIR / "due-diligence-statement-v3.xsd")))


def validate_request(element: etree._Element) -> list[str]:
    """The schema errors of a SubmitDdsRequest / AmendDdsRequest element ([] when valid)."""
    checker = schema()
    if checker.validate(etree.fromstring(to_bytes(element))):
        return []
    return [f"line {e.line}: {e.message}" for e in checker.error_log]
