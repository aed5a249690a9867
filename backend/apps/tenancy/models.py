from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .context import TenantNotSet, get_current_tenant_id
from .managers import TenantManager, UnscopedManager


class OperatorRole(models.TextChoices):
    """How the company files its due diligence statements (docs/regulation.md, `operatorRole`)."""

    OPERATOR = "OPERATOR", _("Operator")
    REPRESENTATIVE_OPERATOR = "REPRESENTATIVE_OPERATOR", _("Authorised representative of an operator")


class EudrImportRole(models.TextChoices):
    """The company's role for goods it imports or first places on the EU market itself."""

    OPERATOR = "operator", _("Operator: files a due diligence statement before placing the goods")
    NONE = "none", _("Does not import or first place goods")


class EudrPurchaseRole(models.TextChoices):
    """The company's role for goods it buys from an operator in the EU (Regulation (EU) 2025/2650)."""

    DOWNSTREAM = "downstream", _("Downstream operator or trader: keeps the supplier's reference numbers")
    NONE = "none", _("Does not buy goods already placed on the EU market")


class EudrPrimaryRole(models.TextChoices):
    """The company's role for what it produces itself."""

    MICRO_SMALL_PRIMARY = (
        "micro_small_primary",
        _("Micro or small primary operator: one-time simplified declaration"),
    )
    NONE = "none", _("Does not produce relevant commodities")


class Tenant(models.Model):
    """A company using the product. Tenants never see each other's rows.

    The company settings (legal name, address, country, EORI/VAT, contact, operator role and, for an
    authorised representative, the represented operator) are the operator data of the due diligence
    statement (apps/eudr/dds/); `apps/tenancy/operator.py` validates them.
    """

    name = models.CharField(_("name"), max_length=200, unique=True)
    code = models.SlugField(_("code"), max_length=50, unique=True)
    legal_name = models.CharField(_("legal name"), max_length=300, blank=True)
    address = models.CharField(_("address"), max_length=500, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    eori_number = models.CharField(_("EORI number"), max_length=40, blank=True)
    vat_number = models.CharField(_("VAT number"), max_length=40, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    operator_role = models.CharField(
        _("operator role"), max_length=30, choices=OperatorRole.choices, default=OperatorRole.OPERATOR
    )
    represented_operator_name = models.CharField(_("represented operator"), max_length=300, blank=True)
    represented_operator_address = models.CharField(
        _("represented operator's address"), max_length=500, blank=True
    )
    # The structured address of the V3 statement (`operatorAddress`: street, postalCode, city, country);
    # `represented_operator_address` stays as the full address in one line (`fullAddress`, optional).
    represented_operator_street = models.CharField(
        _("represented operator's street and number"), max_length=300, blank=True
    )
    represented_operator_postal_code = models.CharField(
        _("represented operator's postal code"), max_length=80, blank=True
    )
    represented_operator_city = models.CharField(_("represented operator's city"), max_length=200, blank=True)
    represented_operator_country = models.CharField(
        _("represented operator's country"), max_length=2, blank=True
    )
    represented_operator_eori = models.CharField(
        _("represented operator's EORI number"), max_length=40, blank=True
    )
    represented_operator_vat = models.CharField(
        _("represented operator's VAT number"), max_length=40, blank=True
    )
    represented_operator_email = models.EmailField(_("represented operator's e-mail"), blank=True)
    represented_operator_phone = models.CharField(
        _("represented operator's phone"), max_length=50, blank=True
    )
    # The company's EUDR role per flow of goods (docs/eudr.md, "The company's role"): what it must do.
    eudr_import_role = models.CharField(
        _("EUDR role for imports"),
        max_length=20,
        choices=EudrImportRole.choices,
        default=EudrImportRole.OPERATOR,
        db_default="operator",
    )
    eudr_purchase_role = models.CharField(
        _("EUDR role for goods bought in the EU"),
        max_length=20,
        choices=EudrPurchaseRole.choices,
        default=EudrPurchaseRole.NONE,
        db_default="none",
    )
    eudr_primary_role = models.CharField(
        _("EUDR role for own production"),
        max_length=20,
        choices=EudrPrimaryRole.choices,
        default=EudrPrimaryRole.NONE,
        db_default="none",
    )
    # Micro, small or medium-sized (SME): non-SME downstream operators register in the information
    # system and may read referenced statements (getDdsByIdentifiers).
    eudr_is_sme = models.BooleanField(
        _("SME (micro, small or medium-sized company)"), default=False, db_default=False
    )
    simplified_declaration_id = models.CharField(
        _("simplified declaration identifier"), max_length=14, blank=True, default="", db_default=""
    )
    allow_backorders = models.BooleanField(
        _("allow backorders"),
        default=False,
        help_text=_("Sales orders may be confirmed for more than the available stock."),
    )
    allow_negative_stock = models.BooleanField(
        _("allow negative stock"),
        default=False,
        help_text=_("Stock moves may take a location's stock below zero."),
    )
    allow_uncovered_shipping = models.BooleanField(
        _("allow shipping imported cartons not yet covered by a statement"),
        default=False,
        help_text=_(
            "Cartons imported in a container may ship before a due diligence statement of ours that "
            "covers them is available; the delivery note and the invoice say so per carton."
        ),
        db_default=False,
    )
    allow_unlabelled_shipping = models.BooleanField(
        _("allow shipping unlabelled stock"),
        default=False,
        help_text=_(
            "A line of a labelled product may ship more than its picked cartons; the delivery note says "
            "how much of it is unlabelled."
        ),
        db_default=False,
    )
    # Printed on every business document (docs/sales.md, "Company and payment details")
    registration_number = models.CharField(
        _("registration number"),
        max_length=40,
        blank=True,
        default="",
        db_default="",
        help_text=_("The company's number in the trade register (e.g. KvK, Handelsregister)."),
    )
    iban = models.CharField(_("IBAN"), max_length=34, blank=True, default="", db_default="")
    bic = models.CharField(_("BIC"), max_length=11, blank=True, default="", db_default="")
    payment_terms_days = models.PositiveSmallIntegerField(
        _("default payment terms (days)"),
        default=30,
        db_default=30,
        help_text=_("Terms of a new order whose customer has none of its own."),
    )
    # How long a carton's public trace may be cached by browsers and CDNs (docs/eudr.md, "Public trace"):
    # the longest a voided carton or a change may still show to someone who scanned before.
    public_trace_max_age = models.PositiveIntegerField(
        _("public trace cache time (seconds)"),
        default=300,
        db_default=300,
        validators=[MaxValueValidator(86400)],
        help_text=_(
            "How long browsers and CDNs may keep a carton's public trace page data; a voided carton or a "
            "change may show for this long to someone who opened it before."
        ),
    )
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("tenant")
        verbose_name_plural = _("tenants")
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's access to one tenant, with the roles (permission sets) held there.

    Identity data, read before a tenant is active (to decide whether the request may enter it), so it
    is not under row-level security; it is only ever queried by user.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    roles = models.ManyToManyField("users.Role", blank=True, related_name="memberships")
    department = models.ForeignKey(
        "users.Department", null=True, blank=True, on_delete=models.SET_NULL, related_name="memberships"
    )
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "tenant"], name="membership_user_tenant_unique")
        ]
        ordering = ["tenant_id"]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tenant}"


