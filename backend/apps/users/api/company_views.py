"""The companies (tenants) a user belongs to and the company settings of one: the API of tenancy's data.
It lives here, above the shared API layer (apps/common/api), because tenancy is the foundation's bottom and
imports neither users nor common (docs/architecture.md, "Dependencies between areas")."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.permissions import TenantMember, UserTypeAllowed, user_type
from apps.tenancy import services
from apps.tenancy.models import Tenant
from apps.tenancy.permissions import tenant_permissions
from apps.users.errors import CompanySettingsForbidden

from .company_serializers import CompanySettingsSerializer, TenantSerializer

CHANGE_PERMISSION = "tenancy.change_tenant"


class TenantListView(APIView):
    """The tenants the signed-in user belongs to (ids as strings, docs/specification.md section 3)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=TenantSerializer(many=True))
    def get(self, request):
        tenants = Tenant.objects.filter(
            memberships__user=request.user, memberships__is_active=True, is_active=True
        ).order_by("id")
        return Response(TenantSerializer(tenants, many=True).data)


def may_change_company_settings(request) -> bool:
    return user_type(request.user) == "internal" and CHANGE_PERMISSION in tenant_permissions(
        request.user, request.tenant
    )


class CompanySettingsView(APIView):
    """The company settings of the tenant named by ?tenant_id=: the operator data of its due diligence
    statements (docs/eudr.md, "Company settings").

    Every internal member of the tenant reads them; changing them needs `tenancy.change_tenant` (the
    Administrator role). Warehouse and supplier users have no use for them and are refused.
    """

    permission_classes = [permissions.IsAuthenticated, TenantMember, UserTypeAllowed]
    allowed_user_types = ("internal",)

    def _response(self, request, tenant: Tenant) -> Response:
        context = {"request": request, "can_edit": may_change_company_settings(request)}
        return Response(CompanySettingsSerializer(tenant, context=context).data)

    @extend_schema(responses=CompanySettingsSerializer)
    def get(self, request):
        return self._response(request, Tenant.objects.get(pk=request.tenant.pk))

    @extend_schema(request=CompanySettingsSerializer, responses=CompanySettingsSerializer)
    def patch(self, request):
        """Changes some or all of the settings; answers the whole settings."""
        if not may_change_company_settings(request):
            raise CompanySettingsForbidden()
        tenant = Tenant.objects.get(pk=request.tenant.pk)
        serializer = CompanySettingsSerializer(tenant, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        tenant = services.company_settings_update(tenant_id=tenant.pk, data=serializer.validated_data)
        return self._response(request, tenant)
