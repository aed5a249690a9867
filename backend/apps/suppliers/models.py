from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.suppliers.countries import validate_country_code
from apps.tenancy.models import TenantModel

currency_validator = RegexValidator(
    r"^[A-Z]{3}$", _("Enter a three-letter ISO currency code, e.g. EUR or CNY."), code="invalid_currency"
)


class ParentVendor(TenantModel):
    """A group of carton factories; supplier users belong to one and see only its rows."""

    name = models.CharField(_("name"), max_length=200)
    cname = models.CharField(_("Chinese name"), max_length=200, blank=True)
    code = models.CharField(_("code"), max_length=50, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True, validators=[validate_country_code])
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, null=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True, null=True)

    supplier_scope = "pk"

    class Meta:
        verbose_name = _("parent vendor")
        verbose_name_plural = _("parent vendors")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="parentvendor_tenant_name_unique"),
            models.UniqueConstraint(
                fields=["tenant", "code"], condition=~Q(code=""), name="parentvendor_tenant_code_unique"
            ),
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("parentvendor_tenant_cname", "cname"),
            tenant_ordering_index("parentvendor_tenant_code", "code"),
            tenant_ordering_index("parentvendor_tenant_country", "country"),
            tenant_ordering_index("parentvendor_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.name


class Supplier(TenantModel):
    """A carton factory (or other vendor) we buy from.

    `contacts` is a list of {"name", "email", "phone", "role"} (the people we deal with there);
    `visma_code` is the supplier's code in the accounting system.
    """

    parent_vendor = models.ForeignKey(
        ParentVendor, on_delete=models.PROTECT, related_name="suppliers", verbose_name=_("parent vendor")
    )
    number = models.CharField(_("number"), max_length=50)
    name = models.CharField(_("name"), max_length=200)
    country = models.CharField(_("country"), max_length=2, blank=True, validators=[validate_country_code])
    address = models.CharField(_("address"), max_length=500, blank=True)
    contacts = models.JSONField(_("contacts"), default=list, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    visma_code = models.CharField(_("accounting code"), max_length=64, blank=True)
    payment_terms = models.CharField(_("payment terms"), max_length=100, blank=True)
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[currency_validator])
    notes = models.TextField(_("notes"), blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    supplier_scope = "parent_vendor"

    class Meta:
        verbose_name = _("supplier")
        verbose_name_plural = _("suppliers")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "number"], name="supplier_tenant_number_unique")
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("supplier_tenant_name", "name"),
            tenant_ordering_index("supplier_tenant_country", "country"),
            tenant_ordering_index("supplier_tenant_currency", "currency"),
            tenant_ordering_index("supplier_tenant_visma", "visma_code"),
            tenant_ordering_index("supplier_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"
