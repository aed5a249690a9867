"""The users admin of the current tenant: accounts, memberships, departments, roles and the
permission matrix. Thin: input is parsed here, the rules live in apps/users/services.py."""

from __future__ import annotations

from django.contrib.auth.models import Permission
from django.db.models import Count, IntegerField, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.common.api.export import SPREADSHEET_RESPONSES, export_response
from apps.common.api.viewsets import (
    EXPORT_PARAMETER,
    TenantModelViewSet,
    TenantScopedMixin,
)
from apps.tenancy.context import tenant_context
from apps.tenancy.models import Membership
from apps.users import selectors, services
from apps.users.models import Department, Role, User

from .filters import UserFilter
from .serializers import (
    DepartmentSerializer,
    MembershipsResponseSerializer,
    MembershipsWriteSerializer,
    PasswordResetSerializer,
    PermissionMatrixSerializer,
    RolePermissionsSerializer,
    RoleSerializer,
    UserAdminListSerializer,
    UserAdminSerializer,
    UserCreateSerializer,
)


def _roles_text(user: User) -> str:
    memberships = getattr(user, "tenant_memberships", None) or []
    return ", ".join(role.name for m in memberships for role in m.roles.all())


def _department_text(user: User) -> str:
    memberships = getattr(user, "tenant_memberships", None) or []
    return ", ".join(m.department.name for m in memberships if m.department)


