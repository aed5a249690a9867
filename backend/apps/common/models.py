from __future__ import annotations

import uuid
from pathlib import PurePath

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel

IMAGE_EXTENSIONS = ("jpg", "jpeg", "png", "gif", "bmp", "webp", "svg")


def attachment_path(instance: CommentAttachment, filename: str) -> str:
    suffix = PurePath(filename).suffix.lower()[:10]
    return f"tenants/{instance.tenant_id}/comments/{uuid.uuid4().hex}{suffix}"


class Comment(TenantModel):
    """A note on an order, shipment or supplier (any model in COMMENTABLE_MODELS)."""

    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.PositiveBigIntegerField()
    content = models.TextField(_("content"), max_length=10000)
    status = models.CharField(_("status"), max_length=20, default="normal")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("comment")
        verbose_name_plural = _("comments")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tenant", "content_type", "object_id"], name="comment_target_idx")]


class CommentAttachment(TenantModel):
    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path, max_length=300)
    file_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField()
    mime_type = models.CharField(max_length=120, blank=True)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("comment attachment")
        verbose_name_plural = _("comment attachments")
        ordering = ["created_at", "id"]

    @property
    def is_image(self) -> bool:
        return PurePath(self.file_name).suffix.lower().lstrip(".") in IMAGE_EXTENSIONS
