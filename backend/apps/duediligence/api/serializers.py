from __future__ import annotations

from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.suppliers.models import ParentVendor

from ..models import (
    AuditEntry,
    FilingOverride,
    ForestLayer,
    ForestResult,
    RecordArchive,
    RetentionHold,
    RiskAssessment,
    SubstantiatedConcern,
)


class CountryLevelSerializer(serializers.Serializer):
    country_code = serializers.CharField()
    level = serializers.CharField(
        allow_null=True, help_text="low, standard or high; null for an invalid code"
    )


class CriterionSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="a to n: the Art. 10(2) criterion")
    finding = serializers.CharField(help_text="no_risk or risk")
    evidence = serializers.CharField()


class MitigationSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="more_information, independent_audit or other (Art. 11)")
    description = serializers.CharField()
    evidence = serializers.CharField()


class RiskAssessmentSerializer(ModelSerializer):
    criteria = CriterionSerializer(many=True, read_only=True)
    mitigation = MitigationSerializer(many=True, read_only=True)
    assessed_by = serializers.CharField(source="assessed_by.username", default="", read_only=True)
    parent_vendor_name = serializers.CharField(source="parent_vendor.name", read_only=True)
    country_levels = serializers.DictField(child=serializers.CharField(allow_null=True), read_only=True)

    class Meta:
        model = RiskAssessment
        fields = [
            "id",
            "delivery",
            "parent_vendor",
            "parent_vendor_name",
            "criteria",
            "conclusion",
            "mitigation",
            "summary",
            "country_levels",
            "benchmark",
            "assessed_by",
            "assessed_at",
        ]
        read_only_fields = fields


class RiskAssessmentInputSerializer(serializers.Serializer):
    """Shapes are checked here; the rules (every criterion, evidence, mitigation) in the service."""

    delivery = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects, required=False, allow_null=True)
    criteria = serializers.ListField(child=serializers.DictField(), max_length=50)
    conclusion = serializers.CharField(max_length=20)
    mitigation = serializers.ListField(child=serializers.DictField(), required=False, max_length=50)
    summary = serializers.CharField(required=False, allow_blank=True, max_length=4000)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class FilingOverrideSerializer(ModelSerializer):
    by = serializers.CharField(source="by.username", default="", read_only=True)
    blocked_by = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = FilingOverride
        fields = ["id", "reason", "blocked_by", "by", "at"]
        read_only_fields = fields


class RecordArchiveSerializer(ModelSerializer):
    by = serializers.CharField(source="by.username", default="", read_only=True)
    details = serializers.DictField(read_only=True)

    class Meta:
        model = RecordArchive
        fields = ["id", "kind", "reason", "details", "by", "at"]
        read_only_fields = fields


class RetentionHoldSerializer(ModelSerializer):
    class Meta:
        model = RetentionHold
        fields = ["reason", "reference_number", "started_at", "keep_until"]
        read_only_fields = fields


class ConcernSerializer(ModelSerializer):
    raised_by = serializers.CharField(source="raised_by.username", default="", read_only=True)
    resolved_by = serializers.CharField(source="resolved_by.username", default="", read_only=True)
    parent_vendor_name = serializers.CharField(source="parent_vendor.name", default="", read_only=True)
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = SubstantiatedConcern
        fields = [
            "id",
            "parent_vendor",
            "parent_vendor_name",
            "delivery",
            "submission",
            "description",
            "source",
            "raised_by",
            "raised_at",
            "is_open",
            "resolution",
            "resolved_by",
            "resolved_at",
        ]
        read_only_fields = fields


class ConcernInputSerializer(serializers.Serializer):
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects, required=False, allow_null=True)
    delivery = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    submission = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    description = serializers.CharField(max_length=4000)
    source = serializers.CharField(required=False, allow_blank=True, max_length=300)


class ResolutionSerializer(serializers.Serializer):
    resolution = serializers.CharField(max_length=4000)


class BlockerSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="assessment_missing, assessment_not_negligible, forest_loss or open_concern"
    )
    message = serializers.CharField()
    concern = serializers.IntegerField(required=False)


