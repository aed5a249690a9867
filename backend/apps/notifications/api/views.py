"""E-mail scenarios API under /api/core/ (docs/notifications.md): events, templates, scenarios (preview,
send a test), SMTP settings (test connection) and the log (resend, attachments, the .eml)."""

from __future__ import annotations

import django_filters
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import FileResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.export import ANY_FILE_RESPONSES
from apps.common.api.permissions import TENANT_PERMISSION_CLASSES
from apps.common.api.viewsets import TenantModelViewSet, TenantReadOnlyViewSet
from apps.notifications import errors, services
from apps.notifications import events as registry
from apps.notifications.models import EmailMessage, EmailScenario, EmailTemplate, SmtpSettings

from .serializers import (
    EmailEventSerializer,
    EmailHealthSerializer,
    EmailMessageDetailSerializer,
    EmailMessageSerializer,
    EmailScenarioSerializer,
    EmailTemplateSerializer,
    PreviewSerializer,
    RecordOptionSerializer,
    ScenarioActionSerializer,
    SmtpSettingsSerializer,
    SmtpTestResultSerializer,
    TemplatePreviewSerializer,
)


class EmailEventsView(APIView):
    """The events scenarios can react to, with their variables, contacts and attachments."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal",)
    permission_model = EmailScenario

    @extend_schema(responses=EmailEventSerializer(many=True))
    def get(self, request):
        return Response([event.as_dict() for event in registry.EVENTS.values()])


class EmailEventRecordsView(APIView):
    """The latest records of an event's type (20, optionally searched), to preview a template with."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal",)
    permission_model = EmailScenario

    @extend_schema(
        parameters=[OpenApiParameter("search", OpenApiTypes.STR, OpenApiParameter.QUERY)],
        responses=RecordOptionSerializer(many=True),
    )
    def get(self, request, name: str):
        event = registry.get_event(name)
        if event is None:
            raise errors.EventNotFound()
        records = registry.demo_records(event, limit=200)
        search = (request.query_params.get("search") or "").strip().lower()
        options = [{"id": r.pk, "label": str(event.record_label(r))} for r in records]
        if search:
            options = [o for o in options if search in o["label"].lower()]
        return Response(options[:20])


class TemplateFilter(django_filters.FilterSet):
    event = django_filters.CharFilter()

    class Meta:
        model = EmailTemplate
        fields = ["event"]


@extend_schema_view(
    export=extend_schema(exclude=True),
)
class EmailTemplateViewSet(TenantModelViewSet):
    """Subject, HTML and text bodies in English and Chinese, for one event's variables."""

    queryset = EmailTemplate.objects.all()
    serializer_class = EmailTemplateSerializer
    filterset_class = TemplateFilter
    search_fields = ["name", "subject_en", "subject_zh"]
    ordering_fields = ["name", "event", "updated_at", "id"]
    ordering = ["name"]  # unique in the company: its unique index gives the order, ties need no id
    action_permissions = {"preview": "notifications.view_emailtemplate"}

    def get_queryset(self):
        # a subquery per listed row, not a join with GROUP BY: the page is read in the order of an index
        # (docs/performance.md, "Indexes for the list orderings")
        scenarios = (
            EmailScenario.objects.filter(template=OuterRef("pk"))
            .order_by()
            .values("template")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset()
            .annotate(scenario_count=Coalesce(Subquery(scenarios, output_field=IntegerField()), 0))
        )

    def perform_destroy(self, instance):
        services.template_delete(template=instance)

    @extend_schema(request=TemplatePreviewSerializer, responses=PreviewSerializer)
    @action(detail=False, methods=["post"], url_path="preview")
    def preview(self, request):
        """Renders an unsaved template against a real record of the tenant (the latest one by default)."""
        serializer = TemplatePreviewSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        template = EmailTemplate(**{k: data[k] for k in data if k.startswith(("subject_", "body_"))})
        return Response(
            services.preview(
                event_name=data["event"],
                template=template,
                record_pk=data.get("record"),
                language=data["language"],
            )
        )


