"""Background jobs of the due diligence area (Celery; eager, inline, in the embedded default).

process_forest_layer: computes a newly uploaded forest layer over every tenant's plots within its bounds
(forest_layers.forest_layer_process), writing the layer's progress as it goes.

forest_check_delivery: computes one delivery's plots over the ready layers covering them, after its plots
changed (queued by the delivery's post_save signal, `connect()` below).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models.signals import post_save

from apps.common.jobs import send_job_on_commit
from apps.tenancy.context import tenant_context

logger = logging.getLogger(__name__)


@shared_task(bind=True, name="duediligence.process_forest_layer")
def process_forest_layer(self, *, layer_id: int) -> dict:
    from .forest_layers import forest_layer_process

    def progress(done: int, total: int) -> None:
        if self.request.id and not self.app.conf.task_always_eager:
            self.update_state(state="PROGRESS", meta={"done": done, "total": total})

    plots = forest_layer_process(layer_id=layer_id, progress=progress)
    return {"plots": plots}


@shared_task(name="duediligence.forest_check_delivery")
def forest_check_delivery(*, tenant_id: int, delivery_id: int) -> dict:
    from .forest_layers import forest_check_delivery as check

    with tenant_context(tenant_id):
        stored = check(delivery_id=delivery_id)
    return {"results": stored}


def _delivery_saved(sender, instance, created, raw=False, update_fields=None, **kwargs):
    """Queues the delivery's forest check when its plots changed and a ready layer covers them (the
    weight counters' saves name their fields and are skipped at once)."""
    if raw or (update_fields is not None and "location_geojson" not in update_fields):
        return
    from .forest_layers import needs_forest_check

    try:
        if not needs_forest_check(instance):
            return
    except Exception:  # never fail the delivery's save for the check
        logger.exception("Forest check of delivery %s not queued", instance.pk)
        return
    send_job_on_commit(
        forest_check_delivery, kwargs={"tenant_id": instance.tenant_id, "delivery_id": instance.pk}
    )


def connect() -> None:
    from django.apps import apps

    post_save.connect(
        _delivery_saved,
        sender=apps.get_model("eudr.RawMaterialDelivery"),
        dispatch_uid="duediligence-forest-check",
        weak=False,
    )
