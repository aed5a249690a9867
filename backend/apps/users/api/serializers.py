from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.common.api.fields import TenantRelatedField
from apps.common.api.model_serializer import ModelSerializer
from apps.suppliers.models import ParentVendor
from apps.tenancy.permissions import tenant_permissions
from apps.users.errors import AccountLocked, InvalidCredentials
from apps.users.models import Department, Role, User
from apps.users.selectors import can_manage_account, user_parent_vendor


class UserParentVendorSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    cname = serializers.CharField()


class UserNamedRefSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()


class UserSerializer(ModelSerializer):
    """The signed-in user as the web app stores it (docs/specification.md section 3 "User info")."""

    user_type = serializers.CharField(read_only=True)
    # Plain text: a user may have no e-mail address (""), which an "email" format would not allow.
    email = serializers.CharField(read_only=True)
    parent_vendor = serializers.SerializerMethodField()
    department = serializers.SerializerMethodField()
    tenants = serializers.SerializerMethodField()
    permissions = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = [
            "id",
            "username",
            "email",
            "first_name",
            "last_name",
            "name",
            "profile_name",
            "visma_id",
            "visma_owner_id",
            "visma_code",
            "address",
            "city",
            "country",
            "post_code",
            "phone",
            "language",
            "is_supplier",
            "is_warehouse",
            "is_staff",
            "user_type",
            "parent_vendor",
            "department",
            "tenants",
            "permissions",
        ]
        read_only_fields = fields

    @extend_schema_field(UserParentVendorSerializer(allow_null=True))
    def get_parent_vendor(self, user: User):
        vendor = user_parent_vendor(user)
        if vendor is None:
            return None
        return {"id": vendor.pk, "name": vendor.name, "cname": vendor.cname}

    @extend_schema_field(UserNamedRefSerializer(allow_null=True))
    def get_department(self, user: User):
        tenant = self.context.get("tenant")
        if tenant is None:
            return None
        membership = next((m for m in user.memberships.all() if m.tenant_id == tenant.pk), None)
        if membership is None or membership.department is None:
            return None
        return {"id": str(membership.department.pk), "name": membership.department.name}

    @extend_schema_field(UserNamedRefSerializer(many=True))
    def get_tenants(self, user: User):
        return [
            {"id": str(m.tenant_id), "name": m.tenant.name}
            for m in user.memberships.all()
            if m.is_active and m.tenant.is_active
        ]

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_permissions(self, user: User):
        tenant = self.context.get("tenant")
        if tenant is None:
            return None
        return sorted(tenant_permissions(user, tenant))


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})

    def validate(self, attrs):
        from axes.handlers.proxy import AxesProxyHandler

        request = self.context["request"]
        http_request = getattr(request, "_request", request)
        credentials = {"username": attrs["username"]}
        if AxesProxyHandler.is_locked(http_request, credentials):
            raise AccountLocked()
        user = authenticate(request=http_request, username=attrs["username"], password=attrs["password"])
        if user is None:
            if AxesProxyHandler.is_locked(http_request, credentials):
                raise AccountLocked()
            raise InvalidCredentials()
        attrs["user"] = user
        return attrs

    @staticmethod
    def tokens_for(user: User) -> dict[str, str]:
        from apps.users.tokens import tokens_for

        return tokens_for(user)


class LoginResponseSerializer(serializers.Serializer):
    access = serializers.CharField()
    refresh = serializers.CharField()
    user = UserSerializer()


class RefreshRequestSerializer(serializers.Serializer):
    refresh = serializers.CharField()


class TokenPairSerializer(serializers.Serializer):
    access = serializers.CharField()
    refresh = serializers.CharField()


# --- Users admin, departments, roles, own profile -------------------------------------------------

USER_TYPE_CHOICES = [
    ("internal", _("Internal user")),
    ("warehouse", _("Warehouse user")),
    ("supplier", _("Supplier user")),
]
LANGUAGE_CHOICES = [("", _("Browser default")), ("zh", "中文"), ("en", "English")]
ACCOUNT_FIELDS = [
    "username",
    "email",
    "first_name",
    "last_name",
    "name",
    "profile_name",
    "phone",
    "visma_id",
    "visma_owner_id",
    "visma_code",
    "address",
    "city",
    "country",
    "post_code",
    "language",
]


class RoleBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class DepartmentBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


def _tenant_membership(user: User):
    memberships = getattr(user, "tenant_memberships", None)
    return memberships[0] if memberships else None


class UserAdminListSerializer(ModelSerializer):
    """A row of the users list: the account and its membership in the current tenant."""

    user_type = serializers.ChoiceField(choices=USER_TYPE_CHOICES, read_only=True)
    parent_vendor = serializers.SerializerMethodField()
    roles = serializers.SerializerMethodField()
    department = serializers.SerializerMethodField()
    membership_active = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = [
            "id",
            "username",
            "name",
            "profile_name",
            "first_name",
            "last_name",
            "email",
            "phone",
            "user_type",
            "is_active",
            "is_supplier",
            "is_warehouse",
            "parent_vendor",
            "roles",
            "department",
            "membership_active",
            "last_login",
            "date_joined",
        ]
        read_only_fields = fields

    @extend_schema_field(UserParentVendorSerializer(allow_null=True))
    def get_parent_vendor(self, user: User):
        vendor = user.parent_vendor
        return None if vendor is None else {"id": vendor.pk, "name": vendor.name, "cname": vendor.cname}

    @extend_schema_field(RoleBriefSerializer(many=True))
    def get_roles(self, user: User):
        membership = _tenant_membership(user)
        if membership is None:
            return []
        return [{"id": role.pk, "name": role.name} for role in membership.roles.all()]

    @extend_schema_field(DepartmentBriefSerializer(allow_null=True))
    def get_department(self, user: User):
        membership = _tenant_membership(user)
        if membership is None or membership.department is None:
            return None
        return {"id": membership.department.pk, "name": membership.department.name}

    @extend_schema_field(serializers.BooleanField())
    def get_membership_active(self, user: User) -> bool:
        membership = _tenant_membership(user)
        return bool(membership and membership.is_active)


class UserAdminSerializer(UserAdminListSerializer):
    """One account as the users admin edits it. `user_type` decides is_supplier/is_warehouse;
    `parent_vendor` (an id of this tenant) is required for supplier users."""

    user_type = serializers.ChoiceField(choices=USER_TYPE_CHOICES, required=False)
    parent_vendor = TenantRelatedField(queryset=ParentVendor.objects, allow_null=True, required=False)
    parent_vendor_detail = serializers.SerializerMethodField()
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES, required=False, allow_blank=True)
    can_manage_account = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = [
            "id",
            *ACCOUNT_FIELDS,
            "user_type",
            "is_active",
            "is_supplier",
            "is_warehouse",
            "parent_vendor",
            "parent_vendor_detail",
            "roles",
            "department",
            "membership_active",
            "can_manage_account",
            "last_login",
            "date_joined",
        ]
        read_only_fields = [
            "id",
            "is_active",
            "is_supplier",
            "is_warehouse",
            "last_login",
            "date_joined",
        ]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["user_type"] = instance.user_type
        return data

    @extend_schema_field(UserParentVendorSerializer(allow_null=True))
    def get_parent_vendor_detail(self, user: User):
        return UserAdminListSerializer.get_parent_vendor(self, user)

    @extend_schema_field(serializers.BooleanField())
    def get_can_manage_account(self, user: User) -> bool:
        request = self.context.get("request")
        return bool(request and can_manage_account(actor=request.user, user=user))

    def validate_email(self, value: str) -> str:
        return value.strip()

    def validate(self, attrs):
        user_type = attrs.get("user_type", self.instance.user_type if self.instance else "internal")
        vendor = attrs.get("parent_vendor", self.instance.parent_vendor if self.instance else None)
        if user_type == "supplier" and vendor is None:
            raise serializers.ValidationError(
                {"parent_vendor": [_("A supplier user needs a parent vendor.")]}
            )
        return attrs


class UserCreateSerializer(UserAdminSerializer):
    """A new account with its membership (roles, department) in the current tenant."""

    password = serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"})
    role_ids = serializers.ListField(child=serializers.IntegerField(), write_only=True, required=False)
    department_id = serializers.IntegerField(write_only=True, required=False, allow_null=True)

    class Meta(UserAdminSerializer.Meta):
        fields = [*UserAdminSerializer.Meta.fields, "password", "role_ids", "department_id"]

    def validate_role_ids(self, value):
        roles = list(Role.objects.filter(pk__in=set(value)))
        if len(roles) != len(set(value)):
            raise serializers.ValidationError(_("A selected role does not exist."))
        return roles

    def validate_department_id(self, value):
        if value is None:
            return None
        department = Department.objects.filter(pk=value).first()
        if department is None:
            raise serializers.ValidationError(_("The selected department does not exist."))
        return department


