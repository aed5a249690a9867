"""The rules an e-invoice is checked against before it leaves (docs/sales.md, "E-invoice (UBL)").

`validate(root)` answers the broken rules of a UBL 2.1 Invoice or CreditNote (an empty list: all kept).
Three kinds of rules, each a function with its identifier:

- **Structure** (`UBL-*`, our own): the root element and its namespace, top-level elements known to the
  UBL 2.1 schema and in its order, amounts with at most two decimals (the Peppol profile's). They name
  the usual mistakes in words; the OASIS UBL 2.1 XSD itself is checked after them (`apps.salesorders.xsd`,
  `UBL-XSD`).
- **EN 16931** business rules (`BR-*`, `BR-CO-*`) and the VAT category rules of the categories the product
  issues: standard rate (`BR-S-*`), reverse charge (`BR-AE-*`), intra-Community supply (`BR-IC-*`) and
  export (`BR-G-*`), with the tolerances of the CEN schematron (a VAT amount may differ by up to one unit
  from taxable x rate, as per-line rounding makes it).
- **Peppol BIS Billing 3.0** rules the product needs (`PEPPOL-EN16931-*`): profile, buyer reference,
  electronic addresses, one currency.

The rule texts are the standards' own wording, translated (Chinese) like every message of the product.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext, gettext_noop
from lxml import etree

from apps.salesorders.ubl import CUSTOMIZATION_ID, NS_CAC, NS_CBC, NS_CREDIT_NOTE, NS_INVOICE

NS = {"cac": NS_CAC, "cbc": NS_CBC}
ZERO = Decimal("0")
ONE = Decimal("1")
CENT = Decimal("0.01")

# The top-level elements of the UBL 2.1 schemas, in their sequence (maindoc UBL-Invoice-2.1.xsd and
# UBL-CreditNote-2.1.xsd).
INVOICE_SEQUENCE = [
    "UBLExtensions",
    "UBLVersionID",
    "CustomizationID",
    "ProfileID",
    "ProfileExecutionID",
    "ID",
    "CopyIndicator",
    "UUID",
    "IssueDate",
    "IssueTime",
    "DueDate",
    "InvoiceTypeCode",
    "Note",
    "TaxPointDate",
    "DocumentCurrencyCode",
    "TaxCurrencyCode",
    "PricingCurrencyCode",
    "PaymentCurrencyCode",
    "PaymentAlternativeCurrencyCode",
    "AccountingCostCode",
    "AccountingCost",
    "LineCountNumeric",
    "BuyerReference",
    "InvoicePeriod",
    "OrderReference",
    "BillingReference",
    "DespatchDocumentReference",
    "ReceiptDocumentReference",
    "StatementDocumentReference",
    "OriginatorDocumentReference",
    "ContractDocumentReference",
    "AdditionalDocumentReference",
    "ProjectReference",
    "Signature",
    "AccountingSupplierParty",
    "AccountingCustomerParty",
    "PayeeParty",
    "BuyerCustomerParty",
    "SellerSupplierParty",
    "TaxRepresentativeParty",
    "Delivery",
    "DeliveryTerms",
    "PaymentMeans",
    "PaymentTerms",
    "PrepaidPayment",
    "AllowanceCharge",
    "TaxExchangeRate",
    "PricingExchangeRate",
    "PaymentExchangeRate",
    "PaymentAlternativeExchangeRate",
    "TaxTotal",
    "WithholdingTaxTotal",
    "LegalMonetaryTotal",
    "InvoiceLine",
]
CREDIT_NOTE_SEQUENCE = [
    "UBLExtensions",
    "UBLVersionID",
    "CustomizationID",
    "ProfileID",
    "ProfileExecutionID",
    "ID",
    "CopyIndicator",
    "UUID",
    "IssueDate",
    "IssueTime",
    "TaxPointDate",
    "CreditNoteTypeCode",
    "Note",
    "DocumentCurrencyCode",
    "TaxCurrencyCode",
    "PricingCurrencyCode",
    "PaymentCurrencyCode",
    "PaymentAlternativeCurrencyCode",
    "AccountingCostCode",
    "AccountingCost",
    "LineCountNumeric",
    "BuyerReference",
    "InvoicePeriod",
    "DiscrepancyResponse",
    "OrderReference",
    "BillingReference",
    "DespatchDocumentReference",
    "ReceiptDocumentReference",
    "ContractDocumentReference",
    "AdditionalDocumentReference",
    "StatementDocumentReference",
    "OriginatorDocumentReference",
    "Signature",
    "AccountingSupplierParty",
    "AccountingCustomerParty",
    "PayeeParty",
    "BuyerCustomerParty",
    "SellerSupplierParty",
    "TaxRepresentativeParty",
    "Delivery",
    "DeliveryTerms",
    "PaymentMeans",
    "PaymentTerms",
    "TaxExchangeRate",
    "PricingExchangeRate",
    "PaymentExchangeRate",
    "PaymentAlternativeExchangeRate",
    "AllowanceCharge",
    "TaxTotal",
    "LegalMonetaryTotal",
    "CreditNoteLine",
]


@dataclass(frozen=True)
class Problem:
    rule: str
    message: str


class Doc:
    """XPath helpers over one document."""

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.is_credit = etree.QName(root).localname == "CreditNote"
        self.line_tag = "cac:CreditNoteLine" if self.is_credit else "cac:InvoiceLine"
        self.quantity_tag = "cbc:CreditedQuantity" if self.is_credit else "cbc:InvoicedQuantity"

    def all(self, path: str, node: etree._Element | None = None) -> list:
        return (self.root if node is None else node).xpath(path, namespaces=NS)

    def text(self, path: str, node: etree._Element | None = None) -> str:
        found = self.all(path, node)
        if not found:
            return ""
        value = found[0] if isinstance(found[0], str) else found[0].text
        return (value or "").strip()

    def dec(self, path: str, node: etree._Element | None = None) -> Decimal | None:
        value = self.text(path, node)
        if not value:
            return None
        try:
            return Decimal(value)
        except InvalidOperation:
            return None

    def sum(self, path: str, node: etree._Element | None = None) -> Decimal:
        total = ZERO
        for element in self.all(path, node):
            try:
                total += Decimal((element.text or "").strip())
            except InvalidOperation:
                continue
        return total

    @property
    def lines(self) -> list:
        return self.all(self.line_tag)

    def line_category(self, line) -> str:
        return self.text("cac:Item/cac:ClassifiedTaxCategory/cbc:ID", line)

    def subtotals(self, category: str) -> list:
        return [
            s
            for s in self.all("cac:TaxTotal/cac:TaxSubtotal")
            if self.text("cac:TaxCategory/cbc:ID", s) == category
        ]

    def allowances(self, charge: bool) -> Decimal:
        flag = "true" if charge else "false"
        return self.sum(f"cac:AllowanceCharge[normalize-space(cbc:ChargeIndicator)='{flag}']/cbc:Amount")

    def seller_vat(self) -> str:
        return self.text(
            "cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[normalize-space(cac:TaxScheme/cbc:ID)='VAT']"
            "/cbc:CompanyID"
        )

    def buyer_vat(self) -> str:
        return self.text(
            "cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme[normalize-space(cac:TaxScheme/cbc:ID)='VAT']"
            "/cbc:CompanyID"
        )

    def buyer_legal_id(self) -> str:
        return self.text("cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID")


Check = Callable[[Doc], bool]


@dataclass(frozen=True)
class Rule:
    identifier: str
    message: str  # English, marked for translation; `%(name)s` is the VAT category's name
    check: Check
    name: str = ""
    # "en16931": a business rule of the invoice's content, kept by every syntax and profile (UBL and
    # Factur-X); "peppol": a rule of the UBL syntax or of the Peppol BIS profile only (UBL-*, PEPPOL-*)
    scope: str = "en16931"

    def text(self) -> str:
        """The rule's text in the active language."""
        message = gettext(self.message)
        return message % {"name": gettext(self.name)} if self.name else message


