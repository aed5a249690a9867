from __future__ import annotations

import re
from decimal import Decimal

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.common.prices import PriceFieldsMixin
from apps.inventory.models import Warehouse
from apps.products.models import Product
from apps.purchaseorders import selectors
from apps.purchaseorders.models import (
    PurchaseOrder,
    PurchaseOrderLine,
    Receipt,
    ReceiptLine,
    SupplierInvoice,
)
from apps.purchaseorders.services import allowed_actions
from apps.suppliers.models import Supplier

ORDER_NUMBER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@extend_schema_field(OpenApiTypes.INT)
class TenantInternalUserField(serializers.PrimaryKeyRelatedField):
    """An internal user who is an active member of the current tenant (order owners)."""

    def get_queryset(self):
        return selectors.owner_candidates()


class OwnerOptionSerializer(serializers.Serializer):
    """A user who may own purchase orders (the owner select and filter)."""

    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.SerializerMethodField()

    def get_name(self, obj) -> str:
        return obj.profile_name or obj.name or obj.username


class ParentVendorBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    cname = serializers.CharField()


class SupplierBriefSerializer(ModelSerializer):
    parent_vendor = ParentVendorBriefSerializer()

    class Meta:
        model = Supplier
        fields = ["id", "number", "name", "parent_vendor"]


class PurchaseOrderLineSerializer(PriceFieldsMixin, ModelSerializer):
    price_fields = ("unit_cost", "amount")

    amount = serializers.DecimalField(max_digits=16, decimal_places=2, read_only=True)
    open_qty = serializers.DecimalField(max_digits=14, decimal_places=3, read_only=True)
    cartons_issued = serializers.IntegerField(read_only=True, default=0)
    product_name = serializers.CharField(source="product.name", read_only=True)
    product_name_zh = serializers.CharField(source="product.name_zh", read_only=True)

    class Meta:
        model = PurchaseOrderLine
        fields = [
            "id",
            "line_number",
            "product",
            "product_number",
            "product_name",
            "product_name_zh",
            "line_description",
            "order_qty",
            "unit_cost",
            "amount",
            "weight_per_carton",
            "delivery_date",
            "received_qty",
            "open_qty",
            "cartons_issued",
        ]
        read_only_fields = fields


class PurchaseOrderSerializer(PriceFieldsMixin, ModelSerializer):
    """An order as lists show it (no lines)."""

    price_fields = ("total_amount",)

    supplier_detail = SupplierBriefSerializer(source="supplier", read_only=True)
    owner_name = serializers.SerializerMethodField()
    lines_count = serializers.IntegerField(read_only=True, default=0)
    ordered_qty = serializers.DecimalField(
        max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )
    received_qty = serializers.DecimalField(
        source="received_total_qty", max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )
    cartons_issued = serializers.IntegerField(read_only=True, default=0)
    allowed_transitions = serializers.SerializerMethodField()
    lines_editable = serializers.BooleanField(read_only=True)

    class Meta:
        model = PurchaseOrder
        fields = [
            "id",
            "order_number",
            "order_date",
            "supplier",
            "supplier_detail",
            "currency",
            "total_amount",
            "description",
            "type",
            "promise_date",
            "owner",
            "owner_name",
            "status",
            "lines_count",
            "ordered_qty",
            "received_qty",
            "cartons_issued",
            "allowed_transitions",
            "lines_editable",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_owner_name(self, obj) -> str:
        owner = obj.owner
        return (owner.profile_name or owner.name or owner.username) if owner else ""

    @extend_schema_field(
        serializers.ListField(child=serializers.ChoiceField(choices=PurchaseOrder.Status.choices))
    )
    def get_allowed_transitions(self, obj) -> list[str]:
        request = self.context.get("request")
        if request is not None and getattr(request.user, "is_supplier", False):
            return []
        return [str(status) for status in allowed_actions(obj)]


class PurchaseOrderDetailSerializer(PurchaseOrderSerializer):
    lines = PurchaseOrderLineSerializer(many=True, read_only=True, source="annotated_lines")

    class Meta(PurchaseOrderSerializer.Meta):
        fields = [*PurchaseOrderSerializer.Meta.fields, "lines"]
        read_only_fields = fields


class PurchaseOrderLineWriteSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, allow_null=True)
    line_number = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    product = TenantRelatedField(queryset=Product.objects)
    product_number = serializers.CharField(required=False, allow_blank=True, max_length=64)
    line_description = serializers.CharField(required=False, allow_blank=True, max_length=500)
    order_qty = serializers.DecimalField(max_digits=14, decimal_places=3, min_value=Decimal("0.001"))
    unit_cost = serializers.DecimalField(max_digits=14, decimal_places=4, min_value=Decimal("0"))
    weight_per_carton = serializers.DecimalField(
        max_digits=10, decimal_places=3, min_value=Decimal("0"), required=False, allow_null=True
    )
    delivery_date = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="The day the supplier is asked to deliver this line; null: the order's promise date "
        "applies. Left out on an existing line: no change.",
    )


