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

Its rows are written by a plan worked out once per serializer instance (`_representation_plan`): DRF
asks every field of every row for its attribute through the generic `get_attribute` (a walk of the
source, a Mapping test, a callable test, a PKOnlyObject for a foreign key) and walks the readable fields
through a generator. The plan reads a model field's value by its attribute name, a foreign key's id
as such, and calls a method field's method directly; every other field goes DRF's way. The answer is the
same, key for key and in order (`test_model_serializer.py` compares both on a serializer with every kind
of field, and checks the plan each kind gets).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import QuerySet
from django.utils.translation import get_language
from rest_framework import ISO_8601, serializers
from rest_framework.fields import Field, SkipField
from rest_framework.relations import PKOnlyObject, PrimaryKeyRelatedField, RelatedField
from rest_framework.settings import api_settings

_SPECS = "_built_field_specs"


def _holds_a_queryset(kwargs: dict[str, Any]) -> bool:
    if isinstance(kwargs.get("queryset"), QuerySet):
        return True
    return any(isinstance(getattr(v, "queryset", None), QuerySet) for v in kwargs.get("validators") or ())


class DateTimeField(serializers.DateTimeField):
    """DRF's DateTimeField with the time zone read once per instance of the field, when it is bound to its
    serializer (in the request), instead of once per value: DRF asks Django for the current time zone, a
    context-local read, for every date and time it writes, three per row of a list page of deliveries.
    An aware time written in ISO 8601 takes DRF's steps directly, with the format also read when bound."""

    def bind(self, field_name, parent):
        super().bind(field_name, parent)
        if not hasattr(self, "timezone"):  # DRF's own attribute: a `default_timezone` given to the field
            zone = self.default_timezone()
            if zone is not None:  # None without USE_TZ: DRF then writes naive times, as before
                self.timezone = zone
        output_format = getattr(self, "format", api_settings.DATETIME_FORMAT)
        self._iso_zone = (
            self.__dict__.get("timezone")
            if output_format is not None and output_format.lower() == ISO_8601
            else None
        )

    def to_representation(self, value):
        # An aware time in ISO 8601 (every time the database gives): DRF's own steps for it, the format and
        # the zone looked up once when bound instead of once per value.
        zone = self.__dict__.get("_iso_zone")
        if zone is None or type(value) is not datetime or value.utcoffset() is None:
            return super().to_representation(value)
        try:
            text = value.astimezone(zone).isoformat()
        except OverflowError:
            return super().to_representation(value)  # DRF's error for it
        return text[:-6] + "Z" if text.endswith("+00:00") else text


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

    def to_representation(self, instance):
        if not isinstance(instance, models.Model):
            return super().to_representation(instance)
        model = type(instance)
        found = self.__dict__.get(_PLAN)
        if found is None or found[0] is not model:
            found = (model, _representation_plan(self, model))
            self.__dict__[_PLAN] = found
        ret: dict[str, Any] = {}
        for name, how, key, field in found[1]:
            if how is _ATTRIBUTE:
                value = getattr(instance, key)
                ret[name] = None if value is None else field.to_representation(value)
            elif how is _FOREIGN_KEY:
                ret[name] = getattr(instance, key)
            elif how is _METHOD:
                ret[name] = key(instance)
            else:
                try:
                    attribute = field.get_attribute(instance)
                except SkipField:
                    continue
                check_for_none = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
                ret[name] = None if check_for_none is None else field.to_representation(attribute)
        return ret


_PLAN = "_representation_plan_of"
_ATTRIBUTE, _FOREIGN_KEY, _METHOD, _GENERIC = "attribute", "foreign key", "method", "generic"


def _model_field(model: type[models.Model], field: Field):
    """The concrete model field a serializer field reads, when it reads one directly (None otherwise)."""
    attrs = getattr(field, "source_attrs", None) or []
    if len(attrs) != 1:
        return None
    try:
        model_field = model._meta.get_field(attrs[0])
    except FieldDoesNotExist:
        return None
    if not getattr(model_field, "concrete", False) or model_field.many_to_many:
        return None
    # the name, not another name of the same column (`parent_id` for the field `parent`)
    return model_field if model_field.name == attrs[0] else None


def _representation_plan(serializer: serializers.Serializer, model: type[models.Model]) -> list[tuple]:
    """[(key, how, attribute name or method, field)] for the serializer's readable fields, in their order."""
    plan: list[tuple[str, str, Any, Any]] = []
    for field in serializer._readable_fields:
        name = str(field.field_name)
        kind = type(field)
        model_field = _model_field(model, field)
        if (
            isinstance(field, serializers.SerializerMethodField)
            and kind.to_representation is serializers.SerializerMethodField.to_representation
            and kind.get_attribute is Field.get_attribute
            and field.source == "*"
        ):
            plan.append((name, _METHOD, getattr(serializer, field.method_name), field))
        elif (
            model_field is not None
            and isinstance(field, PrimaryKeyRelatedField)
            and model_field.is_relation
            and kind.get_attribute is RelatedField.get_attribute
            and kind.to_representation is PrimaryKeyRelatedField.to_representation
            and field.pk_field is None
            and field.use_pk_only_optimization()
        ):
            plan.append((name, _FOREIGN_KEY, model_field.attname, field))
        elif (
            model_field is not None
            and not model_field.is_relation
            and not isinstance(field, (RelatedField, serializers.BaseSerializer))
            and kind.get_attribute is Field.get_attribute
        ):
            plan.append((name, _ATTRIBUTE, model_field.attname, field))
        else:
            plan.append((name, _GENERIC, None, field))
    return plan
