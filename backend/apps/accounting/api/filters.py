import django_filters

from apps.accounting.models import Mapping, MappingKind, SyncEntry


class MappingFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=MappingKind.choices)

    class Meta:
        model = Mapping
        fields = ["kind"]


class SyncEntryFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=MappingKind.choices)
    status = django_filters.ChoiceFilter(choices=SyncEntry.Status.choices)
    action = django_filters.ChoiceFilter(choices=SyncEntry.Action.choices)
    record_id = django_filters.NumberFilter()
    created_from = django_filters.DateFilter(field_name="created_at", lookup_expr="date__gte")
    created_to = django_filters.DateFilter(field_name="created_at", lookup_expr="date__lte")

    class Meta:
        model = SyncEntry
        fields = ["kind", "status", "action", "record_id"]
