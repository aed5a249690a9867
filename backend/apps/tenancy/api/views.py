from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.tenancy.models import Tenant


class TenantSerializer(serializers.ModelSerializer):
    id = serializers.CharField(read_only=True)

    class Meta:
        model = Tenant
        fields = ["id", "name"]


class TenantListView(APIView):
    """The tenants the signed-in user belongs to (ids as strings, SPEC.md section 3)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=TenantSerializer(many=True))
    def get(self, request):
        tenants = Tenant.objects.filter(
            memberships__user=request.user, memberships__is_active=True, is_active=True
        ).order_by("id")
        return Response(TenantSerializer(tenants, many=True).data)
