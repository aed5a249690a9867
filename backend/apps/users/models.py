from __future__ import annotations

from django.contrib.auth.models import AbstractUser, Permission
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.tenancy.models import TenantModel


class User(AbstractUser):
    """A person who signs in. Internal, warehouse (`is_warehouse`) or supplier (`is_supplier`) user.

    A supplier user works for one parent vendor (a carton factory group) and only sees its rows.
    """

    name = models.CharField(_("name"), max_length=200, blank=True)
    profile_name = models.CharField(_("profile name"), max_length=200, blank=True)
    visma_id = models.CharField(_("accounting id"), max_length=64, blank=True)
    visma_owner_id = models.CharField(_("accounting owner id"), max_length=64, blank=True)
    visma_code = models.CharField(_("accounting code"), max_length=64, blank=True)
    address = models.CharField(_("address"), max_length=300, blank=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=120, blank=True)
    post_code = models.CharField(_("post code"), max_length=32, blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    is_supplier = models.BooleanField(_("supplier user"), default=False)
    is_warehouse = models.BooleanField(_("warehouse user"), default=False)
    # Raised to end every session of the user (password change or reset, deactivation): tokens carry
    # the version they were issued under (apps/users/tokens.py).
    token_version = models.PositiveIntegerField(_("token version"), default=0, editable=False)
    # Sessions ended one by one (sign-out, a reused refresh token): {session id: end of its refresh
    # lifetime, epoch seconds}, pruned when one is added. On the user row the authentication reads
    # anyway, so the check needs no cache and no extra query (apps/users/tokens.py).
    revoked_sessions = models.JSONField(
        _("revoked sessions"), default=dict, blank=True, editable=False, db_default={}
    )
    parent_vendor = models.ForeignKey(
        "suppliers.ParentVendor",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="users",
        verbose_name=_("parent vendor"),
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        ordering = ["username"]

    @property
    def user_type(self) -> str:
        if self.is_warehouse:
            return "warehouse"
        if self.is_supplier:
            return "supplier"
        return "internal"

    @property
    def display_name(self) -> str:
        return self.profile_name or self.name or self.username


class Department(TenantModel):
    name = models.CharField(_("name"), max_length=120)
    description = models.CharField(_("description"), max_length=500, blank=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="children"
    )

    class Meta:
        verbose_name = _("department")
        verbose_name_plural = _("departments")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="department_tenant_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Role(TenantModel):
    """A named set of model permissions, held by users through their membership in a tenant."""

    name = models.CharField(_("name"), max_length=120)
    description = models.CharField(_("description"), max_length=500, blank=True)
    permissions = models.ManyToManyField(Permission, blank=True, related_name="roles")

    class Meta:
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["tenant", "name"], name="role_tenant_name_unique")]

    def __str__(self) -> str:
        return self.name
