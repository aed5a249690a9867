"""The products area's refusals: each a stable `error` key of the envelope (Saleor's per-domain error
codes). Services raise them; the API's exception handler turns them into the envelope."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import Conflict


class ProductsErrorCode(StrEnum):
    PRODUCT_IN_USE = "product_in_use"
    PRODUCT_GROUP_NOT_EMPTY = "product_group_not_empty"


class ProductInUse(Conflict):
    error = ProductsErrorCode.PRODUCT_IN_USE
    default_message = _(
        "This product is used on orders or labels and cannot be deleted. Deactivate it instead."
    )


class ProductGroupNotEmpty(Conflict):
    error = ProductsErrorCode.PRODUCT_GROUP_NOT_EMPTY
