"""Secrets at rest: SMTP passwords, accounting tokens, TRACES authentication keys.

Values are encrypted with `cryptography`'s MultiFernet (AES-128-CBC + HMAC-SHA256, with a timestamp) under
the keys of `settings.FIELD_ENCRYPTION_KEYS`, newest first. Encrypting always uses the first key;
decrypting tries every key, so a key can be rotated without downtime:

1. put a new key first in FIELD_ENCRYPTION_KEYS and keep the old ones after it;
2. run `manage.py rotate_secrets` (re-encrypts every stored value with the first key), or let values be
   re-encrypted as they are saved again;
3. drop the old key.

The keys are independent of SECRET_KEY: production sets FIELD_ENCRYPTION_KEYS (required), any other
installation generates its own key on first start under var/ (config/keyfiles.py). An installation that
stored secrets under the key earlier versions derived from SECRET_KEY prints that key with
`manage.py derived_field_key`, puts it after a new key in FIELD_ENCRYPTION_KEYS and rotates (docs/operations.md).
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models

__all__ = [
    "EncryptedTextField",
    "SecretUnreadable",
    "UnreadableSecret",
    "decrypt",
    "encrypt",
    "is_unreadable",
    "readable",
    "rotate",
]


class SecretUnreadable(Exception):
    """A stored secret that none of the configured keys opens (a key was dropped too early)."""


def derived_key(secret_key: str) -> bytes:
    """The Fernet key earlier versions derived from SECRET_KEY when FIELD_ENCRYPTION_KEYS was unset; only
    for moving such secrets to a key of their own (`manage.py derived_field_key`), never used by itself."""
    digest = hashlib.sha256(b"cartontrace.secrets:" + secret_key.encode()).digest()
    return base64.urlsafe_b64encode(digest)


@lru_cache(maxsize=8)
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(key.encode() if isinstance(key, str) else key) for key in keys])


def _keys() -> tuple[str, ...]:
    keys = tuple(getattr(settings, "FIELD_ENCRYPTION_KEYS", None) or ())
    if not keys:
        raise ImproperlyConfigured("FIELD_ENCRYPTION_KEYS is empty: no key to encrypt stored secrets with")
    return keys


def encrypt(plaintext: str) -> str:
    """The ciphertext of `plaintext` (text, safe to store in a text column)."""
    return _fernet(_keys()).encrypt(plaintext.encode()).decode()


def decrypt(ciphertext: str) -> str:
    """The plaintext of a value made by `encrypt`; SecretUnreadable when no configured key opens it."""
    try:
        return _fernet(_keys()).decrypt(ciphertext.encode()).decode()
    except InvalidToken as exc:
        raise SecretUnreadable("no configured key decrypts this value") from exc


def rotate(ciphertext: str) -> str:
    """The same secret encrypted with the newest key."""
    try:
        return _fernet(_keys()).rotate(ciphertext.encode()).decode()
    except InvalidToken as exc:
        raise SecretUnreadable("no configured key decrypts this value") from exc


class UnreadableSecret(str):
    """What an encrypted column reads as when none of the configured keys opens it (the keys were lost or
    dropped too early): empty text that keeps the stored ciphertext. The row still loads, so its settings
    page answers and a new secret can be entered; saving the row unchanged keeps the old ciphertext (a key
    found later still opens it); using the secret raises SecretUnreadable (`readable`)."""

    ciphertext: str

    def __new__(cls, ciphertext: str) -> UnreadableSecret:
        value = super().__new__(cls, "")
        value.ciphertext = ciphertext
        return value


def is_unreadable(value) -> bool:
    return isinstance(value, UnreadableSecret)


def readable(value: str) -> str:
    """The secret itself, or SecretUnreadable when the stored value could not be decrypted."""
    if isinstance(value, UnreadableSecret):
        raise SecretUnreadable("no configured key decrypts this value: enter the secret again")
    return value


class EncryptedTextField(models.TextField):
    """A text field whose value is stored encrypted (see the module docstring); empty stays empty.

    The Python value is the plaintext; the column holds the Fernet token. Never filter on it: equal
    plaintexts give different tokens. Serializers should make it write-only.
    """

    def from_db_value(self, value, expression, connection):
        if not value:
            return value
        try:
            return decrypt(value)
        except SecretUnreadable:
            return UnreadableSecret(value)

    def get_prep_value(self, value):
        if isinstance(value, UnreadableSecret):
            return value.ciphertext
        value = super().get_prep_value(value)
        if not value:
            return value
        return encrypt(value)
