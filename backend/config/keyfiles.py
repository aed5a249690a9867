"""Keys an installation generates for itself when the environment gives none (config/settings.py).

No key is a constant in the source: an installation started without `DJANGO_SECRET_KEY` (the embedded
default, `make run`) makes its own random signing key on first start and keeps it in `var/secret_key`; the
key of stored secrets is a second, independent random key in `var/field_encryption_key`. Both files are
created with mode 0600 (owner only), under `var/` (never committed: .gitignore), and read again on every
later start, so sessions and stored secrets survive a restart. Production takes both from the environment
and refuses to start without them (docs/operations.md, "Keys").
"""

from __future__ import annotations

import base64
import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path

__all__ = ["load_or_create", "new_fernet_key", "new_signing_key"]


def new_signing_key() -> str:
    """A random signing key: 64 random bytes, URL-safe text (86 characters)."""
    return secrets.token_urlsafe(64)


def new_fernet_key() -> str:
    """A random Fernet key (32 random bytes, URL-safe base64), as `Fernet.generate_key()` makes one."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode()


def load_or_create(path: Path, make: Callable[[], str]) -> str:
    """The key kept in `path`; made by `make()` and written there (mode 0600) when the file is missing.

    Safe when several processes start at once (gunicorn workers, a test run's subprocesses): the key is
    written to a private temporary file which is then linked to `path`; linking fails when another process
    was first, and then its key is read. A file readable by others is refused rather than used.
    """
    path = Path(path)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(make() + "\n")
        with contextlib.suppress(FileExistsError):  # another process was first: its key is read below
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> str:
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        raise RuntimeError(
            f"{path} is readable or writable by other users (mode {mode:o}); run `chmod 600 {path}`"
        )
    value = path.read_text().strip()
    if not value:
        raise RuntimeError(f"{path} is empty; delete it to have a new key generated")
    return value
