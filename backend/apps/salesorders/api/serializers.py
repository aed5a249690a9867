from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common import tax
from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.customers.models import Customer
from apps.inventory.models import Warehouse
from apps.inventory.selectors import pick_places
from apps.products.models import Product
from apps.purchaseorders import selectors as purchasing_selectors
from apps.salesorders import selectors, services
from apps.salesorders.models import (
    EInvoiceDelivery,
    Invoice,
    InvoiceLine,
    InvoicePayment,
    Language,
    PeppolSettings,
    SalesOrder,
    SalesOrderLine,
    SalesQuotation,
    SalesQuotationLine,
    Shipment,
    ShipmentCarton,
    ShipmentLine,
)
from apps.salesorders.selectors import vat_breakdown


def _user_name(user) -> str:
    """Who did something, as the pages name them: the full name, else the username ("" for nobody)."""
    return (user.get_full_name() or user.username) if user else ""


ORDER_NUMBER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
QTY = {"max_digits": 14, "decimal_places": 3}
MONEY = {"max_digits": 14, "decimal_places": 2}
PERCENT = {"max_digits": 5, "decimal_places": 2, "min_value": Decimal("0"), "max_value": Decimal("100")}


@extend_schema_field(OpenApiTypes.INT)
class TenantInternalUserField(serializers.PrimaryKeyRelatedField):
    """An internal user who is an active member of the current tenant (order owners)."""

    def get_queryset(self):
        return purchasing_selectors.owner_candidates()


def _user_name(user) -> str:
    return (user.profile_name or user.name or user.username) if user else ""


class CustomerBriefSerializer(ModelSerializer):
    class Meta:
        model = Customer
        fields = ["id", "number", "name", "vat_id"]


# -- orders ----------------------------------------------------------------------------------------------


class SalesOrderLineSerializer(ModelSerializer):
    product_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    product_name_zh = serializers.CharField(source="product.name_zh", read_only=True)
    open_quantity = serializers.DecimalField(**QTY, read_only=True)
    shipped = serializers.SerializerMethodField()

    class Meta:
        model = SalesOrderLine
        fields = [
            "id",
            "line_number",
            "product",
            "product_number",
            "product_name",
            "product_name_zh",
            "description",
            "quantity",
            "unit_price",
            "discount_percent",
            "vat_rate",
            "amount_net",
            "amount_vat",
            "requested_date",
            "confirmed_date",
            "quantity_reserved",
            "quantity_shipped",
            "quantity_invoiced",
            "open_quantity",
            "shipped",
        ]
        read_only_fields = fields

    def get_shipped(self, obj) -> bool:
        """True once goods of the line have shipped: the line is read-only then."""
        return obj.quantity_shipped > 0


class SalesOrderSerializer(ModelSerializer):
    """An order as lists show it (no lines)."""

    customer_detail = CustomerBriefSerializer(source="customer", read_only=True)
    owner_name = serializers.SerializerMethodField()
    warehouse_code = serializers.CharField(source="warehouse.code", read_only=True, default="")
    lines_count = serializers.IntegerField(read_only=True, default=0)
    ordered_qty = serializers.DecimalField(
        max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )
    shipped_qty = serializers.DecimalField(
        max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )
    invoiced_qty = serializers.DecimalField(
        max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )
    allowed_actions = serializers.SerializerMethodField()
    quotation = serializers.IntegerField(
        source="quotation_id",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The quotation the order was made from (accepted), if any.",
    )
    quotation_number = serializers.CharField(read_only=True, allow_null=True, default=None)

    class Meta:
        model = SalesOrder
        fields = [
            "id",
            "order_number",
            "customer",
            "customer_detail",
            "ship_to_name",
            "ship_to_street",
            "ship_to_post_code",
            "ship_to_city",
            "ship_to_country",
            "order_date",
            "customer_reference",
            "currency",
            "payment_terms_days",
            "language",
            "warehouse",
            "warehouse_code",
            "owner",
            "owner_name",
            "description",
            "status",
            "total_net",
            "total_vat",
            "total_gross",
            "lines_count",
            "ordered_qty",
            "shipped_qty",
            "invoiced_qty",
            "allowed_actions",
            "quotation",
            "quotation_number",
            "confirmed_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_owner_name(self, obj) -> str:
        return _user_name(obj.owner)

    def get_allowed_actions(self, obj) -> list[str]:
        return services.allowed_actions(obj)


class StatusExplanationSerializer(serializers.Serializer):
    ordered = serializers.DecimalField(max_digits=16, decimal_places=3)
    reserved = serializers.DecimalField(max_digits=16, decimal_places=3)
    shipped = serializers.DecimalField(max_digits=16, decimal_places=3)
    invoiced = serializers.DecimalField(max_digits=16, decimal_places=3)
    confirmed = serializers.BooleanField()


class SalesOrderDetailSerializer(SalesOrderSerializer):
    lines = SalesOrderLineSerializer(many=True, read_only=True, source="annotated_lines")
    status_explanation = serializers.SerializerMethodField()

    class Meta(SalesOrderSerializer.Meta):
        fields = [*SalesOrderSerializer.Meta.fields, "lines", "status_explanation"]
        read_only_fields = fields

    @extend_schema_field(StatusExplanationSerializer)
    def get_status_explanation(self, obj):
        facts = services.order_status_explain(order=obj, lines=obj.annotated_lines)
        return StatusExplanationSerializer(facts).data


class SalesOrderLineWriteSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, allow_null=True)
    product = TenantRelatedField(queryset=Product.objects)
    description = serializers.CharField(required=False, allow_blank=True, max_length=500)
    quantity = serializers.DecimalField(**QTY, min_value=Decimal("0.001"))
    unit_price = serializers.DecimalField(max_digits=14, decimal_places=4, min_value=Decimal("0"))
    discount_percent = serializers.DecimalField(**PERCENT, required=False)
    vat_rate = serializers.DecimalField(**PERCENT, required=False)
    requested_date = serializers.DateField(required=False, allow_null=True)
    confirmed_date = serializers.DateField(required=False, allow_null=True)


