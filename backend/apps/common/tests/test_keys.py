"""No constant key: the signing key and the stored-secrets key of an installation are its own.

- an installation started without DJANGO_SECRET_KEY (the embedded default, `make run`) generates its own
  keys on first start under var/ (mode 0600), keeps them across restarts, and the two are independent;
- production refuses to start without them;
- a token signed with any key-like string found in the repository (including the constant development key
  earlier versions shipped, kept below as a regression case) is refused by the server as configured for
  `make run`, while the same claims signed with the installation's own key are accepted.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time
import uuid
from pathlib import Path

import jwt
import pytest
from django.conf import settings

from config import keyfiles

BACKEND = Path(settings.BASE_DIR)
REPO = BACKEND.parent

# The constant signing key earlier versions used when DJANGO_SECRET_KEY was unset (a token signed with it
# answered 200 as the administrator). It must never open anything again.
FORMER_DEVELOPMENT_KEY = "dev-only-insecure-key-0f3c9a1e5b7d2468ace13579bdf02468ace13579bdf0"

PRINT_KEYS = (
    "from django.conf import settings; "
    "print(settings.SECRET_KEY); print(','.join(settings.FIELD_ENCRYPTION_KEYS))"
)


def _settings_of(env_extra: dict[str, str], var_dir: Path) -> subprocess.CompletedProcess:
    drop = {"DJANGO_SECRET_KEY", "FIELD_ENCRYPTION_KEYS", "DJANGO_ENV", "DATABASE_URL", "REDIS_URL"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update({"APP_VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "config.settings", **env_extra})
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {PRINT_KEYS}"],
        cwd=BACKEND,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_an_installation_without_keys_generates_its_own_and_keeps_them(tmp_path):
    first = _settings_of({}, tmp_path)
    assert first.returncode == 0, first.stderr
    signing, field = first.stdout.split()
    for name in ("secret_key", "field_encryption_key"):
        path = tmp_path / name
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert (tmp_path / "secret_key").read_text().strip() == signing
    assert (tmp_path / "field_encryption_key").read_text().strip() == field
    assert len(signing) >= 50
    assert signing != field and field not in signing
    # A restart reads the same keys (sessions and stored secrets survive it) ...
    again = _settings_of({}, tmp_path)
    assert again.stdout.split() == [signing, field]
    # ... and another installation has other keys.
    other = _settings_of({}, tmp_path / "other")
    other_signing, other_field = other.stdout.split()
    assert other_signing != signing and other_field != field


def test_the_var_directory_is_not_committed():
    for name in ("var/secret_key", "var/field_encryption_key"):
        ignored = subprocess.run(
            ["git", "check-ignore", "--no-index", name], cwd=REPO, capture_output=True, text=True, check=False
        )
        assert ignored.stdout.strip() == name, ignored


def test_production_refuses_to_start_without_its_keys(tmp_path):
    without_secret = _settings_of({"DJANGO_ENV": "production"}, tmp_path)
    assert without_secret.returncode != 0
    assert "DJANGO_SECRET_KEY must be set in production" in without_secret.stderr
    without_field_keys = _settings_of(
        {"DJANGO_ENV": "production", "DJANGO_SECRET_KEY": keyfiles.new_signing_key()}, tmp_path
    )
    assert without_field_keys.returncode != 0
    assert "FIELD_ENCRYPTION_KEYS must be set in production" in without_field_keys.stderr
    assert not (tmp_path / "secret_key").exists()


def test_a_key_file_open_to_other_users_is_refused(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("k" * 60)
    path.chmod(0o644)
    with pytest.raises(RuntimeError, match="chmod 600"):
        keyfiles.load_or_create(path, keyfiles.new_signing_key)


def test_parallel_first_starts_agree_on_one_key(tmp_path):
    path = tmp_path / "secret_key"
    made = [keyfiles.load_or_create(path, keyfiles.new_signing_key) for _ in range(3)]
    assert len(set(made)) == 1


KEY_LIKE = re.compile(r"""["'`=]([A-Za-z0-9_\-+/=.:]{16,200})["'`\s]""")
SCANNED = {
    ".py",
    ".ts",
    ".tsx",
    ".js",
    ".mjs",
    ".sh",
    ".toml",
    ".yml",
    ".yaml",
    ".md",
    ".env",
    ".cfg",
    ".ini",
}
NOT_SCANNED = {"package-lock.json", "uv.lock", "openapi.yaml", "schema.d.ts"}


def repository_keys() -> set[str]:
    """Every key-like string literal of the tracked source, scripts, settings and documents."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    found: set[str] = {FORMER_DEVELOPMENT_KEY}
    for name in filter(None, listed.split("\0")):
        path = REPO / name
        if path.name in NOT_SCANNED or "/migrations/" in name or "/locale/" in name:
            continue
        if path.suffix not in SCANNED and path.name not in {"Makefile", "run"}:
            continue
        try:
            text = path.read_text(errors="ignore")
        except OSError:
            continue
        found.update(KEY_LIKE.findall(text))
    return found


def _token(key: str, user) -> str:
    now = int(time.time())
    claims = {
        "token_type": "access",
        "user_id": str(user.pk),
        "jti": uuid.uuid4().hex,
        "sid": uuid.uuid4().hex,
        "ver": user.token_version,
        "iat": now,
        "exp": now + 900,
    }
    return jwt.encode(claims, key, algorithm="HS256")


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")
def test_a_token_signed_with_any_key_of_the_repository_is_refused(make_user, tenant2):
    assert not os.environ.get("DJANGO_SECRET_KEY"), "run without DJANGO_SECRET_KEY, as `make run` does"
    from django.test import Client

    admin = make_user(tenant2, "Administrator", is_staff=True, is_superuser=True)
    client = Client()
    # The same claims signed with this installation's own key are accepted: the refusals below are the key's.
    own = client.get("/api/users/me/", HTTP_AUTHORIZATION=f"Bearer {_token(settings.SECRET_KEY, admin)}")
    assert own.status_code == 200
    candidates = repository_keys()
    assert FORMER_DEVELOPMENT_KEY in candidates
    assert len(candidates) > 100  # the scan really read the repository
    assert settings.SECRET_KEY not in candidates
    accepted = [
        key
        for key in sorted(candidates)
        if client.get("/api/users/me/", HTTP_AUTHORIZATION=f"Bearer {_token(key, admin)}").status_code != 401
    ]
    assert accepted == []
