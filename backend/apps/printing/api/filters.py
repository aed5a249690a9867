import django_filters

from apps.printing.models import PrintAgent, PrinterDevice, PrinterStatus, PrintJob


class PrinterDeviceFilter(django_filters.FilterSet):
    last_status = django_filters.ChoiceFilter(choices=PrinterStatus.choices)

    class Meta:
        model = PrinterDevice
        fields = ["agent", "warehouse", "parent_vendor", "last_status", "is_active", "dpi"]


class PrintAgentFilter(django_filters.FilterSet):
    class Meta:
        model = PrintAgent
        fields = ["is_active", "parent_vendor"]


class PrintJobFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=PrintJob.Status.choices)
    source = django_filters.ChoiceFilter(choices=PrintJob.Source.choices)
    created_from = django_filters.DateFilter(field_name="created_at", lookup_expr="date__gte")
    created_to = django_filters.DateFilter(field_name="created_at", lookup_expr="date__lte")

    class Meta:
        model = PrintJob
        fields = ["printer", "status", "source", "user"]