class SalesOrderWriteSerializer(serializers.Serializer):
    """Create (customer, order_date, lines; the rest optional) and update (header fields and, if given,
    the complete list of lines: lines with `id` are kept, others added, missing ones removed)."""

    order_number = serializers.CharField(required=False, allow_blank=True, max_length=50)
    customer = TenantRelatedField(queryset=Customer.objects)
    order_date = serializers.DateField()
    customer_reference = serializers.CharField(required=False, allow_blank=True, max_length=100)
    currency = serializers.RegexField(
        r"^[A-Z]{3}$",
        required=False,
        error_messages={"invalid": _("Enter a three-letter ISO 4217 currency code.")},
    )
    payment_terms_days = serializers.IntegerField(required=False, min_value=0, max_value=365)
    language = serializers.ChoiceField(choices=Language.choices, required=False)
    warehouse = TenantRelatedField(queryset=Warehouse.objects, required=False, allow_null=True)
    owner = TenantInternalUserField(required=False, allow_null=True)
    description = serializers.CharField(required=False, allow_blank=True, max_length=1000)
    ship_to_name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    ship_to_street = serializers.CharField(required=False, allow_blank=True, max_length=200)
    ship_to_post_code = serializers.CharField(required=False, allow_blank=True, max_length=20)
    ship_to_city = serializers.CharField(required=False, allow_blank=True, max_length=100)
    ship_to_country = serializers.RegexField(r"^([A-Z]{2})?$", required=False, allow_blank=True, max_length=2)
    lines = SalesOrderLineWriteSerializer(many=True, required=False)
    confirm = serializers.BooleanField(required=False, default=False, write_only=True)
    unchanged_since = serializers.DateTimeField(
        required=False,
        allow_null=True,
        write_only=True,
        help_text="On update: the order's `updated_at` as the client read it. If the order changed since "
        "(someone saved or confirmed it), the update is refused with 409 `order_changed`.",
    )

    def validate_order_number(self, value: str) -> str:
        value = value.strip()
        if value and not ORDER_NUMBER_RE.match(value):
            raise serializers.ValidationError(
                _("Use letters, digits, dots, dashes and underscores only (no spaces or slashes).")
            )
        instance = self.instance
        if instance is not None and value and value != instance.order_number:
            raise serializers.ValidationError(_("The order number cannot be changed after creation."))
        return value

    def validate_lines(self, value):
        if not value:
            raise serializers.ValidationError(_("Add at least one line."))
        ids = [line["id"] for line in value if line.get("id")]
        if len(ids) != len(set(ids)):
            raise serializers.ValidationError(_("A line appears twice."))
        return value

    def validate(self, attrs):
        if self.instance is None and "lines" not in attrs:
            raise serializers.ValidationError({"lines": [_("Add at least one line.")]})
        order_date = attrs.get("order_date") or (self.instance.order_date if self.instance else None)
        line_errors = [
            {
                name: [_("A delivery date is before the order date.")]
                for name in ("requested_date", "confirmed_date")
                if order_date and line.get(name) and line[name] < order_date
            }
            for line in attrs.get("lines") or []
        ]
        if any(line_errors):
            # per line and field, as DRF nests the errors of a list: the form puts each on its cell
            raise serializers.ValidationError({"lines": line_errors})
        return attrs