class TenantModel(models.Model):
    """Base of every tenant-owned model.

    - `objects` is filtered by the current tenant and fails closed (see managers.py);
    - `save()` stamps the current tenant and refuses rows of another tenant;
    - a foreign key to another tenant's row is rejected (`clean_tenant_relations`);
    - on PostgreSQL the table gets a forced row-level-security policy automatically (rls.py).
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="+", editable=False)

    objects = TenantManager()
    unscoped = UnscopedManager()

    class Meta:
        abstract = True
        base_manager_name = "unscoped"
        default_manager_name = "objects"

    @classmethod
    def tenant_relation_fields(cls) -> list[models.Field]:
        """Foreign keys (and one-to-ones) of this model that point at another tenant model."""
        return [
            field
            for field in cls._meta.concrete_fields
            if field.is_relation
            and (field.many_to_one or field.one_to_one)
            and field.name != "tenant"
            and isinstance(field.related_model, type)
            and issubclass(field.related_model, TenantModel)
        ]

    def clean_tenant_relations(self) -> None:
        type(self).clean_tenant_relations_bulk([self])

    @classmethod
    def clean_tenant_relations_bulk(cls, objs: list[TenantModel]) -> None:
        """Refuses rows whose foreign keys point at another tenant's (or a missing) row: one query per
        related model for all the rows, related objects already loaded need none."""
        for field in cls.tenant_relation_fields():
            related_model = field.related_model
            tenants_of: dict = {}
            to_look_up = set()
            for obj in objs:
                related_id = getattr(obj, field.attname)
                if related_id is None:
                    continue
                cached = field.get_cached_value(obj, default=None)
                if cached is not None and cached.tenant_id is not None:
                    tenants_of[related_id] = cached.tenant_id
                else:
                    to_look_up.add(related_id)
            to_look_up -= set(tenants_of)
            if to_look_up:
                tenants_of.update(
                    related_model.unscoped.filter(pk__in=to_look_up).values_list("pk", "tenant_id")
                )
            for obj in objs:
                related_id = getattr(obj, field.attname)
                if related_id is not None and tenants_of.get(related_id) != obj.tenant_id:
                    raise ValidationError({field.name: _("The selected record does not exist.")})

    def save(self, *args, **kwargs):
        current = get_current_tenant_id()
        if self.tenant_id is None:
            if current is None:
                raise TenantNotSet(f"Saving a {type(self).__name__} outside a tenant")
            self.tenant_id = current
        elif current is not None and self.tenant_id != current:
            raise TenantNotSet(f"Saving a {type(self).__name__} of another tenant")
        self.clean_tenant_relations()
        super().save(*args, **kwargs)
