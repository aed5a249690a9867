"""The embedded default's mail "server": every message is written to the local outbox as an .eml file
(settings.NOTIFICATIONS_OUTBOX_DIR, var/outbox/ by default). Nothing leaves the machine; the e-mail log
shows the messages and opens them in the browser. Point the product at a real server with EMAIL_HOST
(docs/operations.md) or per company in the SMTP settings tab."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone


class OutboxBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        directory = Path(getattr(settings, "NOTIFICATIONS_OUTBOX_DIR", settings.BASE_DIR / "var" / "outbox"))
        day = directory / timezone.now().strftime("%Y-%m-%d")
        day.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            raw = message.message().as_bytes(linesep="\r\n")
            name = hashlib.sha256(raw).hexdigest()[:16]
            (day / f"{timezone.now().strftime('%H%M%S')}-{name}.eml").write_bytes(raw)
            sent += 1
        return sent
