from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.common.models import tenant_ordering_index
from apps.tenancy.models import TenantModel

from .validators import validate_barcode, validate_currency, validate_hs_code


class ProductGroup(TenantModel):
    """A node of the product catalogue's tree (e.g. Corrugated cartons > Single wall)."""

    name = models.CharField(_("name"), max_length=200)
    code = models.CharField(_("code"), max_length=50, blank=True)
    description = models.TextField(_("description"), blank=True)
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="children",
        verbose_name=_("parent group"),
    )
    created_at = models.DateTimeField(auto_now_add=True, null=True)
    updated_at = models.DateTimeField(auto_now=True, null=True)

    class Meta:
        verbose_name = _("product group")
        verbose_name_plural = _("product groups")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="productgroup_tenant_name_unique"),
            models.UniqueConstraint(
                fields=["tenant", "code"], condition=~Q(code=""), name="productgroup_tenant_code_unique"
            ),
        ]
        # the list's orderings (docs/performance.md, "Indexes for the list orderings"); the name's is the
        # unique constraint's (the code's is partial, without empty codes, so it cannot give the order)
        indexes = [
            tenant_ordering_index("productgroup_tenant_code", "code"),
            tenant_ordering_index("productgroup_tenant_created", "created_at"),
        ]

    def __str__(self) -> str:
        return self.name


class Product(TenantModel):
    """An article we buy or sell: cartons (with their EUDR carton weight) and trade goods."""

    class Unit(models.TextChoices):
        PIECE = "pcs", _("Pieces")
        CARTON = "carton", _("Cartons")
        SET = "set", _("Sets")
        PACK = "pack", _("Packs")
        ROLL = "roll", _("Rolls")
        PALLET = "pallet", _("Pallets")
        KG = "kg", _("Kilograms")
        M2 = "m2", _("Square metres")

    article_number = models.CharField(_("article number"), max_length=64)
    name = models.CharField(_("name"), max_length=300)
    name_zh = models.CharField(_("Chinese name"), max_length=300, blank=True)
    group = models.ForeignKey(
        ProductGroup,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="products",
        verbose_name=_("group"),
    )
    unit = models.CharField(_("unit"), max_length=10, choices=Unit.choices, default=Unit.PIECE)
    # The net weight of one carton: the EUDR weight a carton label consumes from a raw-material delivery.
    weight_per_carton_kg = models.DecimalField(
        _("weight per carton (kg)"),
        max_digits=10,
        decimal_places=3,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    carton_length_mm = models.PositiveIntegerField(_("carton length (mm)"), null=True, blank=True)
    carton_width_mm = models.PositiveIntegerField(_("carton width (mm)"), null=True, blank=True)
    carton_height_mm = models.PositiveIntegerField(_("carton height (mm)"), null=True, blank=True)
    hs_code = models.CharField(_("HS code"), max_length=10, blank=True, validators=[validate_hs_code])
    is_active = models.BooleanField(_("active"), default=True)
    purchase_price = models.DecimalField(
        _("purchase price"),
        max_digits=14,
        decimal_places=4,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    sales_price = models.DecimalField(
        _("sales price"),
        max_digits=14,
        decimal_places=4,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    currency = models.CharField(_("currency"), max_length=3, default="EUR", validators=[validate_currency])
    description = models.TextField(_("description"), blank=True)
    barcode = models.CharField(_("barcode (EAN)"), max_length=14, blank=True, validators=[validate_barcode])
    visma_code = models.CharField(_("accounting code"), max_length=50, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("product")
        verbose_name_plural = _("products")
        ordering = ["article_number"]
        # One permission for every price of the product (purchase/sales prices, order costs and totals):
        # apps/common/prices.py.
        permissions = [("see_prices", _("Can see prices and amounts"))]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "article_number"], name="product_tenant_article_unique")
        ]
        # every ordering the list offers: docs/performance.md, "Indexes for the list orderings"
        indexes = [
            tenant_ordering_index("product_tenant_name", "name"),
            tenant_ordering_index("product_tenant_name_zh", "name_zh"),
            tenant_ordering_index("product_tenant_unit", "unit"),
            tenant_ordering_index("product_tenant_weight", "weight_per_carton_kg"),
            tenant_ordering_index("product_tenant_hs_code", "hs_code"),
            tenant_ordering_index("product_tenant_purchase_price", "purchase_price"),
            tenant_ordering_index("product_tenant_sales_price", "sales_price"),
            tenant_ordering_index("product_tenant_active", "is_active"),
            tenant_ordering_index("product_tenant_created", "created_at"),
            tenant_ordering_index("product_tenant_updated", "updated_at"),
        ]

    def __str__(self) -> str:
        return f"{self.article_number} {self.name}"