class PurchaseOrderWriteSerializer(serializers.Serializer):
    """Create (all fields) and update (header fields and, if given, the complete list of lines)."""

    order_number = serializers.CharField(required=False, allow_blank=True, max_length=50)
    order_date = serializers.DateField()
    supplier = TenantRelatedField(queryset=Supplier.objects)
    currency = serializers.RegexField(
        r"^[A-Z]{3}$",
        required=False,
        error_messages={"invalid": _("Enter a three-letter ISO 4217 currency code.")},
    )
    description = serializers.CharField(required=False, allow_blank=True, max_length=500)
    type = serializers.ChoiceField(choices=PurchaseOrder.Type.choices, required=False)
    promise_date = serializers.DateField(required=False, allow_null=True)
    owner = TenantInternalUserField(required=False, allow_null=True)
    lines = PurchaseOrderLineWriteSerializer(many=True, required=False)

    def validate_order_number(self, value: str) -> str:
        value = value.strip()
        if value.lower() == "new":  # the web app's route /purchase/orders/new
            raise serializers.ValidationError(_("This order number is reserved."))
        if value and not ORDER_NUMBER_RE.match(value):
            raise serializers.ValidationError(
                _("Use letters, digits, dots, dashes and underscores only (no spaces or slashes).")
            )
        instance = self.instance
        if instance is not None and value and value != instance.order_number:
            raise serializers.ValidationError(_("The order number cannot be changed after creation."))
        return value

    def validate_lines(self, value):
        if not value:  # an order always keeps at least one line (a PATCH with [] too)
            raise serializers.ValidationError(_("Add at least one line."))
        ids = [line["id"] for line in value if line.get("id")]
        if len(ids) != len(set(ids)):
            raise serializers.ValidationError(_("A line appears twice."))
        return value

    def validate(self, attrs):
        if self.instance is None and "lines" not in attrs:
            raise serializers.ValidationError({"lines": [_("Add at least one line.")]})
        order_date = attrs.get("order_date") or (self.instance.order_date if self.instance else None)
        promise_date = attrs.get("promise_date", self.instance.promise_date if self.instance else None)
        if order_date and promise_date and promise_date < order_date:
            raise serializers.ValidationError(
                {"promise_date": [_("The promise date is before the order date.")]}
            )
        if order_date:
            self._validate_delivery_dates(attrs, order_date)
        return attrs

    def _validate_delivery_dates(self, attrs, order_date) -> None:
        """No line is to be delivered before the order date: the lines sent, else (an update moving the
        order date) the order's stored lines."""
        message = _("The delivery date cannot be before the order date.")
        lines = attrs.get("lines")
        if lines is not None:
            # a line sent without its date keeps the stored one, which the order date must not pass either
            kept = {}
            if self.instance is not None:
                kept_ids = [line["id"] for line in lines if line.get("id") and "delivery_date" not in line]
                kept = dict(
                    self.instance.lines.filter(pk__in=kept_ids, delivery_date__lt=order_date).values_list(
                        "pk", "delivery_date"
                    )
                )
            errors = [
                {"delivery_date": [message]}
                if (line.get("delivery_date") and line["delivery_date"] < order_date)
                or ("delivery_date" not in line and line.get("id") in kept)
                else {}
                for line in lines
            ]
            if any(errors):
                raise serializers.ValidationError({"lines": errors})
            return
        if self.instance is None or "order_date" not in attrs:
            return
        early = self.instance.lines.filter(delivery_date__lt=order_date).order_by("line_number").first()
        if early is not None:
            raise serializers.ValidationError(
                {
                    "order_date": [
                        _("Line %(number)s is to be delivered before this order date.")
                        % {"number": early.line_number}
                    ]
                }
            )


