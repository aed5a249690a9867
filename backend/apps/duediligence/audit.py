"""The audit trail of the records a due diligence statement rests on (docs/duediligence.md, "Audit trail").

Every save and delete of a tracked model writes one `AuditEntry` per changed field (who, when, field,
old value, new value), in the same transaction as the change. It is wired to the models' signals when
the app loads, with no setting to turn it off; entries refuse to be changed or deleted, and the API only
reads them. "Who" is the signed-in user of the request (`AuditActorMiddleware`); work outside a request
(jobs, commands) is recorded without a user.

Values longer than `MAX_VALUE` characters (a plot file can be megabytes) are kept as their SHA-256
digest and length: enough to prove whether a value was changed, without copying it on every edit.
"""

from __future__ import annotations

import hashlib
import json
from contextvars import ContextVar
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.db.models.signals import post_delete, post_save, pre_save

MAX_VALUE = 4000

_request: ContextVar[Any] = ContextVar("audit_request", default=None)

# model label -> (fields left out, how to find the delivery id, how to find the statement id)
TRACKED: dict[str, dict[str, Any]] = {
    # The counters change with every carton label; the labels are their own record.
    "eudr.RawMaterialDelivery": {
        "exclude": {"updated_at", "used_kg", "issued_cartons", "created_at"},
        "delivery": lambda obj: obj.pk,
        "lines": True,
    },
    "eudr.DdsSubmission": {
        "exclude": {"updated_at", "attempts", "pending_action", "created_at"},
        "delivery": lambda obj: obj.delivery_id,
        "submission": lambda obj: obj.pk,
    },
    "duediligence.RiskAssessment": {"exclude": set(), "delivery": lambda obj: obj.delivery_id},
    "duediligence.FilingOverride": {"exclude": set(), "delivery": lambda obj: obj.delivery_id},
    "duediligence.RecordArchive": {"exclude": set(), "delivery": lambda obj: obj.delivery_id},
    "duediligence.RetentionHold": {"exclude": set(), "delivery": lambda obj: obj.delivery_id},
    "duediligence.SubstantiatedConcern": {
        "exclude": set(),
        "delivery": lambda obj: obj.delivery_id,
        "submission": lambda obj: obj.submission_id,
    },
}


class AuditActorMiddleware:
    """Remembers the request, so the trail can name its user (DRF authenticates inside the view and sets
    the user on the Django request, which is what is read at save time)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def current_user():
    request = _request.get()
    user = getattr(request, "user", None) if request is not None else None
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (datetime, date)):
        text = value.isoformat()
    elif isinstance(value, Decimal):
        text = format(value, "f")
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    elif hasattr(value, "name") and hasattr(value, "storage"):  # a FieldFile
        text = value.name or ""
    else:
        text = str(value)
    if len(text) > MAX_VALUE:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return f"sha256:{digest} ({len(text.encode('utf-8'))} bytes)"
    return text


def _fields(model, config) -> list:
    return [
        f
        for f in model._meta.concrete_fields
        if f.name not in config["exclude"] and f.name not in ("id", "tenant")
    ]


def _values(instance, fields) -> dict[str, str]:
    return {f.name: _text(getattr(instance, f.attname)) for f in fields}


def _label(model) -> str:
    return f"{model._meta.app_label}.{model.__name__}"


def _entry_base(instance, config) -> dict[str, Any]:
    user = current_user()
    delivery = config.get("delivery")
    submission = config.get("submission")
    return {
        "tenant_id": instance.tenant_id,
        "user": user,
        "username": getattr(user, "username", "") if user else "",
        "record_type": instance._meta.label_lower,
        "record_id": instance.pk,
        "delivery_id": delivery(instance) if delivery else None,
        "submission_id": submission(instance) if submission else None,
    }


def _write(rows: list[dict[str, Any]]) -> None:
    from .models import AuditEntry

    AuditEntry.unscoped.bulk_create([AuditEntry(**row) for row in rows])


def _pre_save(sender, instance, raw=False, update_fields=None, **kwargs):
    config = TRACKED[_label(sender)]
    instance._audit_old = None
    if raw or instance.pk is None:
        return
    fields = _fields(sender, config)
    if update_fields is not None:
        fields = [f for f in fields if f.name in update_fields or f.attname in update_fields]
    old = sender.unscoped.filter(pk=instance.pk).first() if fields else None
    if old is not None:
        instance._audit_old = (_values(old, fields), fields)


def _lines_of(delivery) -> str:
    """The delivery's materials as one value: they are written in bulk (no per-row signal), and every
    service that replaces them saves the delivery afterwards, so they are compared at that save."""
    lines = delivery.lines.order_by("pk").values(
        "material_type", "weight_kg", "pulp_type", "pulp_brand", "scientific_names", "common_names"
    )
    return _text([{k: _text(v) if k == "weight_kg" else v for k, v in line.items()} for line in lines])


def _lines_row(instance, base) -> dict[str, Any] | None:
    from .models import AuditEntry

    current = _lines_of(instance)
    last = (
        AuditEntry.unscoped.filter(record_type=base["record_type"], record_id=instance.pk, field="lines")
        .order_by("-at", "-id")
        .values_list("new_value", flat=True)
        .first()
    )
    if (last or "[]") == current:
        return None
    return {
        **base,
        "action": "change" if last else "create",
        "field": "lines",
        "old_value": last or "",
        "new_value": current,
    }


def _post_save(sender, instance, created, raw=False, update_fields=None, **kwargs):
    if raw:
        return
    config = TRACKED[_label(sender)]
    previous = getattr(instance, "_audit_old", None)
    if update_fields is not None and previous is None and not created:
        return  # only untracked fields (e.g. the weight counters) were saved
    base = _entry_base(instance, config)
    rows: list[dict[str, Any]] = []
    # Materials are replaced only by saves of the whole delivery.
    if config.get("lines") and update_fields is None:
        lines = _lines_row(instance, base)
        if lines is not None:
            rows.append(lines)
    if created or previous is None:
        for name, value in _values(instance, _fields(sender, config)).items():
            if value != "":
                rows.append({**base, "action": "create", "field": name, "old_value": "", "new_value": value})
        if not rows:
            rows.append({**base, "action": "create"})
    else:
        old_values, fields = previous
        for name, value in _values(instance, fields).items():
            if old_values.get(name, "") != value:
                rows.append(
                    {
                        **base,
                        "action": "change",
                        "field": name,
                        "old_value": old_values[name],
                        "new_value": value,
                    }
                )
    instance._audit_old = None
    if rows:
        _write(rows)


def _post_delete(sender, instance, **kwargs):
    config = TRACKED[_label(sender)]
    _write([{**_entry_base(instance, config), "action": "delete", "old_value": _text(str(instance))}])


def connect() -> None:
    for label in TRACKED:
        model = apps.get_model(label)
        uid = f"duediligence-audit-{label}"
        pre_save.connect(_pre_save, sender=model, dispatch_uid=f"{uid}-pre", weak=False)
        post_save.connect(_post_save, sender=model, dispatch_uid=f"{uid}-post", weak=False)
        post_delete.connect(_post_delete, sender=model, dispatch_uid=f"{uid}-delete", weak=False)
