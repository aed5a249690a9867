"""The eAccounting consent flow inside the product (OAuth 2 authorization code, with PKCE).

1. `authorization_start` (POST /api/accounting/oauth/start/): a random `state` (32 bytes), bound to the
   company (a tenant row), the user and the redirect URI, valid for STATE_TTL, kept as its SHA-256 with an
   encrypted PKCE code verifier; answers Visma's authorization URL.
2. The browser goes to Visma, the user signs in and picks the company; Visma sends the browser back to the
   redirect URI (the frontend route /settings/accounting/callback) with `code` and `state`, or `error`.
3. `authorization_finish` (POST /api/accounting/oauth/callback/): the state is looked up under the
   company's row-level security (another company's state is not found), must belong to the same user, be
   unused and unexpired, and is spent at once (in its own transaction: a failing exchange does not make
   it usable again). Then the code is exchanged at the token URL (client id and secret of the stored
   connection, the same redirect URI, the code verifier) and the refresh and access tokens are stored
   encrypted under the connection's row lock, as a renewal stores them.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from datetime import timedelta
from typing import Any
from urllib.parse import quote, urlencode

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.tenancy.context import tenant_context

from .adapters.base import AccountingError, Temporary
from .adapters.visma_eaccounting import (
    DEFAULT_SCOPE,
    EACCOUNTING_SERVICE,
    VismaEAccountingAdapter,
    authorize_url_of,
)
from .errors import (
    AuthorizationDenied,
    AuthorizationExchangeFailed,
    AuthorizationNotEAccounting,
    AuthorizationServiceUnavailable,
    SecretRequired,
    StateExpired,
    StateOtherUser,
    StateUnknown,
    StateUsed,
)
from .models import AccountingConnection, AuthorizationRequest, Provider

STATE_TTL = timedelta(minutes=10)
KEEP_SPENT = timedelta(days=1)  # spent and expired requests are deleted after this
CALLBACK_PATH = "/settings/accounting/callback"


def redirect_uri_for(request) -> str:
    """The redirect URI the admin registers with Visma: the frontend route under PUBLIC_BASE_URL, or
    under the address this request came to."""
    base = (getattr(settings, "ACCOUNTING_OAUTH_REDIRECT_BASE", "") or settings.PUBLIC_BASE_URL or "").rstrip(
        "/"
    )
    if not base:
        base = request.build_absolute_uri("/").rstrip("/")
    return base + CALLBACK_PATH


def state_digest(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


def pkce_challenge(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def uses_pkce(connection: AccountingConnection) -> bool:
    return (connection.options or {}).get("pkce", True) is not False


@transaction.atomic
def authorization_start(*, connection: AccountingConnection, user, redirect_uri: str) -> dict[str, Any]:
    if connection.provider != Provider.VISMA_EACCOUNTING:
        raise AuthorizationNotEAccounting()
    if not connection.client_secret:
        raise SecretRequired()
    now = timezone.now()
    AuthorizationRequest.objects.filter(expires_at__lt=now - KEEP_SPENT).delete()
    state = secrets.token_urlsafe(32)
    verifier = secrets.token_urlsafe(64) if uses_pkce(connection) else ""
    expires_at = now + STATE_TTL
    AuthorizationRequest.objects.create(
        connection=connection,
        user=user,
        state_hash=state_digest(state),
        redirect_uri=redirect_uri,
        code_verifier=verifier,
        expires_at=expires_at,
    )
    params = {
        "client_id": connection.client_id,
        "redirect_uri": redirect_uri,
        "scope": connection.scope or DEFAULT_SCOPE,
        "state": state,
        "response_type": "code",
        "prompt": "select_account",
        "acr_values": EACCOUNTING_SERVICE,
    }
    if verifier:
        params.update(code_challenge=pkce_challenge(verifier), code_challenge_method="S256")
    base = authorize_url_of(connection.token_url, (connection.options or {}).get("authorize_url", ""))
    url = base + ("&" if "?" in base else "?") + urlencode(params, quote_via=quote)
    return {"authorization_url": url, "redirect_uri": redirect_uri, "expires_at": expires_at}


def _spend(*, tenant_id: int, user, state: str) -> AuthorizationRequest:
    """Finds the request of `state` in this company and spends it (its own transaction: the view runs
    outside the request's transaction, so a refusal later does not make the state usable again)."""
    with transaction.atomic(), tenant_context(tenant_id):
        row = (
            AuthorizationRequest.objects.select_for_update()
            .select_related("connection")
            .filter(state_hash=state_digest(state))
            .first()
        )
        if row is None:
            raise StateUnknown()
        if row.user_id != user.pk:
            raise StateOtherUser()
        if row.used_at is not None:
            raise StateUsed()
        now = timezone.now()
        row.used_at = now
        expired = row.expires_at <= now
        row.outcome = "expired" if expired else "pending"
        row.save(update_fields=["used_at", "outcome"])
    if expired:
        raise StateExpired()
    return row


def _outcome(row: AuthorizationRequest, outcome: str) -> None:
    with tenant_context(row.tenant_id):
        AuthorizationRequest.objects.filter(pk=row.pk).update(outcome=outcome)


def authorization_finish(
    *, tenant_id: int, user, state: str, code: str = "", error: str = "", error_description: str = ""
) -> dict[str, Any]:
    """Checks and spends the state, then exchanges the code and stores the tokens. Returns the connection
    test's outcome (the company the tokens belong to). Runs outside a request transaction: each write is
    its own transaction in the company's tenant context; no transaction is held while Visma is called."""
    from .services import connection_test

    row = _spend(tenant_id=tenant_id, user=user, state=state)
    if error:
        _outcome(row, "denied")
        if error == "access_denied":
            raise AuthorizationDenied(
                _("The authorisation was cancelled or refused in Visma; nothing was changed.")
            )
        detail = f"{error}: {error_description}" if error_description else error
        raise AuthorizationDenied(
            _("Visma did not authorise the connection (%(detail)s).") % {"detail": detail[:300]}
        )
    connection = row.connection
    if connection.provider != Provider.VISMA_EACCOUNTING:
        _outcome(row, "failed")
        raise AuthorizationNotEAccounting()
    adapter = VismaEAccountingAdapter(_config(connection), tokens=None)  # type: ignore[arg-type]
    try:
        payload = adapter.exchange_code(
            code=code, redirect_uri=row.redirect_uri, code_verifier=row.code_verifier
        )
    except Temporary as exc:
        _outcome(row, "failed")
        raise AuthorizationServiceUnavailable(exc.public_message) from exc
    except AccountingError as exc:
        _outcome(row, "failed")
        raise AuthorizationExchangeFailed(exc.public_message) from exc
    finally:
        adapter.close()
    refresh = payload.get("refresh_token")
    if not isinstance(refresh, str) or not refresh:
        _outcome(row, "failed")
        raise AuthorizationExchangeFailed(
            _("Visma answered without a refresh token: add the scope offline_access and connect again.")
        )
    try:
        expires_in = max(int(payload.get("expires_in") or 3600), 0)
    except (TypeError, ValueError):
        expires_in = 3600
    with transaction.atomic(), tenant_context(tenant_id):
        locked = AccountingConnection.objects.select_for_update().get(pk=connection.pk)
        locked.refresh_token = refresh
        locked.access_token = payload["access_token"]
        locked.access_token_expires_at = timezone.now() + timedelta(seconds=expires_in)
        locked.save(update_fields=["refresh_token", "access_token", "access_token_expires_at", "updated_at"])
        AuthorizationRequest.objects.filter(pk=row.pk).update(outcome="connected")
    return connection_test(connection=locked)


def _config(connection: AccountingConnection):
    from .services import config_of

    return config_of(connection)
