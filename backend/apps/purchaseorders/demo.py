"""Demo purchase orders in every status (draft, confirmed, sent, partly received and received from their
receipts, closed, cancelled) for both demo parent vendors (tenant 3, and some in tenant 2),
with lines on carton products (apps/products/demo.py article numbers) and receipts into the warehouse.
In tenant 3 the supplier of the received order sent its e-invoice for it: a UBL file (Peppol BIS Billing
3.0) read through the upload's own service (`supplier_invoice_import`) into a draft supplier invoice that
matches the order three ways.

Dates are relative to the day the demo is loaded, so the lists look current.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from xml.sax.saxutils import escape

from django.core.files.base import ContentFile
from django.utils import timezone

from apps.inventory.demo import ensure_warehouses
from apps.products.models import Product
from apps.purchaseorders import services
from apps.purchaseorders.models import PurchaseOrder, SupplierInvoice
from apps.suppliers.models import Supplier
from apps.tenancy.context import tenant_context

# (supplier number, days ago, promise in days, type, description, final status,
#  [(article, qty, unit cost or None = the product's purchase price[, the line's own delivery in days])],
#  received fraction per line). A line without its own delivery date is due on the order's promise date.
ORDERS = {
    3: [
        (
            "S-1001",
            60,
            -20,
            "standard",
            "Spring range shipping cartons",
            "received",
            [("CT-SW-4030", 6000, None), ("CT-SW-6040", 4000, None, -15)],
            [1, 1],
        ),
        (
            "S-1001",
            24,
            21,
            "standard",
            "Kitchenware master cartons",
            "sent",
            [("CT-DW-4030", 5000, None, 7), ("CT-DW-6040", 2500, None), ("PA-DV-12", 5000, None, 35)],
            [0.6, 0, 0],
        ),
        (
            "S-1002",
            12,
            35,
            "blanket",
            "Folding boxes, call-off 2026",
            "confirmed",
            [("FB-2015", 20000, None, 20), ("FB-1510", 15000, None, 50)],
            [0, 0],
        ),
        (
            "S-1002",
            30,
            10,
            "sample",
            "Sample run white-top cartons",
            "draft",
            [("CT-SW-4030W", 200, None)],
            [0],
        ),
        (
            "S-1001",
            45,
            0,
            "standard",
            "Moving boxes, replaced by new artwork",
            "cancelled",
            [("CT-DW-5545", 3000, None)],
            [0],
        ),
        (
            "S-2001",
            50,
            -10,
            "standard",
            "Heavy duty pallet boxes",
            "closed",
            [("CT-TW-1208", 400, None), ("CT-TW-8060", 600, None)],
            [1, 1],
        ),
        (
            "S-2001",
            18,
            28,
            "standard",
            "E-commerce cartons Q3",
            "sent",
            [("CT-SW-2520", 12000, None, -3), ("CT-SW-3525", 8000, None)],
            [0.5, 0.25],
        ),
        (
            "S-2002",
            8,
            42,
            "standard",
            "Printed retail boxes",
            "sent",
            [("FB-3020", 6000, None), ("FB-1212", 4000, None)],
            [0, 0],
        ),
        (
            "S-2002",
            26,
            14,
            "blanket",
            "Bottle boxes, waiting for customer forecast",
            "draft",
            [("FB-2510", 10000, None)],
            [0],
        ),
        (
            "S-2001",
            40,
            5,
            "sample",
            "Cube box samples",
            "cancelled",
            [("CT-DW-4040", 50, None)],
            [0],
        ),
    ],
    2: [
        (
            "S-1001",
            35,
            -5,
            "standard",
            "Shipping cartons for the Malmö store",
            "received",
            [("CT-SW-5035", 3000, None)],
            [1],
        ),
        (
            "S-2001",
            15,
            30,
            "standard",
            "Double wall cartons",
            "sent",
            [("CT-DW-5040", 2000, None), ("CT-DW-8060", 500, None)],
            [0.4, 0],
        ),
        (
            "S-2002",
            20,
            20,
            "sample",
            "Gift box samples",
            "draft",
            [("FB-2015", 300, None)],
            [0],
        ),
    ],
}

FALLBACK_COST = Decimal("0.85")


def _product(article: str, fallback: list[Product], index: int) -> Product | None:
    product = Product.objects.filter(article_number=article).first()
    if product is None and fallback:
        product = fallback[index % len(fallback)]
    return product


def load(ctx: dict) -> None:
    ensure_warehouses(ctx)
    admin = ctx["users"]["admin"]
    warehouse_user = ctx["users"].get("warehouse", admin)
    today = timezone.localdate()
    ctx["purchase_orders"] = {}
    for tenant_id, orders in ORDERS.items():
        created: list[PurchaseOrder] = []
        with tenant_context(ctx["tenants"][tenant_id]):
            if PurchaseOrder.objects.exists():
                ctx["purchase_orders"][tenant_id] = list(PurchaseOrder.objects.order_by("order_number"))
                continue
            fallback = list(Product.objects.filter(is_active=True).order_by("article_number")[:20])
            for index, (
                number,
                days_ago,
                promise_in,
                kind,
                description,
                status,
                lines,
                received,
            ) in enumerate(orders):
                supplier = Supplier.objects.filter(number=number).first()
                if supplier is None:
                    continue
                line_inputs = []
                for line_index, (article, qty, cost, *deliver_in) in enumerate(lines):
                    product = _product(article, fallback, index + line_index)
                    if product is None:
                        continue
                    price = cost or getattr(product, "purchase_price", None) or FALLBACK_COST
                    line_inputs.append(
                        services.LineInput(
                            product=product,
                            order_qty=Decimal(qty),
                            unit_cost=Decimal(price),
                            delivery_date=today + timedelta(days=deliver_in[0]) if deliver_in else None,
                        )
                    )
                if not line_inputs:
                    continue  # no products in this tenant yet
                order_date = today - timedelta(days=days_ago)
                order = services.purchase_order_create(
                    supplier=supplier,
                    order_date=order_date,
                    lines=line_inputs,
                    currency=getattr(supplier, "currency", "") or "EUR",
                    description=description,
                    type=kind,
                    promise_date=today + timedelta(days=promise_in),
                    owner=admin,
                )
                if status == "draft":
                    created.append(order)
                    continue
                services.purchase_order_confirm(order=order)
                if status == "sent":
                    # marked sent without e-mailing: the demo's mails are made by apps/notifications/demo.py
                    PurchaseOrder.objects.filter(pk=order.pk).update(status=PurchaseOrder.Status.SENT)
                    order.status = PurchaseOrder.Status.SENT
                order_lines = list(order.lines.order_by("line_number"))
                to_receive = [
                    services.ReceiptLineInput(
                        order_line_id=line.pk,
                        quantity=(line.order_qty * Decimal(str(fraction))).quantize(Decimal("1")),
                    )
                    for line, fraction in zip(order_lines, received, strict=False)
                    if fraction
                ]
                if status in ("received", "closed"):
                    # two deliveries: about half first, the rest a week later (the order is received)
                    first = [
                        services.ReceiptLineInput(
                            order_line_id=r.order_line_id, quantity=(r.quantity / 2).quantize(Decimal("1"))
                        )
                        for r in to_receive
                    ]
                    services.receipt_create(
                        purchase_order=order,
                        lines=first,
                        user=warehouse_user,
                        receipt_date=order_date + timedelta(days=days_ago // 2),
                        note="First truck from the port",
                    )
                    rest = [
                        services.ReceiptLineInput(
                            order_line_id=r.order_line_id, quantity=r.quantity - f.quantity
                        )
                        for r, f in zip(to_receive, first, strict=True)
                    ]
                    services.receipt_create(
                        purchase_order=order,
                        lines=rest,
                        user=warehouse_user,
                        receipt_date=order_date + timedelta(days=days_ago // 2 + 7),
                        note="Second truck",
                    )
                elif to_receive:
                    services.receipt_create(
                        purchase_order=order,
                        lines=to_receive,
                        user=warehouse_user,
                        receipt_date=today - timedelta(days=3),
                        note="Partial delivery",
                    )
                if status == "cancelled":
                    services.purchase_order_cancel(order=order)
                elif status == "closed":
                    services.purchase_order_close(order=order)
                order.refresh_from_db()
                created.append(order)
        ctx["purchase_orders"][tenant_id] = created
        if tenant_id == 3:
            _supplier_einvoice(ctx, created)


# the received order whose supplier sent its e-invoice (tenant 3)
EINVOICE_ORDER = "Spring range shipping cartons"
EINVOICE_NUMBER = "ECF-INV-2026-0318"
# the seller's tax number (BT-31; its unified social credit code), which an export invoice names
SELLER_TAX_ID = "CN91310106MA1FL2XQ3K"
CENT = Decimal("0.01")


def supplier_einvoice_ubl(order: PurchaseOrder, *, number: str, issue_date: date, buyer: dict) -> bytes:
    """The supplier's UBL 2.1 e-invoice (Peppol BIS Billing 3.0) of everything on `order`, at the
    order's prices: the export from China is zero-rated (category G)."""
    currency = order.currency
    supplier = order.supplier
    lines = []
    net_total = Decimal("0")
    for line in order.lines.select_related("product").order_by("line_number"):
        net = (line.order_qty * line.unit_cost).quantize(CENT, rounding=ROUND_HALF_UP)
        net_total += net
        lines.append(
            f"""  <cac:InvoiceLine>
    <cbc:ID>{line.line_number}</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">{line.order_qty.normalize():f}</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="{currency}">{net}</cbc:LineExtensionAmount>
    <cac:OrderLineReference><cbc:LineID>{line.line_number}</cbc:LineID></cac:OrderLineReference>
    <cac:Item>
      <cbc:Name>{escape(line.line_description or line.product.name)}</cbc:Name>
      <cac:SellersItemIdentification><cbc:ID>{escape(line.product_number)}</cbc:ID></cac:SellersItemIdentification>
      <cac:ClassifiedTaxCategory><cbc:ID>G</cbc:ID><cbc:Percent>0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="{currency}">{line.unit_cost.normalize():f}</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>"""
        )
    body = "\n".join(lines)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>{escape(number)}</cbc:ID>
  <cbc:IssueDate>{issue_date.isoformat()}</cbc:IssueDate>
  <cbc:DueDate>{(issue_date + timedelta(days=60)).isoformat()}</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>{currency}</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>{escape(order.order_number)}</cbc:BuyerReference>
  <cac:OrderReference><cbc:ID>{escape(order.order_number)}</cbc:ID></cac:OrderReference>
  <cac:AccountingSupplierParty><cac:Party>
    <cbc:EndpointID schemeID="EM">{escape(supplier.email)}</cbc:EndpointID>
    <cac:PartyName><cbc:Name>{escape(supplier.name)}</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:StreetName>{escape(supplier.address)}</cbc:StreetName><cac:Country><cbc:IdentificationCode>{escape(supplier.country or "CN")}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>{SELLER_TAX_ID}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>{escape(supplier.name)}</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cbc:EndpointID schemeID="9944">{escape(buyer["vat_number"])}</cbc:EndpointID>
    <cac:PostalAddress><cbc:StreetName>{escape(buyer["address"])}</cbc:StreetName><cac:Country><cbc:IdentificationCode>{escape(buyer["country"])}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>{escape(buyer["vat_number"])}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>{escape(buyer["name"])}</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentTerms><cbc:Note>{escape(supplier.payment_terms or "60 days net")}</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="{currency}">0.00</cbc:TaxAmount>
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="{currency}">{net_total}</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="{currency}">0.00</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>G</cbc:ID><cbc:Percent>0</cbc:Percent><cbc:TaxExemptionReasonCode>VATEX-EU-G</cbc:TaxExemptionReasonCode><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
    </cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="{currency}">{net_total}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="{currency}">{net_total}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="{currency}">{net_total}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="{currency}">{net_total}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
{body}
</Invoice>
""".encode()


def _supplier_einvoice(ctx: dict, orders: list[PurchaseOrder]) -> None:
    """The received order's supplier invoice, uploaded a few days after the last truck (inside the
    tenant's context, as the upload runs)."""
    tenant = ctx["tenants"][3]
    with tenant_context(tenant):
        if SupplierInvoice.objects.exists():
            return
        order = next((o for o in orders if o.description == EINVOICE_ORDER and o.receipts.exists()), None)
        if order is not None:
            _import_supplier_einvoice(ctx, tenant, order)


def _import_supplier_einvoice(ctx: dict, tenant, order: PurchaseOrder) -> None:
    last_receipt = order.receipts.order_by("-receipt_date").values_list("receipt_date", flat=True).first()
    content = supplier_einvoice_ubl(
        order,
        number=EINVOICE_NUMBER,
        issue_date=last_receipt + timedelta(days=2),
        buyer={
            "name": tenant.legal_name or tenant.name,
            "vat_number": tenant.vat_number,
            "address": tenant.address,
            "country": tenant.country,
        },
    )
    services.supplier_invoice_import(
        tenant=tenant,
        file=ContentFile(content, name=f"{EINVOICE_NUMBER}.xml"),
        user=ctx["users"]["admin"],
    )