# -- quotations ------------------------------------------------------------------------------------------


class SalesQuotationLineSerializer(ModelSerializer):
    product_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    product_name_zh = serializers.CharField(source="product.name_zh", read_only=True)

    class Meta:
        model = SalesQuotationLine
        fields = [
            "id",
            "line_number",
            "product",
            "product_number",
            "product_name",
            "product_name_zh",
            "description",
            "quantity",
            "unit_price",
            "discount_percent",
            "vat_rate",
            "amount_net",
            "amount_vat",
        ]
        read_only_fields = fields


class SalesQuotationSerializer(ModelSerializer):
    """A quotation as lists show it (no lines). `status` is the shown one: `expired` for a draft or sent
    quotation past its `valid_until`."""

    customer_detail = CustomerBriefSerializer(source="customer", read_only=True)
    owner_name = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    lines_count = serializers.IntegerField(read_only=True, default=0)
    sales_order_number = serializers.CharField(
        source="sales_order.order_number", read_only=True, allow_null=True, default=None
    )
    allowed_actions = serializers.SerializerMethodField()

    class Meta:
        model = SalesQuotation
        fields = [
            "id",
            "quotation_number",
            "customer",
            "customer_detail",
            "quotation_date",
            "valid_until",
            "customer_reference",
            "currency",
            "payment_terms_days",
            "language",
            "terms",
            "owner",
            "owner_name",
            "status",
            "total_net",
            "total_vat",
            "total_gross",
            "lines_count",
            "sales_order",
            "sales_order_number",
            "allowed_actions",
            "sent_at",
            "accepted_at",
            "declined_at",
            "cancelled_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_owner_name(self, obj) -> str:
        return _user_name(obj.owner)

    @extend_schema_field(serializers.ChoiceField(choices=SalesQuotation.Status.choices))
    def get_status(self, obj) -> str:
        return services.quotation_status(obj)

    def get_allowed_actions(self, obj) -> list[str]:
        return services.quotation_allowed_actions(obj)


class SalesQuotationDetailSerializer(SalesQuotationSerializer):
    lines = SalesQuotationLineSerializer(many=True, read_only=True, source="annotated_lines")

    class Meta(SalesQuotationSerializer.Meta):
        fields = [*SalesQuotationSerializer.Meta.fields, "lines"]
        read_only_fields = fields


class SalesQuotationLineWriteSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, allow_null=True)
    product = TenantRelatedField(queryset=Product.objects)
    description = serializers.CharField(required=False, allow_blank=True, max_length=500)
    quantity = serializers.DecimalField(**QTY, min_value=Decimal("0.001"))
    unit_price = serializers.DecimalField(max_digits=14, decimal_places=4, min_value=Decimal("0"))
    discount_percent = serializers.DecimalField(**PERCENT, required=False)
    vat_rate = serializers.DecimalField(**PERCENT, required=False)


class SalesQuotationWriteSerializer(serializers.Serializer):
    """Create (customer, quotation_date, valid_until, lines; the rest optional) and update (header fields
    and, if given, the complete list of lines: lines with `id` are kept, others added, missing ones
    removed). The number is always counted (Q-<year>-<00001>)."""

    customer = TenantRelatedField(queryset=Customer.objects)
    quotation_date = serializers.DateField()
    valid_until = serializers.DateField()
    customer_reference = serializers.CharField(required=False, allow_blank=True, max_length=100)
    currency = serializers.RegexField(
        r"^[A-Z]{3}$",
        required=False,
        error_messages={"invalid": _("Enter a three-letter ISO 4217 currency code.")},
    )
    payment_terms_days = serializers.IntegerField(required=False, min_value=0, max_value=365)
    language = serializers.ChoiceField(choices=Language.choices, required=False)
    terms = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    owner = TenantInternalUserField(required=False, allow_null=True)
    lines = SalesQuotationLineWriteSerializer(many=True, required=False)

    def validate_lines(self, value):
        if not value:
            raise serializers.ValidationError(_("Add at least one line."))
        ids = [line["id"] for line in value if line.get("id")]
        if len(ids) != len(set(ids)):
            raise serializers.ValidationError(_("A line appears twice."))
        return value

    def validate(self, attrs):
        if self.instance is None and "lines" not in attrs:
            raise serializers.ValidationError({"lines": [_("Add at least one line.")]})
        instance = self.instance
        start = attrs.get("quotation_date") or (instance.quotation_date if instance else None)
        end = attrs.get("valid_until") or (instance.valid_until if instance else None)
        if start and end and end < start:
            raise serializers.ValidationError(
                {"valid_until": [_("The quotation cannot expire before its date.")]}
            )
        return attrs


