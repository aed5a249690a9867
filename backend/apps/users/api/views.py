from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models import Prefetch
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.views import TokenRefreshView

from apps.common.api.permissions import resolve_tenant
from apps.common.api.throttling import ScopedClientThrottle
from apps.tenancy.models import Membership
from apps.users import services
from apps.users.errors import TokenNotValid
from apps.users.models import User
from apps.users.selectors import user_parent_vendor
from apps.users.tokens import SESSION_CLAIM, revoke_session, tokens_for

from .serializers import (
    LoginResponseSerializer,
    LoginSerializer,
    PasswordChangeSerializer,
    ProfileUpdateSerializer,
    RefreshRequestSerializer,
    TokenPairSerializer,
    UserSerializer,
)


def user_with_relations(user_id: int) -> User:
    """The user with memberships and parent vendor loaded (the vendor under its own tenant: a join
    outside a tenant finds nothing under row-level security)."""
    user = User.objects.prefetch_related(
        Prefetch("memberships", queryset=Membership.objects.select_related("tenant", "department"))
    ).get(pk=user_id)
    user_parent_vendor(user)
    return user


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class LoginView(APIView):
    """Sign in with username and password; answers the token pair and the user.

    Not wrapped in the request transaction: a failed attempt must be recorded (lockout) even though the
    response is an error, which rolls an atomic request back.
    """

    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedClientThrottle]
    throttle_scope = "login"

    @extend_schema(request=LoginSerializer, responses=LoginResponseSerializer, auth=[])
    def post(self, request):
        serializer = LoginSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        tokens = LoginSerializer.tokens_for(user)
        user_logged_in.send(sender=type(user), request=request._request, user=user)
        user = user_with_relations(user.pk)
        return Response({**tokens, "user": UserSerializer(user).data})


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class RefreshView(TokenRefreshView):
    """Exchange a refresh token for a new access token and a new (rotated) refresh token.

    Not wrapped in the request transaction: when a rotated refresh token is used again, its chain is
    revoked (apps/users/tokens.py) and that must stay recorded although the answer is an error."""

    @extend_schema(request=RefreshRequestSerializer, responses=TokenPairSerializer, auth=[])
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class LogoutView(APIView):
    """Sign out: the session ends. Its refresh tokens are blacklisted and its access tokens are refused
    from now on, not only when they expire."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []

    @extend_schema(request=RefreshRequestSerializer, responses={200: None}, auth=[])
    def post(self, request):
        serializer = RefreshRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            token = RefreshToken(serializer.validated_data["refresh"])
            token.blacklist()
        except TokenError as exc:
            raise TokenNotValid() from exc
        revoke_session(user_id=token.get("user_id"), sid=token.get(SESSION_CLAIM))
        return Response(None)


class MeView(APIView):
    """The signed-in user; with ?tenant_id= also the permissions held in that tenant."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("tenant_id", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False)],
        responses=UserSerializer,
    )
    def get(self, request):
        tenant = resolve_tenant(request) if request.query_params.get("tenant_id") else None
        user = user_with_relations(request.user.pk)
        return Response(UserSerializer(user, context={"tenant": tenant}).data)

    @extend_schema(
        parameters=[OpenApiParameter("tenant_id", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False)],
        request=ProfileUpdateSerializer,
        responses=UserSerializer,
    )
    def patch(self, request):
        """Edit the own profile (names, contact details, language); answers the user object."""
        tenant = resolve_tenant(request) if request.query_params.get("tenant_id") else None
        serializer = ProfileUpdateSerializer(request.user, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        services.profile_update(user=request.user, data=serializer.validated_data)
        user = user_with_relations(request.user.pk)
        return Response(UserSerializer(user, context={"tenant": tenant}).data)


class ChangePasswordView(APIView):
    """The signed-in user changes their own password (current password + a new one that passes the
    password rules). Every session of the user ends (other devices too); the answer is a new token pair
    for the device that made the change."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PasswordChangeSerializer, responses=TokenPairSerializer)
    def post(self, request):
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_change_password(
            user=request.user,
            old_password=serializer.validated_data["old_password"],
            new_password=serializer.validated_data["new_password"],
        )
        return Response(tokens_for(user))
