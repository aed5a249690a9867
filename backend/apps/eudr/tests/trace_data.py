"""Rows for the trace and due-diligence tests: a complete delivery with a batch and carton labels.

Built with the ORM directly (the services have their own tests); call inside `tenant_context(tenant)`.
"""

from __future__ import annotations

import secrets
from datetime import date, timedelta
from decimal import Decimal

from django.core.files.base import ContentFile
from django.db.models import F

from apps.eudr.models import CartonLabel, ProductionBatch, RawMaterialDelivery, RawMaterialLine
from apps.products.models import Product
from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine
from apps.suppliers.models import ParentVendor, Supplier

VERIFICATION = "VRF7Q2K9XZ1M4"
UPSTREAM_REFERENCE = "25FIKGLE0Q7R3B"
UNIT_COST = Decimal("1.8765")
ORDER_NUMBER = "PO-SECRET-4711"

PLOTS = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "properties": {
                "ProducerName": "Metsä Forest Oy",
                "ProducerCountry": "FI",
                "ProductionPlace": "Kuopio",
            },
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[27.6, 62.9], [27.62, 62.9], [27.62, 62.91], [27.6, 62.91], [27.6, 62.9]]],
            },
        },
        {
            "type": "Feature",
            "properties": {"ProducerName": "Metsä Forest Oy", "ProducerCountry": "FI", "Area": 3.2},
            "geometry": {"type": "Point", "coordinates": [27.7, 62.95]},
        },
    ],
}


def make_delivery(*, vendor_name: str = "Shanghai Evergreen Packaging", suffix: str = "", **fields):
    vendor, _ = ParentVendor.objects.get_or_create(
        name=vendor_name + suffix, defaults={"cname": "上海常青包装" + suffix, "code": "PV" + suffix}
    )
    values = {
        "parent_vendor": vendor,
        "delivery_number": "DLV-2026-001" + suffix,
        "document_from": "Metsä Board",
        "description": "Kraftliner 140 g/m² for export cartons",
        "status": RawMaterialDelivery.Status.ACTIVE,
        "country_code": "FI",
        "country_name": "Finland",
        "forest_supplier_name": "Metsä Forest Oy",
        "fm_certification_type": "FSC",
        "fm_certificate_number": "FSC-C012345",
        "fm_certificate_expiry": date.today() + timedelta(days=365),
        "coc_certification": "FSC Mix 70%",
        "coc_certificate_number": "SGSCH-COC-001234",
        "coc_certificate_expiry": date.today() + timedelta(days=365),
        "material_sc_number": "SC-INTERNAL-77",
        "harvest_begin_month": "2025-01",
        "harvest_end_month": "2025-06",
        "location_geojson": PLOTS,
        "upstream_dds_reference": UPSTREAM_REFERENCE,
        "upstream_dds_verification": VERIFICATION,
        "original_kg": Decimal("5000"),
        "min_consumption_per_carton": Decimal("0.5"),
    }
    values.update(fields)
    delivery = RawMaterialDelivery.objects.create(**values)
    RawMaterialLine.objects.create(
        delivery=delivery,
        position=1,
        material_type="paper",
        weight_kg=Decimal("5000"),
        pulp_type="virgin",
        pulp_brand="Metsä",
        scientific_names=["Picea abies", "Pinus sylvestris"],
        common_names=["Norway spruce", "Scots pine"],
    )
    return delivery


def attach_file(delivery, kind: str, name: str, content: bytes) -> None:
    getattr(delivery, kind).save(name, ContentFile(content), save=False)
    delivery.files_meta = {**delivery.files_meta, kind: {"name": name, "size": len(content)}}
    delivery.save()


def make_cartons(
    delivery, *, count: int = 2, batch_code: str = "20261121A", article: str = "CT-4711", suffix=""
):
    product, _ = Product.objects.get_or_create(
        article_number=article + suffix,
        defaults={
            "name": "Export carton 600x400x400",
            "name_zh": "出口纸箱 600x400x400",
            "hs_code": "481910",
            "weight_per_carton_kg": Decimal("0.85"),
            "purchase_price": Decimal("0.9911"),
            "sales_price": Decimal("2.4567"),
        },
    )
    supplier, _ = Supplier.objects.get_or_create(
        number="S-100" + suffix,
        defaults={"name": "Evergreen Factory 1", "parent_vendor": delivery.parent_vendor},
    )
    order, _ = PurchaseOrder.objects.get_or_create(
        order_number=ORDER_NUMBER + suffix,
        defaults={"order_date": date.today(), "supplier": supplier, "total_amount": Decimal("98765.43")},
    )
    line, _ = PurchaseOrderLine.objects.get_or_create(
        order=order,
        line_number=1,
        defaults={
            "product": product,
            "product_number": product.article_number,
            "order_qty": Decimal("10000"),
            "unit_cost": UNIT_COST,
            "weight_per_carton": Decimal("0.85"),
        },
    )
    batch = ProductionBatch.objects.create(
        delivery=delivery,
        production_batch_code=batch_code,
        product=product,
        purchase_order_line=line,
        container="MSKU1234565",
        net_weight_per_carton_kg=Decimal("0.85"),
        carton_count=count,
        last_sequence=count,
    )
    labels = CartonLabel.objects.bulk_create(
        [
            CartonLabel(
                tenant_id=delivery.tenant_id,
                batch=batch,
                raw_material=delivery,
                code=secrets.token_hex(8).upper(),
                production_batch_code=batch_code,
                batch_sequence=n + 1,
                product=product,
                article_number=product.article_number,
                purchase_order_line=line,
                purchase_order=order.order_number,
                container=batch.container,
                net_weight_kg=Decimal("0.85"),
            )
            for n in range(count)
        ]
    )
    delivery.used_kg = Decimal("0.85") * count
    delivery.issued_cartons = count
    delivery.save(update_fields=["used_kg", "issued_cartons"])
    # as carton generation keeps it
    PurchaseOrderLine.objects.filter(pk=line.pk).update(cartons_issued=F("cartons_issued") + count)
    return labels
