import { vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { CustomerOption, InvoiceDetail, SalesOrderDetail, SalesOrderLine, VatTreatment, Warehouse } from '../api/sales';

/** The sales tests' records, as the API answers them: a draft order of Bakkerij de Vries BV with one
 * line of 100 cartons at 2.50, its customer, a posted invoice of two lines, the tenant's warehouses. */

export const ORDER_URL = '/api/salesorders/orders/12/';
export const INVOICE_URL = '/api/salesorders/invoices/30/';

export const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

export const customer: CustomerOption = {
  id: 4,
  number: 'C-1001',
  name: 'Bakkerij de Vries BV',
  currency: 'USD',
  payment_terms_days: 14,
  billing_street: 'Kantoorweg 1',
  billing_post_code: '1000 AA',
  billing_city: 'Amsterdam',
  billing_country: 'NL',
  delivery_street: 'Havenweg 9',
  delivery_post_code: '3011 AA',
  delivery_city: 'Rotterdam',
  delivery_country: 'NL',
};

export const product = { id: 9, article_number: 'CT-6040', name: 'Carton 60x40', name_zh: '纸箱 60x40', sales_price: '2.5000' };

export function makeOrderLine(overrides: Partial<SalesOrderLine> = {}): SalesOrderLine {
  return {
    id: 120,
    line_number: 1,
    product: 9,
    product_number: 'CT-6040',
    product_name: 'Carton 60x40',
    product_name_zh: '纸箱 60x40',
    description: 'Carton 60x40',
    quantity: '100.000',
    unit_price: '2.5000',
    discount_percent: '0.00',
    vat_rate: '21.00',
    amount_net: '250.00',
    amount_vat: '52.50',
    requested_date: '2026-03-20',
    confirmed_date: '2026-03-22',
    quantity_reserved: '0.000',
    quantity_shipped: '0.000',
    quantity_invoiced: '0.000',
    open_quantity: '100.000',
    ...overrides,
  } as SalesOrderLine;
}

export function makeOrder(overrides: Partial<SalesOrderDetail> = {}): SalesOrderDetail {
  return {
    id: 12,
    order_number: 'SO-2026-00012',
    customer: 4,
    customer_detail: { id: 4, number: 'C-1001', name: 'Bakkerij de Vries BV', vat_id: 'NL001234567B01' },
    ship_to_name: 'Bakkerij de Vries BV',
    ship_to_street: 'Havenweg 9',
    ship_to_post_code: '3011 AA',
    ship_to_city: 'Rotterdam',
    ship_to_country: 'NL',
    order_date: '2026-03-01',
    customer_reference: 'PO-77',
    currency: 'EUR',
    payment_terms_days: 30,
    language: 'en',
    warehouse: null,
    warehouse_code: '',
    owner: 2,
    owner_name: 'Sam Seller',
    description: 'Spring run',
    status: 'draft',
    total_net: '250.00',
    total_vat: '52.50',
    total_gross: '302.50',
    lines_count: 1,
    ordered_qty: '100.000',
    shipped_qty: '0.000',
    invoiced_qty: '0.000',
    allowed_actions: ['confirm', 'cancel'],
    confirmed_at: null,
    created_at: '2026-03-01T08:00:00Z',
    updated_at: '2026-03-01T08:00:00.123456Z',
    lines: [makeOrderLine()],
    status_explanation: { ordered: '100.000', reserved: '0.000', shipped: '0.000', invoiced: '0.000' },
    ...overrides,
  } as SalesOrderDetail;
}

/** An invoice line `id` of `quantity` cartons at 2.50 with `net` (21 % VAT). */
export function makeInvoiceLine(id: number, quantity: string, net: string): InvoiceDetail['lines'][number] {
  return {
    id,
    order_line: id + 100,
    line_number: id - 300,
    shipment_line: id + 200,
    credited_line: null,
    product: 9,
    product_number: `CT-${id}`,
    product_name: `Carton ${id}`,
    description: '',
    quantity,
    unit_price: '2.5000',
    discount_percent: '0.00',
    vat_rate: '21.00',
    amount_net: net,
    amount_vat: (Number(net) * 0.21).toFixed(2),
  };
}

/** Invoice 30, posted and partly paid (20.00 of 90.75). */
export function makeInvoice(overrides: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return {
    id: 30,
    kind: 'invoice',
    status: 'posted',
    number: 'INV-2026-00007',
    series: 'INV',
    year: 2026,
    sales_order: 12,
    order_number: 'SO-2026-00012',
    customer: 4,
    customer_name: 'Bakkerij de Vries BV',
    credited_invoice: null,
    credited_invoice_number: '',
    issue_date: '2026-03-10',
    supply_date: '2026-03-09',
    due_date: '2026-04-09',
    currency: 'EUR',
    language: 'en',
    payment_terms_days: 30,
    reverse_charge: false,
    vat_case: 'domestic',
    vat_category: 'S',
    vat_exemption_code: '',
    vat_mention: '',
    note: '',
    total_net: '75.00',
    total_vat: '15.75',
    total_gross: '90.75',
    amount_paid: '20.00',
    credited_amount: '0.00',
    amount_due: '70.75',
    payment_reference: 'RF65INV202600005',
    credit_notes: [],
    payments: [
      {
        id: 41,
        amount: '20.00',
        received_on: '2026-03-15',
        reference: 'Bank 114/3',
        source: 'manual',
        created_by_name: 'Sam Seller',
        created_at: '2026-03-15T10:00:00Z',
      },
    ],
    payment_status: 'partially_paid',
    owner_visma_id: '',
    customer_accounting_code: '',
    posted_at: '2026-03-10T10:00:00Z',
    created_at: '2026-03-10T09:00:00Z',
    updated_at: '2026-03-10T10:00:00.000001Z',
    lines: [makeInvoiceLine(301, '10.000', '25.00'), makeInvoiceLine(302, '20.000', '50.00')],
    shipments: [],
    vat_breakdown: [{ vat_rate: '21.00', taxable: '75.00', vat: '15.75' }],
    seller_name: 'Trading Co',
    seller_address: 'Kade 1, Amsterdam',
    seller_vat_number: 'NL999',
    seller_registration_number: 'KvK 24123456',
    seller_iban: 'NL91ABNA0417164300',
    seller_bic: 'ABNANL2A',
    buyer_name: 'Bakkerij de Vries BV',
    buyer_address: 'Dorpsstraat 1, Utrecht',
    buyer_vat_number: 'NL001234567B01',
    accounting: null,
    ...overrides,
  };
}

/** The same invoice as a draft: no number, dates or payments yet. */
export const makeDraftInvoice = (overrides: Partial<InvoiceDetail> = {}) =>
  makeInvoice({
    status: 'draft',
    number: '',
    issue_date: null,
    supply_date: null,
    due_date: null,
    amount_paid: '0.00',
    payments: [],
    payment_status: 'draft',
    posted_at: null,
    updated_at: '2026-03-10T09:00:00.000001Z',
    ...overrides,
  });

export const warehouses: Warehouse[] = [
  { id: 1, code: 'MAIN', name: 'Main warehouse', address: '', is_default: true, is_active: true, locations: [] },
  { id: 2, code: 'SH', name: 'Shanghai hub', address: '', is_default: false, is_active: true, locations: [] },
];

/**
 * A mock API with what every sales page asks around its document (the tenant, the order page's
 * comments, shipments and invoices, empty), a seller with every permission signed in to tenant 3;
 * the test adds its own answers. `stopSalesServer` in afterEach.
 */
export function vatTreatment(overrides: Partial<VatTreatment> = {}): VatTreatment {
  return {
    case: 'domestic',
    category: 'S',
    rate: '21.00',
    reverse_charge: false,
    exemption_code: '',
    mention: '',
    customer_vat_number_valid: true,
    rates_as_of: '2026-01-01',
    ...overrides,
  };
}

export function startSalesServer(): MockServer {
  const server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/common/content-types/', ok([{ id: 31, app_label: 'salesorders', model: 'salesorder' }]));
  server.on('GET', '/api/common/comments/', ok(page([])));
  server.on('GET', '/api/salesorders/shipments/', ok(page([])));
  server.on('GET', '/api/salesorders/invoices/', ok(page([])));
  server.on('GET', '/api/salesorders/orders/vat-treatment/', ok(vatTreatment()));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ user: makeUser({ id: 2, username: 'seller' }), tenant: '3' });
  return server;
}

export function stopSalesServer(server: MockServer): void {
  server.restore();
  reloadSession();
}

/** The JSON body of the first `method` request to `url`, or null if none was made. */
export function bodyOf(server: MockServer, method: string, url: string): Record<string, unknown> | null {
  const request = server.requests.find((r) => r.method === method && r.url === url);
  return request ? (JSON.parse(String(request.data)) as Record<string, unknown>) : null;
}
