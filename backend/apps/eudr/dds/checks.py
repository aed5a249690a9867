"""Checks before a due diligence package is built (docs/regulation.md, "What our product adds").

Each finding is a `DdsCheck`: a stable `code`, a message in the active language, a `severity` ("error"
refuses the package: the information is required for the statement; "warning" is carried into the package
and shown) and, for plot problems, the `feature` index in the location GeoJSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.dates import day_text
from apps.eudr import references
from apps.eudr.geo import GeoResult, validate_geojson
from apps.tenancy.operator import missing_for_statement, normalise_identifier

ERROR = "error"
WARNING = "warning"
# The EUDR cut-off: the wood must come from land not deforested after 31 December 2020.
CUTOFF_MONTH = "2021-01"
DESCRIPTION_MAX = 150
# Business rules of the EU information system (Validation rules 1.3; docs/regulation.md "The V3 submission").
MAX_STATEMENT_GEOLOCATION_BYTES = 25 * 1024 * 1024
MAX_STATEMENT_PRODUCERS = 10_000
MAX_COMMODITY_PRODUCERS = 1_000
MAX_COMMODITIES = 200
MAX_SPECIES = 500
REPRESENTED_KEYS = frozenset(
    {
        "represented_operator_name",
        "represented_operator_street",
        "represented_operator_postal_code",
        "represented_operator_city",
        "represented_operator_country",
        "represented_operator_identifier",
    }
)


@dataclass(frozen=True)
class DdsCheck:
    code: str
    message: str
    severity: str
    feature: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "severity": self.severity,
            "feature": self.feature,
        }

    def display(self) -> str:
        """The message with its plot number, for documents read by people (summary.pdf)."""
        if self.feature is None:
            return self.message
        return _("Plot %(n)d: %(message)s") % {"n": self.feature + 1, "message": self.message}


@dataclass
class DdsFacts:
    """What the checks and the package read about a delivery (loaded once by `load_facts`)."""

    delivery: Any
    tenant: Any
    lines: list
    labels_net_kg: Any
    labels_count: int
    products: list  # [(product, net_kg, cartons)]
    geo: GeoResult | None
    files: list  # [(kind, field_file, display name)]


def _error(code: str, message: Any, feature: int | None = None) -> DdsCheck:
    return DdsCheck(code, str(message), ERROR, feature)


def _warning(code: str, message: Any, feature: int | None = None) -> DdsCheck:
    return DdsCheck(code, str(message), WARNING, feature)


def check_delivery_status(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The delivery is submitted (a draft is refused) and neither expired nor inactive (warnings)."""
    delivery = facts.delivery
    if delivery.status == "draft":
        return [_error("delivery_draft", _("The delivery is still a draft: submit it before packaging."))]
    if delivery.effective_status(today) == "expired":
        return [_warning("delivery_expired", _("The delivery is expired."))]
    if delivery.status == "inactive":
        return [_warning("delivery_inactive", _("The delivery is inactive."))]
    return []