class QuotationAcceptedSerializer(serializers.Serializer):
    """What accepting answers: the new sales order and the accepted quotation."""

    sales_order = serializers.IntegerField()
    order_number = serializers.CharField()
    quotation = SalesQuotationDetailSerializer()


# -- shipments --------------------------------------------------------------------------------------------


class SalesShipmentCartonSerializer(ModelSerializer):
    code = serializers.CharField(source="carton.code", read_only=True)
    product = serializers.IntegerField(source="carton.product_id", read_only=True)
    article_number = serializers.CharField(source="carton.article_number", read_only=True)
    production_batch_code = serializers.CharField(source="carton.production_batch_code", read_only=True)
    net_weight_kg = serializers.DecimalField(
        source="carton.net_weight_kg", max_digits=10, decimal_places=3, read_only=True
    )

    class Meta:
        model = ShipmentCarton
        fields = [
            "id",
            "carton",
            "code",
            "shipment_line",
            "product",
            "article_number",
            "production_batch_code",
            "net_weight_kg",
            "added_at",
        ]
        read_only_fields = fields


class SalesShipmentLineSerializer(ModelSerializer):
    line_number = serializers.IntegerField(source="order_line.line_number", read_only=True)
    product = serializers.IntegerField(source="order_line.product_id", read_only=True)
    product_number = serializers.CharField(source="order_line.product.article_number", read_only=True)
    product_name = serializers.CharField(source="order_line.product.name", read_only=True)
    description = serializers.CharField(source="order_line.description", read_only=True)
    ordered_quantity = serializers.DecimalField(source="order_line.quantity", **QTY, read_only=True)
    shipped_quantity = serializers.DecimalField(
        source="order_line.quantity_shipped",
        **QTY,
        read_only=True,
        help_text="What the order line has shipped so far (over all its shipments).",
    )
    labelled = serializers.BooleanField(
        read_only=True,
        default=False,
        help_text="The product carries EUDR carton labels: it ships as picked cartons.",
    )
    cartons_picked = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = ShipmentLine
        fields = [
            "id",
            "order_line",
            "line_number",
            "product",
            "product_number",
            "product_name",
            "description",
            "ordered_quantity",
            "shipped_quantity",
            "quantity",
            "quantity_invoiced",
            "labelled",
            "cartons_picked",
            "unlabelled_quantity",
        ]
        read_only_fields = fields


class SalesShipmentSerializer(ModelSerializer):
    order_number = serializers.CharField(source="sales_order.order_number", read_only=True)
    customer = serializers.IntegerField(source="sales_order.customer_id", read_only=True)
    customer_name = serializers.CharField(source="sales_order.customer.name", read_only=True)
    warehouse_code = serializers.CharField(source="warehouse.code", read_only=True)
    lines_count = serializers.IntegerField(read_only=True, default=0)
    total_qty = serializers.DecimalField(
        max_digits=16, decimal_places=3, read_only=True, default=Decimal("0")
    )
    cartons_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Shipment
        fields = [
            "id",
            "shipment_number",
            "sales_order",
            "order_number",
            "customer",
            "customer_name",
            "warehouse",
            "warehouse_code",
            "status",
            "planned_date",
            "shipped_at",
            "delivered_at",
            "carrier",
            "tracking_number",
            "note",
            "lines_count",
            "total_qty",
            "cartons_count",
            "created_at",
        ]
        read_only_fields = fields


class PickLocationSerializer(serializers.Serializer):
    shipment_line = serializers.IntegerField()
    product = serializers.IntegerField()
    location = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()
    cartons = serializers.IntegerField(
        allow_null=True, help_text="Labelled products: cartons in stock there. Null for unlabelled products."
    )
    quantity = serializers.DecimalField(**QTY, help_text="Units on hand there.")


