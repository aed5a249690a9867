"""A local HTTP server (127.0.0.1, a thread) that answers as the documented Visma endpoints do:

- the token endpoint: client credentials (Visma.net, with `tenant_id`), authorization code (eAccounting's
  consent flow: the code is used once, the redirect URI must be the authorization request's, a PKCE
  code challenge is checked against the code verifier) and refresh token grants (eAccounting; every
  refresh answers a new refresh token and the old one stops working);
- the authorization endpoint /authorize (the page Visma shows the user): answers 302 to the redirect URI
  with `code` and `state`, or with `error=access_denied` when `deny_next` is set;
- Visma.net ERP under /v1/: customer, supplier, inventory, customerinvoice, customerCreditNote (values
  wrapped as {"value": ...}; POST answers 201 with a Location header; a duplicate document number is a
  400 validation error, as with `overrideNumberSeries`);
- eAccounting under /v2/: companysettings, customers, suppliers, articles, customerinvoices (ids are
  GUIDs, `$filter=Field eq 'x'`, lists as {"Meta", "Data"}).

`script(method, path, *responses)` queues answers for the next calls of that method and path
(responses are (status, body, headers) tuples), e.g. a 503 then the normal answer. Every request is
kept in `requests`.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlencode, urlparse

# The fields of Visma.net's published OpenAPI schema (the *UpdateDto a POST/PUT takes; see
# docs/accounting.md for the source). The fake refuses any other field with a 400, so a misspelt or
# invented field fails the tests here instead of being ignored by Visma. A customer invoice and a
# customer credit note share the fields of Visma.net's sales document base (NET_SALES_DOCUMENT_FIELDS).
NET_SALES_DOCUMENT_FIELDS = {
    "referenceNumber",
    "customerNumber",
    "childCustomerNumber",
    "consolidateInvoices",
    "documentDate",
    "origInvoiceDate",
    "hold",
    "postPeriod",
    "financialPeriod",
    "invoiceText",
    "locationId",
    "salesPersonID",
    "salesperson",
    "note",
    "branchNumber",
    "cashAccount",
    "dontPrint",
    "dontEmail",
}

NET_FIELDS = {
    "customer": {
        "number",
        "name",
        "status",
        "accountReference",
        "numberOfEmployees",
        "parentRecordNumber",
        "currencyId",
        "creditLimit",
        "creditDaysPastDue",
        "overrideWithClassValues",
        "customerClassId",
        "creditTermsId",
        "printInvoices",
        "acceptAutoInvoices",
        "sendInvoicesByEmail",
        "sendDunningLettersViaEMail",
        "printDunningLetters",
        "printStatements",
        "sendStatementsByEmail",
        "printMultiCurrencyStatements",
        "invoiceToDefaultLocation",
        "vatRegistrationId",
        "corporateId",
        "vatZoneId",
        "gln",
        "note",
        "mainAddress",
        "mainContact",
        "creditVerification",
        "invoiceAddress",
        "invoiceContact",
        "statementType",
        "deliveryAddress",
        "deliveryContact",
        "priceClassId",
        "eInvoiceContract",
        "defaultPaymentMethod",
        "glAccounts",
        "directDebitLines",
        "attributeLines",
        "overrideNumberSeries",
        "excludeDebtCollection",
    },
    "supplier": {
        "number",
        "name",
        "status",
        "accountReference",
        "numberOfEmployees",
        "parentRecordNumber",
        "supplierClassId",
        "overrideWithClassValues",
        "creditTermsId",
        "documentLanguage",
        "currencyId",
        "currencyOverride",
        "currencyRateOverride",
        "paymentMethodId",
        "cashAccount",
        "paymentLeadTime",
        "paymentRefDisplayMask",
        "paySeparately",
        "vatRegistrationId",
        "corporateId",
        "vatZoneId",
        "chargeBearer",
        "accountUsedForPayment",
        "paymentBy",
        "mainAddress",
        "mainContact",
        "remitAddress",
        "remitContact",
        "supplierAddress",
        "supplierContact",
        "glAccounts",
        "supplierPaymentMethodDetails",
        "attributeLines",
        "retainageCashAccountID",
        "retainageApply",
        "retainagePct",
        "note",
        "overrideNumberSeries",
        "naceCode",
        "landedCostSupplier",
    },
    "inventory": {
        "inventoryNumber",
        "status",
        "type",
        "description",
        "body",
        "itemClass",
        "postingClass",
        "vatCode",
        "defaultPrice",
        "baseUnit",
        "salesUnit",
        "purchaseUnit",
        "expenseAccrualAccount",
        "inventoryAccount",
        "expenseAccount",
        "cogsAccount",
        "expenseNonTaxableAccount",
        "expenseEuAccount",
        "expenseImportAccount",
        "expenseSubaccount",
        "cogsSubaccount",
        "salesAccount",
        "salesNonTaxableAccount",
        "salesEuAccount",
        "salesExportAccount",
        "salesSubaccount",
        "attributeLines",
        "packaging",
        "supplierDetails",
        "intrastat",
        "crossReferences",
        "defaultWarehouse",
        "defaultIssueFrom",
        "defaultReceiptTo",
        "kitItem",
        "note",
    },
    "customerinvoice": {
        "paymentMethodId",
        "creditTermsId",
        "currencyId",
        "customerRefNumber",
        "cashDiscountDate",
        "documentDueDate",
        "externalReference",
        "customerProject",
        "exchangeRate",
        "domesticServicesDeductibleDocument",
        "rotRutDetails",
        "paymentReference",
        "contact",
        "project",
        "taxDetailLines",
        "invoiceLines",
        "sendToAutoInvoice",
        "customerVatZoneId",
        "billingAddress",
        "invoiceContact",
        "startDate",
        "endDate",
        "accountingCostRef",
        "originatorDocRef",
        "contractDocRef",
        "revoked",
        "overrideNumberSeries",
        "directDebitMandateId",
        "excludeDebtCollection",
        "debtCollectionCaseNbr",
        "debtCollectionCaseStatus",
        "debtCollectionCaseType",
        "debtCollectionCaseUrl",
    }
    | NET_SALES_DOCUMENT_FIELDS,
    "customerCreditNote": {
        "currencyId",
        "customerRefNumber",
        "externalReference",
        "contact",
        "project",
        "lines",
        "taxDetails",
        "applicationLines",
        "customerVatZoneId",
        "invoiceAddress",
        "invoiceContact",
        "overrideNumberSeries",
        "sendToAutoInvoice",
        "exchangeRate",
    }
    | NET_SALES_DOCUMENT_FIELDS,
}
NET_LINE_FIELDS = {
    "discountCode",
    "domesticServicesDeductible",
    "itemType",
    "typeOfWork",
    "taskId",
    "startDate",
    "endDate",
    "operation",
    "inventoryNumber",
    "lineNumber",
    "description",
    "quantity",
    "unitPriceInCurrency",
    "manualAmountInCurrency",
    "accountNumber",
    "vatCodeId",
    "uom",
    "discountPercent",
    "discountAmountInCurrency",
    "manualDiscount",
    "subaccount",
    "salesperson",
    "deferralSchedule",
    "deferralCode",
    "termStartDate",
    "termEndDate",
    "note",
    "branchNumber",
}
NET_CREDIT_LINE_FIELDS = NET_LINE_FIELDS - {
    "domesticServicesDeductible",
    "itemType",
    "typeOfWork",
    "startDate",
    "endDate",
}
NET_APPLICATION_FIELDS = {"operation", "documentType", "refNbr", "amountPaid"}
NET_ADDRESS_FIELDS = {
    "addressLine1",
    "addressLine2",
    "addressLine3",
    "postalCode",
    "city",
    "countryId",
    "county",
}
NET_CONTACT_FIELDS = {"name", "attention", "email", "web", "phone1", "phone2", "fax"}


def schema_errors(resource: str, body: dict) -> list[str]:
    """Field names `body` has that Visma.net's schema does not (with where they are)."""
    errors = [name for name in body if name not in NET_FIELDS[resource]]
    nested = {
        "invoiceLines": NET_LINE_FIELDS,
        "lines": NET_CREDIT_LINE_FIELDS,
        "applicationLines": NET_APPLICATION_FIELDS,
    }
    for key, allowed in nested.items():
        for line in body.get(key) or []:
            errors += [f"{key}.{name}" for name in line if name not in allowed]
            errors += [
                f"{key}.{name}" for name, val in line.items() if name != "operation" and not _wrapped(val)
            ]
    for key, allowed in (("mainAddress", NET_ADDRESS_FIELDS), ("mainContact", NET_CONTACT_FIELDS)):
        inner = (body.get(key) or {}).get("value") or {}
        errors += [f"{key}.{name}" for name in inner if name not in allowed]
    errors += [name for name, val in body.items() if not isinstance(val, list) and not _wrapped(val)]
    return errors


