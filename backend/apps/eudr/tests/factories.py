"""Building blocks of the EUDR tests: vendors, an order line to produce against, deliveries (through
the services, so their balances are real). Call inside `tenant_context(tenant)`."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

from apps.eudr import services
from apps.eudr.models import RawMaterialDelivery, SupplierPolicy
from apps.products.models import Product
from apps.purchaseorders.models import PurchaseOrder, PurchaseOrderLine
from apps.suppliers.models import ParentVendor, Supplier

_counter = {"n": 0}


def _next() -> int:
    _counter["n"] += 1
    return _counter["n"]


def vendor(name: str = "Shanghai Evergreen Packaging", **fields) -> ParentVendor:
    return ParentVendor.objects.get_or_create(
        name=name, defaults={"cname": fields.pop("cname", ""), **fields}
    )[0]


def order_line(
    parent_vendor: ParentVendor,
    *,
    weight_per_carton: Decimal | None = Decimal("0.500"),
    product_weight: Decimal | None = Decimal("0.450"),
    status: str = "confirmed",
) -> PurchaseOrderLine:
    n = _next()
    product = Product.objects.create(
        article_number=f"CT-{n:04d}", name=f"Export carton {n}", weight_per_carton_kg=product_weight
    )
    supplier = Supplier.objects.create(parent_vendor=parent_vendor, number=f"S-{n:04d}", name=f"Factory {n}")
    order = PurchaseOrder.objects.create(
        order_number=f"PO-2026-{n:05d}", order_date=date.today(), supplier=supplier, status=status
    )
    return PurchaseOrderLine.objects.create(
        order=order,
        line_number=1,
        product=product,
        product_number=product.article_number,
        order_qty=Decimal("10000"),
        unit_cost=Decimal("0.85"),
        weight_per_carton=weight_per_carton,
    )


def policy(parent_vendor: ParentVendor | None, **fields) -> SupplierPolicy:
    values = {
        "min_consumption_per_carton": Decimal("0.200"),
        "loss_rate_percent": Decimal("5"),
        "cap_mode": SupplierPolicy.CapMode.BY_WEIGHT,
        "valid_from": date.today() - timedelta(days=30),
    }
    values.update(fields)
    return SupplierPolicy.objects.create(parent_vendor=parent_vendor, **values)


def delivery_data(parent_vendor: ParentVendor | None, **fields) -> dict:
    data = {
        "parent_vendor": parent_vendor,
        "delivery_number": f"DN-{_next():05d}",
        "document_from": "Guangxi Sun Paper",
        "description": "Kraftliner 140 g/m2",
        "country_code": "CN",
        "forest_supplier_name": "Guangxi Gaofeng Forest Farm",
        "fm_certification_type": "FSC",
        "fm_certificate_number": "FSC-C100200",
        "fm_certificate_expiry": date.today() + timedelta(days=365),
        "coc_certification": "FSC Mix 70%",
        "coc_certificate_number": "SGSHK-COC-000123",
        "coc_certificate_expiry": date.today() + timedelta(days=365),
        "harvest_begin_month": "2025-01",
        "harvest_end_month": "2025-06",
    }
    data.update(fields)
    return data


def paper_line(weight: str | Decimal = "1000", **fields) -> dict:
    line = {
        "material_type": "paper",
        "weight_kg": Decimal(str(weight)),
        "pulp_type": "virgin",
        "pulp_brand": "Sun Paper",
        "scientific_names": ["Pinus massoniana"],
        "common_names": ["Masson pine"],
    }
    line.update(fields)
    return line


def delivery(
    parent_vendor: ParentVendor, *, weight: str | Decimal = "1000", user=None, draft: bool = False, **fields
) -> RawMaterialDelivery:
    return services.raw_material_create(
        data=delivery_data(parent_vendor, **fields), lines=[paper_line(weight)], user=user, as_draft=draft
    )


def generate(
    delivery_obj: RawMaterialDelivery, line: PurchaseOrderLine, count: int, code: str = "20261121A", **kw
):
    return services.cartons_generate(
        delivery_id=delivery_obj.pk,
        count=count,
        production_batch_code=code,
        product=line.product,
        purchase_order_line=line,
        container=kw.pop("container", ""),
        user=kw.pop("user", None),
        **kw,
    )


def world(tenant3, tenant2, in_tenant, make_user) -> SimpleNamespace:
    """Two vendors in tenant 3 (with a supplier user each), an admin, a purchaser, a warehouse user, and
    a vendor in tenant 2."""
    w = SimpleNamespace()
    with in_tenant(tenant3):
        w.vendor_a = vendor("Shanghai Evergreen Packaging", cname="上海常青包装")
        w.vendor_b = vendor("Ningbo Bluewave Cartons", cname="宁波蓝波纸箱")
        w.line_a = order_line(w.vendor_a)
        w.line_b = order_line(w.vendor_b)
    with in_tenant(tenant2):
        w.vendor_x = vendor("Nordic Vendor")
        w.line_x = order_line(w.vendor_x)
    w.admin = make_user(tenant3, "Administrator", username="eudr-admin")
    w.purchaser = make_user(tenant3, "Purchasing", username="eudr-purchaser")
    w.sales = make_user(tenant3, "Sales", username="eudr-sales")
    w.warehouse = make_user(tenant3, "Warehouse", username="eudr-warehouse", is_warehouse=True)
    w.supplier_a = make_user(
        tenant3, "Supplier", username="eudr-supplier-a", is_supplier=True, parent_vendor=w.vendor_a
    )
    w.supplier_b = make_user(
        tenant3, "Supplier", username="eudr-supplier-b", is_supplier=True, parent_vendor=w.vendor_b
    )
    w.admin_x = make_user(tenant2, "Administrator", username="eudr-admin-x")
    w.tenant3, w.tenant2 = tenant3, tenant2
    return w
