"""Visma.net ERP (the REST API at https://api.finance.visma.net/v1/ by default).

Tokens: OAuth 2 client credentials at the token URL (Visma Connect, https://connect.visma.com/connect/token
by default), with `tenant_id` = the company id and the scopes of the connection. Request and response
bodies wrap every value as {"value": ...} (Visma.net's DtoValue).

Our numbers are the keys in Visma.net: customers by their number, suppliers by theirs, articles by the
article number (inventory number), invoices and credit notes by their document number (created with
`overrideNumberSeries`, so Visma.net keeps our gapless numbers). So "is it there already?" is a GET by
number, and the external id is the number.

Field names and shapes follow Visma's published OpenAPI schema (CustomerUpdateDto, SupplierUpdateDto,
InventoryUpdateDto, CustomerInvoiceUpdateDto with CustomerInvoiceLinesUpdateDto, CustomerCreditNoteUpdateDto
with CustomerCreditNoteLineUpdateDto and PaymentLineBaseUpdateDto); docs/accounting.md says what was checked
against which source. Reads (GET) answer plain values, not DtoValue wrappers.
"""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import quote

from django.utils.translation import gettext as _

from .base import (
    Adapter,
    ArticleData,
    AuthFailed,
    CustomerData,
    DocumentData,
    NotConfigured,
    PaymentStatus,
    SupplierData,
    json_of,
    money,
)

DEFAULT_BASE_URL = "https://api.finance.visma.net/v1/"
DEFAULT_TOKEN_URL = "https://connect.visma.com/connect/token"
DEFAULT_SCOPE = (
    "vismanet_erp_service_api:read vismanet_erp_service_api:create vismanet_erp_service_api:update"
)


def v(value):
    return {"value": value}


def _strip(payload: dict) -> dict:
    """Leaves out empty values, so an empty local field does not clear what the bookkeeper entered."""
    return {k: val for k, val in payload.items() if val not in (None, "", {"value": ""}, {"value": None})}