RULES: list[Rule] = []


PEPPOL = "peppol"
EN16931 = "en16931"


def rule(identifier: str, message: str, name: str = ""):
    scope = PEPPOL if identifier.startswith(("UBL-", "PEPPOL-")) else EN16931

    def register(check: Check) -> Check:
        RULES.append(Rule(identifier, message, check, name, scope))
        return check

    return register


def _present(doc: Doc, path: str, node: etree._Element | None = None) -> bool:
    return bool(doc.text(path, node))


# -- structure (UBL 2.1, our own rules in place of the schema) -------------------------------------------


@rule("UBL-SR-ROOT", gettext_noop("The document shall be a UBL 2.1 Invoice or CreditNote in its namespace."))
def _root(doc: Doc) -> bool:
    name = etree.QName(doc.root)
    return (name.namespace, name.localname) in ((NS_INVOICE, "Invoice"), (NS_CREDIT_NOTE, "CreditNote"))


@rule(
    "UBL-SR-ORDER",
    gettext_noop(
        "The document's top-level elements shall be elements of the UBL 2.1 schema, in the schema's order."
    ),
)
def _order(doc: Doc) -> bool:
    sequence = CREDIT_NOTE_SEQUENCE if doc.is_credit else INVOICE_SEQUENCE
    position = -1
    for child in doc.root:
        if not isinstance(child.tag, str):
            continue
        name = etree.QName(child)
        if name.namespace not in (NS_CAC, NS_CBC) or name.localname not in sequence:
            return False
        index = sequence.index(name.localname)
        if index < position:
            return False
        position = index
    return True