@extend_schema_view(create=extend_schema(request=UserCreateSerializer, responses=UserAdminSerializer))
class UserViewSet(
    TenantScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Users of the current tenant (those with a membership in it). Accounts are never deleted:
    they are deactivated."""

    queryset = User.objects.all()
    serializer_class = UserAdminSerializer
    filterset_class = UserFilter
    search_fields = ["username", "name", "profile_name", "first_name", "last_name", "email"]
    ordering_fields = ["username", "name", "email", "last_login", "date_joined", "is_active"]
    ordering = ["username"]
    action_permissions = {
        "deactivate": "users.change_user",
        "activate": "users.change_user",
        "reset_password": "users.change_user",
        "set_memberships": "users.change_user",
    }

    def get_queryset(self):
        return selectors.tenant_users(tenant=self.request.tenant)

    def get_serializer_class(self):
        if self.action == "list":
            return UserAdminListSerializer
        if self.action == "create":
            return UserCreateSerializer
        return UserAdminSerializer

    def _detail(self, user: User, status: int = 200) -> Response:
        fresh = self.get_queryset().get(pk=user.pk)
        return Response(UserAdminSerializer(fresh, context=self.get_serializer_context()).data, status=status)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        password = data.pop("password")
        roles = data.pop("role_ids", [])
        department = data.pop("department_id", None)
        user_type = data.pop("user_type", "internal")
        user = services.user_create(
            tenant=request.tenant,
            data=data,
            password=password,
            user_type=user_type,
            roles=roles,
            department=department,
        )
        return self._detail(user, status=201)

    def update(self, request, *args, **kwargs):
        partial = kwargs.pop("partial", False)
        user = self.get_object()
        serializer = self.get_serializer(user, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        user_type = data.pop("user_type", None)
        services.user_update(actor=request.user, user=user, data=data, user_type=user_type)
        return self._detail(user)

    @extend_schema(request=None, responses=UserAdminSerializer)
    @action(detail=True, methods=["post"])
    def deactivate(self, request, pk=None):
        user = services.user_set_active(actor=request.user, user=self.get_object(), active=False)
        return self._detail(user)

    @extend_schema(request=None, responses=UserAdminSerializer)
    @action(detail=True, methods=["post"])
    def activate(self, request, pk=None):
        user = services.user_set_active(actor=request.user, user=self.get_object(), active=True)
        return self._detail(user)

    @extend_schema(request=PasswordResetSerializer, responses={200: None})
    @action(detail=True, methods=["post"], url_path="reset-password")
    def reset_password(self, request, pk=None):
        serializer = PasswordResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.user_reset_password(
            actor=request.user, user=self.get_object(), password=serializer.validated_data["password"]
        )
        return Response(None)

    def _memberships(self, user: User) -> dict:
        administered = selectors.administered_tenants(self.request.user)
        administered_ids = {tenant.pk for tenant in administered}
        existing = {m.tenant_id: m for m in Membership.objects.filter(user=user).select_related("tenant")}
        rows = []
        for tenant in administered:
            with tenant_context(tenant):
                membership = existing.get(tenant.pk)
                rows.append(
                    {
                        "tenant": {"id": str(tenant.pk), "name": tenant.name},
                        "is_member": membership is not None,
                        "is_active": bool(membership and membership.is_active),
                        "roles": sorted(r.pk for r in membership.roles.all()) if membership else [],
                        "department": membership.department_id if membership else None,
                        "available_roles": [{"id": r.pk, "name": r.name} for r in Role.objects.all()],
                        "available_departments": [
                            {"id": d.pk, "name": d.name} for d in Department.objects.all()
                        ],
                    }
                )
        others = [
            {"id": str(m.tenant_id), "name": m.tenant.name}
            for tenant_id, m in sorted(existing.items())
            if tenant_id not in administered_ids
        ]
        return {"memberships": rows, "other_tenants": others}

    @extend_schema(responses=MembershipsResponseSerializer)
    @action(detail=True, methods=["get"])
    def memberships(self, request, pk=None):
        """The user's memberships in the companies the signed-in admin administers (with their roles and
        departments to choose from); companies the admin does not administer are only named."""
        return Response(self._memberships(self.get_object()))

    @extend_schema(
        request=MembershipsWriteSerializer,
        responses=MembershipsResponseSerializer,
    )
    @memberships.mapping.put
    def set_memberships(self, request, pk=None):
        user = self.get_object()
        serializer = MembershipsWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.user_memberships_set(
            actor=request.user, user=user, memberships=serializer.validated_data["memberships"]
        )
        return Response(self._memberships(user))

    @extend_schema(
        parameters=[EXPORT_PARAMETER],
        responses=SPREADSHEET_RESPONSES,
    )
    @action(detail=False, methods=["get"], url_path="export")
    def export(self, request):
        queryset = self.filter_queryset(self.get_queryset())
        return export_response(
            rows=queryset,
            columns=[
                ("Username", "username"),
                ("Name", "name"),
                ("E-mail", "email"),
                ("Phone", "phone"),
                ("Type", "user_type"),
                ("Parent vendor", "parent_vendor.name"),
                ("Roles", _roles_text),
                ("Department", _department_text),
                ("Active", "is_active"),
                ("Last sign-in", "last_login"),
            ],
            filename="users",
            fmt=request.query_params.get("format", "csv"),
        )


class DepartmentViewSet(TenantModelViewSet):
    """Departments of the current tenant (a tree: a department may have a parent)."""

    queryset = Department.objects.select_related("parent")
    serializer_class = DepartmentSerializer
    filterset_fields = ["parent"]
    search_fields = ["name", "description"]
    ordering_fields = ["name", "member_count"]
    ordering = ["name"]
    export_filename = "departments"
    export_columns = [
        ("Name", "name"),
        ("Description", "description"),
        ("Parent", "parent.name"),
        ("Members", "member_count"),
    ]

    def get_queryset(self):
        # a subquery per listed row, not a join with GROUP BY: the page is read in the order of an index
        # (docs/performance.md, "Indexes for the list orderings")
        members = (
            Membership.objects.filter(department=OuterRef("pk"))
            .order_by()
            .values("department")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset()
            .annotate(member_count=Coalesce(Subquery(members, output_field=IntegerField()), 0))
        )

    def perform_destroy(self, instance):
        services.department_delete(department=instance)


class RoleViewSet(TenantModelViewSet):
    """Roles of the current tenant: named sets of permissions, held through memberships."""

    queryset = Role.objects.prefetch_related(
        Prefetch("permissions", queryset=Permission.objects.select_related("content_type"))
    )
    serializer_class = RoleSerializer
    search_fields = ["name", "description"]
    ordering_fields = ["name", "user_count"]
    ordering = ["name"]
    export_filename = "roles"
    export_columns = [("Name", "name"), ("Description", "description"), ("Users", "user_count")]
    action_permissions = {"permission_matrix": "users.view_role", "set_permissions": "users.change_role"}

    def get_queryset(self):
        # a subquery per listed role, not a join with GROUP BY: the page is read in the order of an index
        # (docs/performance.md, "Indexes for the list orderings")
        holders = (
            Membership.roles.through.objects.filter(role=OuterRef("pk"))
            .order_by()
            .values("role")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset()
            .annotate(user_count=Coalesce(Subquery(holders, output_field=IntegerField()), 0))
        )

    def perform_destroy(self, instance):
        services.role_delete(role=instance)

    @extend_schema(responses=PermissionMatrixSerializer)
    @action(detail=False, methods=["get"], url_path="permission-matrix")
    def permission_matrix(self, request):
        """Areas (app labels with their models) x view/add/change/delete, as "app_label.codename"."""
        return Response({"areas": selectors.permission_matrix()})

    @extend_schema(request=RolePermissionsSerializer, responses=RoleSerializer)
    @action(detail=True, methods=["put"], url_path="permissions")
    def set_permissions(self, request, pk=None):
        role = self.get_object()
        serializer = RolePermissionsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.role_set_permissions(
            actor=request.user,
            tenant=request.tenant,
            role=role,
            permissions=serializer.validated_data["permissions"],
        )
        return Response(RoleSerializer(self.get_queryset().get(pk=role.pk)).data)
