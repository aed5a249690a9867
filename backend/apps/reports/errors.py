"""Error keys of the report lab (the envelope's `error`)."""

from django.utils.translation import gettext_lazy as _

from apps.common.exceptions import DomainError, NotFound


class ReportInvalid(DomainError):
    """A report definition that names something the dataset does not have, or a value of the wrong kind."""

    error = "report_invalid"
    default_message = _("The report definition is not valid.")


class DatasetNotFound(NotFound):
    error = "dataset_not_found"
    default_message = _("There is no such dataset, or you may not use it.")
