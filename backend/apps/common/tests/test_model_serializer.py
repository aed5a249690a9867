"""The project's ModelSerializer keeps each model field's built class and arguments per class and language,
never a queryset, and hands every instance fields of its own."""

from __future__ import annotations

import importlib
import pkgutil
from unittest import mock

import pytest
from django.utils import translation
from rest_framework import serializers

import apps
from apps.common.api.model_serializer import ModelSerializer
from apps.products.models import Product
from apps.tenancy.context import tenant_context

DRF_BUILD_FIELD = serializers.ModelSerializer.build_field


def _product_serializer():
    """A class of its own per test: what is kept belongs to the class."""

    class ProductSketch(ModelSerializer):
        class Meta:
            model = Product
            fields = ["id", "article_number", "name", "group"]
            extra_kwargs = {"article_number": {"read_only": True}}

    return ProductSketch


def _counting():
    return mock.patch.object(
        serializers.ModelSerializer, "build_field", autospec=True, side_effect=DRF_BUILD_FIELD
    )


def test_a_class_builds_its_fields_once_per_language_and_each_instance_gets_its_own():
    sketch = _product_serializer()
    with _counting() as build, translation.override("en"):
        first, second = sketch().fields, sketch().fields
        assert build.call_count == 4  # id, article_number, name, group: once each, not per instance
    assert list(first) == ["id", "article_number", "name", "group"]
    for name in first:
        assert first[name] is not second[name]
        assert first[name].validators is not second[name].validators
    # Meta.extra_kwargs is merged into a copy: the second instance got it too, and the kept arguments
    # still say what DRF built (the name field is writable and required)
    assert second["article_number"].read_only and not second["name"].read_only
    assert second["name"].required
    assert "MaxLengthValidator" in [type(v).__name__ for v in second["name"].validators]


def test_the_labels_follow_the_language_the_request_runs_in():
    sketch = _product_serializer()
    with _counting() as build:
        with translation.override("en"):
            assert str(sketch().fields["group"].label) == "Group"
        with translation.override("zh-hans"):
            assert str(sketch().fields["group"].label) == "产品组"
            assert str(sketch().fields["name"].label) == "名称"
        with translation.override("en"):
            assert str(sketch().fields["name"].label) == "Name"
        assert build.call_count == 8  # each language once


def test_a_field_built_with_a_queryset_is_built_again_for_every_instance():
    """A queryset made while building (DRF's `limit_choices_to`) carries the tenant active then."""
    sketch = _product_serializer()

    def with_queryset(self, field_name, info, model_class, nested_depth):
        field_class, kwargs = DRF_BUILD_FIELD(self, field_name, info, model_class, nested_depth)
        if field_name == "group":
            kwargs["queryset"] = kwargs["queryset"].filter(name__startswith="A")
        return field_class, kwargs

    with mock.patch.object(
        serializers.ModelSerializer, "build_field", autospec=True, side_effect=with_queryset
    ) as build:
        sketch().fields, sketch().fields
        built = [call.args[1] for call in build.call_args_list]
    assert built.count("group") == 2
    assert built.count("name") == 1


@pytest.mark.django_db
def test_a_relation_kept_from_one_tenant_reads_the_next_requests_tenant(tenant2, tenant3):
    """The kept relation holds the manager, which is resolved at each use: one tenant's group is not a
    valid choice in the other's request, whichever tenant built the field first."""
    from apps.products.models import ProductGroup

    with tenant_context(tenant2):
        mine = ProductGroup.objects.create(name="Mailers")
    with tenant_context(tenant3):
        theirs = ProductGroup.objects.create(name="Boxes")
    sketch = _product_serializer()
    with tenant_context(tenant2):
        field = sketch().fields["group"]
        assert field.to_internal_value(mine.pk) == mine
        with pytest.raises(serializers.ValidationError):
            field.to_internal_value(theirs.pk)
    with tenant_context(tenant3):
        field = sketch().fields["group"]
        assert field.to_internal_value(theirs.pk) == theirs
        with pytest.raises(serializers.ValidationError):
            field.to_internal_value(mine.pk)


