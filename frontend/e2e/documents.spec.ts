import { readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { call, confirmOrder, token, type Page_ } from './goods';
import { inputOf, pickOption, signIn } from './helpers';
import { manage } from './serverShell';

/**
 * The business documents end to end, as an internal user of the trading company (tenant 3, in the
 * Netherlands):
 * - sales: a quotation to a business customer in Germany (a valid VAT number: an intra-Community
 *   supply) is sent, accepted into an order, confirmed, picked, shipped and invoiced; the posted invoice
 *   is zero-rated under reverse charge (category K, the Article 138 mention), its two e-invoices
 *   (UBL, Factur-X) are downloaded and checked by the backend's validator and read here; a partial
 *   credit note and a payment follow, and the invoice shows what was paid, credited and is still due;
 * - purchasing: a draft purchase order is confirmed, sent to the supplier by e-mail (the message with
 *   the order's PDF in the e-mail log), received in two parts, and the supplier's UBL e-invoice for it
 *   is uploaded, read into a draft matched three ways to the order, and approved.
 */

interface Product {
  id: number;
  article_number: string;
  name: string;
}

/** Something unique to this run, so that a rerun against the same server makes new records. */
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.toUpperCase();
const today = () => new Date().toISOString().slice(0, 10);

async function inTradingCompany(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('tenant_id', '3'));
  await signIn(page, 'admin');
}

async function fillNumber(page: Page, testId: string, value: string): Promise<void> {
  await (await inputOf(page, testId)).fill(value);
}

/** Confirms the open Popconfirm. */
async function confirmPopover(page: Page): Promise<void> {
  await page.locator('.p-popover:visible').getByRole('button', { name: /^OK$/ }).click();
}

/** A product of this run with `quantity` in the default warehouse's stock (received from a purchase
 * order made for it): no reservation, carton label or other test takes from it. */
async function productInStock(request: APIRequestContext, quantity: number): Promise<Product> {
  const admin = await token(request, 'admin');
  const id = stamp();
  const product = await call<Product>(request, admin, 'POST', '/api/products/', {
    article_number: `DOC-${id}`,
    name: `Document journey box ${id}`,
    unit: 'pcs',
  });
  const suppliers = await call<Page_<{ id: number; number: string }>>(request, admin, 'GET', '/api/suppliers/?search=S-1002');
  const supplier = suppliers.results.find((s) => s.number === 'S-1002')?.id;
  expect(supplier).toBeTruthy();
  const order = await call<{ id: number }>(request, admin, 'POST', '/api/purchaseorders/orders/', {
    supplier,
    currency: 'EUR',
    order_date: today(),
    description: `Stock for ${product.article_number}`,
    lines: [{ product: product.id, order_qty: String(quantity), unit_cost: '1.00' }],
  });
  await confirmOrder(request, admin, order.id);
  const detail = await call<{ lines: { id: number }[] }>(request, admin, 'GET', `/api/purchaseorders/orders/${String(order.id)}/`);
  await call(request, admin, 'POST', '/api/purchaseorders/receipts/', {
    purchase_order: order.id,
    receipt_date: today(),
    lines: [{ order_line: detail.lines[0]?.id, quantity: String(quantity) }],
  });
  return product;
}

/** A business customer in Germany with a VAT number that passes its check digits. */
async function germanBusinessCustomer(request: APIRequestContext): Promise<{ id: number; number: string; name: string }> {
  const admin = await token(request, 'admin');
  const id = stamp();
  return call(request, admin, 'POST', '/api/customers/', {
    number: `C-DE-${id}`,
    name: `Lagerhaus Nord GmbH ${id}`,
    email: 'rechnung@lagerhaus-nord.example',
    currency: 'EUR',
    payment_terms_days: 30,
    vat_id: 'DE136695976',
    billing_street: 'Am Sandtorkai 50',
    billing_post_code: '20457',
    billing_city: 'Hamburg',
    billing_country: 'DE',
  });
}

/** The backend's e-invoice validator (XSD and EN 16931 rules) on a file: passes when it exits 0. */
function expectValidEInvoice(file: string): void {
  const run = manage(['check_einvoice', file]);
  expect(run.status, `check_einvoice ${file}:\n${run.stdout}\n${run.stderr}`).toBe(0);
}