class VismaNetAdapter(Adapter):
    provider = "visma_net"

    def fetch_token(self, refresh_token: str = "") -> dict:
        if not self.config.client_secret:
            raise NotConfigured(_("The client secret is missing."))
        data = {
            "grant_type": "client_credentials",
            "client_id": self.config.client_id,
            "client_secret": self.config.client_secret,
            "scope": self.config.scope or DEFAULT_SCOPE,
        }
        if self.config.company_id:
            data["tenant_id"] = self.config.company_id
        return self._token_post(data)

    def test(self) -> str:
        response = self.request("GET", "customer", params={"pageNumber": 1, "pageSize": 1})
        if not isinstance(json_of(response), list):
            raise AuthFailed(_("The API base URL does not answer like Visma.net ERP."))
        return _("Connected to Visma.net ERP, company %(company)s.") % {
            "company": self.config.company_id or "-"
        }

    # -- master data -------------------------------------------------------------------------------------

    def _upsert(self, collection: str, key: str, payload: dict, external_id: str) -> str:
        number = external_id or key
        path = f"{collection}/{quote(number, safe='')}"
        if not external_id:
            existing = self.request("GET", path, allow_404=True)
            if existing.status_code == 404:
                self.request("POST", collection, json=payload)
                return key
        self.request("PUT", path, json={k: val for k, val in payload.items() if k not in ("number",)})
        return number

    def upsert_customer(self, data: CustomerData, external_id: str = "") -> str:
        payload = _strip(
            {
                "number": v(data.number),
                "name": v(data.name),
                "status": v("Active"),
                "currencyId": v(data.currency),
                "creditTermsId": v(data.payment_term),
                "vatRegistrationId": v(data.vat_id),
                "mainAddress": v(
                    _strip(
                        {
                            "addressLine1": v(data.street),
                            "postalCode": v(data.post_code),
                            "city": v(data.city),
                            "countryId": v(data.country),
                        }
                    )
                ),
                "mainContact": v(_strip({"email": v(data.email), "phone1": v(data.phone)})),
            }
        )
        return self._upsert("customer", data.number, payload, external_id)

    def upsert_supplier(self, data: SupplierData, external_id: str = "") -> str:
        payload = _strip(
            {
                "number": v(data.number),
                "name": v(data.name),
                "status": v("Active"),
                "currencyId": v(data.currency),
                "mainAddress": v(_strip({"addressLine1": v(data.address), "countryId": v(data.country)})),
                "mainContact": v(_strip({"email": v(data.email), "phone1": v(data.phone)})),
            }
        )
        return self._upsert("supplier", data.number, payload, external_id)

    def upsert_article(self, data: ArticleData, external_id: str = "") -> str:
        payload = _strip(
            {
                "inventoryNumber": v(data.number),
                "description": v(data.name),
                "status": v("Active" if data.is_active else "Inactive"),
                "baseUnit": v(data.unit),
                "salesUnit": v(data.unit),
                "defaultPrice": v(money(data.sales_price)),
            }
        )
        number = external_id or data.number
        path = f"inventory/{quote(number, safe='')}"
        if not external_id:
            existing = self.request("GET", path, allow_404=True)
            if existing.status_code == 404:
                self.request("POST", "inventory", json=payload)
                return data.number
        self.request("PUT", path, json={k: val for k, val in payload.items() if k != "inventoryNumber"})
        return number

    # -- documents ---------------------------------------------------------------------------------------

    @staticmethod
    def _collection(kind: str) -> str:
        return "customerCreditNote" if kind == "credit_note" else "customerinvoice"

    def find_document(self, kind: str, number: str) -> str | None:
        response = self.request("GET", f"{self._collection(kind)}/{quote(number, safe='')}", allow_404=True)
        return None if response.status_code == 404 else number

    def create_document(self, data: DocumentData) -> str:
        lines = [
            _strip(
                {
                    "operation": "Insert",
                    "inventoryNumber": v(line.article_external_id or line.article_number),
                    "description": v(line.description[:255]),
                    "quantity": v(money(line.quantity)),
                    "unitPriceInCurrency": v(money(line.unit_price)),
                    "discountPercent": v(money(line.discount_percent)),
                    "vatCodeId": v(line.vat_code),
                }
            )
            for line in data.lines
        ]
        credit = data.kind == "credit_note"
        payload = _strip(
            {
                "referenceNumber": v(data.number),
                "overrideNumberSeries": v(True),
                "customerNumber": v(data.customer_external_id or data.customer_number),
                "documentDate": v(data.issue_date.isoformat()),
                "currencyId": v(data.currency),
                "externalReference": v(data.number),
                "invoiceText": v(data.note[:255]),
                "salesperson": v(data.salesperson),
                "hold": v(False),
            }
        )
        # CustomerCreditNoteUpdateDto has neither terms nor a due date; CustomerInvoiceUpdateDto has both.
        # Neither has an `owner` (only sales orders do): the owner's id stays on our invoice.
        if not credit:
            payload.update(
                _strip(
                    {
                        "documentDueDate": v(data.due_date.isoformat() if data.due_date else ""),
                        "creditTermsId": v(data.payment_term),
                    }
                )
            )
        if credit:
            payload["lines"] = lines
            if data.credited_external_id:
                payload["applicationLines"] = [
                    {
                        "operation": "Insert",
                        "documentType": v("Invoice"),
                        "refNbr": v(data.credited_external_id),
                        "amountPaid": v(money(data.total_gross)),
                    }
                ]
        else:
            payload["invoiceLines"] = lines
        self.request("POST", self._collection(data.kind), json=payload)
        return data.number

    def payment_status(self, kind: str, external_id: str) -> PaymentStatus:
        body = json_of(self.request("GET", f"{self._collection(kind)}/{quote(external_id, safe='')}"))
        raw = _value(body.get("status")) if isinstance(body, dict) else ""
        balance = _decimal(_value(body.get("balance"))) if isinstance(body, dict) else None
        amount = _decimal(_value(body.get("amount"))) if isinstance(body, dict) else None
        raw = str(raw or "")
        if raw.lower() == "closed" or balance == 0:
            status = "credited" if kind == "credit_note" else "paid"
        elif balance is not None and amount is not None and balance < amount:
            status = "partly_paid"
        else:
            status = "open"
        return PaymentStatus(status=status, open_amount=balance, raw_status=raw)


def _value(item):
    return item.get("value") if isinstance(item, dict) and "value" in item else item


def _decimal(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    except ArithmeticError:
        return None
