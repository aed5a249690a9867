"""Writes of the EUDR area. Here it is decided that cartons are issued only while weight remains.

Locking: every write that changes a delivery's weight balance (`original_kg`, `used_kg`,
`issued_cartons`, `approved_over_cap`) first locks the delivery rows it touches with
`select_for_update`, in primary-key order, then the production batches, in primary-key order; it
re-reads the balance inside the lock. Two requests on the same delivery therefore run one after the
other, and neither can spend weight the other has already spent (tests/test_concurrency.py).

One module per concern: `deliveries` (raw-material deliveries, their policy snapshot, status and expiry),
`files` (a delivery's documents and plots), `statements` (the filed due diligence statement) and `cartons`
(issuing and deleting labels, approvals over the cap). Every public name is re-exported here: callers
import `apps.eudr.services`.
"""

from __future__ import annotations

# Also reached through this module: the generation limit (the serializers) and `_replace_lines` (a test of
# the public trace store).
from apps.eudr.generation import MAX_CARTONS_PER_REQUEST
from apps.eudr.services.cartons import (
    LABEL_INSERT_BATCH,
    MIN_AVAILABLE_TO_GENERATE_KG,
    MSG_SELECT_LABELS,
    cap_approve,
    cartons_delete,
    cartons_generate,
    check_generation,
    new_public_code,
)
from apps.eudr.services.deliveries import (
    DEFAULT_LOSS_RATE_PERCENT,
    DEFAULT_MIN_CONSUMPTION_KG,
    DELIVERY_FIELDS,
    LINE_FIELDS,
    MSG_AT_LEAST_ONE_MATERIAL,
    MSG_DELIVERY_FILE_REQUIRED,
    MSG_DELIVERY_NUMBER_REQUIRED,
    MSG_MATERIAL_TYPE_REQUIRED,
    MSG_PARENT_VENDOR_REQUIRED,
    MSG_PULP_TYPE_REQUIRED,
    MSG_VALID_WEIGHT_REQUIRED,
    _replace_lines,
    completeness_errors,
    delivery_checks,
    line_errors,
    policy_for_delivery,
    raw_material_confirm_outside,
    raw_material_create,
    raw_material_delete,
    raw_material_set_status,
    raw_material_submit,
    raw_material_update,
    raw_materials_expire,
    raw_materials_expire_all_tenants,
)
from apps.eudr.services.files import (
    ALLOWED_FILE_TYPES,
    check_upload,
    raw_material_attach_file,
    raw_material_remove_file,
    validated_geojson,
)
from apps.eudr.services.statements import (
    raw_material_clear_dds,
    raw_material_record_dds,
)

__all__ = [
    "ALLOWED_FILE_TYPES",
    "DEFAULT_LOSS_RATE_PERCENT",
    "DEFAULT_MIN_CONSUMPTION_KG",
    "DELIVERY_FIELDS",
    "LABEL_INSERT_BATCH",
    "LINE_FIELDS",
    "MAX_CARTONS_PER_REQUEST",
    "MIN_AVAILABLE_TO_GENERATE_KG",
    "MSG_AT_LEAST_ONE_MATERIAL",
    "MSG_DELIVERY_FILE_REQUIRED",
    "MSG_DELIVERY_NUMBER_REQUIRED",
    "MSG_MATERIAL_TYPE_REQUIRED",
    "MSG_PARENT_VENDOR_REQUIRED",
    "MSG_PULP_TYPE_REQUIRED",
    "MSG_SELECT_LABELS",
    "MSG_VALID_WEIGHT_REQUIRED",
    "_replace_lines",
    "cap_approve",
    "cartons_delete",
    "cartons_generate",
    "check_generation",
    "check_upload",
    "completeness_errors",
    "delivery_checks",
    "line_errors",
    "new_public_code",
    "policy_for_delivery",
    "raw_material_attach_file",
    "raw_material_clear_dds",
    "raw_material_confirm_outside",
    "raw_material_create",
    "raw_material_delete",
    "raw_material_record_dds",
    "raw_material_remove_file",
    "raw_material_set_status",
    "raw_material_submit",
    "raw_material_update",
    "raw_materials_expire",
    "raw_materials_expire_all_tenants",
    "validated_geojson",
]