@rule("UBL-SR-SINGLE", gettext_noop("Elements of which the schema allows one shall occur at most once."))
def _single(doc: Doc) -> bool:
    for name in (
        "cbc:ID",
        "cbc:IssueDate",
        "cbc:DocumentCurrencyCode",
        "cac:LegalMonetaryTotal",
        "cbc:DueDate",
    ):
        if len(doc.all(name)) > 1:
            return False
    return (
        len(doc.all("cac:AccountingSupplierParty")) <= 1 and len(doc.all("cac:AccountingCustomerParty")) <= 1
    )


@rule("UBL-DT-01", gettext_noop("Amounts shall be decimal up to two fraction digits."))
def _amount_digits(doc: Doc) -> bool:
    for element in doc.root.iter():
        if isinstance(element.tag, str) and element.get("currencyID") is not None:
            if (
                etree.QName(element).localname in ("PriceAmount", "BaseAmount")
                and etree.QName(element.getparent()).localname == "Price"
            ):
                continue
            text = (element.text or "").strip()
            try:
                value = Decimal(text)
            except InvalidOperation:
                return False
            exponent = value.as_tuple().exponent
            if not isinstance(exponent, int) or exponent < -2:
                return False
    return True


# -- EN 16931 core ---------------------------------------------------------------------------------------


@rule("BR-01", gettext_noop("An Invoice shall have a Specification identifier (BT-24)."))
def _br01(doc: Doc) -> bool:
    return _present(doc, "cbc:CustomizationID")


@rule("BR-02", gettext_noop("An Invoice shall have an Invoice number (BT-1)."))
def _br02(doc: Doc) -> bool:
    return _present(doc, "cbc:ID")


@rule("BR-03", gettext_noop("An Invoice shall have an Invoice issue date (BT-2)."))
def _br03(doc: Doc) -> bool:
    return _present(doc, "cbc:IssueDate")


@rule("BR-04", gettext_noop("An Invoice shall have an Invoice type code (BT-3)."))
def _br04(doc: Doc) -> bool:
    return _present(doc, "cbc:CreditNoteTypeCode" if doc.is_credit else "cbc:InvoiceTypeCode")


@rule("BR-05", gettext_noop("An Invoice shall have an Invoice currency code (BT-5)."))
def _br05(doc: Doc) -> bool:
    return _present(doc, "cbc:DocumentCurrencyCode")


@rule("BR-06", gettext_noop("An Invoice shall contain the Seller name (BT-27)."))
def _br06(doc: Doc) -> bool:
    return _present(doc, "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName")


@rule("BR-07", gettext_noop("An Invoice shall contain the Buyer name (BT-44)."))
def _br07(doc: Doc) -> bool:
    return _present(doc, "cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName")


@rule("BR-08", gettext_noop("An Invoice shall contain the Seller postal address (BG-5)."))
def _br08(doc: Doc) -> bool:
    return bool(doc.all("cac:AccountingSupplierParty/cac:Party/cac:PostalAddress"))


@rule("BR-09", gettext_noop("The Seller postal address (BG-5) shall contain a Seller country code (BT-40)."))
def _br09(doc: Doc) -> bool:
    return _present(
        doc, "cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode"
    )


@rule("BR-10", gettext_noop("An Invoice shall contain the Buyer postal address (BG-8)."))
def _br10(doc: Doc) -> bool:
    return bool(doc.all("cac:AccountingCustomerParty/cac:Party/cac:PostalAddress"))


