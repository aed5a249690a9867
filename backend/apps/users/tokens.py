"""Sign-in sessions on JSON Web Tokens, and how they end.

A session starts at sign-in: a refresh token (rotated on every refresh, the used one blacklisted) and
short access tokens. Every token carries two claims besides simplejwt's:

- `sid`, the session: the id of the sign-in's first refresh token, copied to every access token and to
  every rotated refresh token of that sign-in (the "chain");
- `ver`, the user's token version (`User.token_version`) when the session started.

A session ends:
- for ONE chain at sign-out, and when a refresh token that was already rotated (blacklisted) is used
  again: somebody holds a copy, so the whole chain is revoked. The session id is put on the user's
  revocation list (`User.revoked_sessions`, in the database, for the refresh tokens' lifetime) and its
  refresh tokens are blacklisted;
- for EVERY session of a user on a password change, an administrator's reset and a deactivation: the
  user's token version goes up and every outstanding refresh token is blacklisted.

The JWT authentication and the refresh check both claims on every request, so an access token stops
working at once (not when it expires). The token version and the revocation list are on the user row
the authentication reads anyway: no extra query per request, and nothing depends on the cache (a Redis
that is down or restarted empty neither refuses every request nor brings an ended session back).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from rest_framework import exceptions
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import TokenBackendError, TokenError
from rest_framework_simplejwt.serializers import TokenRefreshSerializer
from rest_framework_simplejwt.settings import api_settings
from rest_framework_simplejwt.state import token_backend
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from apps.users.models import User

SESSION_CLAIM = "sid"
VERSION_CLAIM = "ver"

SESSION_ENDED = _("Your session has ended. Please sign in again.")


class SessionRefreshToken(RefreshToken):
    @classmethod
    def for_user(cls, user):
        token = super().for_user(user)
        token[SESSION_CLAIM] = token[api_settings.JTI_CLAIM]
        token[VERSION_CLAIM] = user.token_version
        return token


def tokens_for(user: User) -> dict[str, str]:
    """A new session: {"access", "refresh"}."""
    refresh = SessionRefreshToken.for_user(user)
    return {"access": str(refresh.access_token), "refresh": str(refresh)}


def _revoked(sid, user: User) -> bool:
    return bool(sid) and str(sid) in (user.revoked_sessions or {})


def session_is_valid(payload, user: User) -> bool:
    return payload.get(VERSION_CLAIM) == user.token_version and not _revoked(payload.get(SESSION_CLAIM), user)


def _blacklist(outstanding: list[OutstandingToken]) -> None:
    BlacklistedToken.objects.bulk_create(
        [BlacklistedToken(token=token) for token in outstanding], ignore_conflicts=True
    )


@transaction.atomic
def revoke_session(*, user_id, sid) -> None:
    """Ends one session (chain): its access tokens are refused, its refresh tokens blacklisted."""
    if not sid:
        return
    # The row lock orders two sign-outs of the same user, so neither drops the other's entry.
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        return
    now = int(time.time())
    lifetime = int(settings.SIMPLE_JWT["REFRESH_TOKEN_LIFETIME"].total_seconds())
    revoked = {key: until for key, until in (user.revoked_sessions or {}).items() if until > now}
    revoked[str(sid)] = now + lifetime
    User.objects.filter(pk=user_id).update(revoked_sessions=revoked)
    chain = []
    for outstanding in OutstandingToken.objects.filter(user_id=user_id, blacklistedtoken__isnull=True):
        try:
            payload = token_backend.decode(outstanding.token, verify=False)
        except TokenBackendError:
            continue
        if payload.get(SESSION_CLAIM) == sid:
            chain.append(outstanding)
    _blacklist(chain)


@transaction.atomic
def end_all_sessions(user: User) -> None:
    """Ends every session of `user`: all tokens issued so far are refused from now on."""
    User.objects.filter(pk=user.pk).update(token_version=F("token_version") + 1)
    user.refresh_from_db(fields=["token_version"])
    _blacklist(list(OutstandingToken.objects.filter(user=user, blacklistedtoken__isnull=True)))


class SessionJWTAuthentication(JWTAuthentication):
    """simplejwt's authentication plus the session checks: the user's token version and the
    revocation list."""

    def get_user(self, validated_token):
        user = super().get_user(validated_token)
        if not session_is_valid(validated_token, user):
            raise exceptions.AuthenticationFailed(SESSION_ENDED, code="session_ended")
        return user


class SessionRefreshSerializer(TokenRefreshSerializer):
    """Rotation (simplejwt) plus: a reused (already rotated) refresh token revokes its whole chain; a
    token of an ended session is refused."""

    token_class = RefreshToken

    def validate(self, attrs):
        raw = attrs["refresh"]
        try:
            payload = token_backend.decode(raw, verify=True)  # signature and expiry
        except TokenBackendError as exc:
            raise TokenError(exc.args[0]) from exc
        if payload.get(api_settings.TOKEN_TYPE_CLAIM) != "refresh":
            raise TokenError(_("Token has wrong type"))
        user_id = payload.get(api_settings.USER_ID_CLAIM)
        sid = payload.get(SESSION_CLAIM)
        if BlacklistedToken.objects.filter(token__jti=payload.get(api_settings.JTI_CLAIM)).exists():
            revoke_session(user_id=user_id, sid=sid)
            raise TokenError(_("Token is blacklisted"))
        user = User.objects.filter(pk=user_id).first()
        if user is None or not session_is_valid(payload, user):
            raise TokenError(SESSION_ENDED)
        return super().validate(attrs)


class SessionJWTScheme(SimpleJWTScheme):
    """OpenAPI: the same bearer scheme as simplejwt's authentication."""

    target_class = "apps.users.tokens.SessionJWTAuthentication"
