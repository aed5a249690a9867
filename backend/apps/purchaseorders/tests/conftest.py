"""Purchasing fixtures: two parent vendors with a supplier each in tenant 3, one in tenant 2, carton
products, a warehouse with a receiving location, and a user of every role."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from apps.inventory.models import Location, Warehouse
from apps.products.models import Product
from apps.purchaseorders import services
from apps.suppliers.models import ParentVendor, Supplier


@pytest.fixture
def world(tenant2, tenant3, in_tenant, make_user):
    with in_tenant(tenant3):
        vendor_a = ParentVendor.objects.create(name="Shanghai Evergreen Packaging", cname="上海常青包装")
        vendor_b = ParentVendor.objects.create(name="Ningbo Bluewave Cartons", cname="宁波蓝波纸箱")
        supplier_a = Supplier.objects.create(parent_vendor=vendor_a, number="S-1001", name="Evergreen No.1")
        supplier_b = Supplier.objects.create(parent_vendor=vendor_b, number="S-2001", name="Bluewave Ningbo")
        carton = Product.objects.create(
            article_number="CT-6040", name="Carton 600x400", weight_per_carton_kg=Decimal("0.850")
        )
        box = Product.objects.create(article_number="CT-3020", name="Box 300x200", weight_per_carton_kg=None)
        warehouse = Warehouse.objects.create(code="RTM", name="Rotterdam", is_default=True)
        receiving = Location.objects.create(warehouse=warehouse, code="RECV", kind=Location.Kind.RECEIVING)
        Location.objects.create(warehouse=warehouse, code="A-01", kind=Location.Kind.STORAGE)
    with in_tenant(tenant2):
        vendor_x = ParentVendor.objects.create(name="Vendor X")
        supplier_x = Supplier.objects.create(parent_vendor=vendor_x, number="S-9", name="Factory X")
        product_x = Product.objects.create(article_number="X-1", name="Other tenant carton")
    return {
        "tenant2": tenant2,
        "tenant3": tenant3,
        "vendor_a": vendor_a,
        "vendor_b": vendor_b,
        "supplier_a": supplier_a,
        "supplier_b": supplier_b,
        "supplier_x": supplier_x,
        "carton": carton,
        "box": box,
        "product_x": product_x,
        "warehouse": warehouse,
        "receiving": receiving,
        "admin": make_user(tenant3, "Administrator", username="boss"),
        "purchasing": make_user(tenant3, "Purchasing", username="buyer"),
        "sales": make_user(tenant3, "Sales", username="seller"),
        "warehouse_user": make_user(tenant3, "Warehouse", username="picker", is_warehouse=True),
        "supplier_user_a": make_user(
            tenant3, "Supplier", username="sup_a", is_supplier=True, parent_vendor=vendor_a
        ),
        "supplier_user_b": make_user(
            tenant3, "Supplier", username="sup_b", is_supplier=True, parent_vendor=vendor_b
        ),
        "other_admin": make_user(tenant2, "Administrator", username="stranger"),
    }


@pytest.fixture
def make_order(world, in_tenant):
    def make(supplier=None, lines=None, tenant=None, confirm=True, **fields):
        """An order as the service creates it (a draft), confirmed unless `confirm=False`."""
        tenant = tenant or world["tenant3"]
        with in_tenant(tenant):
            order = services.purchase_order_create(
                supplier=supplier or world["supplier_a"],
                order_date=fields.pop("order_date", date(2026, 3, 1)),
                lines=[
                    services.LineInput(product=product, order_qty=Decimal(qty), unit_cost=Decimal(cost))
                    for product, qty, cost in (lines or [(world["carton"], "100", "1.25")])
                ],
                **fields,
            )
            return services.purchase_order_confirm(order=order) if confirm else order

    return make


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def issue_labels(world, in_tenant):
    """Issues EUDR carton labels against an order line (ORM rows: a delivery of the line's parent
    vendor, a production batch, the labels), in tenant 3."""
    from django.db.models import F

    from apps.eudr.models import CartonLabel, ProductionBatch
    from apps.eudr.tests.trace_data import make_delivery

    issued = {"n": 0}

    def issue(line, *, count=2, status="active", container=""):
        issued["n"] += 1
        n = issued["n"]
        with in_tenant(world["tenant3"]):
            line = type(line).objects.select_related("order__supplier__parent_vendor").get(pk=line.pk)
            delivery = make_delivery(
                vendor_name=line.order.supplier.parent_vendor.name, delivery_number=f"DLV-TEST-{n}"
            )
            weight = line.weight_per_carton or Decimal("0.5")
            batch = ProductionBatch.objects.create(
                delivery=delivery,
                production_batch_code=f"20260301{chr(64 + n)}",
                product=line.product,
                purchase_order_line=line,
                container=container,
                net_weight_per_carton_kg=weight,
                carton_count=count,
                last_sequence=count,
            )
            labels = CartonLabel.objects.bulk_create(
                [
                    CartonLabel(
                        tenant_id=delivery.tenant_id,
                        batch=batch,
                        raw_material=delivery,
                        code=f"TEST{n:03d}{seq:04d}",
                        production_batch_code=batch.production_batch_code,
                        batch_sequence=seq,
                        product=line.product,
                        article_number=line.product_number,
                        purchase_order_line=line,
                        purchase_order=line.order.order_number,
                        container=container,
                        net_weight_kg=weight,
                        status=status,
                    )
                    for seq in range(1, count + 1)
                ]
            )
            if status == CartonLabel.Status.ACTIVE:
                # as carton generation keeps it (apps/eudr/services/cartons.py)
                type(line).objects.filter(pk=line.pk).update(cartons_issued=F("cartons_issued") + count)
            return labels

    return issue
