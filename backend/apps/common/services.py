"""Writes of the common area: comments and their attachments."""

from __future__ import annotations

import mimetypes
from pathlib import PurePath

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from apps.common.exceptions import FieldErrors
from apps.common.models import Comment, CommentAttachment


def _clean_file_name(name: str) -> str:
    name = PurePath(name.replace("\\", "/")).name.strip() or "file"
    return "".join(ch for ch in name if ch.isprintable() and ch not in '<>:"/\\|?*')[:255] or "file"


@transaction.atomic
def comment_add_attachment(*, comment: Comment, upload, user) -> CommentAttachment:
    """Stores the upload through the storage API; refuses empty files and files over ATTACHMENT_MAX_BYTES."""
    if upload is None:
        raise FieldErrors.on("file", _("Choose a file to upload."))
    if upload.size == 0:
        raise FieldErrors.on("file", _("The file is empty."))
    if upload.size > settings.ATTACHMENT_MAX_BYTES:
        limit = settings.ATTACHMENT_MAX_BYTES / (1024 * 1024)
        raise FieldErrors.on("file", _("The file is larger than %(limit).0f MB.") % {"limit": limit})
    file_name = _clean_file_name(upload.name)
    attachment = CommentAttachment(
        comment=comment,
        file_name=file_name,
        size=upload.size,
        mime_type=mimetypes.guess_type(file_name)[0] or "application/octet-stream",
        uploaded_by=user,
        tenant_id=comment.tenant_id,
    )
    attachment.file.save(file_name, upload, save=False)
    try:
        attachment.save()
    except Exception:
        attachment.file.delete(save=False)
        raise
    return attachment


@transaction.atomic
def comment_remove_attachment(*, attachment: CommentAttachment) -> None:
    stored = attachment.file.name or ""
    storage = attachment.file.storage
    attachment.delete()
    # Remove the file only once the row is gone for good.
    transaction.on_commit(lambda: storage.delete(stored) if stored else None)


@transaction.atomic
def comment_delete(*, comment: Comment) -> None:
    stored = [(a.file.storage, a.file.name) for a in comment.attachments.all() if a.file.name]
    comment.delete()

    def remove_files() -> None:
        for storage, name in stored:
            storage.delete(name)

    transaction.on_commit(remove_files)
