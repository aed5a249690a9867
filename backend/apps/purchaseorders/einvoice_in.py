"""Reading a supplier's EN 16931 e-invoice: UBL 2.1 (Peppol BIS Billing 3.0 `Invoice` / `CreditNote`),
UN/CEFACT CII (`CrossIndustryInvoice`, as in Factur-X / ZUGFeRD 2) or a Factur-X PDF with the CII XML
embedded (docs/purchasing.md, "Supplier invoices").

The same syntax the sales area writes (apps/salesorders/ubl.py, cii.py), read from others: the namespaces
are repeated here because purchasing does not import sales (apps/common/tests/test_import_graph.py).

The XML is parsed without a DTD, entity expansion or network access (lxml's parser with
`resolve_entities=False`, `no_network=True`, `load_dtd=False`; a document with a DOCTYPE is refused);
a file over `MAX_FILE_SIZE` is refused before it is read. Every refusal is `EInvoiceInvalid`, whose
message names what is wrong (the EN 16931 business term where one is missing).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext_lazy as _
from lxml import etree

from apps.purchaseorders.errors import EInvoiceInvalid

# An e-invoice is a few hundred kilobytes at most; a Factur-X PDF with its pictures a few megabytes.
MAX_FILE_SIZE = 5 * 1024 * 1024

NS_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
NS_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
NS_CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
NS_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
NS_RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
NS_RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
NS_UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
UBL_NS = {"cac": NS_CAC, "cbc": NS_CBC}
CII_NS = {"rsm": NS_RSM, "ram": NS_RAM, "udt": NS_UDT}

SYNTAX_UBL = "ubl"
SYNTAX_CII = "cii"
SYNTAX_FACTURX_PDF = "facturx_pdf"

# UNTDID 1001 document type codes read as a credit note (the rest of the EN 16931 list is an invoice)
CREDIT_NOTE_TYPE_CODES = {"381", "396", "532"}
# the names a Factur-X / ZUGFeRD PDF gives its embedded XML
EMBEDDED_XML_NAMES = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "zugferd_invoice.xml")

MONEY_LIMIT = Decimal("1e12")


@dataclass
class ParsedLine:
    line_id: str = ""
    description: str = ""
    seller_item_id: str = ""
    order_line_reference: str = ""
    quantity: Decimal = Decimal("0")
    unit_code: str = ""
    net_price: Decimal = Decimal("0")
    line_net: Decimal = Decimal("0")
    vat_category: str = ""
    vat_rate: Decimal | None = None


@dataclass
class ParsedInvoice:
    syntax: str
    is_credit_note: bool
    number: str
    issue_date: date
    due_date: date | None
    currency: str
    seller_name: str
    seller_vat_id: str
    buyer_reference: str
    order_reference: str
    total_net: Decimal
    total_vat: Decimal
    total_gross: Decimal
    lines: list[ParsedLine] = field(default_factory=list)


def safe_parser() -> etree.XMLParser:
    """The parser every received or checked e-invoice is read with: no entities, network or DTD."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def _xml_root(content: bytes) -> etree._Element:
    try:
        tree = etree.parse(io.BytesIO(content), safe_parser())
    except etree.XMLSyntaxError:
        raise EInvoiceInvalid(_("The file is neither an XML e-invoice nor a Factur-X PDF.")) from None
    if tree.docinfo.doctype:
        raise EInvoiceInvalid(_("An e-invoice with a document type declaration (DOCTYPE) is not accepted."))
    return tree.getroot()


def pdf_xml(content: bytes) -> bytes:
    """The CII XML embedded in a Factur-X / ZUGFeRD PDF (its attachment `factur-x.xml` or the ZUGFeRD
    names), read with pypdf; the XML itself is parsed by `_xml_root` like an uploaded one."""
    from pypdf import PdfReader

    try:
        attachments = PdfReader(io.BytesIO(content)).attachments
        for name in EMBEDDED_XML_NAMES:
            for wanted, files in attachments.items():
                if wanted.lower() == name and files:
                    return bytes(files[0])
    except Exception:  # pypdf raises many kinds of errors on a broken file; each means "cannot read it"
        raise EInvoiceInvalid(_("The PDF could not be read.")) from None
    raise EInvoiceInvalid(_("The PDF holds no Factur-X or ZUGFeRD e-invoice (no factur-x.xml inside)."))


