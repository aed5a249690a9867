"""E-mail addresses as people read them.

A message's recipients and sender are stored as a person would write them, `Küchenwelt GmbH <a@b.de>`,
quoted only where the address syntax needs it (`"Müller, Anna" <anna@example.com>`). Encoding a name for the
wire (RFC 2047: `=?utf-8?q?K=C3=BCchenwelt?=`) is the mail library's job when it sends; stored that way, the
e-mail log showed the encoded form. `readable` decodes names stored encoded by earlier versions.
"""

from __future__ import annotations

from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.headerregistry import Address


def mailbox(name: str, email: str) -> str:
    """`Name <email>` with the name quoted where needed and not encoded; the bare address without a name."""
    if not name:
        return email
    try:
        local, _, domain = email.rpartition("@")
        return str(Address(display_name=name, username=local, domain=domain))
    except (ValueError, IndexError, HeaderParseError):
        return email


def readable(value: str) -> str:
    """A stored address (or any header text) with encoded words decoded: `=?utf-8?q?K=C3=BCchenwelt?=
    <a@b.de>` reads `Küchenwelt <a@b.de>`. Text that does not decode is returned as it is."""
    if not value or "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value)))
    except (HeaderParseError, LookupError, UnicodeDecodeError, ValueError):
        return value