class MembershipSerializer(serializers.Serializer):
    """A user's membership in one company the signed-in admin administers, with that company's
    roles and departments to choose from."""

    tenant = UserNamedRefSerializer(read_only=True)
    is_member = serializers.BooleanField(read_only=True)
    is_active = serializers.BooleanField(read_only=True)
    roles = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    department = serializers.IntegerField(allow_null=True, read_only=True)
    available_roles = RoleBriefSerializer(many=True, read_only=True)
    available_departments = DepartmentBriefSerializer(many=True, read_only=True)


class MembershipsResponseSerializer(serializers.Serializer):
    memberships = MembershipSerializer(many=True)
    other_tenants = UserNamedRefSerializer(many=True)


class MembershipWriteSerializer(serializers.Serializer):
    tenant = serializers.IntegerField()
    roles = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    department = serializers.IntegerField(required=False, allow_null=True, default=None)
    is_active = serializers.BooleanField(required=False, default=True)


class MembershipsWriteSerializer(serializers.Serializer):
    memberships = MembershipWriteSerializer(many=True)


class PasswordResetSerializer(serializers.Serializer):
    password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})
    new_password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class ProfileUpdateSerializer(ModelSerializer):
    """What a user may change on their own account."""

    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES, required=False, allow_blank=True)

    class Meta:
        model = User
        fields = [
            "first_name",
            "last_name",
            "name",
            "profile_name",
            "email",
            "phone",
            "address",
            "city",
            "country",
            "post_code",
            "language",
        ]


class DepartmentSerializer(ModelSerializer):
    parent = TenantRelatedField(queryset=Department.objects, allow_null=True, required=False)
    parent_name = serializers.CharField(source="parent.name", read_only=True, default=None, allow_null=True)
    member_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Department
        fields = ["id", "name", "description", "parent", "parent_name", "member_count"]
        read_only_fields = ["id"]

    def validate_name(self, value: str) -> str:
        value = value.strip()
        others = Department.objects.filter(name__iexact=value)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise serializers.ValidationError(_("A department with this name already exists."))
        return value

    def validate_parent(self, parent):
        node = parent
        while node is not None and self.instance is not None:
            if node.pk == self.instance.pk:
                raise serializers.ValidationError(_("A department cannot be placed under itself."))
            node = node.parent
        return parent


class RoleSerializer(ModelSerializer):
    permissions = serializers.SerializerMethodField()
    user_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Role
        fields = ["id", "name", "description", "permissions", "user_count"]
        read_only_fields = ["id"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_permissions(self, role) -> list[str]:
        return sorted(f"{p.content_type.app_label}.{p.codename}" for p in role.permissions.all())

    def validate_name(self, value: str) -> str:
        value = value.strip()
        others = Role.objects.filter(name__iexact=value)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise serializers.ValidationError(_("A role with this name already exists."))
        return value


class RolePermissionsSerializer(serializers.Serializer):
    permissions = serializers.ListField(child=serializers.CharField(max_length=200), allow_empty=True)


class MatrixModelPermissionsSerializer(serializers.Serializer):
    view = serializers.CharField(allow_null=True)
    add = serializers.CharField(allow_null=True)
    change = serializers.CharField(allow_null=True)
    delete = serializers.CharField(allow_null=True)


class MatrixExtraSerializer(serializers.Serializer):
    codename = serializers.CharField()
    name = serializers.CharField()


class MatrixModelSerializer(serializers.Serializer):
    model = serializers.CharField()
    name = serializers.CharField()
    permissions = MatrixModelPermissionsSerializer()
    extra = MatrixExtraSerializer(many=True)


class MatrixAreaSerializer(serializers.Serializer):
    app_label = serializers.CharField()
    name = serializers.CharField()
    models = MatrixModelSerializer(many=True)


class PermissionMatrixSerializer(serializers.Serializer):
    areas = MatrixAreaSerializer(many=True)
