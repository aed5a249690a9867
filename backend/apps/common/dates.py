"""Calendar days as people read them, the same in every document and e-mail as on the web pages.

The web app formats a day with `Intl.DateTimeFormat` (en-GB or zh-CN, "medium"): "26 Nov 2026" in
English, "2026年11月26日" in Chinese (frontend/src/shared/utils/format.ts, `formatDate`). PDFs and e-mails
print the same text. It does not depend on the server's locale or Django's per-language date formats
(Django's English format would print "Nov. 26, 2026"). Machine-readable files (UBL, CII, CSV, XLSX)
keep ISO 8601.
"""

from __future__ import annotations

import datetime

from django.utils import translation

_MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_text(value: datetime.date | None, language: str | None = None) -> str:
    """One calendar day in `language` ("en", "zh", or a Django code such as "zh-hans"); by default the
    active translation's language. A datetime is read as its own calendar day: make it local first.
    No day is the empty string."""
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        value = value.date()
    code = (language or translation.get_language() or "en").lower()
    if code.startswith("zh"):
        return f"{value.year}年{value.month}月{value.day}日"
    return f"{value.day} {_MONTHS_EN[value.month - 1]} {value.year}"