/** The text of the first element `tag` inside `xml` (namespace prefixes as the file writes them). */
function elementText(xml: string, tag: string): string | undefined {
  return new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml)?.[1];
}

/** A PDF literal string's text: its octal and character escapes undone. */
function pdfString(literal: string): string {
  return literal.replace(/\\([0-7]{1,3}|.)/g, (_, escaped: string) => (/^[0-7]+$/.test(escaped) ? String.fromCharCode(parseInt(escaped, 8)) : escaped));
}

/** The files a PDF embeds: each file specification's name (/UF, else /F) with its embedded stream's
 * content (inflated when it is FlateDecode). */
function embeddedFiles(pdf: Buffer): Map<string, string> {
  const text = pdf.toString('latin1'); // one character per byte: offsets in the text are offsets in the file
  const objects = new Map<string, { dict: string; stream?: Buffer }>();
  for (const match of text.matchAll(/(\d+) 0 obj\b/g)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endobj', start);
    const streamAt = text.indexOf('stream', start);
    if (streamAt < 0 || streamAt > end) {
      objects.set(match[1] ?? '', { dict: text.slice(start, end) });
      continue;
    }
    const dict = text.slice(start, streamAt);
    const from = streamAt + (text.startsWith('stream\r\n', streamAt) ? 8 : 7);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? 0);
    objects.set(match[1] ?? '', { dict, stream: pdf.subarray(from, from + length) });
  }
  const files = new Map<string, string>();
  for (const { dict } of objects.values()) {
    if (!dict.includes('/Type /Filespec')) continue;
    const name = pdfString(/\/UF \(((?:\\.|[^\\)])*)\)/.exec(dict)?.[1] ?? /\/F \(((?:\\.|[^\\)])*)\)/.exec(dict)?.[1] ?? '');
    const target = /\/EF\s*<<[^>]*\/F (\d+) 0 R/.exec(dict)?.[1] ?? '';
    const file = objects.get(target);
    if (!file?.stream) continue;
    const content = file.dict.includes('/FlateDecode') ? inflateSync(file.stream) : file.stream;
    files.set(name, content.toString('utf8'));
  }
  return files;
}

