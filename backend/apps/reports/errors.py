"""The report lab's refusals: each a stable `error` key of the envelope (Saleor's per-domain error codes)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import DomainError, NotFound


class ReportErrorCode(StrEnum):
    REPORT_INVALID = "report_invalid"
    DATASET_NOT_FOUND = "dataset_not_found"
    PRICES_HIDDEN = "prices_hidden"


class ReportInvalid(DomainError):
    """A report definition that names something the dataset does not have, or a value of the wrong kind."""

    error = ReportErrorCode.REPORT_INVALID
    default_message = _("The report definition is not valid.")


class DatasetNotFound(NotFound):
    error = ReportErrorCode.DATASET_NOT_FOUND
    default_message = _("There is no such dataset, or you may not use it.")


class PricesHidden(ReportInvalid):
    """A report with an amount for a user who may not see prices: refused on its measures."""

    error = ReportErrorCode.PRICES_HIDDEN
    default_message = _("You may not see prices, so this report cannot show amounts.")

    def __init__(self) -> None:
        super().__init__(data={"measures": [str(self.default_message)]})