class ForestResultSerializer(ModelSerializer):
    loss_years = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    loss_after_cutoff = serializers.BooleanField(read_only=True)
    forest_share = serializers.FloatField(
        allow_null=True, read_only=True, help_text="0..1: share of the plot's cells that were forest in 2020"
    )

    class Meta:
        model = ForestResult
        fields = [
            "id",
            "plot_index",
            "plot_id",
            "layer_id",
            "layer_kind",
            "layer_name",
            "layer_source",
            "layer_date",
            "cells",
            "forest_share",
            "loss_cells_after_cutoff",
            "loss_years",
            "loss_after_cutoff",
            "computed_at",
        ]
        read_only_fields = fields


class DueDiligenceOverviewSerializer(serializers.Serializer):
    delivery = serializers.IntegerField()
    benchmark = serializers.CharField(help_text="The country benchmark in use: the act and its date")
    countries = CountryLevelSerializer(many=True)
    simplified = serializers.BooleanField(help_text="Art. 13: every country of production is low risk")
    assessment = RiskAssessmentSerializer(allow_null=True, help_text="The assessment that counts")
    assessments = RiskAssessmentSerializer(
        many=True, help_text="Every assessment of the delivery, newest first"
    )
    override = FilingOverrideSerializer(allow_null=True)
    can_override = serializers.BooleanField()
    blockers = BlockerSerializer(many=True)
    can_file = serializers.BooleanField()
    concerns = ConcernSerializer(
        many=True, help_text="Concerns naming the delivery, its statements or supplier"
    )
    hold = RetentionHoldSerializer(allow_null=True, help_text="Kept five years from the statement")
    archives = RecordArchiveSerializer(many=True)
    forest = ForestResultSerializer(many=True, help_text="The 2020 forest check of each plot, per layer")
    forest_flagged = serializers.BooleanField(help_text="A plot lost tree cover after 2020")


class AuditEntrySerializer(ModelSerializer):
    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "at",
            "username",
            "record_type",
            "record_id",
            "submission_id",
            "action",
            "field",
            "old_value",
            "new_value",
        ]
        read_only_fields = fields


class BenchmarkSerializer(serializers.Serializer):
    act_reference = serializers.CharField()
    act_date = serializers.DateField()
    default_level = serializers.CharField()
    levels = serializers.DictField(child=serializers.CharField())


class ForestLayerSerializer(ModelSerializer):
    bounds = serializers.ListField(child=serializers.FloatField(), read_only=True)
    uploaded_by = serializers.CharField(source="uploaded_by_name", read_only=True)
    stale = serializers.BooleanField(
        read_only=True,
        help_text="Waiting or processing without a sign of life for 30 minutes: its job was lost",
    )

    class Meta:
        model = ForestLayer
        fields = [
            "id",
            "name",
            "kind",
            "source",
            "layer_date",
            "file_name",
            "size",
            "width",
            "height",
            "crs",
            "bounds",
            "status",
            "progress",
            "plots_done",
            "message",
            "uploaded_by",
            "uploaded_at",
            "processed_at",
            "progress_at",
            "stale",
        ]
        read_only_fields = fields


class ForestLayerUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A georeferenced GeoTIFF")
    name = serializers.CharField(max_length=200)
    kind = serializers.ChoiceField(choices=ForestLayer.Kind.choices)
    source = serializers.CharField(max_length=300, required=False, allow_blank=True)
    layer_date = serializers.DateField(help_text="The date of the layer's edition")


class AnnualCountrySerializer(serializers.Serializer):
    country_code = serializers.CharField()
    statements = serializers.IntegerField(help_text="Statements of the year with this country")
    level = serializers.CharField(allow_null=True, help_text="low, standard or high")


class AnnualAssessmentsSerializer(serializers.Serializer):
    negligible = serializers.IntegerField()
    not_negligible = serializers.IntegerField()


class AnnualFiguresSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    statements = serializers.ListField(child=serializers.CharField(), help_text="Reference numbers")
    statements_filed = serializers.IntegerField()
    statements_recorded = serializers.IntegerField()
    deliveries = serializers.IntegerField(help_text="Deliveries received in the year")
    countries = AnnualCountrySerializer(many=True)
    assessments = AnnualAssessmentsSerializer()
    concerns_raised = serializers.IntegerField()
    concerns_resolved = serializers.IntegerField()
