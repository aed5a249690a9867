"""Sign-in rules: who may authenticate, and django-axes hooks for lockout on a JSON body."""

from __future__ import annotations

import json

from django.http import JsonResponse

from apps.users.errors import AccountLocked


def user_can_authenticate(user) -> bool:
    # simplejwt checks this on every request: a deactivated user's tokens stop working at once.
    return user is not None and user.is_active


def axes_username(request, credentials) -> str | None:
    if credentials and credentials.get("username"):
        return credentials["username"]
    data = getattr(request, "data", None)
    if isinstance(data, dict) and data.get("username"):
        return str(data["username"])
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, AttributeError):
        return None
    return str(body.get("username")) if isinstance(body, dict) and body.get("username") else None


def axes_lockout_response(request, credentials=None, *args, **kwargs):
    return JsonResponse(
        {
            "code": 429,
            "message": str(AccountLocked.default_message),
            "error": AccountLocked.error,
            "data": None,
        },
        status=429,
    )
