"""The project's ModelSerializer: DRF's, with each model field's serializer field worked out once per class.

DRF builds a ModelSerializer's fields again for every instance (every request, and every nested or
`many=True` serializer in it): for each model field it walks the field's attributes, its validators and
its verbose name (`build_field`, `get_field_kwargs`, `needs_label`). For a serializer of 18 fields that
was about a fifth of a signed-in request's time (`docs/performance.md`, "Per-request overhead"). The
outcome of `build_field` (the field's class and its keyword arguments) depends only on the serializer's
class, the model field and the active language, so it is kept per class and language and each instance
still gets fields of its own, built from a copy of the arguments.

What is not kept: arguments holding a queryset. DRF evaluates `limit_choices_to` into
`Model.objects.filter(...)` while it builds the field, and a tenant-scoped manager's queryset carries the
tenant active when it was made (`apps.tenancy.managers.TenantManager`), so keeping it would answer a later
request with the first request's tenant. A manager (what DRF passes otherwise) is resolved at each use and
is kept. Every ModelSerializer of the apps derives from this one (`apps/common/tests/test_model_serializer.py`).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import QuerySet
from django.utils.translation import get_language
from rest_framework import serializers

_SPECS = "_built_field_specs"


def _holds_a_queryset(kwargs: dict[str, Any]) -> bool:
    if isinstance(kwargs.get("queryset"), QuerySet):
        return True
    return any(isinstance(getattr(v, "queryset", None), QuerySet) for v in kwargs.get("validators") or ())


class DateTimeField(serializers.DateTimeField):
    """DRF's DateTimeField with the time zone read once per instance of the field, when it is bound to its
    serializer (in the request), instead of once per value: DRF asks Django for the current time zone, a
    context-local read, for every date and time it writes, three per row of a list page of deliveries."""

    def bind(self, field_name, parent):
        super().bind(field_name, parent)
        if not hasattr(self, "timezone"):  # DRF's own attribute: a `default_timezone` given to the field
            zone = self.default_timezone()
            if zone is not None:  # None without USE_TZ: DRF then writes naive times, as before
                self.timezone = zone


class ModelSerializer(serializers.ModelSerializer):
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.DateTimeField: DateTimeField,
    }

    def get_fields(self):
        # The active language, read once for all the fields (a context-local read, not free).
        self._fields_language = get_language()
        return super().get_fields()

    def build_field(self, field_name, info, model_class, nested_depth):
        cls = type(self)
        specs = cls.__dict__.get(_SPECS)
        if specs is None:
            specs = {}
            setattr(cls, _SPECS, specs)  # the class's own, not a parent's
        # The language: a label DRF leaves out in English (equal to the name's) is a translated one in zh.
        language = self.__dict__.get("_fields_language") or get_language()
        key = (field_name, model_class, nested_depth, language)
        spec = specs.get(key)
        if spec is None:
            spec = super().build_field(field_name, info, model_class, nested_depth)
            if _holds_a_queryset(spec[1]):
                return spec
            specs[key] = spec
        field_class, kwargs = spec
        # A copy: get_fields merges Meta.extra_kwargs into the dict it gets, and a field keeps its own
        # list of validators (DRF's Field copies the list it is given).
        return field_class, dict(kwargs)
