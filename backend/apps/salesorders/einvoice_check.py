"""Checking an e-invoice file, ours or anyone's (docs/sales.md, "Checking an e-invoice file"): a UBL 2.1
Invoice or CreditNote, a CII CrossIndustryInvoice (Factur-X / ZUGFeRD 2 XML) or a Factur-X PDF carrying
one.

- **UBL**: the OASIS UBL 2.1 schema (`UBL-XSD`), then the rules of `en16931` (`profile` PEPPOL: every rule,
  the Peppol BIS ones included, as our UBL e-invoice is checked; EN16931: the EN 16931 rules only).
- **CII**: the Factur-X schema of the profile the document declares (`FACTUR-X-XSD`), then the EN 16931
  rules. The rules read UBL, so the CII document's business terms are first carried over to a UBL
  document (`cii_to_ubl`: the terms the rules read, one for one, nothing invented); the UBL structure and
  Peppol rules do not apply to CII.

A Factur-X PDF is also checked as the PDF/A-3 file it says it is (`pdfa`: the XMP, the output intent, the
attachment, every font embedded: findings named `PDFA-*`).

The XML is parsed as received files are (no DTD, no entities, no network; a DOCTYPE is refused).
`check_file` is what `manage.py check_einvoice` runs; `received_findings` is what the purchasing area
stores on a supplier invoice (registered in `SalesordersConfig.ready`, since purchasing does not import
sales).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.utils import translation
from lxml import etree

from apps.purchaseorders import einvoice_in
from apps.purchaseorders.errors import EInvoiceInvalid
from apps.salesorders import en16931, pdfa, ubl, xsd
from apps.salesorders.en16931 import Problem
from apps.salesorders.ubl import NS_CREDIT_NOTE, NS_INVOICE

NS_RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
NS_RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
NS_UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
CII_NS = {"rsm": NS_RSM, "ram": NS_RAM, "udt": NS_UDT}

UBL = "UBL"
CII = "CII"
FACTURX_PDF = "Factur-X PDF"

# UNTDID 1001 codes of a credit note (read as a UBL CreditNote)
CREDIT_NOTE_TYPE_CODES = {"381", "396", "532"}


class NotAnEInvoice(Exception):
    """The file is not an e-invoice this module reads (the message says why)."""


@dataclass(frozen=True)
class Result:
    syntax: str  # UBL, CII or FACTURX_PDF
    problems: list[Problem]


# -- reading ---------------------------------------------------------------------------------------------


def parse_xml(content: bytes) -> etree._Element:
    try:
        tree = etree.parse(io.BytesIO(content), einvoice_in.safe_parser())
    except etree.XMLSyntaxError as exc:
        raise NotAnEInvoice(f"not well-formed XML: {exc}") from None
    if tree.docinfo.doctype:
        raise NotAnEInvoice("a document type declaration (DOCTYPE) is not accepted")
    return tree.getroot()


def pdf_xml(content: bytes) -> bytes:
    """The XML a Factur-X / ZUGFeRD PDF carries, read as a received one is (not checked here)."""
    try:
        return einvoice_in.pdf_xml(content)
    except EInvoiceInvalid as exc:
        raise NotAnEInvoice(str(exc)) from None


def syntax_of(root: etree._Element) -> str | None:
    if root.tag in (f"{{{NS_INVOICE}}}Invoice", f"{{{NS_CREDIT_NOTE}}}CreditNote"):
        return UBL
    if root.tag == f"{{{NS_RSM}}}CrossIndustryInvoice":
        return CII
    return None


# -- CII -> UBL (the terms the rules read) ---------------------------------------------------------------


class _Converter:
    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.currency = ""

    def find(self, node: etree._Element | None, path: str) -> etree._Element | None:
        if node is None:
            return None
        found = node.xpath(path, namespaces=CII_NS)
        return found[0] if found else None

    def text(self, node: etree._Element | None, path: str) -> str | None:
        found = self.find(node, path)
        if found is None:
            return None
        return found if isinstance(found, str) else (found.text or "")

    def add(self, parent: etree._Element, path: str, text: str | None = None, **attrs) -> etree._Element:
        return ubl.add_path(parent, path, ubl.qname, text, attrs)

    def copy(
        self, parent: etree._Element, path: str, source: etree._Element | None, source_path: str
    ) -> None:
        """Adds `path` with the source's text when the source has the element (empty or not)."""
        value = self.text(source, source_path)
        if value is not None:
            self.add(parent, path, value)

    def amount(
        self, parent: etree._Element, path: str, source: etree._Element | None, source_path: str
    ) -> None:
        found = self.find(source, source_path)
        if found is not None:
            self.add(parent, path, found.text or "", currencyID=found.get("currencyID") or self.currency)

    def party(self, parent: etree._Element, party: etree._Element | None) -> None:
        if party is None:
            return
        target = self.add(parent, "cac:Party")
        endpoint = self.find(party, "ram:URIUniversalCommunication/ram:URIID")
        if endpoint is not None:
            self.add(target, "cbc:EndpointID", endpoint.text or "", schemeID=endpoint.get("schemeID"))
        address = self.find(party, "ram:PostalTradeAddress")
        if address is not None:
            postal = self.add(target, "cac:PostalAddress")
            self.copy(postal, "cac:Country/cbc:IdentificationCode", address, "ram:CountryID")
        for registration in party.xpath("ram:SpecifiedTaxRegistration/ram:ID", namespaces=CII_NS):
            if registration.get("schemeID", "VA") == "VA":
                scheme = self.add(target, "cac:PartyTaxScheme")
                self.add(scheme, "cbc:CompanyID", registration.text or "")
                self.add(scheme, "cac:TaxScheme/cbc:ID", "VAT")
        legal = self.add(target, "cac:PartyLegalEntity")
        self.copy(legal, "cbc:RegistrationName", party, "ram:Name")
        self.copy(legal, "cbc:CompanyID", party, "ram:SpecifiedLegalOrganization/ram:ID")

    def tax_category(self, parent: etree._Element, path: str, tax: etree._Element) -> None:
        category = self.add(parent, path)
        self.copy(category, "cbc:ID", tax, "ram:CategoryCode")
        self.copy(category, "cbc:Percent", tax, "ram:RateApplicablePercent")
        self.copy(category, "cbc:TaxExemptionReasonCode", tax, "ram:ExemptionReasonCode")
        self.copy(category, "cbc:TaxExemptionReason", tax, "ram:ExemptionReason")
        self.add(category, "cac:TaxScheme/cbc:ID", "VAT")

    def convert(self) -> etree._Element:
        root = self.root
        document = self.find(root, "rsm:ExchangedDocument")
        transaction = self.find(root, "rsm:SupplyChainTradeTransaction")
        agreement = self.find(transaction, "ram:ApplicableHeaderTradeAgreement")
        delivery = self.find(transaction, "ram:ApplicableHeaderTradeDelivery")
        settlement = self.find(transaction, "ram:ApplicableHeaderTradeSettlement")
        type_code = (self.text(document, "ram:TypeCode") or "").strip()
        is_credit = type_code in CREDIT_NOTE_TYPE_CODES
        ns = NS_CREDIT_NOTE if is_credit else NS_INVOICE
        out = etree.Element(f"{{{ns}}}{'CreditNote' if is_credit else 'Invoice'}", nsmap={None: ns})
        self.currency = (self.text(settlement, "ram:InvoiceCurrencyCode") or "").strip()

        self.copy(
            out,
            "cbc:CustomizationID",
            root,
            "rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID",
        )
        self.copy(
            out,
            "cbc:ProfileID",
            root,
            "rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID",
        )
        self.copy(out, "cbc:ID", document, "ram:ID")
        self.copy(out, "cbc:IssueDate", document, "ram:IssueDateTime/udt:DateTimeString")
        self.copy(
            out,
            "cbc:DueDate",
            settlement,
            "ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString",
        )
        self.copy(
            out, "cbc:CreditNoteTypeCode" if is_credit else "cbc:InvoiceTypeCode", document, "ram:TypeCode"
        )
        self.copy(out, "cbc:DocumentCurrencyCode", settlement, "ram:InvoiceCurrencyCode")
        self.copy(out, "cbc:BuyerReference", agreement, "ram:BuyerReference")
        if self.find(settlement, "ram:BillingSpecifiedPeriod") is not None:
            self.add(out, "cac:InvoicePeriod")
        self.copy(
            out,
            "cac:OrderReference/cbc:ID",
            agreement,
            "ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID",
        )

        if agreement is not None:
            self.party(
                self.add(out, "cac:AccountingSupplierParty"), self.find(agreement, "ram:SellerTradeParty")
            )
            self.party(
                self.add(out, "cac:AccountingCustomerParty"), self.find(agreement, "ram:BuyerTradeParty")
            )

        if delivery is not None:
            target = self.add(out, "cac:Delivery")
            self.copy(
                target,
                "cbc:ActualDeliveryDate",
                delivery,
                "ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString",
            )
            self.copy(
                target,
                "cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode",
                delivery,
                "ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CountryID",
            )

        if settlement is not None:
            for means in settlement.xpath("ram:SpecifiedTradeSettlementPaymentMeans", namespaces=CII_NS):
                target = self.add(out, "cac:PaymentMeans")
                self.copy(target, "cbc:PaymentMeansCode", means, "ram:TypeCode")
                account = self.text(means, "ram:PayeePartyCreditorFinancialAccount/ram:IBANID") or self.text(
                    means, "ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID"
                )
                if account is not None:
                    self.add(target, "cac:PayeeFinancialAccount/cbc:ID", account)
            for terms in settlement.xpath(
                "ram:SpecifiedTradePaymentTerms/ram:Description", namespaces=CII_NS
            ):
                self.add(out, "cac:PaymentTerms/cbc:Note", terms.text or "")
            for charge in settlement.xpath("ram:SpecifiedTradeAllowanceCharge", namespaces=CII_NS):
                target = self.add(out, "cac:AllowanceCharge")
                self.copy(target, "cbc:ChargeIndicator", charge, "ram:ChargeIndicator/udt:Indicator")
                self.amount(target, "cbc:Amount", charge, "ram:ActualAmount")

            totals = self.find(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation")
            tax_total = self.add(out, "cac:TaxTotal")
            vat = (
                self.find(totals, f"ram:TaxTotalAmount[@currencyID='{self.currency}']")
                if self.currency
                else None
            )
            vat = vat if vat is not None else self.find(totals, "ram:TaxTotalAmount")
            if vat is not None:
                self.add(tax_total, "cbc:TaxAmount", vat.text or "", currencyID=self.currency)
            for tax in settlement.xpath("ram:ApplicableTradeTax", namespaces=CII_NS):
                subtotal = self.add(tax_total, "cac:TaxSubtotal")
                self.amount(subtotal, "cbc:TaxableAmount", tax, "ram:BasisAmount")
                self.amount(subtotal, "cbc:TaxAmount", tax, "ram:CalculatedAmount")
                self.tax_category(subtotal, "cac:TaxCategory", tax)
            if totals is not None:
                target = self.add(out, "cac:LegalMonetaryTotal")
                self.amount(target, "cbc:LineExtensionAmount", totals, "ram:LineTotalAmount")
                self.amount(target, "cbc:TaxExclusiveAmount", totals, "ram:TaxBasisTotalAmount")
                self.amount(target, "cbc:TaxInclusiveAmount", totals, "ram:GrandTotalAmount")
                self.amount(target, "cbc:PrepaidAmount", totals, "ram:TotalPrepaidAmount")
                self.amount(target, "cbc:PayableRoundingAmount", totals, "ram:RoundingAmount")
                self.amount(target, "cbc:PayableAmount", totals, "ram:DuePayableAmount")

        line_tag = "cac:CreditNoteLine" if is_credit else "cac:InvoiceLine"
        quantity_tag = "cbc:CreditedQuantity" if is_credit else "cbc:InvoicedQuantity"
        items = (
            transaction.xpath("ram:IncludedSupplyChainTradeLineItem", namespaces=CII_NS)
            if transaction is not None
            else []
        )
        for item in items:
            line = self.add(out, line_tag)
            self.copy(line, "cbc:ID", item, "ram:AssociatedDocumentLineDocument/ram:LineID")
            quantity = self.find(item, "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity")
            if quantity is not None:
                self.add(line, quantity_tag, quantity.text or "", unitCode=quantity.get("unitCode"))
            self.amount(
                line,
                "cbc:LineExtensionAmount",
                item,
                "ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount",
            )
            target = self.add(line, "cac:Item")
            self.copy(target, "cbc:Name", item, "ram:SpecifiedTradeProduct/ram:Name")
            tax = self.find(item, "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax")
            if tax is not None:
                self.tax_category(target, "cac:ClassifiedTaxCategory", tax)
            price = self.find(
                item, "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount"
            )
            if price is not None:
                self.add(line, "cac:Price/cbc:PriceAmount", price.text or "", currencyID=self.currency)
        return out


def cii_to_ubl(root: etree._Element) -> etree._Element:
    """A UBL document carrying the business terms of a CII document that the EN 16931 rules read (for the
    rules only: it is not a complete translation and never leaves)."""
    return _Converter(root).convert()


# -- checking --------------------------------------------------------------------------------------------


def check_root(root: etree._Element, *, profile: str = en16931.PEPPOL) -> list[Problem]:
    """The schema and the rules a UBL or CII document breaks (empty: none). UBL: the UBL 2.1 XSD, then the
    rules of `profile`; CII: the Factur-X XSD of its declared profile, then the EN 16931 rules."""
    syntax = syntax_of(root)
    if syntax == UBL:
        return xsd.ubl_problems(root) + en16931.validate(root, profile=profile)
    if syntax == CII:
        return xsd.cii_problems(root) + en16931.validate(cii_to_ubl(root), profile=en16931.EN16931)
    raise NotAnEInvoice(
        f"expected a UBL Invoice or CreditNote or a CII CrossIndustryInvoice, found {etree.QName(root).localname}"
    )


def check_file(content: bytes) -> Result:
    """The syntax and the findings of an e-invoice file (XML or a Factur-X PDF); `NotAnEInvoice` for
    anything else. Rule texts in the active language."""
    if not content.strip():
        raise NotAnEInvoice("the file is empty")
    if content.lstrip()[:5] == b"%PDF-":
        root = parse_xml(pdf_xml(content))
        if syntax_of(root) != CII:
            raise NotAnEInvoice("the PDF's embedded XML is not a CII CrossIndustryInvoice")
        return Result(FACTURX_PDF, pdfa.problems(content) + check_root(root))
    root = parse_xml(content)
    problems = check_root(root)  # NotAnEInvoice naming the root for another document
    return Result(syntax_of(root) or "", problems)


def received_findings(root: etree._Element) -> list[dict[str, str]]:
    """What a received e-invoice breaks, in English (`rule`, `message`): the schema of its syntax and the
    EN 16931 rules (a supplier's invoice need not follow the Peppol profile we write)."""
    with translation.override("en"):
        return [{"rule": p.rule, "message": p.message} for p in check_root(root, profile=en16931.EN16931)]


def rule_text(rule: str) -> str | None:
    """The text of one of our rules in the active language, None for another identifier (a schema's)."""
    for item in en16931.RULES:
        if item.identifier == rule:
            return item.text()
    return None