def test_every_model_serializer_of_the_apps_derives_from_the_project_one():
    for module in pkgutil.walk_packages(apps.__path__, "apps."):
        if ".api." in module.name or module.name.endswith(".api"):
            importlib.import_module(module.name)
    pending, found = [serializers.ModelSerializer], []
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("apps."):
                found.append(sub)
    assert len(found) > 50
    strays = [f"{c.__module__}.{c.__qualname__}" for c in found if not issubclass(c, ModelSerializer)]
    assert strays == []


def test_a_model_date_time_reads_the_time_zone_once_per_field_and_writes_what_drf_writes():
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from django.db import models
    from django.utils import timezone

    from apps.common.api.model_serializer import DateTimeField

    assert ModelSerializer.serializer_field_mapping[models.DateTimeField] is DateTimeField
    values = [
        datetime(2026, 11, 29, 8, 30, tzinfo=UTC),
        datetime(2026, 11, 29, 9, 45, tzinfo=ZoneInfo("Europe/Oslo")),
    ]
    drf_field = serializers.DateTimeField()
    drf_field.bind("created_at", serializers.Serializer())
    ours = DateTimeField()
    with mock.patch(
        "django.utils.timezone.get_current_timezone", wraps=timezone.get_current_timezone
    ) as read:
        ours.bind("created_at", serializers.Serializer())
        written = [ours.to_representation(v) for v in values]
        assert read.call_count == 1
    assert (
        written
        == [drf_field.to_representation(v) for v in values]
        == ["2026-11-29T08:30:00Z", "2026-11-29T08:45:00Z"]
    )
    # a time zone given to the field is DRF's own attribute and wins
    oslo = DateTimeField(default_timezone=ZoneInfo("Europe/Oslo"))
    oslo.bind("created_at", serializers.Serializer())
    assert oslo.to_representation(values[0]) == "2026-11-29T09:30:00+01:00"


@pytest.mark.parametrize("zone", [None, "Europe/Oslo", "Asia/Shanghai", "America/St_Johns"])
@pytest.mark.parametrize("output_format", [None, "iso-8601", "ISO-8601", "%Y-%m-%d %H:%M"])
def test_every_time_is_written_as_drf_writes_it(zone, output_format, settings):
    """Aware times of several zones and offsets, with microseconds, at the ends of the calendar, naive
    ones and text, in ISO 8601 and in another format: the field writes what DRF's writes, its errors
    included."""
    from datetime import UTC, datetime, timedelta, timezone
    from zoneinfo import ZoneInfo

    from rest_framework.exceptions import ValidationError

    from apps.common.api.model_serializer import DateTimeField

    values = [
        datetime(2026, 11, 29, 8, 30, tzinfo=UTC),
        datetime(2026, 11, 29, 8, 30, 0, 123456, tzinfo=UTC),
        datetime(2026, 3, 29, 1, 30, tzinfo=ZoneInfo("Europe/Oslo")),
        datetime(2026, 7, 1, 23, 59, 59, tzinfo=timezone(timedelta(hours=-3, minutes=-30))),
        datetime(2026, 11, 29, 8, 30),  # naive
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, tzinfo=UTC),
        "2026-11-29T08:30:00Z",
        None,
    ]
    kwargs = {} if output_format is None else {"format": output_format}
    if zone is not None:
        kwargs["default_timezone"] = ZoneInfo(zone)
    drf_field, ours = serializers.DateTimeField(**kwargs), DateTimeField(**kwargs)
    for field in (drf_field, ours):
        field.bind("created_at", serializers.Serializer())

    def written(field, value):
        try:
            return field.to_representation(value)
        except (ValidationError, OverflowError, ValueError) as error:
            return type(error).__name__, str(error)

    for value in values:
        assert written(ours, value) == written(drf_field, value), value


class _Upper(serializers.CharField):
    """A field of its own way of reading: the plan leaves it to DRF."""

    def get_attribute(self, instance):
        return super().get_attribute(instance).upper()


