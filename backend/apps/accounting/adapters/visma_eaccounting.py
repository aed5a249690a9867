"""Visma eAccounting (the REST API at https://eaccountingapi.vismaonline.com/v2/ by default).

Tokens: OAuth 2 authorization code with a refresh token (https://identity.vismaonline.com/connect/token).
The refresh token is rotated: every refresh answers a new one and the old one stops working, which is why
services.access_token renews under the connection's row lock and stores the new refresh token in the same
transaction. The first refresh token comes from the consent flow (docs/accounting.md) and is entered on
the connection page.

eAccounting gives its own ids (GUIDs): the external id of a customer, supplier, article or invoice is that
Id. A customer is found by `CustomerNumber`, an article by `Number`, an invoice by `YourReference` (our
document number, which we always send there).
"""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import quote

from django.utils.translation import gettext as _

from .base import (
    Adapter,
    ArticleData,
    CustomerData,
    DocumentData,
    NotConfigured,
    PaymentStatus,
    Rejected,
    SupplierData,
    json_of,
    money,
)

DEFAULT_BASE_URL = "https://eaccountingapi.vismaonline.com/v2/"
DEFAULT_TOKEN_URL = "https://identity.vismaonline.com/connect/token"
DEFAULT_AUTHORIZE_URL = "https://identity.vismaonline.com/connect/authorize"
# offline_access: a refresh token; ea:api: the API at all; ea:sales (customers, articles, invoices) and
# ea:purchase (suppliers), as listed on developer.vismaonline.com "Authentication".
DEFAULT_SCOPE = "ea:api offline_access ea:sales ea:purchase"
# The acr_values the eAccounting documentation recommends, with prompt=select_account (the user picks the
# company every time instead of landing in the last one used).
EACCOUNTING_SERVICE = "service:44643EB1-3F76-4C1C-A672-402AE8085934"


def authorize_url_of(token_url: str, configured: str = "") -> str:
    """The authorization endpoint: the configured one, else the token URL's sibling (.../connect/token ->
    .../connect/authorize), so a sandbox or a test server needs only its token URL."""
    if configured:
        return configured
    base, _sep, last = token_url.rstrip("/").rpartition("/")
    return f"{base}/authorize" if last == "token" and base else DEFAULT_AUTHORIZE_URL


def _odata_literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _compact(payload: dict) -> dict:
    return {k: val for k, val in payload.items() if val not in (None, "")}


