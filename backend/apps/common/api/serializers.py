from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.model_serializer import ModelSerializer
from apps.common.commentable import COMMENTABLE_MODELS, commentable_content_types, visible_records
from apps.common.models import Comment, CommentAttachment


class ContentTypeSerializer(ModelSerializer):
    class Meta:
        model = ContentType
        fields = ["id", "app_label", "model"]


class AuthorSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()


class AttachmentSerializer(ModelSerializer):
    url = serializers.SerializerMethodField()
    is_image = serializers.BooleanField(read_only=True)
    content_type = serializers.CharField(source="mime_type", read_only=True)

    class Meta:
        model = CommentAttachment
        fields = ["id", "file_name", "size", "content_type", "url", "is_image", "created_at"]

    def get_url(self, attachment: CommentAttachment) -> str:
        return reverse("attachment-download", args=[attachment.pk])


def resolve_content_type(value) -> ContentType:
    """A numeric id, or a name: "purchaseorder", "purchaseorders.purchaseorder", "shipment", ... (docs/specification.md 3)."""
    aliases = {"shipment": "logistics.shipmentinfo"}
    types = commentable_content_types()
    text = str(value).strip().lower()
    if text.isdigit() and int(text) in types:
        return ContentType.objects.get_for_id(int(text))
    text = aliases.get(text, text)
    for label in COMMENTABLE_MODELS:
        if text == label or text == label.split(".")[1]:
            app_label, model = label.split(".")
            return ContentType.objects.get_by_natural_key(app_label, model)
    raise serializers.ValidationError(_("Comments cannot be attached to this kind of record."))


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}]})
class ContentTypeField(serializers.Field):
    default_error_messages = {"invalid": gettext_lazy("Unknown content type.")}

    def to_internal_value(self, data):
        return resolve_content_type(data)

    def to_representation(self, value):
        return value.pk


class CommentSerializer(ModelSerializer):
    content_type = ContentTypeField(help_text="A content type id, or a name such as 'purchaseorder'.")
    author = AuthorSerializer(read_only=True)
    attachments = AttachmentSerializer(many=True, read_only=True)
    can_edit = serializers.SerializerMethodField()
    status = serializers.CharField(max_length=20, required=False, default="normal")
    content = serializers.CharField(max_length=10000, trim_whitespace=True)

    class Meta:
        model = Comment
        fields = [
            "id",
            "content_type",
            "object_id",
            "content",
            "status",
            "author",
            "attachments",
            "can_edit",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "author", "attachments", "can_edit", "created_at", "updated_at"]

    def get_can_edit(self, comment: Comment) -> bool:
        request = self.context.get("request")
        return bool(request and comment.author_id == request.user.pk)

    def to_representation(self, comment):
        data = super().to_representation(comment)
        author = comment.author
        data["author"] = {"id": author.pk, "username": author.username, "name": author.display_name}
        return data

    def validate(self, attrs):
        content_type = attrs.get("content_type", getattr(self.instance, "content_type", None))
        object_id = attrs.get("object_id", getattr(self.instance, "object_id", None))
        if self.instance is not None and (
            content_type != self.instance.content_type or object_id != self.instance.object_id
        ):
            raise serializers.ValidationError(
                {"object_id": [_("A comment cannot be moved to another record.")]}
            )
        request = self.context["request"]
        model = content_type.model_class()
        if not visible_records(model, request.user, request.tenant).filter(pk=object_id).exists():
            raise serializers.ValidationError({"object_id": [_("The record does not exist.")]})
        return attrs
