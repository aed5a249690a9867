"""The UBL e-invoice checked against the OASIS UBL 2.1 XSD before it leaves (docs/sales.md, "E-invoice
(UBL)"): every VAT case and a credit note are valid; a schema failure is refused as `UBL-XSD`; the schema
is compiled once per process from the package's own files, never from the network."""

from __future__ import annotations

import socket

import pytest
from lxml import etree

from apps.salesorders import en16931, services, ubl, xsd
from apps.salesorders.tests import test_ubl
from apps.salesorders.tests.test_ubl import _posted

pytestmark = pytest.mark.django_db
einvoice_world = test_ubl.einvoice_world
INVOICES = "/api/salesorders/invoices/"
NS = en16931.NS


def test_every_vat_case_and_a_credit_note_is_valid_against_the_xsd(einvoice_world, in_tenant):
    w = einvoice_world
    intra = _posted(w, in_tenant, w["spanish_business"])
    with in_tenant(w["tenant3"]):
        note = services.credit_note_create(invoice=intra, post=True)
        note.refresh_from_db()
    cases = {
        "domestic with a discount": _posted(w, in_tenant, w["customer"], discount=test_ubl.D("10")),
        "intra_eu": intra,
        "export": _posted(w, in_tenant, w["chinese_buyer"]),
        "reverse_charge": _posted(w, in_tenant, w["customer"], reverse_charge=True),
        "credit_note": note,
    }
    with in_tenant(w["tenant3"]):
        for name, invoice in cases.items():
            root = etree.fromstring(ubl.invoice_ubl(invoice))
            assert xsd.ubl_problems(root) == [], name
            assert etree.QName(root).localname == ("CreditNote" if name == "credit_note" else "Invoice")


def _misplace_legal_entity(root):
    """The seller's legal entity before its postal address: every rule still holds (they read by path),
    the schema's sequence does not."""
    party = root.find("cac:AccountingSupplierParty/cac:Party", namespaces=NS)
    legal = party.find("cac:PartyLegalEntity", namespaces=NS)
    party.remove(legal)
    party.insert(0, legal)


def test_a_schema_failure_is_refused_and_named(einvoice_world, in_tenant, api, monkeypatch):
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["customer"])
    with in_tenant(w["tenant3"]):
        root = ubl.build(invoice)
    _misplace_legal_entity(root)
    assert en16931.validate(root) == []
    problems = xsd.ubl_problems(root)
    assert [p.rule for p in problems] == [xsd.UBL_XSD_RULE]
    assert "PartyLegalEntity" in problems[0].message

    original = ubl.build

    def build(document):
        built = original(document)
        _misplace_legal_entity(built)
        return built

    monkeypatch.setattr(ubl, "build", build)
    refused = api(w["sales"], w["tenant3"]).get(f"{INVOICES}{invoice.pk}/ubl/")
    assert refused.status_code == 409, refused.content
    body = refused.json()
    assert body["error"] == "ubl_invalid"
    assert [p["rule"] for p in body["data"]] == [xsd.UBL_XSD_RULE]
    assert "PartyLegalEntity" in body["data"][0]["message"]


def test_a_broken_rule_is_named_before_the_schema(einvoice_world, in_tenant):
    """A document that breaks one of our rules is refused with that rule (in words), not again with the
    schema's message for the same mistake."""
    w = einvoice_world
    invoice = _posted(w, in_tenant, w["customer"])
    with in_tenant(w["tenant3"]):
        root = ubl.build(invoice)
    identifier = root.find("cbc:ID", namespaces=NS)
    root.remove(identifier)
    root.append(identifier)
    assert [p.rule for p in en16931.validate(root)] == ["UBL-SR-ORDER"]
    assert [p.rule for p in xsd.ubl_problems(root)] == [xsd.UBL_XSD_RULE]


def test_the_schema_is_compiled_once_from_local_files_only(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the schema tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(xsd, "_schemas", {})
    resolver = xsd.LocalOnlyResolver()
    compiled = xsd.compile_schema(xsd.XSD_ROOT / xsd.UBL_CREDIT_NOTE, resolver)
    assert isinstance(compiled, etree.XMLSchema)
    # the maindoc schema and the common components it imports, each a file of the package
    assert len(resolver.requested) > 5
    assert all(url.startswith(str(xsd.XSD_ROOT)) for url in resolver.requested), resolver.requested
    first = xsd.schema(xsd.UBL_INVOICE)
    assert xsd.schema(xsd.UBL_INVOICE) is first
    assert set(xsd._schemas) == {xsd.UBL_INVOICE}


@pytest.mark.parametrize(
    "address",
    ["http://docs.oasis-open.org/ubl/os-UBL-2.1/xsd/common/UBL-CommonBasicComponents-2.1.xsd", "/etc/passwd"],
)
def test_the_resolver_refuses_anything_but_the_shipped_schemas(address):
    with pytest.raises(xsd.SchemaOutsideDirectory):
        xsd.LocalOnlyResolver().resolve(address, None, None)