class VismaEAccountingAdapter(Adapter):
    provider = "visma_eaccounting"

    def fetch_token(self, refresh_token: str = "") -> dict:
        if not refresh_token:
            raise NotConfigured(
                _(
                    "There is no refresh token yet: authorise the connection in Visma and enter its refresh token."
                )
            )
        return self._token_post(
            {"grant_type": "refresh_token", "refresh_token": refresh_token},
            auth=(self.config.client_id, self.config.client_secret),
        )

    def exchange_code(self, *, code: str, redirect_uri: str, code_verifier: str = "") -> dict:
        """The authorization-code grant: the code Visma sent back to the redirect URI, for the first
        access and refresh tokens. The redirect URI must be the one of the authorization request."""
        data = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri}
        if code_verifier:
            data["code_verifier"] = code_verifier
        return self._token_post(
            data, auth=(self.config.client_id, self.config.client_secret), describe=self.describe_code_error
        )

    def describe_code_error(self, response) -> str:
        try:
            body = response.json()
        except ValueError:
            body = {}
        code = body.get("error", "") if isinstance(body, dict) else ""
        if code == "invalid_grant":
            return _(
                "Visma did not accept the authorisation code: it is used once and is valid for a few minutes. "
                "Connect again."
            )
        return self.describe_token_error(response)

    def test(self) -> str:
        body = json_of(self.request("GET", "companysettings"))
        if not isinstance(body, dict):
            raise Rejected(_("The API base URL does not answer like Visma eAccounting."))
        name = str(body.get("Name") or "")
        org = str(body.get("CorporateIdentityNumber") or "")
        wanted = self.config.company_id.strip()
        if wanted and wanted not in (org, str(body.get("Id") or "")):
            raise Rejected(
                _("These credentials belong to the company %(name)s (%(org)s), not to %(wanted)s.")
                % {"name": name or "-", "org": org or "-", "wanted": wanted}
            )
        return _("Connected to Visma eAccounting, company %(name)s.") % {"name": name or org or "-"}

    def _find_id(self, collection: str, field: str, value: str) -> str | None:
        body = json_of(
            self.request("GET", collection, params={"$filter": f"{field} eq {_odata_literal(value)}"})
        )
        rows = body.get("Data") if isinstance(body, dict) else body
        if isinstance(rows, list) and rows and isinstance(rows[0], dict) and rows[0].get("Id"):
            return str(rows[0]["Id"])
        return None

    def _upsert(self, collection: str, field: str, key: str, payload: dict, external_id: str) -> str:
        external_id = external_id or self._find_id(collection, field, key) or ""
        if external_id:
            self.request("PUT", f"{collection}/{quote(external_id, safe='')}", json=payload)
            return external_id
        body = json_of(self.request("POST", collection, json=payload))
        if not isinstance(body, dict) or not body.get("Id"):
            raise Rejected(_("Visma eAccounting answered without the new record's id."))
        return str(body["Id"])

    def upsert_customer(self, data: CustomerData, external_id: str = "") -> str:
        terms = data.payment_term or self.config.options.get("default_terms_of_payment_id", "")
        payload = _compact(
            {
                "CustomerNumber": data.number,
                "Name": data.name,
                "EmailAddress": data.email,
                "Telephone": data.phone,
                "VatNumber": data.vat_id,
                "CurrencyCode": data.currency,
                "TermsOfPaymentId": terms,
                "InvoiceAddress1": data.street,
                "InvoicePostalCode": data.post_code,
                "InvoiceCity": data.city,
                "InvoiceCountryCode": data.country,
                "IsPrivatePerson": False,
                "IsActive": True,
            }
        )
        return self._upsert("customers", "CustomerNumber", data.number, payload, external_id)

    def upsert_supplier(self, data: SupplierData, external_id: str = "") -> str:
        payload = _compact(
            {
                "SupplierNumber": data.number,
                "Name": data.name,
                "EmailAddress": data.email,
                "Telephone": data.phone,
                "CountryCode": data.country,
                "Address1": data.address,
                "CurrencyCode": data.currency,
                "IsActive": True,
            }
        )
        return self._upsert("suppliers", "SupplierNumber", data.number, payload, external_id)

    def upsert_article(self, data: ArticleData, external_id: str = "") -> str:
        payload = _compact(
            {
                "Number": data.number,
                "Name": data.name,
                "UnitId": self.config.options.get("unit_id", ""),
                "CodingId": self.config.options.get("coding_id", ""),
                "NetPrice": money(data.sales_price),
                "IsActive": data.is_active,
            }
        )
        return self._upsert("articles", "Number", data.number, payload, external_id)

    def find_document(self, kind: str, number: str) -> str | None:
        return self._find_id("customerinvoices", "YourReference", number)

    def create_document(self, data: DocumentData) -> str:
        rows = [
            _compact(
                {
                    "ArticleId": line.article_external_id,
                    "Text": line.description[:2000],
                    "Quantity": money(line.quantity),
                    "UnitPrice": money(line.unit_price),
                    "DiscountPercentage": float(line.discount_percent / Decimal("100")),
                }
            )
            for line in data.lines
        ]
        payload = _compact(
            {
                "CustomerId": data.customer_external_id,
                "InvoiceDate": data.issue_date.isoformat(),
                "DueDate": data.due_date.isoformat() if data.due_date else "",
                "CurrencyCode": data.currency,
                "YourReference": data.number,
                "OurReference": data.salesperson,
                "InvoiceText": data.note,
                "IsCreditInvoice": data.kind == "credit_note",
                "CreditedInvoiceId": data.credited_external_id if data.kind == "credit_note" else "",
                "RotReducedInvoicingType": 0,
                "Rows": rows,
            }
        )
        body = json_of(self.request("POST", "customerinvoices", json=payload))
        if not isinstance(body, dict) or not body.get("Id"):
            raise Rejected(_("Visma eAccounting answered without the new invoice's id."))
        return str(body["Id"])

    def payment_status(self, kind: str, external_id: str) -> PaymentStatus:
        body = json_of(self.request("GET", f"customerinvoices/{quote(external_id, safe='')}"))
        body = body if isinstance(body, dict) else {}
        remaining = _decimal(body.get("RemainingAmount"))
        total = _decimal(body.get("TotalAmount"))
        if kind == "credit_note":
            status = "credited"
        elif remaining == 0:
            status = "paid"
        elif remaining is not None and total is not None and abs(remaining) < abs(total):
            status = "partly_paid"
        else:
            status = "open"
        return PaymentStatus(status=status, open_amount=remaining, raw_status=str(body.get("Status") or ""))


def _decimal(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    except ArithmeticError:
        return None