@rule("BR-11", gettext_noop("The Buyer postal address shall contain a Buyer country code (BT-55)."))
def _br11(doc: Doc) -> bool:
    return _present(
        doc, "cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode"
    )


@rule("BR-12", gettext_noop("An Invoice shall have the Sum of Invoice line net amount (BT-106)."))
def _br12(doc: Doc) -> bool:
    return doc.dec("cac:LegalMonetaryTotal/cbc:LineExtensionAmount") is not None


@rule("BR-13", gettext_noop("An Invoice shall have the Invoice total amount without VAT (BT-109)."))
def _br13(doc: Doc) -> bool:
    return doc.dec("cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount") is not None


@rule("BR-14", gettext_noop("An Invoice shall have the Invoice total amount with VAT (BT-112)."))
def _br14(doc: Doc) -> bool:
    return doc.dec("cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount") is not None


@rule("BR-15", gettext_noop("An Invoice shall have the Amount due for payment (BT-115)."))
def _br15(doc: Doc) -> bool:
    return doc.dec("cac:LegalMonetaryTotal/cbc:PayableAmount") is not None


@rule("BR-16", gettext_noop("An Invoice shall have at least one Invoice line (BG-25)."))
def _br16(doc: Doc) -> bool:
    return bool(doc.lines)


@rule("BR-21", gettext_noop("Each Invoice line (BG-25) shall have an Invoice line identifier (BT-126)."))
def _br21(doc: Doc) -> bool:
    return all(_present(doc, "cbc:ID", line) for line in doc.lines)


@rule("BR-22", gettext_noop("Each Invoice line (BG-25) shall have an Invoiced quantity (BT-129)."))
def _br22(doc: Doc) -> bool:
    return all(doc.dec(doc.quantity_tag, line) is not None for line in doc.lines)


@rule(
    "BR-23",
    gettext_noop("An Invoice line (BG-25) shall have an Invoiced quantity unit of measure code (BT-130)."),
)
def _br23(doc: Doc) -> bool:
    return all(bool(doc.text(f"{doc.quantity_tag}/@unitCode", line)) for line in doc.lines)


@rule("BR-24", gettext_noop("Each Invoice line (BG-25) shall have an Invoice line net amount (BT-131)."))
def _br24(doc: Doc) -> bool:
    return all(doc.dec("cbc:LineExtensionAmount", line) is not None for line in doc.lines)


@rule("BR-25", gettext_noop("Each Invoice line (BG-25) shall contain the Item name (BT-153)."))
def _br25(doc: Doc) -> bool:
    return all(_present(doc, "cac:Item/cbc:Name", line) for line in doc.lines)


@rule("BR-26", gettext_noop("Each Invoice line (BG-25) shall contain the Item net price (BT-146)."))
def _br26(doc: Doc) -> bool:
    return all(doc.dec("cac:Price/cbc:PriceAmount", line) is not None for line in doc.lines)


@rule("BR-27", gettext_noop("The Item net price (BT-146) shall NOT be negative."))
def _br27(doc: Doc) -> bool:
    return all((doc.dec("cac:Price/cbc:PriceAmount", line) or ZERO) >= 0 for line in doc.lines)


@rule(
    "BR-49",
    gettext_noop("A Payment instruction (BG-16) shall specify the Payment means type code (BT-81)."),
)
def _br49(doc: Doc) -> bool:
    return all(_present(doc, "cbc:PaymentMeansCode", means) for means in doc.all("cac:PaymentMeans"))


@rule(
    "BR-50",
    gettext_noop(
        "A Payment account identifier (BT-84) shall be present if Credit transfer (BG-17) information is "
        "provided in the Invoice."
    ),
)
def _br50(doc: Doc) -> bool:
    return all(
        _present(doc, "cbc:ID", account) for account in doc.all("cac:PaymentMeans/cac:PayeeFinancialAccount")
    )


@rule(
    "BR-55",
    gettext_noop(
        "Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25)."
    ),
)
def _br55(doc: Doc) -> bool:
    return all(
        _present(doc, "cac:InvoiceDocumentReference/cbc:ID", reference)
        for reference in doc.all("cac:BillingReference")
    )


@rule(
    "BR-57", gettext_noop("Each Deliver to address (BG-15) shall contain a Deliver to country code (BT-80).")
)
def _br57(doc: Doc) -> bool:
    return all(
        _present(doc, "cac:Country/cbc:IdentificationCode", address)
        for address in doc.all("cac:Delivery/cac:DeliveryLocation/cac:Address")
    )


