"""Import of products and product groups from CSV/XLSX (the framework: apps/common/imports.py)."""

from __future__ import annotations

from apps.common.imports import OMIT, Column, Importer, boolean, choice, decimal, integer, lookup, upper
from apps.products import services
from apps.products.api.serializers import ProductGroupSerializer, ProductSerializer
from apps.products.models import Product, ProductGroup

PRODUCT_COLUMNS = [
    Column("article_number", "Article number", required=True, example="CT-1001"),
    Column("name", "Name", required=True, example="Shipping carton 400x300x200 single wall"),
    Column("name_zh", "Chinese name", example="单瓦楞运输纸箱 400x300x200"),
    Column(
        "group",
        "Group",
        parser=lookup(ProductGroup, "code", "name"),
        empty=None,
        example="CC-SW",
        aliases=("Product group", "Group code"),
    ),
    Column("unit", "Unit", parser=choice(Product.Unit), empty=OMIT, example="pcs"),
    Column(
        "weight_per_carton_kg",
        "Weight per carton (kg)",
        parser=decimal,
        empty=None,
        example="0.320",
        aliases=("Carton weight (kg)",),
    ),
    Column("carton_length_mm", "Carton length (mm)", parser=integer, empty=None, example="400"),
    Column("carton_width_mm", "Carton width (mm)", parser=integer, empty=None, example="300"),
    Column("carton_height_mm", "Carton height (mm)", parser=integer, empty=None, example="200"),
    Column("hs_code", "HS code", example="481910"),
    Column("purchase_price", "Purchase price", parser=decimal, empty=None, example="0.42"),
    Column("sales_price", "Sales price", parser=decimal, empty=None, example="0.69"),
    Column("currency", "Currency", parser=upper, empty=OMIT, example="EUR"),
    Column("barcode", "Barcode (EAN)", example="", aliases=("Barcode", "EAN")),
    Column("visma_code", "Accounting code", example="3010", aliases=("Visma code",)),
    Column("is_active", "Active", parser=boolean, empty=OMIT, example="yes"),
    Column("description", "Description", example="Brown kraft, printed 1 colour"),
]


class ProductImporter(Importer):
    model = Product
    serializer_class = ProductSerializer
    natural_key = "article_number"
    columns = PRODUCT_COLUMNS
    resource_name = "products"

    def save_row(self, serializer, *, created, extra):
        if created:
            return services.product_create(data=serializer.validated_data)
        return services.product_update(product=serializer.instance, data=serializer.validated_data)


class ProductGroupImporter(Importer):
    """Parents must exist before the file is imported (or be listed in an earlier import)."""

    model = ProductGroup
    serializer_class = ProductGroupSerializer
    natural_key = "name"
    columns = [
        Column("name", "Name", required=True, example="Single wall"),
        Column("code", "Code", example="CC-SW"),
        Column(
            "parent",
            "Parent group",
            parser=lookup(ProductGroup, "code", "name"),
            empty=None,
            example="Corrugated cartons",
        ),
        Column("description", "Description", example="Single-wall corrugated shipping cartons"),
    ]
    resource_name = "product-groups"

    def save_row(self, serializer, *, created, extra):
        if created:
            return services.product_group_create(data=serializer.validated_data)
        return services.product_group_update(group=serializer.instance, data=serializer.validated_data)