class SalesShipmentDetailSerializer(SalesShipmentSerializer):
    lines = SalesShipmentLineSerializer(many=True, read_only=True, source="annotated_lines")
    cartons = SalesShipmentCartonSerializer(many=True, read_only=True, source="annotated_cartons")
    pick_locations = serializers.SerializerMethodField(
        help_text="Where each line can be picked in the shipment's warehouse, nearest first (location code "
        "order): empty once the shipment has left."
    )

    class Meta(SalesShipmentSerializer.Meta):
        fields = [*SalesShipmentSerializer.Meta.fields, "lines", "cartons", "pick_locations"]
        read_only_fields = fields

    @extend_schema_field(PickLocationSerializer(many=True))
    def get_pick_locations(self, obj) -> list[dict]:
        if obj.status not in (Shipment.Status.DRAFT, Shipment.Status.PICKED):
            return []
        lines = list(getattr(obj, "annotated_lines", None) or obj.lines.select_related("order_line"))
        by_product: dict[int, list] = {}
        for line in lines:
            by_product.setdefault(line.order_line.product_id, []).append(line)
        places = pick_places(
            warehouse_id=obj.warehouse_id,
            labelled_product_ids=[
                line.order_line.product_id for line in lines if getattr(line, "labelled", False)
            ],
            unlabelled_product_ids=[
                line.order_line.product_id for line in lines if not getattr(line, "labelled", False)
            ],
        )
        return [
            PickLocationSerializer(
                {
                    "shipment_line": line.pk,
                    "product": place.product_id,
                    "location": place.location_id,
                    "code": place.code,
                    "name": place.name,
                    "cartons": place.cartons,
                    "quantity": place.quantity,
                }
            ).data
            for place in places
            for line in by_product.get(place.product_id, [])
        ]


class SalesShipmentLineWriteSerializer(serializers.Serializer):
    order_line = serializers.IntegerField(min_value=1)
    quantity = serializers.DecimalField(**QTY, min_value=Decimal("0.001"))


class SalesShipmentWriteSerializer(serializers.Serializer):
    sales_order = TenantRelatedField(queryset=SalesOrder.objects)
    warehouse = TenantRelatedField(queryset=Warehouse.objects, required=False, allow_null=True)
    planned_date = serializers.DateField(required=False, allow_null=True)
    carrier = serializers.CharField(required=False, allow_blank=True, max_length=200)
    tracking_number = serializers.CharField(required=False, allow_blank=True, max_length=100)
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)
    lines = SalesShipmentLineWriteSerializer(many=True, required=False)

    def validate(self, attrs):
        if self.instance is None and not attrs.get("lines"):
            raise serializers.ValidationError({"lines": [_("Add at least one line.")]})
        if (
            self.instance is not None
            and "sales_order" in attrs
            and attrs["sales_order"].pk != self.instance.sales_order_id
        ):
            raise serializers.ValidationError({"sales_order": [_("The order of a shipment cannot change.")]})
        return attrs


class CartonCodesSerializer(serializers.Serializer):
    codes = serializers.ListField(
        child=serializers.CharField(max_length=64, trim_whitespace=True), min_length=1, max_length=500
    )


# -- invoices ---------------------------------------------------------------------------------------------


class InvoiceLineSerializer(ModelSerializer):
    product_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    line_number = serializers.IntegerField(source="order_line.line_number", read_only=True)

    class Meta:
        model = InvoiceLine
        fields = [
            "id",
            "order_line",
            "line_number",
            "shipment_line",
            "credited_line",
            "product",
            "product_number",
            "product_name",
            "description",
            "quantity",
            "unit_price",
            "discount_percent",
            "vat_rate",
            "amount_net",
            "amount_vat",
        ]
        read_only_fields = fields