class ReceiptLineSerializer(ModelSerializer):
    line_number = serializers.IntegerField(source="order_line.line_number", read_only=True)
    product = serializers.IntegerField(source="order_line.product_id", read_only=True)
    product_number = serializers.CharField(source="order_line.product_number", read_only=True)
    line_description = serializers.CharField(source="order_line.line_description", read_only=True)
    location = serializers.SerializerMethodField()

    class Meta:
        model = ReceiptLine
        fields = [
            "id",
            "order_line",
            "line_number",
            "product",
            "product_number",
            "line_description",
            "quantity",
            "stock_move",
            "location",
        ]
        read_only_fields = fields

    def get_location(self, obj) -> str:
        move = obj.stock_move
        return move.to_location.code if move and move.to_location else ""


class WarehouseBriefSerializer(ModelSerializer):
    class Meta:
        model = Warehouse
        fields = ["id", "code", "name"]


class ReceiptSerializer(ModelSerializer):
    purchase_order_number = serializers.CharField(source="purchase_order.order_number", read_only=True)
    supplier = SupplierBriefSerializer(source="purchase_order.supplier", read_only=True)
    warehouse_detail = WarehouseBriefSerializer(source="warehouse", read_only=True)
    created_by_name = serializers.SerializerMethodField()
    lines_count = serializers.IntegerField(read_only=True, default=0)
    total_qty = serializers.DecimalField(
        max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )

    class Meta:
        model = Receipt
        fields = [
            "id",
            "receipt_number",
            "purchase_order",
            "purchase_order_number",
            "supplier",
            "warehouse",
            "warehouse_detail",
            "receipt_date",
            "note",
            "over_receipt",
            "lines_count",
            "total_qty",
            "created_by_name",
            "created_at",
        ]
        read_only_fields = fields

    def get_created_by_name(self, obj) -> str:
        user = obj.created_by
        return (user.profile_name or user.name or user.username) if user else ""


class ReceiptDetailSerializer(ReceiptSerializer):
    lines = ReceiptLineSerializer(many=True, read_only=True)

    class Meta(ReceiptSerializer.Meta):
        fields = [*ReceiptSerializer.Meta.fields, "lines"]
        read_only_fields = fields


class ReceiptLineWriteSerializer(serializers.Serializer):
    order_line = serializers.IntegerField()
    quantity = serializers.DecimalField(max_digits=14, decimal_places=3, min_value=Decimal("0.001"))


class ReceiptWriteSerializer(serializers.Serializer):
    purchase_order = TenantRelatedField(queryset=PurchaseOrder.objects)
    warehouse = TenantRelatedField(queryset=Warehouse.objects, required=False, allow_null=True)
    receipt_date = serializers.DateField(required=False, allow_null=True)
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)
    allow_over_receipt = serializers.BooleanField(required=False, default=False)
    lines = ReceiptLineWriteSerializer(many=True, allow_empty=False)


class TransitionSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=PurchaseOrder.Status.choices)


class StatusSummaryEntrySerializer(serializers.Serializer):
    count = serializers.IntegerField()
    amounts = serializers.DictField(child=serializers.CharField())


class OrderSummarySerializer(serializers.Serializer):
    statuses = serializers.DictField(child=StatusSummaryEntrySerializer())
    total = StatusSummaryEntrySerializer()


# ------------------------------------------------------------------------------------- supplier invoices


class PurchaseOrderBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    order_number = serializers.CharField()
    currency = serializers.CharField()
    status = serializers.CharField()


class SupplierInvoiceSerializer(PriceFieldsMixin, ModelSerializer):
    price_fields = ("total_net", "total_vat", "total_gross")

    supplier = SupplierBriefSerializer(read_only=True, allow_null=True)
    purchase_order = PurchaseOrderBriefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = SupplierInvoice
        fields = [
            "id",
            "invoice_number",
            "kind",
            "issue_date",
            "due_date",
            "currency",
            "total_net",
            "total_vat",
            "total_gross",
            "seller_name",
            "seller_vat_id",
            "order_reference",
            "supplier",
            "purchase_order",
            "status",
            "match_status",
            "syntax",
            "original_filename",
            "created_at",
        ]
        read_only_fields = fields