@rule(
    "BR-61",
    gettext_noop(
        "If the Payment means type code (BT-81) means SEPA credit transfer, Local credit transfer or Non-SEPA "
        "international credit transfer, the Payment account identifier (BT-84) shall be present."
    ),
)
def _br61(doc: Doc) -> bool:
    for means in doc.all("cac:PaymentMeans"):
        if doc.text("cbc:PaymentMeansCode", means) in ("30", "58") and not doc.text(
            "cac:PayeeFinancialAccount/cbc:ID", means
        ):
            return False
    return True


@rule("BR-62", gettext_noop("The Seller electronic address (BT-34) shall have a Scheme identifier."))
def _br62(doc: Doc) -> bool:
    return all(
        (endpoint.get("schemeID") or "").strip()
        for endpoint in doc.all("cac:AccountingSupplierParty/cac:Party/cbc:EndpointID")
    )


@rule("BR-63", gettext_noop("The Buyer electronic address (BT-49) shall have a Scheme identifier."))
def _br63(doc: Doc) -> bool:
    return all(
        (endpoint.get("schemeID") or "").strip()
        for endpoint in doc.all("cac:AccountingCustomerParty/cac:Party/cbc:EndpointID")
    )


@rule(
    "BR-CO-04",
    gettext_noop(
        "Each Invoice line (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151)."
    ),
)
def _brco04(doc: Doc) -> bool:
    return all(doc.line_category(line) for line in doc.lines)


@rule(
    "BR-CO-09",
    gettext_noop(
        "The Seller VAT identifier (BT-31) and the Buyer VAT identifier (BT-48) shall have a prefix in "
        "accordance with ISO code ISO 3166-1 alpha-2 by which the country of issue may be identified; "
        "Greece may use the prefix 'EL'."
    ),
)
def _brco09(doc: Doc) -> bool:
    from apps.suppliers.countries import ISO_COUNTRY_CODES

    for vat in (doc.seller_vat(), doc.buyer_vat()):
        if vat and not (vat[:2] in ISO_COUNTRY_CODES or vat[:2] == "EL"):
            return False
    return True


@rule(
    "BR-CO-10", gettext_noop("Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131).")
)
def _brco10(doc: Doc) -> bool:
    total = doc.dec("cac:LegalMonetaryTotal/cbc:LineExtensionAmount")
    return total is not None and total == doc.sum(f"{doc.line_tag}/cbc:LineExtensionAmount")


@rule(
    "BR-CO-13",
    gettext_noop(
        "Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-131) - Sum of allowances on "
        "document level (BT-107) + Sum of charges on document level (BT-108)."
    ),
)
def _brco13(doc: Doc) -> bool:
    total = doc.dec("cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount")
    expected = (
        doc.sum(f"{doc.line_tag}/cbc:LineExtensionAmount") - doc.allowances(False) + doc.allowances(True)
    )
    return total is not None and total == expected


@rule(
    "BR-CO-14",
    gettext_noop(
        "Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117).",
    ),
)
def _brco14(doc: Doc) -> bool:
    total = doc.dec("cac:TaxTotal/cbc:TaxAmount")
    return total is not None and total == doc.sum("cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount")


@rule(
    "BR-CO-15",
    gettext_noop(
        "Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total "
        "VAT amount (BT-110)."
    ),
)
def _brco15(doc: Doc) -> bool:
    gross = doc.dec("cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount")
    net = doc.dec("cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount")
    vat = doc.dec("cac:TaxTotal/cbc:TaxAmount")
    return None not in (gross, net, vat) and gross == net + vat  # type: ignore[operator]


@rule(
    "BR-CO-16",
    gettext_noop(
        "Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) - Paid amount (BT-113) + "
        "Rounding amount (BT-114)."
    ),
)
def _brco16(doc: Doc) -> bool:
    due = doc.dec("cac:LegalMonetaryTotal/cbc:PayableAmount")
    gross = doc.dec("cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount")
    paid = doc.dec("cac:LegalMonetaryTotal/cbc:PrepaidAmount") or ZERO
    rounding = doc.dec("cac:LegalMonetaryTotal/cbc:PayableRoundingAmount") or ZERO
    return due is not None and gross is not None and due == gross - paid + rounding


