"""Error keys live in each app's `errors.py` as a StrEnum (docs/style.md, Saleor's error codes), and the domain
errors that replaced a bare `NotFound()` answer exactly what it answered."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation
from rest_framework import exceptions

from apps.accounting import errors as accounting_errors
from apps.common import errors as common_errors
from apps.common.api.envelope import exception_handler
from apps.common.exceptions import NotFound
from apps.eudr import errors as eudr_errors
from apps.notifications import errors as notification_errors
from apps.printing import errors as printing_errors
from apps.purchaseorders import errors as purchasing_errors
from apps.reports import errors as report_errors
from apps.salesorders import errors as sales_errors

APPS = Path(__file__).resolve().parents[2]
# `error = "key"` in a class body, `error="key"` as an argument, `"error": "key"` in a body built by hand
LITERAL_KEY = re.compile(
    r'^\s+error = "[a-z]+_[a-z_]+"|\berror="[a-z]+_[a-z_]+"|"error": "[a-z]+_[a-z_]+"', re.M
)
BARE_NOT_FOUND = re.compile(r"raise (exceptions\.)?NotFound\(\)")
# the generic classes every domain error derives from
GENERIC = {APPS / "common" / "exceptions.py"}


def _sources():
    for path in sorted(APPS.rglob("*.py")):
        if "tests" in path.parts or "migrations" in path.parts or path in GENERIC:
            continue
        yield path, path.read_text(encoding="utf-8")


def test_error_keys_are_members_of_their_apps_error_enum():
    literal = [
        f"{path.relative_to(APPS)}: {match.group(0).strip()}"
        for path, text in _sources()
        for match in LITERAL_KEY.finditer(text)
    ]
    assert literal == []
    for errors_module in sorted(APPS.glob("*/errors.py")):
        assert "(StrEnum):" in errors_module.read_text(encoding="utf-8"), errors_module


def test_nothing_raises_a_bare_not_found():
    bare = [
        f"{path.relative_to(APPS)}: {match.group(0)}"
        for path, text in _sources()
        for match in BARE_NOT_FOUND.finditer(text)
    ]
    assert bare == []


def _answer(exc) -> tuple[int, dict]:
    response = exception_handler(exc, {})
    return response.status_code, response.data


@pytest.mark.parametrize(
    "error",
    [
        eudr_errors.DeliveryFileNotFound,
        purchasing_errors.PurchaseOrderNotFound,
        notification_errors.EventNotFound,
        notification_errors.RawMessageMissing,
        notification_errors.SmtpSettingsMissing,
        printing_errors.AgentFileMissing,
        sales_errors.ShipmentNotFound,
    ],
)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_domain_not_found_answers_what_the_bare_not_found_answered(error, language):
    with translation.override(language):
        before = _answer(exceptions.NotFound())
        assert before == (
            404,
            {"code": 404, "message": before[1]["message"], "error": "not_found", "data": None},
        )
        assert _answer(error()) == before
        assert _answer(NotFound()) == before


def test_the_moved_errors_keep_their_keys_and_answers():
    with translation.override("en"):
        assert _answer(eudr_errors.LabelsNotFound()) == _answer(
            NotFound("Some of the selected labels do not exist.")
        )
        assert _answer(report_errors.PricesHidden()) == (
            400,
            {
                "code": 400,
                "message": "You may not see prices, so this report cannot show amounts.",
                "error": "prices_hidden",
                "data": {"measures": ["You may not see prices, so this report cannot show amounts."]},
            },
        )
        assert _answer(common_errors.RecordInUse()) == (
            409,
            {
                "code": 409,
                "message": "This record is still used by other records and cannot be deleted.",
                "error": "record_in_use",
                "data": None,
            },
        )
    keys = {
        eudr_errors.CartonNotFound: (404, "carton_not_found"),
        eudr_errors.DdsInformationMissing: (400, "dds_information_missing"),
        eudr_errors.DdsJobNotFound: (404, "dds_job_not_found"),
        eudr_errors.DdsPackageNotReady: (409, "dds_package_not_ready"),
        eudr_errors.TracesAccountMissing: (400, "traces_account_missing"),
        eudr_errors.DdsFilingNotAllowed: (409, "dds_filing_not_allowed"),
        eudr_errors.DdsSubmissionMissing: (409, "dds_submission_missing"),
        accounting_errors.ConnectionMissing: (None, "accounting_connection_missing"),
        printing_errors.PairingCodeInvalid: (None, "pairing_code_invalid"),
    }
    for error, (status, key) in keys.items():
        code, body = _answer(error())
        assert body["error"] == key, error
        assert status is None or code == status, error
