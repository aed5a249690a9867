from apps.common.api.viewsets import TenantModelViewSet
from apps.common.imports import ImportMixin
from apps.customers import services
from apps.customers.importers import CUSTOMER_COLUMNS, CustomerImporter
from apps.customers.models import Customer

from .filters import CustomerFilter
from .serializers import CustomerSerializer


def _first_contact(attribute: str):
    def cell(customer: Customer):
        contacts = list(customer.contacts.all())
        return getattr(contacts[0], attribute) if contacts else ""

    return cell


class CustomerViewSet(ImportMixin, TenantModelViewSet):
    queryset = Customer.objects.prefetch_related("contacts")  # ordered by position (Meta)
    serializer_class = CustomerSerializer
    importer_class = CustomerImporter
    lookup_value_regex = r"[0-9]+"
    filterset_class = CustomerFilter
    search_fields = [
        "number",
        "name",
        "email",
        "vat_id",
        "visma_code",
        "billing_city",
        "contacts__name",
        "contacts__email",
    ]
    ordering_fields = [
        "number",
        "name",
        "billing_city",
        "billing_country",
        "currency",
        "payment_terms_days",
        "is_active",
        "created_at",
        "updated_at",
    ]
    ordering = ["number"]
    export_filename = "customers"

    @property
    def export_columns(self):
        columns = []
        for column in CUSTOMER_COLUMNS:
            if column.field.startswith("contact_"):
                getter = _first_contact(column.field.removeprefix("contact_"))
            else:
                getter = column.field
            columns.append((column.header, getter))
        return columns

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        contacts = data.pop("contacts", None)
        serializer.instance = services.customer_create(data=data, contacts=contacts)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        contacts = data.pop("contacts", None)
        serializer.instance = services.customer_update(
            customer=serializer.instance, data=data, contacts=contacts
        )

    def perform_destroy(self, instance):
        services.customer_delete(customer=instance)