@rule(
    "BR-CO-17",
    gettext_noop(
        "VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) "
        "/ 100), rounded to two decimals."
    ),
)
def _brco17(doc: Doc) -> bool:
    for subtotal in doc.all("cac:TaxTotal/cac:TaxSubtotal"):
        taxable = doc.dec("cbc:TaxableAmount", subtotal)
        amount = doc.dec("cbc:TaxAmount", subtotal)
        rate = doc.dec("cac:TaxCategory/cbc:Percent", subtotal) or ZERO
        if taxable is None or amount is None:
            return False
        if abs(amount - (taxable * rate / 100).quantize(CENT)) >= ONE:
            return False
    return True


@rule("BR-CO-18", gettext_noop("An Invoice shall at least have one VAT breakdown group (BG-23)."))
def _brco18(doc: Doc) -> bool:
    return bool(doc.all("cac:TaxTotal/cac:TaxSubtotal"))


@rule(
    "BR-CO-25",
    gettext_noop(
        "In case the Amount due for payment (BT-115) is positive, either the Payment due date (BT-9) or the "
        "Payment terms (BT-20) shall be present."
    ),
)
def _brco25(doc: Doc) -> bool:
    due = doc.dec("cac:LegalMonetaryTotal/cbc:PayableAmount") or ZERO
    if due <= 0:
        return True
    return _present(doc, "cbc:DueDate") or _present(doc, "cac:PaymentTerms/cbc:Note")


@rule(
    "BR-CO-26",
    gettext_noop(
        "In order for the buyer to automatically identify a supplier, the Seller identifier (BT-29), the Seller "
        "legal registration identifier (BT-30) and/or the Seller VAT identifier (BT-31) shall be present."
    ),
)
def _brco26(doc: Doc) -> bool:
    seller = "cac:AccountingSupplierParty/cac:Party"
    return bool(
        doc.text(f"{seller}/cac:PartyIdentification/cbc:ID")
        or doc.text(f"{seller}/cac:PartyLegalEntity/cbc:CompanyID")
        or doc.seller_vat()
    )


# -- VAT categories --------------------------------------------------------------------------------------


def _lines_of(doc: Doc, category: str) -> list:
    return [line for line in doc.lines if doc.line_category(line) == category]


def _has_category(doc: Doc, category: str) -> bool:
    return bool(_lines_of(doc, category))


def _breakdown(category: str, exactly_one: bool) -> Check:
    def check(doc: Doc) -> bool:
        if not _has_category(doc, category):
            return True
        found = len(doc.subtotals(category))
        return found == 1 if exactly_one else found >= 1

    return check


def _line_rate(category: str, positive: bool) -> Check:
    def check(doc: Doc) -> bool:
        for line in _lines_of(doc, category):
            rate = doc.dec("cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", line)
            if rate is None or (rate <= 0 if positive else rate != 0):
                return False
        return True

    return check


def _taxable(category: str) -> Check:
    def check(doc: Doc) -> bool:
        for subtotal in doc.subtotals(category):
            rate = doc.dec("cac:TaxCategory/cbc:Percent", subtotal) or ZERO
            expected = sum(
                (
                    doc.dec("cbc:LineExtensionAmount", line) or ZERO
                    for line in _lines_of(doc, category)
                    if (doc.dec("cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", line) or ZERO) == rate
                ),
                ZERO,
            )
            if doc.dec("cbc:TaxableAmount", subtotal) != expected:
                return False
        return True

    return check


def _tax_amount(category: str, zero: bool) -> Check:
    def check(doc: Doc) -> bool:
        for subtotal in doc.subtotals(category):
            amount = doc.dec("cbc:TaxAmount", subtotal)
            taxable = doc.dec("cbc:TaxableAmount", subtotal) or ZERO
            rate = doc.dec("cac:TaxCategory/cbc:Percent", subtotal) or ZERO
            if amount is None:
                return False
            if zero and amount != 0:
                return False
            if not zero and abs(amount - (taxable * rate / 100).quantize(CENT)) >= ONE:
                return False
        return True

    return check


def _exemption(category: str, required: bool) -> Check:
    def check(doc: Doc) -> bool:
        for subtotal in doc.subtotals(category):
            has = bool(
                doc.text("cac:TaxCategory/cbc:TaxExemptionReasonCode", subtotal)
                or doc.text("cac:TaxCategory/cbc:TaxExemptionReason", subtotal)
            )
            if has != required:
                return False
        return True

    return check


