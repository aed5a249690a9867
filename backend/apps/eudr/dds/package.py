"""The due diligence package ZIP of one raw-material delivery.

    dds.json              the statement: the V3 SubmitDdsRequest as JSON, plus our meta (statement.py)
    dds.xml               the same request as the SOAP body's XML (xml.py)
    geolocation.geojson   the validated, normalised plots
    files/<kind>/<name>   every uploaded document of the delivery
    summary.pdf           facts and checks for people (summary_pdf.py)

Call inside the delivery's tenant (tenant_context): the reads go through the tenant-scoped managers.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from django.core.files import File
from django.core.files.storage import default_storage
from django.db.models import Count, Sum
from django.utils.translation import gettext as _

from apps.eudr.models import CartonLabel, FileKind, RawMaterialDelivery
from apps.products.models import Product

from . import xml as dds_xml
from .checks import ERROR, DdsCheck, DdsFacts, geo_of, run_checks, statement_checks
from .jobs import package_path
from .statement import build_request, build_statement, internal_reference
from .summary_pdf import build_summary_pdf

logger = logging.getLogger(__name__)
Progress = Callable[[int, int, str], None]


def delivery_files(delivery: RawMaterialDelivery) -> list[tuple[str, Any, str]]:
    """[(kind, field file, display name)] of the uploaded documents, in the form's order."""
    found = []
    for kind in FileKind.values:
        field_file = getattr(delivery, kind, None)
        if not field_file:
            continue
        meta = (delivery.files_meta or {}).get(kind) or {}
        name = PurePath(str(meta.get("name") or field_file.name).replace("\\", "/")).name or kind
        found.append((kind, field_file, name))
    return found


def load_facts(delivery: RawMaterialDelivery) -> DdsFacts:
    from apps.tenancy.models import Tenant

    lines = list(delivery.lines.all())
    active = CartonLabel.objects.filter(raw_material=delivery, status=CartonLabel.Status.ACTIVE)
    per_product = list(active.values("product_id").annotate(kg=Sum("net_weight_kg"), n=Count("id")))
    products = Product.objects.in_bulk([row["product_id"] for row in per_product])
    return DdsFacts(
        delivery=delivery,
        tenant=Tenant.objects.get(pk=delivery.tenant_id),
        lines=lines,
        labels_net_kg=sum((row["kg"] or Decimal(0) for row in per_product), Decimal(0)),
        labels_count=sum(row["n"] for row in per_product),
        products=[(products[row["product_id"]], row["kg"], row["n"]) for row in per_product],
        geo=geo_of(delivery),
        files=delivery_files(delivery),
    )


def check_delivery(delivery: RawMaterialDelivery) -> tuple[DdsFacts, list[DdsCheck]]:
    """The checks of the delivery's information, then, when nothing required is missing, the rules on the
    whole statement and our XML Schema of the request (a failure there is a bug of ours, reported as such
    rather than left for the EU information system to refuse)."""
    facts = load_facts(delivery)
    found = run_checks(facts)
    if any(c.severity == ERROR for c in found):
        return facts, found
    request = build_request(facts, internal_reference_number=internal_reference(delivery, "CHECK"))
    found.extend(statement_checks(request))
    if not any(c.severity == ERROR for c in found):
        problems = dds_xml.validate_request(dds_xml.submit_request(request))
        if problems:
            logger.error("Statement of delivery %s fails the V3 schema: %s", delivery.pk, problems[:5])
            found.append(
                DdsCheck(
                    "statement_schema_invalid",
                    str(
                        _(
                            "The statement does not match the EU information system's format (%(problem)s). "
                            "Please report this to support."
                        )
                        % {"problem": problems[0]}
                    ),
                    ERROR,
                )
            )
    return facts, found


class PackageRefused(Exception):
    """Required information is missing; `checks` lists every finding."""

    def __init__(self, checks: list[DdsCheck]) -> None:
        self.checks = checks
        super().__init__("; ".join(c.message for c in checks if c.severity == ERROR))


def build_package(*, delivery_id: int, job_id: str, progress: Progress | None = None) -> dict[str, Any]:
    """Builds the ZIP and saves it through the storage API; returns {path, file_name, size, warnings}.

    Raises PackageRefused when a check finds required information missing (the data may have changed
    since the request that queued the job).
    """
    report = progress or (lambda done, total, step: None)
    delivery = RawMaterialDelivery.objects.select_related("parent_vendor").get(pk=delivery_id)
    facts, checks = check_delivery(delivery)
    total = 4 + len(facts.files)
    report(1, total, "checks")
    if any(c.severity == ERROR for c in checks):
        raise PackageRefused(checks)

    dds = build_statement(facts, checks=checks, job_id=job_id)
    documents = [f"files/{kind}/{name}" for kind, _file, name in facts.files]
    with tempfile.TemporaryFile() as buffer:
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("dds.json", json.dumps(dds, ensure_ascii=False, indent=2))
            request = {"operatorRole": dds["operatorRole"], "statement": dds["statement"]}
            archive.writestr("dds.xml", dds_xml.to_bytes(dds_xml.submit_request(request)))
            archive.writestr(
                "geolocation.geojson",
                json.dumps(facts.geo.feature_collection if facts.geo else None, ensure_ascii=False),
            )
            report(2, total, "statement")
            for position, (kind, field_file, name) in enumerate(facts.files, start=1):
                with field_file.open("rb") as source, archive.open(f"files/{kind}/{name}", "w") as target:
                    shutil.copyfileobj(source, target, 1024 * 1024)
                report(2 + position, total, "documents")
            archive.writestr(
                "summary.pdf", build_summary_pdf(facts, dds=dds, checks=checks, documents=documents)
            )
            report(total - 1, total, "summary")
        size = buffer.tell()
        buffer.seek(0)
        path = default_storage.save(
            package_path(tenant_id=delivery.tenant_id, delivery_id=delivery.pk, job_id=job_id),
            File(buffer, name=f"{job_id}.zip"),
        )
    report(total, total, "stored")
    return {
        "path": path,
        "file_name": download_name(delivery),
        "size": size,
        "warnings": [c.as_dict() for c in checks if c.severity != ERROR],
    }


def download_name(delivery: RawMaterialDelivery) -> str:
    number = "".join(
        ch if ch.isalnum() or ch in "-_" else "-" for ch in (delivery.delivery_number or str(delivery.pk))
    )
    return f"DDS-{number}.zip"