def _wrapped(value) -> bool:
    return isinstance(value, dict) and set(value) == {"value"}


def read_shape(item):
    """A stored record as Visma.net answers a GET: plain values, no {"value": ...} wrappers."""
    if isinstance(item, dict):
        if set(item) == {"value"}:
            return read_shape(item["value"])
        return {k: read_shape(v) for k, v in item.items()}
    if isinstance(item, list):
        return [read_shape(v) for v in item]
    return item


class FakeVisma:
    def __init__(self, *, client_secret="s3cret", company="1234567", refresh_token="rt-1") -> None:
        self.client_secret = client_secret
        self.company = company
        self.valid_tokens: set[str] = set()
        self.refresh_token = refresh_token  # eAccounting: the one refresh token that works now
        self.token_delay = 0.0
        self.token_calls = 0
        self.counter = itertools.count(1)
        self.scripts: dict[tuple[str, str], list] = {}
        self.requests: list[dict] = []
        self.lose_answer: set[tuple[str, str]] = set()  # done, but the answer is lost (502) once
        # done, then the connection closes unanswered, once
        self.drop_connection: set[tuple[str, str]] = set()
        # done, then the answer is held (until `release` is set) and the connection closed unanswered, once
        self.hold_after_write: set[tuple[str, str]] = set()
        self.holding = threading.Event()
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.codes: dict[str, dict] = {}  # authorization code -> its request (client, redirect URI, PKCE)
        self.deny_next = False
        # Visma.net
        self.net: dict[str, dict[str, dict]] = {
            k: {} for k in ("customer", "supplier", "inventory", "customerinvoice", "customerCreditNote")
        }
        # eAccounting
        self.ea: dict[str, dict[str, dict]] = {
            k: {} for k in ("customers", "suppliers", "articles", "customerinvoices")
        }
        self.company_settings = {"Name": "Demo AB", "CorporateIdentityNumber": company, "Id": "c-1"}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status, body=None, headers=None):
                raw = (
                    b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
                )
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, str(v))
                if body is not None and not isinstance(body, bytes):
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _handle(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                url = urlparse(self.path)
                record = {
                    "method": method,
                    "path": url.path,
                    "query": parse_qs(url.query),
                    "raw": raw,
                    "auth": self.headers.get("Authorization", ""),
                }
                try:
                    record["json"] = json.loads(raw) if raw and raw[:1] in b"{[" else None
                except ValueError:
                    record["json"] = None
                with server.lock:
                    server.requests.append(record)
                    queue = server.scripts.get((method, url.path))
                    scripted = queue.pop(0) if queue else None
                if scripted is not None:
                    status, body, headers = ([*list(scripted), None, None])[:3]
                    return self._answer(status, body, headers)
                if url.path == "/authorize" and method == "GET":
                    return self._answer(*server.authorize(record["query"]))
                if url.path == "/token":
                    return self._answer(*server.token(raw, self.headers.get("Authorization", "")))
                bearer = record["auth"].removeprefix("Bearer ")
                if bearer not in server.valid_tokens:
                    return self._answer(401, {"message": "Authorization has been denied for this request."})
                if url.path.startswith("/v1/"):
                    answer = server.visma_net(method, url.path[4:], record)
                elif url.path.startswith("/v2/"):
                    answer = server.eaccounting(method, url.path[4:], record)
                else:
                    answer = (404, {"message": "not found"})
                if (method, url.path) in server.hold_after_write:
                    server.hold_after_write.discard((method, url.path))
                    server.holding.set()
                    server.release.wait(timeout=120)
                    self.close_connection = True
                    return None
                if (method, url.path) in server.drop_connection:
                    server.drop_connection.discard((method, url.path))
                    self.close_connection = True  # written; the socket closes with no status line
                    return None
                if (method, url.path) in server.lose_answer:
                    server.lose_answer.discard((method, url.path))
                    return self._answer(502, b"Bad Gateway")
                return self._answer(*answer)

            def do_GET(self):
                self._handle("GET")

            def do_POST(self):
                self._handle("POST")

            def do_PUT(self):
                self._handle("PUT")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, method: str, path: str, *responses) -> None:
        self.scripts.setdefault((method, path), []).extend(responses)

    def calls(self, method: str, path: str) -> list[dict]:
        return [r for r in self.requests if r["method"] == method and r["path"] == path]

    def expire_tokens(self) -> None:
        self.valid_tokens.clear()

    # -- authorization endpoint ----------------------------------------------------------------------

    def authorize(self, query: dict):
        args = {k: v[0] for k, v in query.items()}
        redirect_uri = args.get("redirect_uri", "")
        if not redirect_uri or args.get("response_type") != "code" or not args.get("client_id"):
            return 400, {"error": "invalid_request"}
        if self.deny_next:
            self.deny_next = False
            params = {"error": "access_denied", "state": args.get("state", "")}
        else:
            code = f"code-{uuid.uuid4().hex}"
            with self.lock:
                self.codes[code] = {
                    "client_id": args["client_id"],
                    "redirect_uri": redirect_uri,
                    "challenge": args.get("code_challenge", ""),
                    "method": args.get("code_challenge_method", ""),
                    "scope": args.get("scope", ""),
                    "used": False,
                }
            params = {"code": code, "state": args.get("state", "")}
        sep = "&" if "?" in redirect_uri else "?"
        return 302, b"", {"Location": redirect_uri + sep + urlencode(params)}

    def authorization_code(self, form: dict, client_id: str):
        request = self.codes.get(form.get("code", ""))
        if request is None or request["used"]:
            return 400, {"error": "invalid_grant", "error_description": "authorization code unknown or used"}
        request["used"] = True
        if request["client_id"] != client_id or request["redirect_uri"] != form.get("redirect_uri"):
            return 400, {"error": "invalid_grant", "error_description": "redirect_uri or client mismatch"}
        if request["challenge"]:
            verifier = form.get("code_verifier", "")
            digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=")
            if request["method"] != "S256" or digest.decode() != request["challenge"]:
                return 400, {"error": "invalid_grant", "error_description": "PKCE verification failed"}
        n = next(self.counter)
        self.refresh_token = f"rt-{n + 1000}"
        token = f"at-{n}"
        self.valid_tokens.add(token)
        return 200, {"access_token": token, "expires_in": 3600, "refresh_token": self.refresh_token}

    # -- token endpoint ------------------------------------------------------------------------------

    def token(self, raw: bytes, authorization: str):
        form = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
        if self.token_delay:
            time.sleep(self.token_delay)
        with self.lock:
            self.token_calls += 1
            grant = form.get("grant_type")
            if grant == "client_credentials":
                if form.get("client_secret") != self.client_secret:
                    return 400, {"error": "invalid_client"}
                if self.company and form.get("tenant_id") != self.company:
                    return 400, {"error": "invalid_request", "error_description": "Invalid tenant_id"}
                token = f"at-{next(self.counter)}"
                self.valid_tokens.add(token)
                return 200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"}
            if grant in ("refresh_token", "authorization_code"):
                user, _, password = (
                    base64.b64decode(authorization.removeprefix("Basic ")).decode().partition(":")
                )
                if password != self.client_secret:
                    return 400, {"error": "invalid_client"}
                if grant == "authorization_code":
                    return self.authorization_code(form, user)
                if form.get("refresh_token") != self.refresh_token:
                    return 400, {
                        "error": "invalid_grant",
                        "error_description": "refresh token already used or unknown",
                    }
                n = next(self.counter)
                self.refresh_token = f"rt-{n + 1000}"
                token = f"at-{n}"
                self.valid_tokens.add(token)
                return 200, {"access_token": token, "expires_in": 3600, "refresh_token": self.refresh_token}
            return 400, {"error": "unsupported_grant_type"}

    # -- Visma.net ERP -------------------------------------------------------------------------------

    def visma_net(self, method: str, path: str, record: dict):
        parts = [unquote(p) for p in path.split("/") if p]
        if not parts or parts[0] not in self.net:
            return 404, {"message": "No HTTP resource was found"}
        store = self.net[parts[0]]
        body = record["json"] or {}
        key_field = {
            "inventory": "inventoryNumber",
            "customerinvoice": "referenceNumber",
            "customerCreditNote": "referenceNumber",
        }.get(parts[0], "number")
        if method == "GET" and len(parts) == 1:
            return 200, [read_shape(item) for item in list(store.values())[:1]]
        if method == "GET":
            item = store.get(parts[1])
            if item is None:
                return 404, {"message": f"{parts[0]} {parts[1]} not found"}
            return 200, read_shape(item)
        if method in ("POST", "PUT") and isinstance(body, dict):
            unknown = schema_errors(parts[0], body)
            if unknown:
                return 400, {"message": f"Error: unknown or unwrapped fields: {', '.join(unknown)}"}
        if method == "POST":
            key = (body.get(key_field) or {}).get("value")
            name_field = "description" if parts[0] == "inventory" else "name"
            if parts[0] in ("customer", "supplier", "inventory") and not (body.get(name_field) or {}).get(
                "value"
            ):
                return 400, {"message": f"Error: '{name_field}' cannot be empty."}
            if not key:
                return 400, {"message": f"Error: '{key_field}' cannot be empty."}
            if key in store:
                return 400, {"message": f"Error: A document with the number {key} already exists."}
            item = dict(body)
            if parts[0] in ("customerinvoice", "customerCreditNote"):
                total = sum(
                    line["quantity"]["value"] * line["unitPriceInCurrency"]["value"]
                    for line in body.get("invoiceLines") or body.get("lines") or []
                )
                item.update(status={"value": "Open"}, amount={"value": total}, balance={"value": total})
            store[key] = item
            return 201, b"", {"Location": f"{self.url}/v1/{parts[0]}/{key}"}
        if method == "PUT" and len(parts) == 2:
            if parts[1] not in store:
                return 404, {"message": "not found"}
            store[parts[1]].update(body)
            return 204, b""
        return 405, {"message": "method not allowed"}

    # -- eAccounting ---------------------------------------------------------------------------------

    def eaccounting(self, method: str, path: str, record: dict):
        parts = [unquote(p) for p in path.split("/") if p]
        if parts == ["companysettings"]:
            return 200, self.company_settings
        if not parts or parts[0] not in self.ea:
            return 404, {"Message": "not found"}
        store = self.ea[parts[0]]
        body = record["json"] or {}
        if method == "GET" and len(parts) == 1:
            rows = list(store.values())
            flt = (record["query"].get("$filter") or [""])[0]
            match = re.fullmatch(r"(\w+) eq '(.*)'", flt)
            if match:
                rows = [r for r in rows if str(r.get(match.group(1))) == match.group(2).replace("''", "'")]
            return 200, {"Meta": {"TotalNumberOfResults": len(rows)}, "Data": rows}
        if method == "GET":
            return (200, store[parts[1]]) if parts[1] in store else (404, {"Message": "not found"})
        if method == "POST":
            if parts[0] != "customerinvoices" and not body.get("Name"):
                return 400, {"ErrorCode": 4000, "DeveloperErrorMessage": "Name is required", "ErrorId": "x"}
            new_id = str(uuid.uuid4())
            item = {**body, "Id": new_id}
            if parts[0] == "customerinvoices":
                total = sum(r["Quantity"] * r["UnitPrice"] for r in body.get("Rows", []))
                item.update(TotalAmount=total, RemainingAmount=total, InvoiceNumber=len(store) + 1)
            store[new_id] = item
            return 201, item
        if method == "PUT" and len(parts) == 2:
            if parts[1] not in store:
                return 404, {"Message": "not found"}
            store[parts[1]].update(body)
            return 200, store[parts[1]]
        return 405, {"Message": "method not allowed"}
