"""Demo EUDR data for tenant 3 (EuroTrade Goods BV): supplier policies, raw-material deliveries of both
demo parent vendors (one nearly used up, one with an expired certificate, one inactive, one draft), their
plots, documents, production batches and a few hundred carton labels against the demo purchase orders.

Everything goes through the services, so balances, policy snapshots and label codes are real. Dates
are relative to the day the demo is loaded.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.core.files.base import ContentFile
from django.db.models import Q
from django.utils import timezone

from apps.eudr import services
from apps.eudr.delivery_file import template_csv
from apps.eudr.models import RawMaterialDelivery, SupplierPolicy
from apps.eudr.selectors import weight_balance
from apps.purchaseorders.models import PurchaseOrderLine
from apps.suppliers.models import ParentVendor
from apps.tenancy.context import tenant_context

TENANT = 3


def _polygon(lon: float, lat: float, d_lon: float, d_lat: float) -> list[list[list[float]]]:
    return [
        [
            [round(lon, 6), round(lat, 6)],
            [round(lon + d_lon, 6), round(lat, 6)],
            [round(lon + d_lon, 6), round(lat + d_lat, 6)],
            [round(lon + d_lon * 0.4, 6), round(lat + d_lat * 1.3, 6)],
            [round(lon, 6), round(lat + d_lat, 6)],
            [round(lon, 6), round(lat, 6)],
        ]
    ]


def _feature(geometry: dict, **properties) -> dict:
    return {"type": "Feature", "properties": properties, "geometry": geometry}


GUANGXI_PLOTS = {
    "type": "FeatureCollection",
    "features": [
        _feature(
            {"type": "Polygon", "coordinates": _polygon(108.412300, 22.951200, 0.012, 0.009)},
            ProducerName="Guangxi Gaofeng Forest Farm",
            ProducerCountry="CN",
            ProductionPlace="Gaofeng compartment 12, Nanning, Guangxi",
        ),
        _feature(
            {"type": "Polygon", "coordinates": _polygon(108.441800, 22.938400, 0.008, 0.007)},
            ProducerName="Guangxi Gaofeng Forest Farm",
            ProducerCountry="CN",
            ProductionPlace="Gaofeng compartment 15, Nanning, Guangxi",
        ),
        _feature(
            {"type": "Point", "coordinates": [109.284512, 23.751031]},
            ProducerName="Laibin Smallholder Cooperative",
            ProducerCountry="CN",
            ProductionPlace="Xingbin district, Laibin, Guangxi",
            Area=3.2,
        ),
    ],
}

BRAZIL_PLOTS = {
    "type": "FeatureCollection",
    "features": [
        _feature(
            {"type": "Polygon", "coordinates": _polygon(-39.612400, -17.842100, 0.015, 0.011)},
            ProducerName="Fazenda Santa Helena",
            ProducerCountry="BR",
            ProductionPlace="Teixeira de Freitas, Bahia",
        ),
        _feature(
            {"type": "Point", "coordinates": [-42.531177, -19.468230]},
            ProducerName="Vale do Rio Doce Florestal",
            ProducerCountry="BR",
            ProductionPlace="Belo Oriente, Minas Gerais",
            Area=2.75,
        ),
    ],
}

FINLAND_PLOTS = {
    "type": "FeatureCollection",
    "features": [
        _feature(
            {"type": "Polygon", "coordinates": _polygon(27.612000, 62.901500, 0.021, 0.010)},
            ProducerName="Metsäliitto Osuuskunta",
            ProducerCountry="FI",
            ProductionPlace="Kuopio, Pohjois-Savo",
        )
    ],
}

MASSON_EUCALYPTUS = (["Pinus massoniana", "Eucalyptus urophylla"], ["Masson pine", "eucalyptus"])


def _month(today, months_back: int) -> str:
    year, month = today.year, today.month - months_back
    while month <= 0:
        month += 12
        year -= 1
    return f"{year:04d}-{month:02d}"


def _certificate_pdf(title: str, number: str) -> bytes:
    from io import BytesIO

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = BytesIO()
    page = canvas.Canvas(buffer, pagesize=A4)
    page.setTitle(title)
    page.setFont("Helvetica-Bold", 20)
    page.drawString(72, 760, title)
    page.setFont("Helvetica", 12)
    page.drawString(72, 730, f"Certificate number: {number}")
    page.drawString(72, 712, "Demo document generated for CartonTrace.")
    page.showPage()
    page.save()
    return buffer.getvalue()


def _attach(delivery: RawMaterialDelivery, kind: str, name: str, content: bytes) -> None:
    services.raw_material_attach_file(
        delivery_id=delivery.pk, kind=kind, upload=ContentFile(content, name=name)
    )


def _order_lines(vendor: ParentVendor) -> list[PurchaseOrderLine]:
    """The vendor's order lines that can carry cartons: confirmed (not draft or cancelled), with a weight
    per carton."""
    return list(
        PurchaseOrderLine.objects.filter(order__supplier__parent_vendor=vendor)
        .exclude(order__status__in=("cancelled", "draft"))
        .filter(Q(weight_per_carton__gt=0) | Q(product__weight_per_carton_kg__gt=0))
        .select_related("order__supplier", "product")
        .order_by("order__order_date", "line_number")
    )


def _generate(delivery, line, count: int, code: str, user, container: str = "") -> int:
    if count <= 0:
        return 0
    services.cartons_generate(
        delivery_id=delivery.pk,
        count=count,
        production_batch_code=code,
        product=line.product,
        purchase_order_line=line,
        container=container,
        user=user,
    )
    return count


# Nordic Packaging (tenant 2) is the downstream trader of the demo (apps/tenancy/demo.py): it files no
# statement of its own but keeps its suppliers' reference numbers for 5 years (docs/eudr.md, "Received
# reference numbers"): one statement's and one simplified declaration's (`S…`), not yet verified (the
# demo has no TRACES account; "Verify" on the page asks the EU information system).
DOWNSTREAM_TENANT = 2
DOWNSTREAM_REFERENCES = [
    (
        "PV-SEP",
        "SEP-DN-2026-0101",
        20,
        "26NLX7TVCZAQ2S",
        "SFFCB4Y3",
        "Delivery note of the first 2026 order.",
    ),
    (
        "PV-NBC",
        "NBC-INV-2026-0042",
        6,
        "S26SEFORESTA01",
        "H6ORMNTX",
        "Simplified declaration of the producer.",
    ),
]


def _received_references(ctx: dict) -> int:
    from apps.eudr.received_models import ReceivedReference
    from apps.eudr.references import reference_kind
    from apps.eudr.verification import _keep_until

    tenant = ctx["tenants"].get(DOWNSTREAM_TENANT)
    if tenant is None:
        return 0
    today = timezone.localdate()
    made = 0
    with tenant_context(tenant):
        if ReceivedReference.objects.exists():
            return 0
        vendors = {v.code: v for v in ParentVendor.objects.filter(code__in=["PV-SEP", "PV-NBC"])}
        for code, document, days_ago, reference, verification, notes in DOWNSTREAM_REFERENCES:
            vendor = vendors.get(code)
            if vendor is None:
                continue
            received_on = today - timedelta(days=days_ago)
            ReceivedReference.objects.create(
                parent_vendor=vendor,
                document_number=document,
                received_on=received_on,
                reference_number=reference,
                verification_number=verification,
                kind=reference_kind(reference),
                notes=notes,
                keep_until=_keep_until(received_on),
                created_by=ctx["users"].get("admin"),
            )
            made += 1
    return made


def load(ctx: dict) -> None:
    _received_references(ctx)
    tenant = ctx["tenants"][TENANT]
    users = ctx["users"]
    admin = users["admin"]
    today = timezone.localdate()
    with tenant_context(tenant):
        if RawMaterialDelivery.objects.exists():
            return
        vendors = {v.code: v for v in ParentVendor.objects.filter(code__in=["PV-SEP", "PV-NBC"])}
        sep, nbc = vendors.get("PV-SEP"), vendors.get("PV-NBC")
        if sep is None or nbc is None:
            return
        year_ago = today - timedelta(days=365)
        SupplierPolicy.objects.create(
            parent_vendor=None,
            min_consumption_per_carton=Decimal("0.100"),
            loss_rate_percent=Decimal("2"),
            valid_from=year_ago,
            notes="Tenant default for vendors without their own policy.",
        )
        SupplierPolicy.objects.create(
            parent_vendor=sep,
            material_type="paper",
            min_consumption_per_carton=Decimal("0.350"),
            loss_rate_percent=Decimal("3"),
            valid_from=year_ago,
            notes="Corrugated board from kraftliner; 3% trim loss measured in 2025.",
        )
        SupplierPolicy.objects.create(
            parent_vendor=nbc,
            material_type="",
            min_consumption_per_carton=Decimal("0.300"),
            loss_rate_percent=Decimal("5"),
            cap_mode=SupplierPolicy.CapMode.FIXED,
            cap_value=4000,
            valid_from=year_ago,
            notes="Fixed carton cap per delivery agreed in the 2026 supply contract.",
        )

        supplier_user = users.get("supplier", admin)
        supplier2_user = users.get("supplier2", admin)
        sep_lines, nbc_lines = _order_lines(sep), _order_lines(nbc)
        labels = 0

        def create(vendor, user, number, lines, **fields):
            data = {
                "parent_vendor": vendor,
                "delivery_number": number,
                "fm_certification_type": "FSC",
                "fm_certificate_expiry": today + timedelta(days=420),
                "coc_certificate_expiry": today + timedelta(days=380),
                **fields,
            }
            return services.raw_material_create(data=data, lines=lines, user=user, as_draft=False)

        # 1. Shanghai Evergreen: a large Guangxi delivery in production.
        main = create(
            sep,
            supplier_user,
            "SEP-DN-2026-0101",
            [
                {
                    "material_type": "paper",
                    "weight_kg": Decimal("18000"),
                    "pulp_type": "virgin",
                    "pulp_brand": "Sun Paper Kraftliner 175",
                    "scientific_names": MASSON_EUCALYPTUS[0],
                    "common_names": MASSON_EUCALYPTUS[1],
                },
                {
                    "material_type": "paper",
                    "weight_kg": Decimal("6500"),
                    "pulp_type": "mixed",
                    "pulp_brand": "Nine Dragons Testliner",
                    "scientific_names": ["Eucalyptus urophylla"],
                    "common_names": ["eucalyptus"],
                },
            ],
            document_from="Guangxi Sun Paper Co., Ltd.",
            description="Kraftliner and testliner for export cartons, Q4 production",
            country_code="CN",
            forest_supplier_name="Guangxi Gaofeng Forest Farm",
            fm_certificate_number="FSC-C104389",
            coc_certification="FSC Mix 70%",
            coc_certificate_number="SGSHK-COC-330912",
            material_sc_number="SC-GX-2026-0417",
            harvest_begin_month=_month(today, 14),
            harvest_end_month=_month(today, 8),
            location_geojson=GUANGXI_PLOTS,
        )
        _attach(main, "delivery_file", "SEP-DN-2026-0101.csv", template_csv())
        _attach(
            main,
            "vendor_certificate",
            "FSC-C104389.pdf",
            _certificate_pdf("FSC Forest Management", "FSC-C104389"),
        )
        _attach(
            main, "sc_invoice", "SC-GX-2026-0417.pdf", _certificate_pdf("Sales invoice", "SC-GX-2026-0417")
        )
        if sep_lines:
            labels += _generate(
                main, sep_lines[0], 120, f"{today - timedelta(days=9):%Y%m%d}A", supplier_user, "MSCU1234566"
            )
            labels += _generate(
                main, sep_lines[-1], 80, f"{today - timedelta(days=2):%Y%m%d}A", supplier_user
            )

        # 2. Shanghai Evergreen: nearly used up (just over the 10 kg minimum left).
        nearly = create(
            sep,
            supplier_user,
            "SEP-DN-2026-0088",
            [
                {
                    "material_type": "paper",
                    "weight_kg": Decimal("420"),
                    "pulp_type": "virgin",
                    "pulp_brand": "Sun Paper Kraftliner 140",
                    "scientific_names": ["Pinus massoniana"],
                    "common_names": ["Masson pine"],
                }
            ],
            document_from="Guangxi Sun Paper Co., Ltd.",
            description="Remainder roll, kraftliner 140 g/m²",
            country_code="CN",
            forest_supplier_name="Guangxi Gaofeng Forest Farm",
            fm_certificate_number="FSC-C104389",
            coc_certification="FSC 100%",
            coc_certificate_number="SGSHK-COC-330912",
            harvest_begin_month=_month(today, 20),
            harvest_end_month=_month(today, 15),
            location_geojson={"type": "FeatureCollection", "features": GUANGXI_PLOTS["features"][:1]},
        )
        if sep_lines:

            def net_of(line):
                weight = line.weight_per_carton or line.product.weight_per_carton_kg
                return max(weight, nearly.min_consumption_per_carton)

            line = max(sep_lines, key=net_of)
            net = net_of(line)
            remaining = weight_balance(nearly).remaining_kg
            count = int((remaining - Decimal("10.4")) // net)
            labels += _generate(nearly, line, count, f"{today - timedelta(days=20):%Y%m%d}B", supplier_user)

        # 3. Shanghai Evergreen: Finnish paper whose FM certificate has expired since.
        expired = create(
            sep,
            supplier_user,
            "SEP-DN-2025-0412",
            [
                {
                    "material_type": "paper",
                    "weight_kg": Decimal("2400"),
                    "pulp_type": "virgin",
                    "pulp_brand": "Metsä Board Kraftliner",
                    "scientific_names": ["Picea abies", "Pinus sylvestris"],
                    "common_names": ["Norway spruce", "Scots pine"],
                }
            ],
            document_from="Metsä Board Oyj",
            description="White-top kraftliner bought from an EU operator",
            country_code="FI",
            forest_supplier_name="Metsäliitto Osuuskunta",
            fm_certification_type="PEFC",
            fm_certificate_number="PEFC/02-21-03",
            coc_certification="PEFC 70% certified",
            coc_certificate_number="PEFC/02-31-121",
            harvest_begin_month=_month(today, 26),
            harvest_end_month=_month(today, 22),
            location_geojson=FINLAND_PLOTS,
            upstream_dds_reference="25FIKGLE0Q7R3B",
            upstream_dds_verification="K7Q2M4XZ",
        )
        if sep_lines:
            labels += _generate(
                expired, sep_lines[0], 50, f"{today - timedelta(days=60):%Y%m%d}A", supplier_user
            )
        RawMaterialDelivery.objects.filter(pk=expired.pk).update(
            fm_certificate_expiry=today - timedelta(days=12)
        )
        services.raw_materials_expire()

        # 4. Shanghai Evergreen: a draft the supplier is still filling in.
        services.raw_material_create(
            data={"parent_vendor": sep, "delivery_number": "SEP-DN-2026-0117", "country_code": "CN"},
            lines=[{"material_type": "paper", "weight_kg": Decimal("3200")}],
            user=supplier_user,
            as_draft=True,
        )

        # 5. Ningbo Bluewave: Brazilian eucalyptus pulp and paper.
        brazil = create(
            nbc,
            supplier2_user,
            "NBC-DN-2026-0033",
            [
                {
                    "material_type": "paper",
                    "weight_kg": Decimal("9000"),
                    "pulp_type": "virgin",
                    "pulp_brand": "Suzano Eucafluff",
                    "scientific_names": ["Eucalyptus grandis", "Eucalyptus urophylla"],
                    "common_names": ["flooded gum", "eucalyptus"],
                },
                {
                    "material_type": "pulp",
                    "weight_kg": Decimal("1500"),
                    "pulp_type": "virgin",
                    "pulp_brand": "Suzano BEKP",
                    "scientific_names": ["Eucalyptus grandis"],
                    "common_names": ["flooded gum"],
                },
            ],
            document_from="Suzano S.A.",
            description="Eucalyptus kraft paper and pulp, vessel MSC Aurora",
            country_code="BR",
            forest_supplier_name="Fazenda Santa Helena",
            fm_certificate_number="FSC-C009927",
            coc_certification="FSC Mix Credit",
            coc_certificate_number="BV-COC-811004",
            material_sc_number="SC-BR-8841",
            harvest_begin_month=_month(today, 18),
            harvest_end_month=_month(today, 12),
            location_geojson=BRAZIL_PLOTS,
        )
        _attach(
            brazil,
            "forest_supplier_certificate",
            "FSC-C009927.pdf",
            _certificate_pdf("FSC Forest Management", "FSC-C009927"),
        )
        if nbc_lines:
            labels += _generate(
                brazil,
                nbc_lines[0],
                150,
                f"{today - timedelta(days=5):%Y%m%d}C",
                supplier2_user,
                "TGHU8812290",
            )

        # 6. Ningbo Bluewave: recycled board, set inactive by purchasing.
        inactive = create(
            nbc,
            supplier2_user,
            "NBC-DN-2026-0019",
            [
                {
                    "material_type": "board",
                    "weight_kg": Decimal("5200"),
                    "pulp_type": "recycled",
                    "pulp_brand": "Lee & Man",
                }
            ],
            document_from="Lee & Man Paper",
            description="Recycled fluting board",
            country_code="CN",
            forest_supplier_name="Lee & Man recovered fibre",
            fm_certification_type="none",
            coc_certification="FSC Recycled",
            coc_certificate_number="SGSHK-COC-009876",
            harvest_begin_month=_month(today, 10),
            harvest_end_month=_month(today, 9),
        )
        services.raw_material_set_status(delivery_id=inactive.pk, status="inactive", user=admin)
        ctx["eudr"] = {"deliveries": RawMaterialDelivery.objects.count(), "labels": labels}