def check_operator_details(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The operator (Annex II: name, address, EORI or VAT number, country), from the company settings page."""
    missing = set(missing_for_statement(facts.tenant))
    found: list[DdsCheck] = []
    for key, code, message in (
        (
            "legal_name",
            "operator_name_missing",
            _("The operator's name is missing: enter it in Company settings (user menu)."),
        ),
        (
            "address",
            "operator_address_missing",
            _("The operator's address is missing: enter it in Company settings (user menu)."),
        ),
        (
            "identifier",
            "operator_identifier_missing",
            _(
                "The operator's EORI or VAT number is missing or malformed: enter it in Company settings "
                "(user menu)."
            ),
        ),
        (
            "country",
            "operator_country_missing",
            _(
                "The operator's country of activity (an EU member state) is missing: choose it in "
                "Company settings (user menu)."
            ),
        ),
    ):
        if key in missing:
            found.append(_error(code, message))
    return found


def check_operator_eori(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """IMPORT (and EXPORT) need the EORI number of the operator, or of the represented operator (unless
    the identifier is already reported missing)."""
    tenant = facts.tenant
    missing = set(missing_for_statement(tenant))
    if tenant.operator_role == "REPRESENTATIVE_OPERATOR":
        if (
            not normalise_identifier(tenant.represented_operator_eori)
            and "represented_operator_identifier" not in missing
        ):
            return [
                _error(
                    "represented_operator_eori_missing",
                    _(
                        "An import needs the represented operator's EORI number: enter it in Company "
                        "settings (user menu)."
                    ),
                )
            ]
    elif not normalise_identifier(tenant.eori_number) and "identifier" not in missing:
        return [
            _error(
                "operator_eori_missing",
                _("An import needs the operator's EORI number: enter it in Company settings (user menu)."),
            )
        ]
    return []


def check_represented_operator(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """An authorised representative names the represented operator completely."""
    if set(missing_for_statement(facts.tenant)) & REPRESENTED_KEYS:
        return [
            _error(
                "represented_operator_missing",
                _(
                    "The represented operator's name, address, country and EORI or VAT number are needed "
                    "when the company files as an authorised representative: complete them in Company "
                    "settings (user menu)."
                ),
            )
        ]
    return []


def check_origin(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The country of production and the forest supplier (producer) are named."""
    delivery = facts.delivery
    found: list[DdsCheck] = []
    if not delivery.country_code:
        found.append(_error("country_missing", _("The country of production is missing.")))
    if not delivery.forest_supplier_name:
        found.append(_error("producer_missing", _("The forest supplier (producer) name is missing.")))
    return found


def check_species(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The species: a scientific name, a common name, and (for wood) one material naming both."""
    scientific = [n for line in facts.lines for n in (line.scientific_names or []) if str(n).strip()]
    common = [n for line in facts.lines for n in (line.common_names or []) if str(n).strip()]
    if not scientific:
        return [_error("species_missing", _("The species' scientific name is missing."))]
    if not common:
        # Wood (and so paper): the system needs at least one pair of scientific and common name.
        return [
            _error(
                "common_name_missing",
                _(
                    "The species' common name is missing: for wood the EU information system needs at least "
                    "one pair of scientific and common name. Enter the common name (e.g. Norway spruce) on "
                    "the delivery's materials."
                ),
            )
        ]
    if not any(
        any(str(n).strip() for n in (line.scientific_names or []))
        and any(str(n).strip() for n in (line.common_names or []))
        for line in facts.lines
    ):
        return [
            _error(
                "species_pair_missing",
                _(
                    "No material names both a scientific and a common name: for wood the EU information "
                    "system needs at least one such pair. Enter both names on the same material."
                ),
            )
        ]
    return []


def check_net_weight(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """A net weight: the cartons' labels, else the delivery's paper weight (a warning), else refused."""
    if facts.labels_count != 0:
        return []
    if facts.delivery.original_kg and facts.delivery.original_kg > 0:
        return [
            _warning(
                "no_cartons",
                _("No carton labels were issued yet: the net weight is the delivery's paper weight."),
            )
        ]
    return [_error("net_weight_missing", _("The net weight is missing: no material weight and no cartons."))]


def check_hs_codes(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """Products without an HS code (a warning: they are declared under heading 4819)."""
    missing_hs = [product.article_number for product, _kg, _n in facts.products if not product.hs_code]
    if not missing_hs:
        return []
    return [
        _warning(
            "hs_code_missing",
            _("Products without an HS code are declared under heading 4819: %(articles)s.")
            % {"articles": ", ".join(missing_hs)},
        )
    ]


def check_harvest_period(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The harvest period is given and in order; one that began before the cut-off is a warning."""
    begin, end = facts.delivery.harvest_begin_month, facts.delivery.harvest_end_month
    if not begin or not end:
        return [
            _error("harvest_period_missing", _("The harvest period (time range of production) is missing."))
        ]
    if end < begin:
        return [_error("harvest_period_reversed", _("The harvest period ends before it begins."))]
    if begin < CUTOFF_MONTH:
        return [
            _warning(
                "harvest_before_cutoff",
                _(
                    "Harvest began before 2021: check that the land was not deforested after 31 December 2020."
                ),
            )
        ]
    return []


def check_certificates(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The FM and COC certificates, if given, have not expired (warnings)."""
    found: list[DdsCheck] = []
    for label, expiry in (
        (_("FM certificate"), facts.delivery.fm_certificate_expiry),
        (_("COC certificate"), facts.delivery.coc_certificate_expiry),
    ):
        if expiry and expiry < today:
            found.append(
                _warning(
                    "certificate_expired",
                    _("The %(certificate)s expired on %(date)s.")
                    % {"certificate": label, "date": day_text(expiry)},
                )
            )
    return found


def check_geolocation(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """The plots' geolocation is given and valid; a plot outside the country of production is an error
    until an internal user confirms it with a reason. The plot number is in `feature` (0-based);
    `DdsCheck.display()` writes it out for people."""
    if facts.geo is None:
        return [_error("geolocation_missing", _("The geolocation of the plots is missing."))]
    delivery = facts.delivery
    confirmed = delivery.outside_confirmed()
    found: list[DdsCheck] = []
    for problem in facts.geo.problems:
        if problem.code == "outside_country":
            if confirmed:
                found.append(
                    _warning(
                        "geolocation_outside_country_confirmed",
                        _("%(problem)s Confirmed: %(reason)s")
                        % {"problem": problem.message, "reason": delivery.outside_confirmed_reason},
                        problem.feature,
                    )
                )
            else:
                found.append(
                    _error(
                        "geolocation_outside_country",
                        _(
                            "%(problem)s Correct the plot, or an internal user confirms on the delivery "
                            "page, with a reason, that it is right."
                        )
                        % {"problem": problem.message},
                        problem.feature,
                    )
                )
            continue
        found.append(
            (_error if problem.severity == ERROR else _warning)(
                "geolocation_" + problem.code, problem.message, problem.feature
            )
        )
    return found


def check_producer_country(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """Each plot's ProducerCountry, if given, is the delivery's country of production (a warning)."""
    if facts.geo is None:
        return []
    production = (facts.delivery.country_code or "").upper()
    found: list[DdsCheck] = []
    for index, feature in enumerate(facts.geo.feature_collection["features"]):
        declared = str((feature.get("properties") or {}).get("ProducerCountry") or "").upper()
        if production and declared and declared != production:
            found.append(
                _warning(
                    "producer_country_differs",
                    _(
                        "The plot's ProducerCountry is %(plot)s but the delivery's country of production is "
                        "%(delivery)s: correct one of them."
                    )
                    % {"plot": declared, "delivery": production},
                    index,
                )
            )
    return found


def check_upstream_statement(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """A referenced upstream statement has both numbers, well formed, and the EU information system
    knows it as usable (when it was verified)."""
    delivery = facts.delivery
    reference, verification = delivery.upstream_dds_reference, delivery.upstream_dds_verification
    if bool(reference) != bool(verification):
        return [
            _error(
                "upstream_dds_incomplete",
                _("The referenced statement needs both its reference number and its verification number."),
            )
        ]
    if reference and not (references.is_reference(reference) and references.is_verification(verification)):
        return [
            _error(
                "upstream_dds_invalid",
                _(
                    "The referenced statement's numbers are malformed: the reference number has 14 capital "
                    "letters and digits as the EU information system writes it (e.g. 26NLX7TVCZAQ2S, or "
                    "S26FRNMNBSA96Q for a simplified declaration), the verification number 5 to 35 letters "
                    "and digits."
                ),
            )
        ]
    if reference and delivery.upstream_verification_result == "NON_EXISTENT":
        return [
            _error(
                "upstream_dds_not_usable",
                _(
                    "The EU information system knows no statement %(reference)s with this verification "
                    "number: it cannot be grouped. Ask the supplier for the right numbers."
                )
                % {"reference": reference},
            )
        ]
    if reference and delivery.upstream_verification_result == "EXISTING_NON_USABLE":
        return [
            _error(
                "upstream_dds_not_usable",
                _(
                    "The referenced statement %(reference)s exists but may not be relied on (%(status)s): it "
                    "cannot be grouped. Ask the supplier for a valid statement."
                )
                % {"reference": reference, "status": delivery.upstream_verification_status},
            )
        ]
    return []


def check_documents(facts: DdsFacts, today: date) -> list[DdsCheck]:
    """Documents are uploaded for the delivery (a warning)."""
    if not facts.files:
        return [_warning("no_documents", _("No documents are uploaded for this delivery."))]
    return []


DdsRule = Callable[[DdsFacts, date], list[DdsCheck]]

# The checks of a delivery's package, in the order their findings are listed.
RULES: tuple[DdsRule, ...] = (
    check_delivery_status,
    check_operator_details,
    check_operator_eori,
    check_represented_operator,
    check_origin,
    check_species,
    check_net_weight,
    check_hs_codes,
    check_harvest_period,
    check_certificates,
    check_geolocation,
    check_producer_country,
    check_upstream_statement,
    check_documents,
)


def run_checks(facts: DdsFacts, *, today: date | None = None) -> list[DdsCheck]:
    """Every rule of `RULES` on the delivery's facts, their findings in the rules' order."""
    today = today or timezone.localdate()
    found: list[DdsCheck] = []
    for rule in RULES:
        found.extend(rule(facts, today))
    return found


def statement_checks(request: dict[str, Any]) -> list[DdsCheck]:
    """Rules the system applies to the whole statement, measured as it counts them: the geolocation is
    the base64 text of every producer's geometry across all commodities."""
    found: list[DdsCheck] = []
    statement = request["statement"]
    commodities = statement["commodities"]
    producers = [p for c in commodities for p in c.get("producers") or []]
    size = sum(len(p.get("geometryGeojson") or "") for p in producers)
    if size > MAX_STATEMENT_GEOLOCATION_BYTES:
        found.append(
            DdsCheck(
                "statement_geolocation_too_large",
                _(
                    "The statement holds %(size).1f MB of geolocation (as the EU information system counts "
                    "it, after base64 encoding); at most %(max).0f MB are accepted. Simplify the polygons or "
                    "split the delivery."
                )
                % {"size": size / 1024 / 1024, "max": MAX_STATEMENT_GEOLOCATION_BYTES / 1024 / 1024},
                ERROR,
            )
        )
    if len(producers) > MAX_STATEMENT_PRODUCERS:
        found.append(
            DdsCheck(
                "too_many_producers",
                _(
                    "The statement names %(count)d producers; at most %(max)d are accepted. Split the delivery."
                )
                % {"count": len(producers), "max": MAX_STATEMENT_PRODUCERS},
                ERROR,
            )
        )
    if any(len(c.get("producers") or []) > MAX_COMMODITY_PRODUCERS for c in commodities):
        found.append(
            DdsCheck(
                "too_many_commodity_producers",
                _("A commodity names more than %(max)d producers. Split the delivery.")
                % {"max": MAX_COMMODITY_PRODUCERS},
                ERROR,
            )
        )
    if len(commodities) > MAX_COMMODITIES:
        found.append(
            DdsCheck(
                "too_many_commodities",
                _("The statement has %(count)d commodities (HS headings); at most %(max)d are accepted.")
                % {"count": len(commodities), "max": MAX_COMMODITIES},
                ERROR,
            )
        )
    if any(len(c.get("speciesInfo") or []) > MAX_SPECIES for c in commodities):
        found.append(
            DdsCheck(
                "too_many_species",
                _("A commodity names more than %(max)d species.") % {"max": MAX_SPECIES},
                ERROR,
            )
        )
    return found


def geo_of(delivery) -> GeoResult | None:
    return validate_geojson(delivery.location_geojson) if delivery.location_geojson else None