def _representation_sketch():
    from apps.products.models import ProductGroup

    class GroupSketch(ModelSerializer):
        class Meta:
            model = ProductGroup
            fields = ["id", "name", "parent"]

    class ProductRows(ModelSerializer):
        title = serializers.CharField(source="name")
        group_name = serializers.CharField(source="group.name", default="")
        group_detail = GroupSketch(source="group", read_only=True)
        shouting = _Upper(source="name")
        identity = serializers.IntegerField(source="pk")
        group_id_plain = serializers.IntegerField(source="group_id", allow_null=True)
        badge = serializers.SerializerMethodField()
        secret = serializers.CharField(write_only=True, required=False)

        class Meta:
            model = Product
            fields = [
                "id",
                "article_number",
                "title",
                "group",
                "group_name",
                "group_detail",
                "unit",
                "weight_per_carton_kg",
                "purchase_price",
                "is_active",
                "created_at",
                "shouting",
                "identity",
                "group_id_plain",
                "badge",
                "secret",
            ]

        def get_badge(self, obj) -> str:
            return f"{obj.article_number}/{self.context.get('suffix', '')}"

    return ProductRows


@pytest.mark.django_db
def test_the_rows_written_by_the_plan_are_drfs_key_for_key(tenant2):
    """Model fields by attribute, foreign keys by id, method fields by their method; everything else
    (dotted sources, nested serializers, a field's own get_attribute, pk) as DRF writes it: the same
    dict, in the same order, for rows with and without their relations and values, deferred or not."""
    from decimal import Decimal

    from apps.common.api.model_serializer import _PLAN
    from apps.products.models import ProductGroup

    with tenant_context(tenant2):
        group = ProductGroup.objects.create(name="Mailers")
        full = Product.objects.create(
            article_number="A-1",
            name="Mailer box",
            group=group,
            weight_per_carton_kg=Decimal("0.250"),
            purchase_price=Decimal("1.2000"),
            unit=Product.Unit.CARTON,
        )
        bare = Product.objects.create(article_number="A-2", name="Loose", is_active=False)
        sketch = _representation_sketch()
        rows = [
            full,
            bare,
            *Product.objects.filter(pk__in=[full.pk, bare.pk]).only("id", "article_number", "name"),
        ]
        serializer = sketch(rows, many=True, context={"suffix": "x"})
        ours = serializer.data
        child = serializer.child
        drf = [serializers.Serializer.to_representation(child, row) for row in rows]
    assert [dict(row) for row in ours] == drf
    assert [list(row) for row in ours] == [list(row) for row in drf]
    assert drf[0]["group"] == group.pk and drf[1]["group"] is None and drf[1]["weight_per_carton_kg"] is None
    assert drf[0]["group_name"] == "Mailers" and drf[1]["group_name"] == ""
    assert drf[0]["badge"] == "A-1/x" and drf[0]["shouting"] == "MAILER BOX"
    assert "secret" not in drf[0]
    plan = {name: how for name, how, _key, _field in child.__dict__[_PLAN][1]}
    assert plan == {
        "id": "attribute",
        "article_number": "attribute",
        "title": "attribute",
        "group": "foreign key",
        "group_name": "generic",
        "group_detail": "generic",
        "unit": "attribute",
        "weight_per_carton_kg": "attribute",
        "purchase_price": "attribute",
        "is_active": "attribute",
        "created_at": "attribute",
        "shouting": "generic",
        "identity": "generic",
        "group_id_plain": "generic",
        "badge": "method",
    }


def test_anything_but_a_model_instance_is_written_as_drf_writes_it():
    sketch = _representation_sketch()
    row = {
        "id": 7,
        "article_number": "A-7",
        "name": "Dict row",
        "group": None,
        "unit": "pcs",
        "weight_per_carton_kg": None,
        "purchase_price": None,
        "is_active": True,
        "created_at": None,
        "pk": 7,
        "group_id": None,
    }

    class Rows(sketch):
        def get_badge(self, obj) -> str:
            return obj["article_number"]

        class Meta(sketch.Meta):
            fields = [f for f in sketch.Meta.fields if f not in ("group_name", "group_detail", "group")]

    ours = Rows(row).data
    assert dict(ours) == serializers.Serializer.to_representation(Rows(row), row)
    assert ours["title"] == "Dict row" and ours["badge"] == "A-7"
