"""Demo carriers (tenants 2 and 3) and inbound shipments carrying the demo purchase orders (tenant 3)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from apps.logistics.models import ShipmentCompany, ShipmentInfo
from apps.logistics.services import shipment_create
from apps.purchaseorders.models import PurchaseOrder
from apps.tenancy.context import tenant_context

CARRIERS = [
    (
        "Maersk",
        "Customer service Rotterdam",
        "nl.import@maersk.example",
        "+31 10 712 0000",
        "https://www.maersk.com",
        "https://www.maersk.com/tracking/{container}",
    ),
    (
        "COSCO Shipping Lines",
        "Wang Fang",
        "export.sha@coscoshipping.example",
        "+86 21 6596 6666",
        "https://lines.coscoshipping.com",
        "https://elines.coscoshipping.com/ebusiness/cargoTracking?trackingType=CONTAINER&number={container}",
    ),
    (
        "MSC",
        "Import desk Antwerp",
        "be.import@msc.example",
        "+32 3 203 7111",
        "https://www.msc.com",
        "https://www.msc.com/en/track-a-shipment?agencyPath=msc&trackingNumber={container}",
    ),
    (
        "Hapag-Lloyd",
        "Jan Peters",
        "desk.hamburg@hlag.example",
        "+49 40 3001 0",
        "https://www.hapag-lloyd.com",
        "https://www.hapag-lloyd.com/en/online-business/track/track-by-container-solution.html?container={container}",
    ),
]

# (container, seal, carrier, vessel, voyage, POL, POD, ETD in days, ETA in days, status, order descriptions)
SHIPMENTS = [
    (
        "MSCU1234566",
        "ML-CN4471825",
        "MSC",
        "MSC GULSUN",
        "FE245W",
        "CNSHA",
        "NLRTM",
        -18,
        12,
        "in_transit",
        ["Kitchenware master cartons", "E-commerce cartons Q3"],
    ),
    (
        "CBHU4567890",
        "CS-0098812",
        "COSCO Shipping Lines",
        "COSCO SHIPPING UNIVERSE",
        "052W",
        "CNNGB",
        "NLRTM",
        9,
        41,
        "planned",
        ["Printed retail boxes", "Folding boxes, call-off 2026"],
    ),
    (
        "MAEU1234567",
        "MK-5521907",
        "Maersk",
        "MAERSK EINDHOVEN",
        "412W",
        "CNSHA",
        "NLRTM",
        -52,
        -21,
        "received",
        ["Spring range shipping cartons", "Heavy duty pallet boxes"],
    ),
]


def load(ctx: dict) -> None:
    today = timezone.localdate()
    ctx["shipment_companies"] = {}
    ctx["shipments"] = {}
    for tenant_id in (2, 3):
        with tenant_context(ctx["tenants"][tenant_id]):
            companies = {}
            for name, contact, email, phone, website, template in CARRIERS:
                companies[name], _ = ShipmentCompany.objects.get_or_create(
                    name=name,
                    defaults={
                        "contact_name": contact,
                        "email": email,
                        "phone": phone,
                        "website": website,
                        "tracking_url_template": template,
                    },
                )
            ctx["shipment_companies"][tenant_id] = companies
    with tenant_context(ctx["tenants"][3]):
        shipments = []
        if not ShipmentInfo.objects.exists():
            companies = ctx["shipment_companies"][3]
            for container, seal, carrier, vessel, voyage, pol, pod, etd, eta, status, orders in SHIPMENTS:
                shipment = shipment_create(
                    fields={
                        "container_number": container,
                        "seal_number": seal,
                        "shipment_company": companies[carrier],
                        "vessel": vessel,
                        "voyage": voyage,
                        "port_of_loading": pol,
                        "port_of_discharge": pod,
                        "etd": today + timedelta(days=etd),
                        "eta": today + timedelta(days=eta),
                        "status": status,
                    },
                    purchase_orders=list(PurchaseOrder.objects.filter(description__in=orders)),
                )
                shipments.append(shipment)
        ctx["shipments"][3] = shipments or list(ShipmentInfo.objects.all())
    # Outbound dispatches need the sales shipments, which load later: planned once every area has loaded.
    ctx.setdefault("after_all_areas", []).append(load_dispatches)


# (carrier, vehicle, packages per shipment, kg per package)
DISPATCH_PLAN = [("DHL Freight", "BX-482-KL"), ("DSV Road", "VZ-771-P"), ("DHL Freight", "BX-482-KL")]


def load_dispatches(ctx: dict) -> None:
    """Tenant 3: today's and tomorrow's pickups for the sales shipments not yet delivered, by road
    carrier, with vehicle, tracking number, packages and weight (the loading list of the day)."""
    from decimal import Decimal

    from apps.logistics.models import Dispatch
    from apps.salesorders.models import Shipment as SalesShipment

    today = timezone.localdate()
    with tenant_context(ctx["tenants"][3]):
        if Dispatch.objects.exists():
            return
        carriers = {}
        for name, email, website in (
            ("DHL Freight", "freight.nl@dhl.example", "https://www.dhl.com"),
            ("DSV Road", "road.nl@dsv.example", "https://www.dsv.com"),
        ):
            carriers[name], _ = ShipmentCompany.objects.get_or_create(
                name=name, defaults={"email": email, "website": website}
            )
        shipments = list(
            SalesShipment.objects.exclude(status="delivered").select_related("sales_order").order_by("pk")[:6]
        )
        for index, shipment in enumerate(shipments):
            carrier, vehicle = DISPATCH_PLAN[index % len(DISPATCH_PLAN)]
            packages = 2 + index % 4
            Dispatch.objects.create(
                sales_shipment=shipment,
                carrier=carriers[carrier],
                pickup_date=today + timedelta(days=index % 2),
                vehicle=vehicle,
                tracking_number=f"{'JJD' if carrier.startswith('DHL') else 'DSV'}{4401000 + index * 17}",
                packages=packages,
                weight_kg=Decimal(packages) * Decimal("38.500"),
            )