# -- the checks of a received e-invoice -------------------------------------------------------------------
# The schemas and the EN 16931 rules live with the e-invoices we write (apps/salesorders/en16931.py,
# xsd.py, einvoice_check.py); sales registers them here on start, as purchasing does not import sales.

Finding = dict[str, str]  # {"rule": identifier, "message": English text}
_checker: Callable[[etree._Element], list[Finding]] | None = None
_describer: Callable[[str], str | None] | None = None


def register_checker(
    check: Callable[[etree._Element], list[Finding]], describe: Callable[[str], str | None]
) -> None:
    """`check(root)`: what a received e-invoice breaks (the schema of its syntax, the EN 16931 rules), in
    English; `describe(rule)`: a rule's text in the active language (None for a schema's finding)."""
    global _checker, _describer
    _checker, _describer = check, describe


def findings(root: etree._Element) -> list[Finding]:
    """The findings of a parsed e-invoice (empty: it keeps the schema and every rule checked)."""
    return list(_checker(root)) if _checker is not None else []


def finding_text(finding: Finding) -> str:
    """A stored finding's message in the active language: our rule's text, else the stored (English)
    message, as a schema gives it."""
    text = _describer(finding.get("rule", "")) if _describer is not None else None
    return text or finding.get("message", "")


def parse(content: bytes) -> tuple[ParsedInvoice, etree._Element]:
    """The e-invoice in `content` (XML or a Factur-X PDF), or `EInvoiceInvalid`."""
    if not content:
        raise EInvoiceInvalid(_("The file is empty."))
    if len(content) > MAX_FILE_SIZE:
        raise EInvoiceInvalid(
            _("The file is larger than %(size)s MB.") % {"size": MAX_FILE_SIZE // (1024 * 1024)}
        )
    syntax = None
    if content.lstrip()[:5] == b"%PDF-":
        content = pdf_xml(content)
        syntax = SYNTAX_FACTURX_PDF
    root = _xml_root(content)
    if root.tag in (f"{{{NS_INVOICE}}}Invoice", f"{{{NS_CREDIT_NOTE}}}CreditNote"):
        if syntax == SYNTAX_FACTURX_PDF:
            raise EInvoiceInvalid(_("The PDF's embedded XML is not a CII e-invoice."))
        return _UblReader(root).read(), root
    if root.tag == f"{{{NS_RSM}}}CrossIndustryInvoice":
        return _CiiReader(root, syntax or SYNTAX_CII).read(), root
    raise EInvoiceInvalid(
        _(
            "This XML is not an e-invoice: expected a UBL Invoice or CreditNote or a CII "
            "CrossIndustryInvoice, found %(root)s."
        )
        % {"root": etree.QName(root).localname[:60]}
    )


def _missing(term: str, name) -> EInvoiceInvalid:
    return EInvoiceInvalid(
        _("The e-invoice has no %(name)s (%(term)s).") % {"name": name, "term": term},
        data={"term": term},
    )


def _decimal(text: str, term: str, name) -> Decimal:
    try:
        value = Decimal(text.strip())
    except (InvalidOperation, AttributeError):
        raise EInvoiceInvalid(
            _("The %(name)s (%(term)s) is not a number: %(value)s.")
            % {"name": name, "term": term, "value": text[:40]},
            data={"term": term},
        ) from None
    if not value.is_finite() or abs(value) >= MONEY_LIMIT:
        raise EInvoiceInvalid(
            _("The %(name)s (%(term)s) is out of range.") % {"name": name, "term": term}, data={"term": term}
        )
    return value


def _date(text: str, term: str, name) -> date:
    raw = text.strip()
    try:
        if len(raw) == 8 and raw.isdigit():  # CII format 102
            return date(int(raw[:4]), int(raw[4:6]), int(raw[6:]))
        return date.fromisoformat(raw[:10])
    except ValueError:
        raise EInvoiceInvalid(
            _("The %(name)s (%(term)s) is not a date: %(value)s.")
            % {"name": name, "term": term, "value": raw[:40]},
            data={"term": term},
        ) from None


class _Reader:
    ns: dict[str, str]

    def __init__(self, root: etree._Element) -> None:
        self.root = root

    def text(self, node: etree._Element, path: str) -> str:
        found = node.find(path, self.ns)
        if found is None or found.text is None:
            return ""
        return found.text.strip()

    def required(self, node: etree._Element, path: str, term: str, name) -> str:
        value = self.text(node, path)
        if not value:
            raise _missing(term, name)
        return value

    def amount(self, node: etree._Element, path: str, term: str, name, *, required: bool = True) -> Decimal:
        value = self.text(node, path)
        if not value:
            if required:
                raise _missing(term, name)
            return Decimal("0")
        return _decimal(value, term, name)

    def limited(self, value: str, length: int) -> str:
        return value[:length]


NAMES = {
    "BT-1": _("invoice number"),
    "BT-2": _("issue date"),
    "BT-5": _("currency"),
    "BT-9": _("due date"),
    "BT-27": _("seller name"),
    "BT-109": _("total without VAT"),
    "BT-110": _("total VAT"),
    "BT-112": _("total with VAT"),
    "BT-129": _("invoiced quantity"),
    "BT-131": _("line net amount"),
    "BT-146": _("item net price"),
    "BG-25": _("invoice line"),
}


def _check_currency(currency: str) -> str:
    if len(currency) != 3 or not currency.isalpha():
        raise EInvoiceInvalid(
            _("The currency (BT-5) is not a three-letter ISO 4217 code: %(value)s.")
            % {"value": currency[:20]},
            data={"term": "BT-5"},
        )
    return currency.upper()


class _UblReader(_Reader):
    ns = UBL_NS

    def read(self) -> ParsedInvoice:
        root = self.root
        is_credit = etree.QName(root).localname == "CreditNote"
        type_code = self.text(root, "cbc:CreditNoteTypeCode" if is_credit else "cbc:InvoiceTypeCode")
        if not is_credit and type_code in CREDIT_NOTE_TYPE_CODES:
            is_credit = True
        number = self.required(root, "cbc:ID", "BT-1", NAMES["BT-1"])
        issue = _date(self.required(root, "cbc:IssueDate", "BT-2", NAMES["BT-2"]), "BT-2", NAMES["BT-2"])
        due_text = self.text(root, "cbc:DueDate") or self.text(root, "cac:PaymentMeans/cbc:PaymentDueDate")
        currency = _check_currency(self.required(root, "cbc:DocumentCurrencyCode", "BT-5", NAMES["BT-5"]))
        seller = root.find("cac:AccountingSupplierParty/cac:Party", self.ns)
        seller_name = ""
        seller_vat = ""
        if seller is not None:
            seller_name = self.text(seller, "cac:PartyLegalEntity/cbc:RegistrationName") or self.text(
                seller, "cac:PartyName/cbc:Name"
            )
            seller_vat = self.text(seller, "cac:PartyTaxScheme/cbc:CompanyID")
        if not seller_name:
            raise _missing("BT-27", NAMES["BT-27"])
        totals = root.find("cac:LegalMonetaryTotal", self.ns)
        if totals is None:
            raise _missing("BT-109", NAMES["BT-109"])
        total_net = self.amount(totals, "cbc:TaxExclusiveAmount", "BT-109", NAMES["BT-109"])
        total_gross = self.amount(totals, "cbc:TaxInclusiveAmount", "BT-112", NAMES["BT-112"])
        total_vat = Decimal("0")
        vat_found = False
        for tax_total in root.findall("cac:TaxTotal", self.ns):
            amount = tax_total.find("cbc:TaxAmount", self.ns)
            if amount is not None and amount.get("currencyID", currency) == currency and amount.text:
                total_vat = _decimal(amount.text, "BT-110", NAMES["BT-110"])
                vat_found = True
                break
        if not vat_found:
            total_vat = total_gross - total_net
        line_tag = "cac:CreditNoteLine" if etree.QName(root).localname == "CreditNote" else "cac:InvoiceLine"
        quantity_tag = (
            "cbc:CreditedQuantity" if etree.QName(root).localname == "CreditNote" else "cbc:InvoicedQuantity"
        )
        lines = [self._line(node, quantity_tag) for node in root.findall(line_tag, self.ns)]
        if not lines:
            raise _missing("BG-25", NAMES["BG-25"])
        return ParsedInvoice(
            syntax=SYNTAX_UBL,
            is_credit_note=is_credit,
            number=self.limited(number, 100),
            issue_date=issue,
            due_date=_date(due_text, "BT-9", NAMES["BT-9"]) if due_text else None,
            currency=currency,
            seller_name=self.limited(seller_name, 200),
            seller_vat_id=self.limited(seller_vat, 50),
            buyer_reference=self.limited(self.text(root, "cbc:BuyerReference"), 200),
            order_reference=self.limited(self.text(root, "cac:OrderReference/cbc:ID"), 100),
            total_net=total_net,
            total_vat=total_vat,
            total_gross=total_gross,
            lines=lines,
        )

    def _line(self, node: etree._Element, quantity_tag: str) -> ParsedLine:
        quantity_node = node.find(quantity_tag, self.ns)
        if quantity_node is None or not (quantity_node.text or "").strip():
            raise _missing("BT-129", NAMES["BT-129"])
        quantity = _decimal(quantity_node.text or "", "BT-129", NAMES["BT-129"])
        price = self.amount(node, "cac:Price/cbc:PriceAmount", "BT-146", NAMES["BT-146"])
        base = self.text(node, "cac:Price/cbc:BaseQuantity")
        if base:
            base_quantity = _decimal(base, "BT-149", NAMES["BT-146"])
            if base_quantity > 0:
                price = price / base_quantity
        rate = self.text(node, "cac:Item/cac:ClassifiedTaxCategory/cbc:Percent")
        item_name = self.text(node, "cac:Item/cbc:Name")
        return ParsedLine(
            line_id=self.limited(self.text(node, "cbc:ID"), 50),
            description=self.limited(item_name or self.text(node, "cac:Item/cbc:Description"), 500),
            seller_item_id=self.limited(
                self.text(node, "cac:Item/cac:SellersItemIdentification/cbc:ID"), 100
            ),
            order_line_reference=self.limited(self.text(node, "cac:OrderLineReference/cbc:LineID"), 50),
            quantity=quantity,
            unit_code=self.limited(quantity_node.get("unitCode", ""), 10),
            net_price=price,
            line_net=self.amount(node, "cbc:LineExtensionAmount", "BT-131", NAMES["BT-131"]),
            vat_category=self.limited(self.text(node, "cac:Item/cac:ClassifiedTaxCategory/cbc:ID"), 10),
            vat_rate=_decimal(rate, "BT-152", _("VAT rate")) if rate else None,
        )


class _CiiReader(_Reader):
    ns = CII_NS

    def __init__(self, root: etree._Element, syntax: str) -> None:
        super().__init__(root)
        self.syntax = syntax

    def read(self) -> ParsedInvoice:
        root = self.root
        document = root.find("rsm:ExchangedDocument", self.ns)
        transaction = root.find("rsm:SupplyChainTradeTransaction", self.ns)
        if document is None:
            raise _missing("BT-1", NAMES["BT-1"])
        if transaction is None:
            raise _missing("BG-25", NAMES["BG-25"])
        number = self.required(document, "ram:ID", "BT-1", NAMES["BT-1"])
        is_credit = self.text(document, "ram:TypeCode") in CREDIT_NOTE_TYPE_CODES
        issue_text = self.required(document, "ram:IssueDateTime/udt:DateTimeString", "BT-2", NAMES["BT-2"])
        agreement = transaction.find("ram:ApplicableHeaderTradeAgreement", self.ns)
        settlement = transaction.find("ram:ApplicableHeaderTradeSettlement", self.ns)
        seller_name = ""
        seller_vat = ""
        buyer_reference = ""
        order_reference = ""
        if agreement is not None:
            seller_name = self.text(agreement, "ram:SellerTradeParty/ram:Name")
            for registration in agreement.findall(
                "ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID", self.ns
            ):
                if registration.get("schemeID", "VA") == "VA" and registration.text:
                    seller_vat = registration.text.strip()
                    break
            buyer_reference = self.text(agreement, "ram:BuyerReference")
            order_reference = self.text(agreement, "ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID")
        if not seller_name:
            raise _missing("BT-27", NAMES["BT-27"])
        if settlement is None:
            raise _missing("BT-5", NAMES["BT-5"])
        currency = _check_currency(
            self.required(settlement, "ram:InvoiceCurrencyCode", "BT-5", NAMES["BT-5"])
        )
        due_text = self.text(
            settlement, "ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString"
        )
        totals = settlement.find("ram:SpecifiedTradeSettlementHeaderMonetarySummation", self.ns)
        if totals is None:
            raise _missing("BT-109", NAMES["BT-109"])
        total_net = self.amount(totals, "ram:TaxBasisTotalAmount", "BT-109", NAMES["BT-109"])
        total_gross = self.amount(totals, "ram:GrandTotalAmount", "BT-112", NAMES["BT-112"])
        total_vat = total_gross - total_net
        for amount in totals.findall("ram:TaxTotalAmount", self.ns):
            if amount.get("currencyID", currency) == currency and amount.text:
                total_vat = _decimal(amount.text, "BT-110", NAMES["BT-110"])
                break
        lines = [
            self._line(node) for node in transaction.findall("ram:IncludedSupplyChainTradeLineItem", self.ns)
        ]
        if not lines:
            raise _missing("BG-25", NAMES["BG-25"])
        return ParsedInvoice(
            syntax=self.syntax,
            is_credit_note=is_credit,
            number=self.limited(number, 100),
            issue_date=_date(issue_text, "BT-2", NAMES["BT-2"]),
            due_date=_date(due_text, "BT-9", NAMES["BT-9"]) if due_text else None,
            currency=currency,
            seller_name=self.limited(seller_name, 200),
            seller_vat_id=self.limited(seller_vat, 50),
            buyer_reference=self.limited(buyer_reference, 200),
            order_reference=self.limited(order_reference, 100),
            total_net=total_net,
            total_vat=total_vat,
            total_gross=total_gross,
            lines=lines,
        )

    def _line(self, node: etree._Element) -> ParsedLine:
        quantity_node = node.find("ram:SpecifiedLineTradeDelivery/ram:BilledQuantity", self.ns)
        if quantity_node is None or not (quantity_node.text or "").strip():
            raise _missing("BT-129", NAMES["BT-129"])
        agreement = "ram:SpecifiedLineTradeAgreement/"
        price = self.amount(
            node, agreement + "ram:NetPriceProductTradePrice/ram:ChargeAmount", "BT-146", NAMES["BT-146"]
        )
        base = self.text(node, agreement + "ram:NetPriceProductTradePrice/ram:BasisQuantity")
        if base:
            base_quantity = _decimal(base, "BT-149", NAMES["BT-146"])
            if base_quantity > 0:
                price = price / base_quantity
        tax = "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/"
        rate = self.text(node, tax + "ram:RateApplicablePercent")
        return ParsedLine(
            line_id=self.limited(self.text(node, "ram:AssociatedDocumentLineDocument/ram:LineID"), 50),
            description=self.limited(
                self.text(node, "ram:SpecifiedTradeProduct/ram:Name")
                or self.text(node, "ram:SpecifiedTradeProduct/ram:Description"),
                500,
            ),
            seller_item_id=self.limited(
                self.text(node, "ram:SpecifiedTradeProduct/ram:SellerAssignedID"), 100
            ),
            order_line_reference=self.limited(
                self.text(node, agreement + "ram:BuyerOrderReferencedDocument/ram:LineID"), 50
            ),
            quantity=_decimal(quantity_node.text or "", "BT-129", NAMES["BT-129"]),
            unit_code=self.limited(quantity_node.get("unitCode", ""), 10),
            net_price=price,
            line_net=self.amount(
                node,
                "ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount",
                "BT-131",
                NAMES["BT-131"],
            ),
            vat_category=self.limited(self.text(node, tax + "ram:CategoryCode"), 10),
            vat_rate=_decimal(rate, "BT-152", _("VAT rate")) if rate else None,
        )