class InvoiceSerializer(ModelSerializer):
    order_number = serializers.CharField(source="sales_order.order_number", read_only=True)
    customer_name = serializers.CharField(source="customer.name", read_only=True)
    credited_invoice_number = serializers.CharField(
        source="credited_invoice.number", read_only=True, default=""
    )
    credited_amount = serializers.DecimalField(
        max_digits=16, decimal_places=2, read_only=True, default=Decimal("0")
    )
    payment_status = serializers.SerializerMethodField()
    vat_mention = serializers.SerializerMethodField()

    class Meta:
        model = Invoice
        fields = [
            "id",
            "kind",
            "status",
            "number",
            "series",
            "year",
            "sales_order",
            "order_number",
            "customer",
            "customer_name",
            "credited_invoice",
            "credited_invoice_number",
            "issue_date",
            "supply_date",
            "due_date",
            "currency",
            "language",
            "payment_terms_days",
            "reverse_charge",
            "vat_case",
            "vat_category",
            "vat_exemption_code",
            "vat_mention",
            "note",
            "total_net",
            "total_vat",
            "total_gross",
            "amount_paid",
            "payment_reference",
            "credited_amount",
            "payment_status",
            "owner_visma_id",
            "customer_accounting_code",
            "posted_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(
        serializers.ChoiceField(
            choices=["draft", "open", "partially_paid", "paid", "overdue", "credited", "credit_note"]
        )
    )
    def get_payment_status(self, obj) -> str:
        return selectors.payment_status(obj)

    def get_vat_mention(self, obj) -> str:
        """The legal VAT mention of the document (intra-EU supply, export, reverse charge), or empty."""
        mention = tax.EXEMPTION_REASONS.get(obj.vat_exemption_code)
        return str(mention) if mention else ""


class VatTreatmentQuerySerializer(serializers.Serializer):
    customer = TenantRelatedField(queryset=Customer.objects)
    ship_to_country = serializers.RegexField(r"^[A-Za-z]{2}$", required=False, allow_blank=True)


class VatTreatmentSerializer(serializers.Serializer):
    """The VAT the product proposes for goods sold to a customer (apps/common/tax.py)."""

    case = serializers.ChoiceField(choices=["domestic", "intra_eu_b2b", "export", "distance_sale"])
    category = serializers.CharField(help_text="EN 16931 VAT category code (UNCL 5305): S, K, G, AE.")
    rate = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)
    reverse_charge = serializers.BooleanField()
    exemption_code = serializers.CharField(help_text="VATEX code of the exemption, or empty.")
    mention = serializers.CharField(help_text="The legal mention the invoice carries, or empty.")
    customer_vat_number_valid = serializers.BooleanField()
    rates_as_of = serializers.DateField(help_text="The date the VAT rate table is valid from.")


class VatBreakdownSerializer(serializers.Serializer):
    vat_rate = serializers.DecimalField(max_digits=5, decimal_places=2)
    taxable = serializers.DecimalField(**MONEY)
    vat = serializers.DecimalField(**MONEY)


class CreditNoteRefSerializer(serializers.Serializer):
    """A credit note of an invoice, as the invoice page links it."""

    id = serializers.IntegerField()
    number = serializers.CharField()
    status = serializers.ChoiceField(choices=Invoice.Status.choices)
    issue_date = serializers.DateField(allow_null=True)
    total_gross = serializers.DecimalField(**MONEY)


_accounting_state: Callable[[Any], dict | None] | None = None


def register_accounting_state(state: Callable[[Any], dict | None]) -> None:
    """`state(invoice)`: the invoice's state in the accounting system as the answer shows it, or None."""
    global _accounting_state
    _accounting_state = state


