"""Django's SMTP backend, plus one fact the outbox needs: whether the message's content had been handed
to the server when the conversation broke off.

After the content and the final "." of DATA, only the server's answer is missing. If that answer never
comes (a timeout, a dropped connection), the server may well have accepted the message and be delivering
it: sending it again would deliver it twice. `content_sent` tells services.message_deliver to record the
message as "maybe sent" instead of retrying it.
"""

from __future__ import annotations

import smtplib

from django.core.mail.backends.smtp import EmailBackend

from apps.common import outbound


class _Tracking:
    tracker = None

    def data(self, msg):
        # smtplib's data(): "DATA", the 354 answer, the content (send), then the final answer.
        self._in_data = True
        try:
            return super().data(msg)
        finally:
            self._in_data = False

    def send(self, s):
        super().send(s)
        if getattr(self, "_in_data", False) and self.tracker is not None:
            self.tracker.content_sent = True


class TrackingSMTP(_Tracking, smtplib.SMTP):
    pass


class TrackingSMTP_SSL(_Tracking, smtplib.SMTP_SSL):
    pass


class _TrackingBackend:
    """`content_sent` says whether the last message's content reached the server."""

    content_sent = False

    def send_messages(self, email_messages):
        self.content_sent = False
        return super().send_messages(email_messages)

    def open(self):
        opened = super().open()
        if self.connection is not None:
            self.connection.tracker = self
        return opened


class TrackingSmtpBackend(_TrackingBackend, EmailBackend):
    """The operator's own server (settings): Django's SMTP backend with `content_sent`."""

    @property
    def connection_class(self):
        return TrackingSMTP_SSL if self.use_ssl else TrackingSMTP


class GuardedTrackingSMTP(_Tracking, outbound.GuardedSMTP):
    pass


class GuardedTrackingSMTP_SSL(_Tracking, outbound.GuardedSMTPSSL):
    pass


class GuardedTrackingSmtpBackend(_TrackingBackend, outbound.GuardedSmtpBackend):
    """A company's own server: the address rules and bounded timeout of the outbound client
    (apps/common/outbound.py: a tenant's address), and `content_sent` as above."""

    smtp_class = GuardedTrackingSMTP
    smtp_ssl_class = GuardedTrackingSMTP_SSL