test('a quotation to an EU business customer becomes a reverse-charge invoice, its e-invoices, a credit note and a payment', async ({ page, request }, testInfo) => {
  test.setTimeout(300_000);
  const admin = await token(request, 'admin');
  // the product is unlabelled, but another journey may have left the company shipping labelled goods
  // only as picked cartons: this one ships stock
  await call(request, admin, 'PATCH', '/api/tenants/current/', { allow_unlabelled_shipping: true });
  const product = await productInStock(request, 20);
  const customer = await germanBusinessCustomer(request);
  await inTradingCompany(page);

  // The quotation: the customer's VAT treatment proposes 0 % (an intra-Community supply).
  await page.goto('/sales/quotations/create');
  await pickOption(page, page.getByTestId('quotation-customer'), customer.number, new RegExp(customer.number), 30_000);
  await pickOption(page, page.getByTestId('quotation-line-product-0'), product.article_number, new RegExp(product.article_number), 30_000);
  await fillNumber(page, 'quotation-line-quantity-0', '10');
  await fillNumber(page, 'quotation-line-unit_price-0', '2.5');
  await expect(await inputOf(page, 'quotation-line-vat_rate-0')).toHaveValue(/^0(\.0+)?$/);
  await expect(page.getByTestId('quotation-total-vat')).toContainText('0.00');
  await expect(page.getByTestId('quotation-total-gross')).toContainText('25.00');
  await page.getByTestId('save-quotation').click();
  await page.waitForURL(/\/sales\/quotations\/\d+$/);
  await expect(page.getByTestId('quotation-status')).toHaveText('Draft');

  await page.getByTestId('send-quotation').click();
  await expect(page.getByTestId('quotation-status')).toHaveText('Sent');
  await page.getByTestId('accept-quotation').click();
  await confirmPopover(page);

  // The order made from it: a draft with the quotation's line, confirmed here.
  await page.waitForURL(/\/sales\/orders\/\d+$/);
  await expect(page.getByTestId('order-quotation')).toHaveText(/^Q-\d{4}-\d{5}$/);
  await expect(page.getByTestId('sales-order-status')).toHaveText('Draft');
  await expect(page.getByTestId('order-total-gross')).toContainText('25.00');
  await page.getByTestId('confirm-order').click();
  await expect(page.getByTestId('sales-order-status')).toHaveText('Confirmed');
  await expect(page.getByTestId('status-why')).toContainText('reserved 10');

  // Shipped in full: a shipment, picked, shipped.
  await page.getByTestId('new-shipment').click();
  await fillNumber(page, 'ship-qty-1', '10');
  await page.getByTestId('create-shipment').click();
  await page.getByRole('tab', { name: 'Shipments' }).click();
  await expect(page.getByTestId('shipment-number')).toBeVisible();
  await expect(page.getByTestId('shipment-status')).toHaveText('Draft');
  await page.getByTestId('shipment-actions').getByRole('button', { name: 'Mark picked' }).click();
  await expect(page.getByTestId('shipment-status')).toHaveText('Picked');
  await page.getByTestId('ship-shipment').click();
  await confirmPopover(page);
  await expect(page.getByTestId('shipment-status')).toHaveText('Shipped');
  await expect(page.getByTestId('sales-order-status')).toHaveText('Shipped');

  // The invoice: zero-rated under reverse charge, with the legal mention; posted.
  await page.getByTestId('invoice-shipment').click();
  await page.waitForURL(/\/sales\/invoices\/\d+$/);
  const invoiceUrl = page.url();
  await expect(page.getByRole('switch', { name: 'Reverse charge' })).toBeChecked();
  await expect(page.getByTestId('invoice-total-gross')).toContainText('25.00');
  await page.getByTestId('post-invoice').click();
  await confirmPopover(page);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toContainText(/INV-\d{4}-\d{5}/);
  const invoiceNumber = /INV-\d{4}-\d{5}/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
  await expect(page.getByTestId('payment-status')).toHaveText('Open');
  await expect(page.getByTestId('invoice-vat-mention')).toContainText('Article 138 of Directive 2006/112/EC');
  await expect(page.getByRole('row', { name: new RegExp(product.article_number) }).getByRole('cell').nth(4)).toHaveText(/^0(\.0+)?$/);

  // Its e-invoices, downloaded from the page, checked by the backend's validator and read here.
  const ublDownload = page.waitForEvent('download');
  await page.getByTestId('invoice-ubl').click();
  const ubl = await ublDownload;
  expect(ubl.suggestedFilename()).toBe(`${invoiceNumber}.xml`);
  const ublPath = testInfo.outputPath(ubl.suggestedFilename());
  await ubl.saveAs(ublPath);
  const facturxDownload = page.waitForEvent('download');
  await page.getByTestId('invoice-facturx').click();
  const facturx = await facturxDownload;
  expect(facturx.suggestedFilename()).toBe(`${invoiceNumber}-factur-x.pdf`);
  const facturxPath = testInfo.outputPath(facturx.suggestedFilename());
  await facturx.saveAs(facturxPath);

  expectValidEInvoice(ublPath);
  expectValidEInvoice(facturxPath);
  const xml = readFileSync(ublPath, 'utf8');
  expect(elementText(xml, 'cbc:ID')).toBe(invoiceNumber);
  const subtotal = /<cac:TaxSubtotal>([\s\S]*?)<\/cac:TaxSubtotal>/.exec(xml)?.[1] ?? '';
  const category = /<cac:TaxCategory>([\s\S]*?)<\/cac:TaxCategory>/.exec(subtotal)?.[1] ?? '';
  expect(elementText(category, 'cbc:ID')).toBe('K');
  expect(Number(elementText(category, 'cbc:Percent'))).toBe(0);
  expect(elementText(category, 'cbc:TaxExemptionReasonCode')).toBe('VATEX-EU-IC');
  expect(elementText(category, 'cbc:TaxExemptionReason')).toMatch(/Article 138/);
  expect(Number(elementText(subtotal, 'cbc:TaxAmount'))).toBe(0);
  expect(Number(elementText(subtotal, 'cbc:TaxableAmount'))).toBe(25);
  expect(xml).toContain('DE136695976');
  const pdf = readFileSync(facturxPath);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const embedded = embeddedFiles(pdf);
  expect([...embedded.keys()]).toEqual(['factur-x.xml']);
  const cii = embedded.get('factur-x.xml') ?? '';
  expect(cii).toContain('<rsm:CrossIndustryInvoice');
  expect(/<rsm:ExchangedDocument>\s*<ram:ID>([^<]*)</.exec(cii)?.[1]).toBe(invoiceNumber);
  // the document's VAT breakdown (the one with the basis amount; the lines carry their own category)
  const tax = [...cii.matchAll(/<ram:ApplicableTradeTax>([\s\S]*?)<\/ram:ApplicableTradeTax>/g)].map((m) => m[1] ?? '').find((t) => t.includes('BasisAmount')) ?? '';
  expect(elementText(tax, 'ram:CategoryCode')).toBe('K');
  expect(Number(elementText(tax, 'ram:RateApplicablePercent'))).toBe(0);
  expect(Number(elementText(tax, 'ram:CalculatedAmount'))).toBe(0);
  expect(elementText(tax, 'ram:ExemptionReasonCode')).toBe('VATEX-EU-IC');
  expect(elementText(tax, 'ram:ExemptionReason')).toMatch(/Article 138/);

  // A partial credit note (4 of the 10), posted on its own page, which links back to the invoice.
  await page.getByTestId('credit-note').click();
  const dialog = page.getByRole('dialog');
  await fillNumber(page, 'credit-qty-0', '4');
  await expect(dialog.getByTestId('credit-net')).toContainText('10.00');
  await page.getByTestId('create-credit-note').click();
  await page.waitForURL((url) => /\/sales\/invoices\/\d+$/.test(url.pathname) && url.href !== invoiceUrl);
  await expect(heading).toContainText('Credit note');
  await expect(page.getByTestId('invoice-total-gross')).toContainText('10.00');
  await page.getByTestId('post-invoice').click();
  await confirmPopover(page);
  await expect(heading).toContainText(/CN-\d{4}-\d{5}/);
  const creditNumber = /CN-\d{4}-\d{5}/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
  await page.getByRole('button', { name: invoiceNumber }).click();
  await page.waitForURL(invoiceUrl);

  // A payment of part of what is left: the invoice shows paid, credited and due, and its status.
  await expect(page.getByTestId('invoice-credited')).toContainText('10.00');
  await expect(page.getByTestId('invoice-amount-due')).toContainText('15.00');
  await page.getByTestId('record-payment').click();
  const amount = await inputOf(page, 'payment-amount');
  await expect(amount).toHaveValue('15.00');
  await amount.fill('10');
  await page.getByTestId('payment-reference').fill('Bank statement 2026-48 line 7');
  await page.getByTestId('save-payment').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('payment-status')).toHaveText('Partially paid');
  // the payment is a record of its own: a row with its day, amount and reference
  const payments = page.getByTestId('invoice-payments').locator('tbody tr[id^="payment-"]');
  await expect(payments).toHaveCount(1);
  await expect(payments.first()).toContainText('10.00');
  await expect(payments.first()).toContainText('Bank statement 2026-48 line 7');
  await expect(page.getByTestId('invoice-amount-paid')).toContainText('10.00');
  await expect(page.getByTestId('invoice-credited')).toContainText('10.00');
  await expect(page.getByTestId('invoice-amount-due')).toContainText('5.00');
  const answer = await call<{ amount_paid: string; credited_amount: string; amount_due: string; payment_status: string; payments: { amount: string; reference: string }[] }>(
    request,
    admin,
    'GET',
    `/api/salesorders/invoices/${invoiceUrl.split('/').pop() ?? ''}/`,
  );
  expect([answer.amount_paid, answer.credited_amount, answer.amount_due, answer.payment_status]).toEqual(['10.00', '10.00', '5.00', 'partially_paid']);
  expect(answer.payments.map((p) => [p.amount, p.reference])).toEqual([['10.00', 'Bank statement 2026-48 line 7']]);
  const creditLink = page.getByTestId('invoice-credit-notes').getByRole('button', { name: new RegExp(creditNumber) });
  await expect(creditLink).toContainText('10.00');
  await creditLink.click();
  await expect(heading).toContainText(creditNumber);
});

