from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.products.validators import validate_country_code, validate_currency
from apps.tenancy.models import TenantModel


class Customer(TenantModel):
    """A company we sell to, with its billing and delivery addresses and commercial terms."""

    number = models.CharField(_("number"), max_length=50)
    name = models.CharField(_("name"), max_length=200)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    vat_id = models.CharField(_("VAT id"), max_length=30, blank=True)
    visma_code = models.CharField(_("accounting code"), max_length=50, blank=True)
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[validate_currency])
    payment_terms_days = models.PositiveSmallIntegerField(
        _("payment terms (days)"), default=30, validators=[MaxValueValidator(365)]
    )
    billing_street = models.CharField(_("billing street"), max_length=200, blank=True)
    billing_post_code = models.CharField(_("billing post code"), max_length=20, blank=True)
    billing_city = models.CharField(_("billing city"), max_length=100, blank=True)
    billing_country = models.CharField(
        _("billing country"), max_length=2, blank=True, validators=[validate_country_code]
    )
    delivery_street = models.CharField(_("delivery street"), max_length=200, blank=True)
    delivery_post_code = models.CharField(_("delivery post code"), max_length=20, blank=True)
    delivery_city = models.CharField(_("delivery city"), max_length=100, blank=True)
    delivery_country = models.CharField(
        _("delivery country"), max_length=2, blank=True, validators=[validate_country_code]
    )
    is_active = models.BooleanField(_("active"), default=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("customer")
        verbose_name_plural = _("customers")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "number"], name="customer_tenant_number_unique")
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("customer_tenant_name", "name"),
            tenant_ordering_index("customer_tenant_city", "billing_city"),
            tenant_ordering_index("customer_tenant_country", "billing_country"),
            tenant_ordering_index("customer_tenant_currency", "currency"),
            tenant_ordering_index("customer_tenant_terms", "payment_terms_days"),
            tenant_ordering_index("customer_tenant_active", "is_active"),
            tenant_ordering_index("customer_tenant_created", "created_at"),
            tenant_ordering_index("customer_tenant_updated", "updated_at"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class CustomerContact(TenantModel):
    """A person at a customer; the first one (lowest position) is the main contact."""

    customer = models.ForeignKey(
        Customer, on_delete=models.CASCADE, related_name="contacts", verbose_name=_("customer")
    )
    name = models.CharField(_("name"), max_length=200)
    role = models.CharField(_("role"), max_length=100, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("customer contact")
        verbose_name_plural = _("customer contacts")
        ordering = ["customer_id", "position", "id"]

    def __str__(self) -> str:
        return self.name