class AccountingStateField(serializers.Field):
    """Where the posted document stands in the accounting system (null: never queued). Accounting reads
    invoices, so this answer imports nothing of it: the accounting area registers the state on start
    (`register_accounting_state`) and documents the field's schema (apps/accounting/api/invoice_state.py).
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, value):
        return None if _accounting_state is None else _accounting_state(value)


class InvoicePaymentSerializer(ModelSerializer):
    """A payment received against the invoice (`source`: recorded by a user, read from the accounting
    system, or what the invoice was paid before payments were recorded one by one)."""

    created_by_name = serializers.SerializerMethodField()

    class Meta:
        model = InvoicePayment
        fields = ["id", "amount", "received_on", "reference", "source", "created_by_name", "created_at"]
        read_only_fields = fields

    def get_created_by_name(self, obj) -> str:
        return _user_name(obj.created_by)


class InvoiceDetailSerializer(InvoiceSerializer):
    lines = InvoiceLineSerializer(many=True, read_only=True, source="annotated_lines")
    credit_notes = serializers.SerializerMethodField()
    amount_due = serializers.SerializerMethodField()
    payments = InvoicePaymentSerializer(many=True, read_only=True)
    shipments = serializers.SerializerMethodField()
    vat_breakdown = serializers.SerializerMethodField()
    seller_name = serializers.CharField(read_only=True)
    seller_address = serializers.CharField(read_only=True)
    seller_vat_number = serializers.CharField(read_only=True)
    seller_registration_number = serializers.CharField(read_only=True)
    seller_iban = serializers.CharField(read_only=True)
    seller_bic = serializers.CharField(read_only=True)
    buyer_name = serializers.CharField(read_only=True)
    buyer_address = serializers.CharField(read_only=True)
    buyer_vat_number = serializers.CharField(read_only=True)
    accounting = AccountingStateField()

    class Meta(InvoiceSerializer.Meta):
        fields = [
            *InvoiceSerializer.Meta.fields,
            "accounting",
            "credit_notes",
            "amount_due",
            "payments",
            "lines",
            "shipments",
            "vat_breakdown",
            "seller_name",
            "seller_address",
            "seller_vat_number",
            "seller_registration_number",
            "seller_iban",
            "seller_bic",
            "buyer_name",
            "buyer_address",
            "buyer_vat_number",
        ]
        read_only_fields = fields

    @extend_schema_field(CreditNoteRefSerializer(many=True))
    def get_credit_notes(self, obj) -> list[dict]:
        """The invoice's credit notes, drafts included (only posted ones count in `credited_amount`)."""
        notes = Invoice.objects.filter(credited_invoice=obj).order_by("id")
        return CreditNoteRefSerializer(notes, many=True).data

    @extend_schema_field(serializers.DecimalField(**MONEY))
    def get_amount_due(self, obj) -> str:
        """What the customer still owes: gross - posted credit notes - paid, never below zero (0 for a
        draft or a credit note)."""
        if obj.status != Invoice.Status.POSTED or obj.kind != Invoice.Kind.INVOICE:
            return "0.00"
        return f"{services.invoice_open_amount(obj):.2f}"

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_shipments(self, obj) -> list[dict]:
        return [{"id": s.pk, "shipment_number": s.shipment_number} for s in obj.shipments.all()]

    @extend_schema_field(VatBreakdownSerializer(many=True))
    def get_vat_breakdown(self, obj):
        return VatBreakdownSerializer(vat_breakdown(obj.annotated_lines), many=True).data


class InvoiceCreateSerializer(serializers.Serializer):
    sales_order = TenantRelatedField(queryset=SalesOrder.objects, required=False, allow_null=True)
    shipments = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=200
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)

    def validate(self, attrs):
        if not attrs.get("sales_order") and not attrs.get("shipments"):
            raise serializers.ValidationError(
                {"sales_order": [_("Choose an order or shipments to invoice.")]}
            )
        return attrs


class InvoiceUpdateSerializer(serializers.Serializer):
    """A draft's editable fields; a posted invoice is never changed (409 `invoice_posted`)."""

    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)
    language = serializers.ChoiceField(choices=Language.choices, required=False)
    reverse_charge = serializers.BooleanField(required=False)
    payment_terms_days = serializers.IntegerField(required=False, min_value=0, max_value=365)
    unchanged_since = serializers.DateTimeField(
        required=False,
        allow_null=True,
        write_only=True,
        help_text="The invoice's `updated_at` as the client read it. If the draft changed since, the "
        "update is refused with 409 `invoice_changed` (and once posted, with 409 `invoice_posted`).",
    )


class InvoicePostSerializer(serializers.Serializer):
    issue_date = serializers.DateField(required=False, allow_null=True)


class CreditLineWriteSerializer(serializers.Serializer):
    invoice_line = serializers.IntegerField(min_value=1)
    quantity = serializers.DecimalField(**QTY, min_value=Decimal("0.001"))


class CreditNoteSerializer(serializers.Serializer):
    lines = CreditLineWriteSerializer(many=True, required=False, max_length=500)
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)
    post = serializers.BooleanField(required=False, default=False)


class PaymentSerializer(serializers.Serializer):
    amount = serializers.DecimalField(**MONEY, min_value=Decimal("0.01"))
    received_on = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="The day the money was received; today when left out. Not after today "
        "(400 `payment_in_future`).",
    )
    reference = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=140,
        help_text="The bank statement line's or the transfer's reference.",
    )


# -- delivery schedule ------------------------------------------------------------------------------------


