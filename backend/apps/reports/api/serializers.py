from django.utils.translation import gettext as _
from rest_framework import serializers

from apps.common.api.model_serializer import ModelSerializer
from apps.reports.datasets import DATE, GRAINS
from apps.reports.definition import parse_definition
from apps.reports.errors import PricesHidden
from apps.reports.models import SavedReport
from apps.reports.selectors import dataset_for, may_see_prices


class ChoiceSerializer(serializers.Serializer):
    value = serializers.CharField()
    label = serializers.CharField()


class DimensionSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    kind = serializers.ChoiceField(choices=["text", "number", "date", "choice", "bool"])
    grains = serializers.ListField(child=serializers.CharField())
    choices = ChoiceSerializer(many=True)

    def to_representation(self, dimension):
        return {
            "name": dimension.name,
            "label": str(dimension.label),
            "kind": dimension.kind,
            "grains": list(GRAINS) if dimension.kind == DATE else [],
            "choices": [{"value": v, "label": label} for v, label in dimension.choices()],
        }


class MeasureSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    aggregates = serializers.ListField(child=serializers.CharField())

    def to_representation(self, measure):
        return {"name": measure.name, "label": str(measure.label), "aggregates": list(measure.aggregates)}


class DatasetSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    dimensions = DimensionSerializer(many=True)
    measures = MeasureSerializer(many=True)

    def to_representation(self, dataset):
        prices = self.context.get("prices", True)
        return {
            "name": dataset.name,
            "label": str(dataset.label),
            "dimensions": [DimensionSerializer().to_representation(d) for d in dataset.dimensions],
            "measures": [
                MeasureSerializer().to_representation(m) for m in dataset.measures if prices or not m.price
            ],
        }


class FilterSerializer(serializers.Serializer):
    field = serializers.CharField()
    op = serializers.ChoiceField(choices=["eq", "in", "range", "contains", "relative"])
    value = serializers.JSONField(required=False, allow_null=True)


class MeasureSpecSerializer(serializers.Serializer):
    field = serializers.CharField()
    agg = serializers.ChoiceField(choices=["sum", "count", "count_distinct", "avg", "min", "max"])


class DefinitionSerializer(serializers.Serializer):
    """A report definition (documented shape; the checks against the dataset are in definition.py)."""

    dataset = serializers.CharField(max_length=50)
    filters = FilterSerializer(many=True, required=False)
    group_by = serializers.ListField(child=serializers.CharField(), required=False, max_length=3)
    pivot = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    measures = MeasureSpecSerializer(many=True, required=False)
    order_by = serializers.ListField(child=serializers.CharField(), required=False)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=10_000)


def checked_definition(data, *, request):
    """The parsed Definition of a request body (or a saved report's definition)."""
    if not isinstance(data, dict) or not isinstance(data.get("dataset"), str):
        raise serializers.ValidationError({"dataset": [_("Choose a dataset.")]})
    dataset = dataset_for(name=data["dataset"], user=request.user, tenant=request.tenant)
    definition = parse_definition(data, dataset=dataset)
    if any(m.measure.price for m in definition.measures) and not may_see_prices(
        user=request.user, tenant=request.tenant
    ):
        raise PricesHidden()
    return definition


class DrillSerializer(DefinitionSerializer):
    cell = serializers.DictField(child=serializers.JSONField(allow_null=True))
    page = serializers.IntegerField(required=False, min_value=1, default=1)
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=200, default=50)


class RunResultSerializer(serializers.Serializer):
    columns = serializers.ListField(child=serializers.CharField())
    measures = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField())
    subtotals = serializers.ListField(child=serializers.DictField())
    pivot_totals = serializers.ListField(child=serializers.DictField())
    totals = serializers.DictField()
    truncated = serializers.BooleanField()


class DrillColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class DrillResultSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    columns = DrillColumnSerializer(many=True)
    results = serializers.ListField(child=serializers.DictField())


class ReportCheckSerializer(serializers.Serializer):
    name = serializers.CharField()
    ok = serializers.BooleanField()
    failures = serializers.IntegerField()


class DatasetCheckSerializer(serializers.Serializer):
    dataset = serializers.CharField()
    label = serializers.CharField()
    rows = serializers.IntegerField()
    sample_ms = serializers.FloatField()
    checks = ReportCheckSerializer(many=True)


class SavedReportSerializer(ModelSerializer):
    owner_name = serializers.SerializerMethodField()
    is_mine = serializers.SerializerMethodField()
    definition = serializers.JSONField()

    class Meta:
        model = SavedReport
        fields = [
            "id",
            "name",
            "description",
            "shared",
            "definition",
            "chart",
            "owner",
            "owner_name",
            "is_mine",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["owner", "created_at", "updated_at"]

    def get_owner_name(self, report) -> str:
        owner = report.owner
        return owner.get_full_name() or owner.username

    def get_is_mine(self, report) -> bool:
        return report.owner_id == self.context["request"].user.pk

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError(_("A report needs a name."))
        request = self.context["request"]
        clash = SavedReport.objects.filter(owner=request.user, name=value)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError(_("You already have a report with this name."))
        return value

    def validate_definition(self, value):
        checked_definition(value, request=self.context["request"])
        return value
