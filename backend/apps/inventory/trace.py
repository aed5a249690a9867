"""What the warehouse gives the EUDR area (docs/architecture.md, "Dependencies between areas").

The warehouse sits above EUDR (its cartons are EUDR labels), so EUDR imports nothing of inventory: on start
(`InventoryConfig.ready`) the warehouse registers its reads with `apps.eudr.warehouse`, and tells the
public trace store when a carton's warehouse row or events change (`public_trace_changed`, which the
store listens to; bulk writes send it from the carton's state machine).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models.signals import post_delete, post_save

from apps.common.signals import public_trace_changed
from apps.inventory import carton_life, selectors
from apps.inventory.models import CartonEvent, WarehouseCarton


def imported_label_ids(label_ids: Iterable[int]) -> list[int]:
    """The labels among `label_ids` whose cartons were scanned in from a container (imported), id order."""
    return list(
        WarehouseCarton.objects.filter(label_id__in=list(label_ids), inbound_shipment__isnull=False)
        .order_by("label_id")
        .values_list("label_id", flat=True)
    )


def label_ids_of_cartons(carton_ids: Iterable[int]) -> list[int]:
    return list(WarehouseCarton.objects.filter(pk__in=list(carton_ids)).values_list("label_id", flat=True))


def label_ids_in_warehouse() -> list[int]:
    return list(WarehouseCarton.objects.values_list("label_id", flat=True))


def _warehouse_carton_changed(sender, instance, **kwargs) -> None:
    public_trace_changed.send(
        sender=WarehouseCarton, tenant_id=instance.tenant_id, labels=[instance.label_id]
    )


def _carton_event_changed(sender, instance, **kwargs) -> None:
    # The event is built with its carton row in hand (carton_life.carton_event): no read.
    carton = instance._state.fields_cache.get("carton")
    if carton is not None:
        public_trace_changed.send(sender=CartonEvent, tenant_id=instance.tenant_id, labels=[carton.label_id])
    else:
        public_trace_changed.send(
            sender=CartonEvent, tenant_id=instance.tenant_id, cartons=[instance.carton_id]
        )


def connect() -> None:
    """Called from InventoryConfig.ready()."""
    from apps.eudr import warehouse

    warehouse.register(
        warehouse.Warehouse(
            life_of=carton_life.life_of,
            labels_void_check=carton_life.labels_void_check,
            public_histories=selectors.public_carton_histories,
            imported_label_ids=imported_label_ids,
            label_ids_of_cartons=label_ids_of_cartons,
            label_ids_in_warehouse=label_ids_in_warehouse,
        )
    )
    for model, handler in (
        (WarehouseCarton, _warehouse_carton_changed),
        (CartonEvent, _carton_event_changed),
    ):
        uid = f"eudr-public-trace-{model._meta.label_lower}"
        post_save.connect(handler, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(handler, sender=model, dispatch_uid=f"{uid}-delete")