class DeliverySerializer(ModelSerializer):
    """An order line still to ship, as the delivery schedule shows it."""

    order = serializers.IntegerField(source="order_id", read_only=True)
    order_number = serializers.CharField(source="order.order_number", read_only=True)
    order_status = serializers.CharField(source="order.status", read_only=True)
    customer = serializers.IntegerField(source="order.customer_id", read_only=True)
    customer_name = serializers.CharField(source="order.customer.name", read_only=True)
    warehouse = serializers.IntegerField(source="order.warehouse_id", read_only=True, allow_null=True)
    warehouse_code = serializers.CharField(source="order.warehouse.code", read_only=True, default="")
    product_number = serializers.CharField(source="product.article_number", read_only=True)
    product_name = serializers.CharField(source="product.name", read_only=True)
    due_date = serializers.DateField(read_only=True)
    open_quantity = serializers.DecimalField(
        source="open_qty", max_digits=16, decimal_places=3, read_only=True
    )
    planned_quantity = serializers.DecimalField(max_digits=16, decimal_places=3, read_only=True)
    planned_date = serializers.DateField(read_only=True, allow_null=True)
    is_late = serializers.BooleanField(read_only=True)
    schedule_status = serializers.ChoiceField(choices=["late", "planned", "open"], read_only=True)

    class Meta:
        model = SalesOrderLine
        fields = [
            "id",
            "order",
            "order_number",
            "order_status",
            "customer",
            "customer_name",
            "warehouse",
            "warehouse_code",
            "line_number",
            "product",
            "product_number",
            "product_name",
            "description",
            "quantity",
            "quantity_shipped",
            "quantity_reserved",
            "requested_date",
            "confirmed_date",
            "due_date",
            "open_quantity",
            "planned_quantity",
            "planned_date",
            "is_late",
            "schedule_status",
        ]
        read_only_fields = fields


# -- e-invoice delivery -----------------------------------------------------------------------------------


class EInvoiceDeliverySerializer(ModelSerializer):
    email_status = serializers.SerializerMethodField(
        help_text="For an e-mail delivery: the message's status in the e-mail log (queued, sent, failed...)."
    )
    requested_by_name = serializers.SerializerMethodField()
    formats = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = EInvoiceDelivery
        fields = [
            "id",
            "channel",
            "status",
            "formats",
            "recipient",
            "message_id",
            "error",
            "error_message",
            "email_message",
            "email_status",
            "requested_by_name",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_email_status(self, obj) -> str:
        return obj.email_message.status if obj.email_message_id and obj.email_message else ""

    def get_requested_by_name(self, obj) -> str:
        return _user_name(obj.requested_by)


class EInvoiceEmailSerializer(serializers.Serializer):
    formats = serializers.ListField(
        child=serializers.ChoiceField(choices=["ubl", "facturx", "pdf"]),
        min_length=1,
        max_length=3,
        help_text="The files to attach: ubl (UBL XML), facturx (Factur-X PDF), pdf (the plain PDF).",
    )
    to = serializers.ListField(
        child=serializers.EmailField(max_length=254),
        required=False,
        max_length=20,
        help_text="Recipients; left out: the customer's invoice contacts, else its e-mail address.",
    )

    def validate_formats(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Each format once."))
        return value


class PeppolSettingsSerializer(ModelSerializer):
    api_key = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=2000,
        trim_whitespace=False,
        help_text="Write-only. Left out or empty: the stored key stays.",
    )
    clear_api_key = serializers.BooleanField(write_only=True, required=False, default=False)
    has_api_key = serializers.SerializerMethodField()
    unreadable_secrets = serializers.SerializerMethodField(
        help_text="Stored secrets no configured key decrypts (the keys were lost): enter them again."
    )
    timeout = serializers.IntegerField(min_value=1, max_value=120, required=False)

    class Meta:
        model = PeppolSettings
        fields = [
            "enabled",
            "endpoint_url",
            "api_key",
            "clear_api_key",
            "has_api_key",
            "unreadable_secrets",
            "sender_id",
            "timeout",
            "updated_at",
        ]
        read_only_fields = ["updated_at"]

    def get_has_api_key(self, obj) -> bool:
        return bool(obj.api_key)

    def get_unreadable_secrets(self, obj) -> list[str]:
        from apps.common.secrets import is_unreadable

        return ["api_key"] if is_unreadable(obj.api_key) else []

    def validate_endpoint_url(self, value: str) -> str:
        from apps.common import outbound

        try:
            outbound.check_url(value)
        except outbound.OutboundRefused as exc:
            raise serializers.ValidationError(exc.message) from exc
        return value

    def validate_sender_id(self, value: str) -> str:
        value = value.strip()
        if not re.fullmatch(r"[0-9]{4}:[A-Za-z0-9.\-_@]{1,90}", value):
            raise serializers.ValidationError(
                _("Enter the participant ID as scheme:identifier, e.g. 9944:NL004495445B01.")
            )
        return value