class ScenarioFilter(django_filters.FilterSet):
    event = django_filters.CharFilter()
    enabled = django_filters.BooleanFilter()

    class Meta:
        model = EmailScenario
        fields = ["event", "enabled", "template"]


@extend_schema_view(
    export=extend_schema(exclude=True),
)
class EmailScenarioViewSet(TenantModelViewSet):
    """Event -> conditions -> recipients -> template (+ attachments, delay, language)."""

    queryset = EmailScenario.objects.select_related("template")
    serializer_class = EmailScenarioSerializer
    filterset_class = ScenarioFilter
    search_fields = ["name", "event"]
    ordering_fields = ["name", "event", "enabled", "updated_at", "id"]
    ordering = ["name"]  # unique in the company: its unique index gives the order, ties need no id
    action_permissions = {
        "preview": "notifications.view_emailscenario",
        "send_test": "notifications.view_emailscenario",
    }

    @extend_schema(request=ScenarioActionSerializer, responses=PreviewSerializer)
    @action(detail=True, methods=["post"], url_path="preview")
    def preview(self, request, pk=None):
        """The scenario's message for a real record: subject, bodies, recipients, whether the conditions
        hold. Without `record`, the latest record of the event's type."""
        scenario = self.get_object()
        serializer = ScenarioActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(
            services.preview(
                event_name=scenario.event,
                template=scenario.template,
                record_pk=serializer.validated_data.get("record"),
                language=serializer.validated_data["language"],
                scenario=scenario,
            )
        )

    @extend_schema(
        request=ScenarioActionSerializer,
        responses={201: EmailMessageDetailSerializer},
    )
    @action(detail=True, methods=["post"], url_path="send-test")
    def send_test(self, request, pk=None):
        """Sends the scenario's message for a record to the requesting user only (a test, in the log)."""
        scenario = self.get_object()
        serializer = ScenarioActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        message = services.send_test(
            scenario=scenario,
            record_pk=serializer.validated_data.get("record"),
            language=serializer.validated_data["language"],
            user=request.user,
        )
        return Response(EmailMessageDetailSerializer(message).data, status=status.HTTP_201_CREATED)


class MessageFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=EmailMessage.Status.choices)
    event = django_filters.CharFilter()
    recipient = django_filters.CharFilter(method="filter_recipient", max_length=254)
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")
    is_test = django_filters.BooleanFilter()

    class Meta:
        model = EmailMessage
        fields = ["status", "event", "scenario", "is_test"]

    def filter_recipient(self, queryset, name, value):
        return queryset.filter(to__icontains=value) if value else queryset