def _seller_vat(category: str) -> Check:
    def check(doc: Doc) -> bool:
        return not _has_category(doc, category) or bool(doc.seller_vat())

    return check


def _seller_and_buyer_vat(category: str) -> Check:
    def check(doc: Doc) -> bool:
        if not _has_category(doc, category):
            return True
        return bool(doc.seller_vat()) and bool(doc.buyer_vat() or doc.buyer_legal_id())

    return check


CATEGORY_NAMES = {
    "S": gettext_noop("Standard rated"),
    "AE": gettext_noop("Reverse charge"),
    "K": gettext_noop("Intra-community supply"),
    "G": gettext_noop("Export outside the EU"),
}

MSG_BREAKDOWN_ONE = gettext_noop(
    "An Invoice that contains an Invoice line where the VAT category code is '%(name)s' shall contain in "
    "the VAT breakdown exactly one VAT category code '%(name)s'."
)
MSG_BREAKDOWN_SOME = gettext_noop(
    "An Invoice that contains an Invoice line where the VAT category code is '%(name)s' shall contain in "
    "the VAT breakdown at least one VAT category code '%(name)s'."
)
MSG_SELLER_AND_BUYER_VAT = gettext_noop(
    "An Invoice that contains an Invoice line where the VAT category code is '%(name)s' shall contain the "
    "Seller VAT Identifier (BT-31) and the Buyer VAT identifier (BT-48) or the Buyer legal registration "
    "identifier (BT-47)."
)
MSG_SELLER_VAT = gettext_noop(
    "An Invoice that contains an Invoice line where the VAT category code is '%(name)s' shall contain the "
    "Seller VAT Identifier (BT-31)."
)
MSG_RATE_ZERO = gettext_noop(
    "In an Invoice line where the VAT category code is '%(name)s' the Invoiced item VAT rate (BT-152) "
    "shall be 0 (zero)."
)
MSG_RATE_POSITIVE = gettext_noop(
    "In an Invoice line where the VAT category code is '%(name)s' the Invoiced item VAT rate (BT-152) "
    "shall be greater than zero."
)
MSG_TAXABLE = gettext_noop(
    "In a VAT breakdown where the VAT category code is '%(name)s' the VAT category taxable amount (BT-116) "
    "shall equal the sum of Invoice line net amounts (BT-131) of that category and rate."
)
MSG_TAX_ZERO = gettext_noop(
    "The VAT category tax amount (BT-117) in a VAT breakdown where the VAT category code is '%(name)s' "
    "shall equal 0 (zero)."
)
MSG_TAX_RATE = gettext_noop(
    "The VAT category tax amount (BT-117) in a VAT breakdown where the VAT category code is '%(name)s' "
    "shall equal the taxable amount multiplied by the rate."
)
MSG_EXEMPTION_REQUIRED = gettext_noop(
    "A VAT breakdown with VAT category code '%(name)s' shall have a VAT exemption reason code (BT-121) or "
    "text (BT-120)."
)
MSG_EXEMPTION_NONE = gettext_noop(
    "A VAT breakdown with VAT category code '%(name)s' shall not have a VAT exemption reason code (BT-121) "
    "or text (BT-120)."
)


def _category_rules(prefix: str, category: str) -> None:
    name = CATEGORY_NAMES[category]
    zero_rated = category != "S"

    def add(number: str, message: str, check: Check) -> None:
        rule(f"BR-{prefix}-{number}", message, name=name)(check)

    add(
        "01",
        MSG_BREAKDOWN_ONE if zero_rated else MSG_BREAKDOWN_SOME,
        _breakdown(category, exactly_one=zero_rated),
    )
    if category in ("AE", "K"):
        add("02", MSG_SELLER_AND_BUYER_VAT, _seller_and_buyer_vat(category))
    else:
        add("02", MSG_SELLER_VAT, _seller_vat(category))
    add(
        "05",
        MSG_RATE_ZERO if zero_rated else MSG_RATE_POSITIVE,
        _line_rate(category, positive=not zero_rated),
    )
    add("08", MSG_TAXABLE, _taxable(category))
    add("09", MSG_TAX_ZERO if zero_rated else MSG_TAX_RATE, _tax_amount(category, zero=zero_rated))
    add(
        "10",
        MSG_EXEMPTION_REQUIRED if zero_rated else MSG_EXEMPTION_NONE,
        _exemption(category, required=zero_rated),
    )


