"""Hand-written supplier e-invoices (UBL 2.1 Peppol BIS 3.0 and UN/CEFACT CII) for the supplier invoice
tests, and a Factur-X PDF built around the CII one with the `factur-x` package the product writes its own
Factur-X with."""

from __future__ import annotations

import io
from dataclasses import dataclass
from xml.sax.saxutils import escape


@dataclass
class Line:
    quantity: str
    price: str
    item_id: str = ""
    name: str = "Carton"
    order_line: str = ""
    unit: str = "C62"

    @property
    def net(self) -> str:
        from decimal import Decimal

        try:
            return str((Decimal(self.quantity) * Decimal(self.price)).quantize(Decimal("0.01")))
        except ArithmeticError:  # a hostile quantity: any amount will do
            return "1.00"


def _totals(lines: list[Line], rate: str = "21") -> tuple[str, str, str]:
    from decimal import Decimal

    net = sum((Decimal(line.net) for line in lines), Decimal("0"))
    vat = (net * Decimal(rate) / 100).quantize(Decimal("0.01"))
    return str(net), str(vat), str(net + vat)


def ubl(
    *,
    number: str = "SUP-1001",
    order_reference: str = "",
    seller: str = "Evergreen No.1",
    lines: list[Line] | None = None,
    credit_note: bool = False,
    currency: str = "EUR",
    issue_date: str = "2026-03-10",
    omit: tuple[str, ...] = (),
) -> bytes:
    lines = lines if lines is not None else [Line("100", "1.25", item_id="CT-6040", order_line="1")]
    net, vat, gross = _totals(lines)
    root = "CreditNote" if credit_note else "Invoice"
    ns = (
        "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
        if credit_note
        else "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
    )
    line_tag = "CreditNoteLine" if credit_note else "InvoiceLine"
    qty_tag = "CreditedQuantity" if credit_note else "InvoicedQuantity"
    type_tag = "CreditNoteTypeCode" if credit_note else "InvoiceTypeCode"
    body = []
    for n, line in enumerate(lines, start=1):
        reference = (
            f"<cac:OrderLineReference><cbc:LineID>{line.order_line}</cbc:LineID></cac:OrderLineReference>"
            if line.order_line
            else ""
        )
        item_id = (
            f"<cac:SellersItemIdentification><cbc:ID>{line.item_id}</cbc:ID></cac:SellersItemIdentification>"
            if line.item_id
            else ""
        )
        body.append(
            f"""<cac:{line_tag}><cbc:ID>{n}</cbc:ID>
<cbc:{qty_tag} unitCode="{line.unit}">{line.quantity}</cbc:{qty_tag}>
<cbc:LineExtensionAmount currencyID="{currency}">{line.net}</cbc:LineExtensionAmount>
{reference}
<cac:Item><cbc:Name>{escape(line.name)}</cbc:Name>{item_id}
<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent>
<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
<cac:Price><cbc:PriceAmount currencyID="{currency}">{line.price}</cbc:PriceAmount></cac:Price>
</cac:{line_tag}>"""
        )
    parts = {
        "number": f"<cbc:ID>{number}</cbc:ID>",
        "date": f"<cbc:IssueDate>{issue_date}</cbc:IssueDate>",
        "due": "" if credit_note else "<cbc:DueDate>2026-04-09</cbc:DueDate>",
        "currency": f"<cbc:DocumentCurrencyCode>{currency}</cbc:DocumentCurrencyCode>",
        "seller": f"""<cac:AccountingSupplierParty><cac:Party>
<cac:PartyName><cbc:Name>{escape(seller)}</cbc:Name></cac:PartyName>
<cac:PartyTaxScheme><cbc:CompanyID>CN91310000MA1K</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
<cac:PartyLegalEntity><cbc:RegistrationName>{escape(seller)}</cbc:RegistrationName></cac:PartyLegalEntity>
</cac:Party></cac:AccountingSupplierParty>""",
        "totals": f"""<cac:TaxTotal><cbc:TaxAmount currencyID="{currency}">{vat}</cbc:TaxAmount></cac:TaxTotal>
<cac:LegalMonetaryTotal>
<cbc:LineExtensionAmount currencyID="{currency}">{net}</cbc:LineExtensionAmount>
<cbc:TaxExclusiveAmount currencyID="{currency}">{net}</cbc:TaxExclusiveAmount>
<cbc:TaxInclusiveAmount currencyID="{currency}">{gross}</cbc:TaxInclusiveAmount>
<cbc:PayableAmount currencyID="{currency}">{gross}</cbc:PayableAmount>
</cac:LegalMonetaryTotal>""",
    }
    for key in omit:
        parts[key] = ""
    order = (
        f"<cac:OrderReference><cbc:ID>{order_reference}</cbc:ID></cac:OrderReference>"
        if order_reference
        else ""
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<{root} xmlns="{ns}"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
{parts["number"]}{parts["date"]}{parts["due"]}
<cbc:{type_tag}>{"381" if credit_note else "380"}</cbc:{type_tag}>
{parts["currency"]}
{order}
{parts["seller"]}
{parts["totals"]}
{"".join(body)}
</{root}>""".encode()


def cii(
    *,
    number: str = "SUP-2001",
    order_reference: str = "",
    seller: str = "Evergreen No.1",
    lines: list[Line] | None = None,
    currency: str = "EUR",
    type_code: str = "380",
) -> bytes:
    lines = lines if lines is not None else [Line("100", "1.25", item_id="CT-6040", order_line="1")]
    net, vat, gross = _totals(lines)
    items = []
    for n, line in enumerate(lines, start=1):
        reference = (
            f"<ram:BuyerOrderReferencedDocument><ram:LineID>{line.order_line}</ram:LineID>"
            "</ram:BuyerOrderReferencedDocument>"
            if line.order_line
            else ""
        )
        seller_id = f"<ram:SellerAssignedID>{line.item_id}</ram:SellerAssignedID>" if line.item_id else ""
        items.append(
            f"""<ram:IncludedSupplyChainTradeLineItem>
<ram:AssociatedDocumentLineDocument><ram:LineID>{n}</ram:LineID></ram:AssociatedDocumentLineDocument>
<ram:SpecifiedTradeProduct>{seller_id}<ram:Name>{escape(line.name)}</ram:Name></ram:SpecifiedTradeProduct>
<ram:SpecifiedLineTradeAgreement>{reference}
<ram:NetPriceProductTradePrice><ram:ChargeAmount>{line.price}</ram:ChargeAmount></ram:NetPriceProductTradePrice>
</ram:SpecifiedLineTradeAgreement>
<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="{line.unit}">{line.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
<ram:SpecifiedLineTradeSettlement>
<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>21</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>{line.net}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
</ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>"""
        )
    order = (
        f"<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>{order_reference}</ram:IssuerAssignedID>"
        "</ram:BuyerOrderReferencedDocument>"
        if order_reference
        else ""
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
 xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>{number}</ram:ID><ram:TypeCode>{type_code}</ram:TypeCode>
<ram:IssueDateTime><udt:DateTimeString format="102">20260310</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
{"".join(items)}
<ram:ApplicableHeaderTradeAgreement>
<ram:SellerTradeParty><ram:Name>{escape(seller)}</ram:Name>
<ram:PostalTradeAddress><ram:CountryID>CN</ram:CountryID></ram:PostalTradeAddress>
<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">CN91310000MA1K</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:Name>Buyer BV</ram:Name><ram:PostalTradeAddress><ram:CountryID>NL</ram:CountryID></ram:PostalTradeAddress></ram:BuyerTradeParty>
{order}
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement>
<ram:InvoiceCurrencyCode>{currency}</ram:InvoiceCurrencyCode>
<ram:ApplicableTradeTax><ram:CalculatedAmount>{vat}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>{net}</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>21</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20260409</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation>
<ram:LineTotalAmount>{net}</ram:LineTotalAmount>
<ram:TaxBasisTotalAmount>{net}</ram:TaxBasisTotalAmount>
<ram:TaxTotalAmount currencyID="{currency}">{vat}</ram:TaxTotalAmount>
<ram:GrandTotalAmount>{gross}</ram:GrandTotalAmount>
<ram:DuePayableAmount>{gross}</ram:DuePayableAmount>
</ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>""".encode()


def facturx_pdf(xml: bytes) -> bytes:
    """A one-page PDF (reportlab) with `xml` embedded as factur-x.xml by the `factur-x` package, as
    apps/salesorders/cii.py does for the product's own Factur-X."""
    import facturx
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer)
    page.drawString(72, 720, "Invoice")
    page.save()
    return facturx.generate_from_binary(
        buffer.getvalue(), xml, check_xsd=False, flavor="factur-x", level="en16931"
    )