@extend_schema_view(retrieve=extend_schema(responses=EmailMessageDetailSerializer))
class EmailMessageViewSet(TenantReadOnlyViewSet):
    """Every message: to whom, what, when, how it went; the exact bodies and attachments sent."""

    queryset = EmailMessage.objects.select_related("scenario")
    serializer_class = EmailMessageSerializer
    filterset_class = MessageFilter
    search_fields = ["subject", "record_label", "message_id"]
    ordering_fields = ["created_at", "sent_at", "status", "subject", "id"]
    ordering = ["-created_at", "-id"]
    action_permissions = {
        "resend": "notifications.add_emailmessage",
        "retry": "notifications.change_emailmessage",
    }

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "retrieve":
            queryset = queryset.prefetch_related("attachments")
        return queryset

    def get_serializer_class(self):
        return EmailMessageDetailSerializer if self.action == "retrieve" else EmailMessageSerializer

    @extend_schema(responses=EmailHealthSerializer)
    @action(detail=False, methods=["get"], url_path="health")
    def health(self, request):
        """Counts by status (queued, sending, sent, maybe sent, failed), failures in the last day, messages
        waiting for a retry and the oldest one waiting: what to watch during an SMTP outage."""
        return Response(EmailHealthSerializer(services.messages_health()).data)

    @extend_schema(request=None, responses={201: EmailMessageDetailSerializer})
    @action(detail=True, methods=["post"], url_path="resend")
    def resend(self, request, pk=None):
        """Sends the message again (a copy with a new Message-ID; the original stays in the log)."""
        message = self.get_object()
        copy = services.message_resend(message=message, user=request.user)
        return Response(EmailMessageDetailSerializer(copy).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: EmailMessageDetailSerializer})
    @action(detail=True, methods=["post"], url_path="retry")
    def retry(self, request, pk=None):
        """Queues a failed or maybe-sent message again (the same message and Message-ID, one more try);
        409 not_retryable for any other status, e.g. when it was retried a moment ago."""
        message = services.message_retry(message_id=self.get_object().pk)
        message = self.get_queryset().prefetch_related("attachments").get(pk=message.pk)
        return Response(EmailMessageDetailSerializer(message).data)

    @extend_schema(responses=ANY_FILE_RESPONSES)
    @action(detail=True, methods=["get"], url_path=r"attachments/(?P<attachment_id>\d+)")
    def attachment(self, request, pk=None, attachment_id=None):
        """One attachment, byte for byte as sent."""
        message = self.get_object()
        item = get_object_or_404(message.attachments.all(), pk=int(attachment_id))
        response = FileResponse(
            item.file.open("rb"), as_attachment=True, filename=item.file_name, content_type=item.content_type
        )
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "sandbox"
        return response

    @extend_schema(responses={(200, "message/rfc822"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"], url_path="eml")
    def eml(self, request, pk=None):
        """The message exactly as the server received it (.eml; opens in any mail program)."""
        message = self.get_object()
        if not message.raw:
            raise errors.RawMessageMissing()
        response = FileResponse(
            message.raw.open("rb"),
            as_attachment=True,
            filename=f"message-{message.pk}.eml",
            content_type="message/rfc822",
        )
        response["X-Content-Type-Options"] = "nosniff"
        return response


class SmtpSettingsView(APIView):
    """The company's own SMTP server (one per tenant). The password is write-only."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal",)
    permission_model = SmtpSettings

    @extend_schema(responses=SmtpSettingsSerializer)
    def get(self, request):
        config = SmtpSettings.objects.first()
        if config is None:
            raise errors.SmtpSettingsMissing()
        return Response(SmtpSettingsSerializer(config).data)

    @extend_schema(request=SmtpSettingsSerializer, responses=SmtpSettingsSerializer)
    def put(self, request):
        instance = SmtpSettings.objects.first()
        serializer = SmtpSettingsSerializer(instance, data=request.data, partial=instance is not None)
        serializer.is_valid(raise_exception=True)
        config = services.smtp_settings_save(data=serializer.validated_data)
        return Response(SmtpSettingsSerializer(config).data)

    @extend_schema(responses={204: None})
    def delete(self, request):
        services.smtp_settings_delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SmtpTestView(APIView):
    """Test connection: with the posted settings (a password left out uses the stored one) or, without
    a body, the stored ones. Connects, starts TLS and logs in as configured; sends nothing."""

    permission_classes = TENANT_PERMISSION_CLASSES
    allowed_user_types = ("internal",)
    permission_model = SmtpSettings

    @extend_schema(request=SmtpSettingsSerializer, responses=SmtpTestResultSerializer)
    def post(self, request):
        stored = SmtpSettings.objects.first()
        if request.data:
            serializer = SmtpSettingsSerializer(stored, data=request.data, partial=stored is not None)
            serializer.is_valid(raise_exception=True)
            config = SmtpSettings(
                **{k: v for k, v in serializer.validated_data.items() if k in services.SMTP_FIELDS}
            )
            if stored is not None:
                for name in services.SMTP_FIELDS:
                    if name not in serializer.validated_data:
                        setattr(config, name, getattr(stored, name))
            password = serializer.validated_data.get("password")
            config.password = password or (stored.password if stored is not None else "")
        elif stored is not None:
            config = stored
        else:
            raise errors.SmtpSettingsMissing()
        return Response(services.smtp_test(config=config))