interface OrderLine {
  id: number;
  line_number: number;
  product_number: string;
  line_description: string;
  order_qty: string;
  unit_cost: string;
}
interface PurchaseOrder {
  id: number;
  order_number: string;
  currency: string;
  supplier: number;
  supplier_name?: string;
  lines: OrderLine[];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const cents = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/** The supplier's UBL 2.1 e-invoice (Peppol BIS Billing 3.0) of everything on `order`, at its prices,
 * with the order's number as the order reference and each line's number as the order line reference. */
interface Company {
  legal_name: string;
  name: string;
  vat_number: string;
  address: string;
  country: string;
}

function supplierUbl(order: PurchaseOrder, seller: { name: string; email: string }, buyer: Company, number: string): string {
  const currency = order.currency;
  const nets = order.lines.map((line) => Number(line.order_qty) * Number(line.unit_cost));
  const total = cents(nets.reduce((sum, net) => sum + net, 0));
  const lines = order.lines
    .map(
      (line, index) => `  <cac:InvoiceLine>
    <cbc:ID>${String(line.line_number)}</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">${line.order_qty}</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="${currency}">${cents(nets[index] ?? 0)}</cbc:LineExtensionAmount>
    <cac:OrderLineReference><cbc:LineID>${String(line.line_number)}</cbc:LineID></cac:OrderLineReference>
    <cac:Item>
      <cbc:Name>${escapeXml(line.line_description)}</cbc:Name>
      <cac:SellersItemIdentification><cbc:ID>${escapeXml(line.product_number)}</cbc:ID></cac:SellersItemIdentification>
      <cac:ClassifiedTaxCategory><cbc:ID>G</cbc:ID><cbc:Percent>0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="${currency}">${line.unit_cost}</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>${escapeXml(number)}</cbc:ID>
  <cbc:IssueDate>${today()}</cbc:IssueDate>
  <cbc:DueDate>${today()}</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>${currency}</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>${escapeXml(order.order_number)}</cbc:BuyerReference>
  <cac:OrderReference><cbc:ID>${escapeXml(order.order_number)}</cbc:ID></cac:OrderReference>
  <cac:AccountingSupplierParty><cac:Party>
    <cbc:EndpointID schemeID="EM">${escapeXml(seller.email)}</cbc:EndpointID>
    <cac:PartyName><cbc:Name>${escapeXml(seller.name)}</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:CityName>Shanghai</cbc:CityName><cac:Country><cbc:IdentificationCode>CN</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>CN91310106MA1FL2XQ3K</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>${escapeXml(seller.name)}</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cbc:EndpointID schemeID="9944">${escapeXml(buyer.vat_number)}</cbc:EndpointID>
    <cac:PostalAddress><cbc:StreetName>${escapeXml(buyer.address)}</cbc:StreetName><cac:Country><cbc:IdentificationCode>${escapeXml(buyer.country)}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>${escapeXml(buyer.vat_number)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>${escapeXml(buyer.legal_name || buyer.name)}</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="${currency}">0.00</cbc:TaxAmount>
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="${currency}">${total}</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="${currency}">0.00</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>G</cbc:ID><cbc:Percent>0</cbc:Percent><cbc:TaxExemptionReasonCode>VATEX-EU-G</cbc:TaxExemptionReasonCode><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
    </cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${currency}">${total}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="${currency}">${total}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${currency}">${total}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="${currency}">${total}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
${lines}
</Invoice>
`;
}

test('a purchase order is confirmed, e-mailed with its PDF, received in two parts, and its supplier e-invoice matched and approved', async ({ page, request }, testInfo) => {
  test.setTimeout(300_000);
  const admin = await token(request, 'admin');
  const suppliers = await call<Page_<{ id: number; number: string; name: string; email: string }>>(request, admin, 'GET', '/api/suppliers/?search=S-1001');
  const supplier = suppliers.results.find((s) => s.number === 'S-1001');
  expect(supplier).toBeDefined();
  const products = await call<Page_<Product>>(request, admin, 'GET', '/api/products/?search=CT-SW-40&is_active=true');
  const product = products.results.find((p) => p.article_number === 'CT-SW-4030');
  expect(product).toBeDefined();
  const id = stamp();
  const draft = await call<PurchaseOrder>(request, admin, 'POST', '/api/purchaseorders/orders/', {
    supplier: supplier?.id,
    currency: 'USD',
    order_date: today(),
    description: `Shipping cartons ${id}`,
    lines: [{ product: product?.id, order_qty: '300', unit_cost: '1.25' }],
  });
  await inTradingCompany(page);

  // Draft -> confirmed -> sent by e-mail.
  await page.goto(`/purchase/orders/${encodeURIComponent(draft.order_number)}`);
  await expect(page.getByTestId('order-status')).toHaveText('Draft');
  await page.getByTestId('order-confirm').click();
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed');
  await page.getByTestId('order-send').click();
  await expect(page.getByTestId('order-status')).toHaveText('Sent');

  // The message in the e-mail log, sent, with the order's PDF.
  await page.goto('/core/email-scenarios');
  await page.getByRole('tab', { name: 'Log' }).click();
  const row = page.getByRole('row', { name: new RegExp(`Purchase order ${draft.order_number} from`) }).first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('Sent', { exact: true })).toBeVisible();
  await row.click();
  const message = page.getByTestId('message-detail');
  await expect(message).toContainText(`${draft.order_number}.pdf`);

  // Received in two parts: partly received, then received.
  await page.goto(`/purchase/orders/${encodeURIComponent(draft.order_number)}`);
  for (const [quantity, status] of [
    ['120', 'Partly received'],
    ['180', 'Received'],
  ] as const) {
    await page.getByTestId('receive-goods').click();
    await fillNumber(page, 'receive-qty-1', quantity);
    await page.getByTestId('receive-submit').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('order-status')).toHaveText(status);
  }

  // The supplier's e-invoice for the order, made from the order as the API answers it.
  const order = await call<PurchaseOrder>(request, admin, 'GET', `/api/purchaseorders/orders/${String(draft.id)}/`);
  const invoiceNumber = `ECF-${id}`;
  const company = await call<Company>(request, admin, 'GET', '/api/tenants/current/');
  const ubl = supplierUbl(order, { name: supplier?.name ?? '', email: supplier?.email || 'invoices@supplier.example' }, company, invoiceNumber);
  // a file the validator finds nothing in: the test's own e-invoice keeps the rules it is read by
  const ublPath = testInfo.outputPath(`${invoiceNumber}.xml`);
  writeFileSync(ublPath, ubl, 'utf8');
  expectValidEInvoice(ublPath);
  await page.goto('/purchase/supplier-invoices');
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('supplier-invoices-upload').click();
  await (await chooser).setFiles({ name: `${invoiceNumber}.xml`, mimeType: 'application/xml', buffer: Buffer.from(ubl, 'utf8') });

  // Read into a draft matched to the order, three ways, and approved.
  await page.waitForURL(/\/purchase\/supplier-invoices\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(invoiceNumber);
  await expect(page.getByTestId('supplier-invoice-order')).toHaveText(order.order_number);
  const lines = page.getByTestId('supplier-invoice-lines');
  await expect(lines.getByTestId('match-matched')).toHaveCount(order.lines.length);
  await expect(lines.getByRole('row', { name: /CT-SW-4030/ })).toContainText('300');
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await page.getByTestId('supplier-invoice-approve').click();
  await page.getByTestId('supplier-invoice-decide').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Approved', { exact: true })).toBeVisible();
  await expect(page.getByTestId('supplier-invoice-approve')).toHaveCount(0);
  const stored = await call<Page_<{ invoice_number: string; status: string; match_status: string }>>(
    request,
    admin,
    'GET',
    `/api/purchaseorders/supplier-invoices/?search=${encodeURIComponent(invoiceNumber)}`,
  );
  expect(stored.results.map((r) => [r.invoice_number, r.status, r.match_status])).toEqual([[invoiceNumber, 'approved', 'matched']]);
});
