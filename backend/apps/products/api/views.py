from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.common.api.permissions import user_type
from apps.common.api.viewsets import CompiledListMixin, TenantModelViewSet
from apps.common.imports import ImportMixin
from apps.common.prices import without_price_columns, without_price_orderings
from apps.products import services
from apps.products.importers import PRODUCT_COLUMNS, ProductGroupImporter, ProductImporter
from apps.products.models import Product, ProductGroup
from apps.products.selectors import product_group_tree, product_groups_with_counts, supplier_products

from .filters import ProductFilter, ProductGroupFilter
from .list_page import compiled_page
from .serializers import ProductGroupSerializer, ProductGroupTreeSerializer, ProductSerializer, group_index

PRICE_HEADERS = {
    column.header for column in PRODUCT_COLUMNS if column.field in ("purchase_price", "sales_price")
}


class ProductViewSet(CompiledListMixin, ImportMixin, TenantModelViewSet):
    """Products. Warehouse users read them; supplier users read (without prices) only the products on
    their parent vendor's purchase orders."""

    queryset = Product.objects.select_related("group")
    serializer_class = ProductSerializer
    importer_class = ProductImporter
    lookup_value_regex = r"[0-9]+"
    allowed_user_types = ("internal", "warehouse", "supplier")
    supplier_read_only = True
    filterset_class = ProductFilter
    search_fields = ["article_number", "name", "name_zh", "hs_code", "barcode", "visma_code", "group__name"]
    all_ordering_fields = [
        "article_number",
        "name",
        "name_zh",
        "group__name",
        "unit",
        "weight_per_carton_kg",
        "hs_code",
        "purchase_price",
        "sales_price",
        "is_active",
        "created_at",
        "updated_at",
    ]
    ordering = ["article_number"]
    export_filename = "products"

    @property
    def export_columns(self):
        index_holder: dict = {}

        def group_cell(product: Product):
            if product.group is None:
                return ""
            return product.group.code or product.group.name

        def group_path(product: Product):
            if product.group_id is None:
                return ""
            index = group_index(index_holder)
            return index.path(product.group_id)

        columns = []
        for column in PRODUCT_COLUMNS:
            getter = group_cell if column.field == "group" else column.field
            columns.append((column.header, getter))
        columns.insert(4, ("Group path", group_path))
        return without_price_columns(columns, PRICE_HEADERS, self.request)

    @property
    def ordering_fields(self):
        return without_price_orderings(
            self.all_ordering_fields, {"purchase_price", "sales_price"}, getattr(self, "request", None)
        )

    def compiled_rows(self, limit):
        # The list without a filter (with or without a search: any ordering it offers, any page) is read
        # through statements compiled once per process and written from their rows
        # (apps/products/api/list_page.py): the same answer as the ORM's way, which serves every other
        # request.
        return compiled_page(self, limit)

    def scope_queryset(self, queryset):
        if user_type(self.request.user) == "supplier":
            return supplier_products(queryset, getattr(self.request.user, "parent_vendor_id", None))
        return queryset

    def perform_create(self, serializer):
        serializer.instance = services.product_create(data=serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.product_update(
            product=serializer.instance, data=serializer.validated_data
        )

    def perform_destroy(self, instance):
        services.product_delete(product=instance)


class ProductGroupViewSet(ImportMixin, TenantModelViewSet):
    """Product groups (a tree). `tree/` returns the whole tree nested, unpaginated."""

    queryset = ProductGroup.objects.all()
    serializer_class = ProductGroupSerializer
    importer_class = ProductGroupImporter
    lookup_value_regex = r"[0-9]+"
    allowed_user_types = ("internal", "warehouse")
    filterset_class = ProductGroupFilter
    search_fields = ["name", "code", "description"]
    ordering_fields = ["name", "code", "product_count", "children_count", "created_at"]
    ordering = ["name"]
    export_filename = "product-groups"
    export_columns = [
        ("Name", "name"),
        ("Code", "code"),
        ("Parent group", lambda g: (g.parent.code or g.parent.name) if g.parent else ""),
        ("Description", "description"),
        ("Products", "product_count"),
    ]

    def get_queryset(self):
        return self.scope_queryset(product_groups_with_counts())

    @extend_schema(responses={200: ProductGroupTreeSerializer(many=True)})
    @action(detail=False, methods=["get"], url_path="tree", pagination_class=None, filter_backends=[])
    def tree(self, request, *args, **kwargs):
        """Every group of the tenant as a nested tree (roots first, children sorted by name)."""
        return Response(product_group_tree())

    def perform_create(self, serializer):
        serializer.instance = services.product_group_create(data=serializer.validated_data)
        serializer.context.pop("_group_index", None)  # read before the write: paths changed

    def perform_update(self, serializer):
        serializer.instance = services.product_group_update(
            group=serializer.instance, data=serializer.validated_data
        )
        serializer.context.pop("_group_index", None)

    def perform_destroy(self, instance):
        services.product_group_delete(group=instance)