_category_rules("S", "S")
_category_rules("AE", "AE")
_category_rules("IC", "K")
_category_rules("G", "G")


@rule(
    "BR-IC-11",
    gettext_noop(
        "In an Invoice with a VAT breakdown where the VAT category code is 'Intra-community supply' the Actual "
        "delivery date (BT-72) or the Invoicing period (BG-14) shall not be blank."
    ),
)
def _bric11(doc: Doc) -> bool:
    if not doc.subtotals("K"):
        return True
    return _present(doc, "cac:Delivery/cbc:ActualDeliveryDate") or bool(doc.all("cac:InvoicePeriod"))


@rule(
    "BR-IC-12",
    gettext_noop(
        "In an Invoice with a VAT breakdown where the VAT category code is 'Intra-community supply' the Deliver "
        "to country code (BT-80) shall not be blank."
    ),
)
def _bric12(doc: Doc) -> bool:
    if not doc.subtotals("K"):
        return True
    return _present(doc, "cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode")


# -- Peppol BIS Billing 3.0 ------------------------------------------------------------------------------


@rule("PEPPOL-EN16931-R001", gettext_noop("Business process MUST be provided."))
def _r001(doc: Doc) -> bool:
    return _present(doc, "cbc:ProfileID")


@rule(
    "PEPPOL-EN16931-R004",
    gettext_noop(
        "Specification identifier MUST have the value "
        "'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'."
    ),
)
def _r004(doc: Doc) -> bool:
    return doc.text("cbc:CustomizationID") == CUSTOMIZATION_ID


@rule("PEPPOL-EN16931-R003", gettext_noop("A buyer reference or purchase order reference MUST be provided."))
def _r003(doc: Doc) -> bool:
    return _present(doc, "cbc:BuyerReference") or _present(doc, "cac:OrderReference/cbc:ID")


@rule("PEPPOL-EN16931-R010", gettext_noop("Buyer electronic address MUST be provided."))
def _r010(doc: Doc) -> bool:
    return _present(doc, "cac:AccountingCustomerParty/cac:Party/cbc:EndpointID")


@rule("PEPPOL-EN16931-R020", gettext_noop("Seller electronic address MUST be provided."))
def _r020(doc: Doc) -> bool:
    return _present(doc, "cac:AccountingSupplierParty/cac:Party/cbc:EndpointID")


@rule("PEPPOL-EN16931-R008", gettext_noop("Document MUST not contain empty elements."))
def _r008(doc: Doc) -> bool:
    for element in doc.root.iter():
        if isinstance(element.tag, str) and len(element) == 0 and not (element.text or "").strip():
            return False
    return True


@rule(
    "PEPPOL-EN16931-R051",
    gettext_noop("All currencyID attributes must have the same value as the invoice currency code (BT-5)."),
)
def _r051(doc: Doc) -> bool:
    currency = doc.text("cbc:DocumentCurrencyCode")
    return all(
        element.get("currencyID") == currency
        for element in doc.root.iter()
        if isinstance(element.tag, str) and element.get("currencyID") is not None
    )


RULE_IDS = [r.identifier for r in RULES]


def validate(root: etree._Element, *, profile: str = PEPPOL) -> list[Problem]:
    """The rules the document breaks (empty: it keeps every rule), with their texts in the active
    language. `profile` PEPPOL (the UBL e-invoice): every rule; EN16931 (the Factur-X e-invoice, whose
    content the rules judge through the same document: `check_invoice`): the EN 16931 rules only, not
    those of the UBL syntax or of the Peppol profile."""
    doc = Doc(root)
    if not _root(doc):
        return [Problem(RULES[0].identifier, RULES[0].text())]
    problems = []
    for item in RULES:
        if profile == EN16931 and item.scope != EN16931:
            continue
        try:
            ok = item.check(doc)
        except (InvalidOperation, ValueError, TypeError):
            ok = False
        if not ok:
            problems.append(Problem(item.identifier, item.text()))
    return problems


def check_invoice(invoice, *, profile: str = PEPPOL) -> list[Problem]:
    """The rules a posted invoice or credit note breaks, judged on its EN 16931 content. The content is
    read from its UBL rendering (`ubl.build`, the same data every e-invoice syntax is built from), so the
    UBL and the Factur-X e-invoice are judged by this one set of rules."""
    from apps.salesorders import ubl

    return validate(ubl.build(invoice), profile=profile)
