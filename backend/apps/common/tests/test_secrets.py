import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from apps.common import secrets
from apps.common.secrets import EncryptedTextField, SecretUnreadable, decrypt, encrypt, rotate


def test_round_trip_and_ciphertext_is_not_the_plaintext():
    token = encrypt("smtp-password-äöü")
    assert "smtp-password" not in token
    assert decrypt(token) == "smtp-password-äöü"
    # Fernet tokens carry a random IV: equal plaintexts give different tokens.
    assert encrypt("same") != encrypt("same")


def test_the_stored_secrets_key_is_not_derived_from_the_signing_key(settings):
    token = encrypt("x")
    # Another signing key leaves stored secrets readable (and a leaked signing key does not open them).
    settings.SECRET_KEY = "another-secret-key-" + "0" * 40
    assert decrypt(token) == "x"
    assert secrets.derived_key(settings.SECRET_KEY).decode() not in settings.FIELD_ENCRYPTION_KEYS
    settings.FIELD_ENCRYPTION_KEYS = []
    with pytest.raises(ImproperlyConfigured):
        encrypt("x")


def test_derived_field_key_prints_the_key_earlier_versions_used(settings, capsys, monkeypatch):
    import io

    settings.FIELD_ENCRYPTION_KEYS = [secrets.derived_key("former-signing-key-" + "1" * 40).decode()]
    token = encrypt("smtp")
    monkeypatch.setattr("sys.stdin", io.StringIO("former-signing-key-" + "1" * 40 + "\n"))
    call_command("derived_field_key", "--secret-key-stdin")
    printed = capsys.readouterr().out.strip()
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode(), printed]
    assert decrypt(token) == "smtp"


def test_rotation_keeps_old_values_readable_and_rotate_moves_them_to_the_new_key(settings):
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.FIELD_ENCRYPTION_KEYS = [old]
    token = encrypt("key-of-traces")
    settings.FIELD_ENCRYPTION_KEYS = [new, old]
    assert decrypt(token) == "key-of-traces"
    rotated = rotate(token)
    settings.FIELD_ENCRYPTION_KEYS = [new]
    assert decrypt(rotated) == "key-of-traces"
    with pytest.raises(SecretUnreadable):
        decrypt(token)


def test_field_stores_the_token_and_reads_the_plaintext():
    field = EncryptedTextField()
    stored = field.get_prep_value("p@ss")
    assert stored != "p@ss"
    assert field.from_db_value(stored, None, None) == "p@ss"
    assert field.get_prep_value("") == ""
    assert field.from_db_value("", None, None) == ""
    assert field.from_db_value(None, None, None) is None


@pytest.mark.django_db
def test_rotate_secrets_command_runs_with_no_stored_secrets(capsys):
    call_command("rotate_secrets")
    assert "re-encrypted" in capsys.readouterr().out


def test_derived_key_is_a_valid_fernet_key():
    Fernet(secrets.derived_key("k"))
