from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from apps.common.api.viewsets import TenantModelViewSet
from apps.common.imports import ImportMixin
from apps.suppliers import services
from apps.suppliers.importers import ParentVendorImporter, SupplierImporter
from apps.suppliers.models import ParentVendor, Supplier

from .filters import ParentVendorFilter, SupplierFilter
from .serializers import ParentVendorSerializer, SupplierSerializer


def _contacts_text(supplier: Supplier) -> str:
    return "; ".join(
        " ".join(part for part in (c.get("name"), c.get("email"), c.get("phone")) if part)
        for c in supplier.contacts or []
    )


class ParentVendorViewSet(ImportMixin, TenantModelViewSet):
    """Parent vendors (groups of carton factories). Supplier users read only their own."""

    queryset = ParentVendor.objects.all()
    serializer_class = ParentVendorSerializer
    allowed_user_types = ("internal", "supplier")
    supplier_scope = "pk"
    filterset_class = ParentVendorFilter
    search_fields = ["name", "cname", "code", "contact"]
    ordering_fields = ["name", "cname", "code", "country", "supplier_count", "created_at"]
    ordering = ["name"]
    export_filename = "parent-vendors"
    importer_class = ParentVendorImporter
    export_columns = [
        ("Code", "code"),
        ("Name", "name"),
        ("Chinese name", "cname"),
        ("Contact", "contact"),
        ("E-mail", "email"),
        ("Phone", "phone"),
        ("Country", "country"),
        ("Active", "is_active"),
        ("Suppliers", "supplier_count"),
    ]

    def get_queryset(self):
        # a subquery per listed vendor, not a join with GROUP BY: the page is read in the order of an index
        # (docs/performance.md, "Indexes for the list orderings")
        suppliers = (
            Supplier.objects.filter(parent_vendor=OuterRef("pk"))
            .order_by()
            .values("parent_vendor")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset()
            .annotate(supplier_count=Coalesce(Subquery(suppliers, output_field=IntegerField()), 0))
        )

    def perform_destroy(self, instance):
        services.parent_vendor_delete(vendor=instance)


class SupplierViewSet(ImportMixin, TenantModelViewSet):
    """Suppliers (carton factories) under a parent vendor. Supplier users read only their vendor's."""

    queryset = Supplier.objects.select_related("parent_vendor")
    serializer_class = SupplierSerializer
    allowed_user_types = ("internal", "supplier")
    supplier_scope = "parent_vendor"
    filterset_class = SupplierFilter
    search_fields = ["number", "name", "visma_code", "email", "parent_vendor__name", "parent_vendor__cname"]
    ordering_fields = [
        "number",
        "name",
        "country",
        "currency",
        "visma_code",
        "parent_vendor__name",
        "created_at",
    ]
    ordering = ["number"]
    export_filename = "suppliers"
    importer_class = SupplierImporter
    export_columns = [
        ("Number", "number"),
        ("Name", "name"),
        ("Parent vendor", "parent_vendor.name"),
        ("Parent vendor code", "parent_vendor.code"),
        ("Country", "country"),
        ("Address", "address"),
        ("E-mail", "email"),
        ("Phone", "phone"),
        ("Contacts", _contacts_text),
        ("Accounting code", "visma_code"),
        ("Payment terms", "payment_terms"),
        ("Currency", "currency"),
        ("Active", "is_active"),
        ("Notes", "notes"),
    ]

    def perform_destroy(self, instance):
        services.supplier_delete(supplier=instance)