class SupplierInvoiceLineMatchSerializer(PriceFieldsMixin, serializers.Serializer):
    """One invoice line with its 3-way figures: ordered and received on the order line, invoiced on it by
    every not rejected supplier invoice (this one included), the order's unit cost and the difference."""

    price_fields = ("net_price", "line_net", "order_price", "price_difference")

    id = serializers.IntegerField(source="line.id")
    line_id = serializers.CharField(source="line.line_id")
    description = serializers.CharField(source="line.description")
    seller_item_id = serializers.CharField(source="line.seller_item_id")
    order_line_reference = serializers.CharField(source="line.order_line_reference")
    quantity = serializers.DecimalField(source="line.quantity", max_digits=18, decimal_places=3)
    unit_code = serializers.CharField(source="line.unit_code")
    net_price = serializers.DecimalField(source="line.net_price", max_digits=18, decimal_places=4)
    line_net = serializers.DecimalField(source="line.line_net", max_digits=16, decimal_places=2)
    vat_category = serializers.CharField(source="line.vat_category")
    vat_rate = serializers.DecimalField(
        source="line.vat_rate", max_digits=6, decimal_places=2, allow_null=True
    )
    order_line = serializers.IntegerField(source="line.order_line_id", allow_null=True)
    order_line_number = serializers.SerializerMethodField()
    ordered = serializers.DecimalField(max_digits=18, decimal_places=3, allow_null=True)
    received = serializers.DecimalField(max_digits=18, decimal_places=3, allow_null=True)
    invoiced = serializers.DecimalField(max_digits=18, decimal_places=3, allow_null=True)
    order_price = serializers.DecimalField(max_digits=18, decimal_places=4, allow_null=True)
    price_difference = serializers.DecimalField(max_digits=18, decimal_places=4, allow_null=True)
    status = serializers.ChoiceField(choices=SupplierInvoice._meta.get_field("match_status").choices)

    def get_order_line_number(self, obj) -> int | None:
        return obj.line.order_line.line_number if obj.line.order_line is not None else None


class EInvoiceFindingSerializer(serializers.Serializer):
    """What a received e-invoice breaks: an EN 16931 rule (`BR-*`, its text in the request's language) or
    the XSD of its syntax (`UBL-XSD`, `FACTUR-X-XSD`, the schema's own English message)."""

    rule = serializers.CharField()
    message = serializers.CharField()


class SupplierInvoiceDetailSerializer(SupplierInvoiceSerializer):
    lines = serializers.SerializerMethodField()
    einvoice_findings = serializers.SerializerMethodField()
    decision_reason = serializers.CharField(read_only=True)
    decided_at = serializers.DateTimeField(read_only=True, allow_null=True)
    decided_by = serializers.CharField(
        source="decided_by.username", read_only=True, allow_null=True, default=None
    )
    created_by = serializers.CharField(
        source="created_by.username", read_only=True, allow_null=True, default=None
    )
    price_tolerance = serializers.SerializerMethodField()

    class Meta(SupplierInvoiceSerializer.Meta):
        fields = [
            *SupplierInvoiceSerializer.Meta.fields,
            "decision_reason",
            "decided_at",
            "decided_by",
            "created_by",
            "price_tolerance",
            "einvoice_findings",
            "lines",
        ]
        read_only_fields = fields

    @extend_schema_field(EInvoiceFindingSerializer(many=True))
    def get_einvoice_findings(self, obj) -> list:
        """What the uploaded file breaks (the XSD of its syntax, the EN 16931 rules); empty: nothing found.
        Findings do not block the invoice: it is read, and may be approved or rejected."""
        from apps.purchaseorders import einvoice_in

        return [
            {"rule": str(finding.get("rule", "")), "message": einvoice_in.finding_text(finding)}
            for finding in (obj.einvoice_findings or [])
            if isinstance(finding, dict)
        ]

    @extend_schema_field(SupplierInvoiceLineMatchSerializer(many=True))
    def get_lines(self, obj) -> list:
        from apps.purchaseorders import services

        match = services.supplier_invoice_match(obj)
        return SupplierInvoiceLineMatchSerializer(match.lines, many=True, context=self.context).data

    @extend_schema_field(OpenApiTypes.STR)
    def get_price_tolerance(self, obj) -> str:
        """How far the invoiced net price may be from the order's unit cost (a decimal string)."""
        from apps.purchaseorders import services

        return str(services.PRICE_TOLERANCE)


class SupplierInvoiceUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class SupplierInvoiceDecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
