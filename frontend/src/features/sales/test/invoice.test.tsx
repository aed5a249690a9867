import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { created, fail, MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { InvoiceDetail } from '../api/sales';

const INVOICE_URL = '/api/salesorders/invoices/30/';

function line(id: number, quantity: string, net: string) {
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

function makeInvoice(overrides: Partial<InvoiceDetail> = {}): InvoiceDetail {
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
    note: '',
    total_net: '75.00',
    total_vat: '15.75',
    total_gross: '90.75',
    amount_paid: '20.00',
    credited_amount: '0.00',
    payment_status: 'partially_paid',
    owner_visma_id: '',
    customer_accounting_code: '',
    posted_at: '2026-03-10T10:00:00Z',
    created_at: '2026-03-10T09:00:00Z',
    lines: [line(301, '10.000', '25.00'), line(302, '20.000', '50.00')],
    shipments: [],
    vat_breakdown: [{ vat_rate: '21.00', taxable: '75.00', vat: '15.75' }],
    seller_name: 'Trading Co',
    seller_address: 'Kade 1, Amsterdam',
    seller_vat_number: 'NL999',
    buyer_name: 'Bakkerij de Vries BV',
    buyer_address: 'Dorpsstraat 1, Utrecht',
    buyer_vat_number: 'NL001234567B01',
    accounting: null,
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', INVOICE_URL, ok(makeInvoice()));
  server.on('GET', '/api/salesorders/invoices/31/', ok(makeInvoice({ id: 31, kind: 'credit_note', status: 'draft', number: '', credited_invoice: 30 })));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ user: makeUser({ id: 2, username: 'seller' }), tenant: '3' });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

const bodyOf = (method: string, url: string) => {
  const request = server.requests.find((r) => r.method === method && r.url === url);
  return request ? (JSON.parse(String(request.data)) as Record<string, unknown>) : null;
};

describe('a posted invoice', () => {
  it('credits part of it: lowered quantities become credit lines, and the credit note opens', async () => {
    server.on('POST', `${INVOICE_URL}credit-note/`, created(makeInvoice({ id: 31, kind: 'credit_note', status: 'draft', number: '' })));
    const { router } = renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('credit-note'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('credit-net')).toHaveTextContent('€75.00');
    expect(within(dialog).getByRole('button', { name: 'Credit in full' })).toBeInTheDocument();

    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Quantity to credit, line 1' }), { target: { value: '4' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Quantity to credit, line 2' }), { target: { value: '0' } });
    await waitFor(() => expect(within(dialog).getByTestId('credit-net')).toHaveTextContent('€10.00'));
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'Four damaged' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit these quantities' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/invoices/31'));
    expect(bodyOf('POST', `${INVOICE_URL}credit-note/`)).toEqual({
      note: 'Four damaged',
      post: false,
      lines: [{ invoice_line: 301, quantity: '4' }],
    });
  });

  it('credits in full without lines, and shows a refusal inside the dialog', async () => {
    server.on('POST', `${INVOICE_URL}credit-note/`, fail(400, 'More is credited than is left to credit.', 'over_credit'));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('credit-note'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit in full' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('More is credited than is left to credit.');
    expect(bodyOf('POST', `${INVOICE_URL}credit-note/`)).toEqual({ note: '', post: true });
  });

  it('records a payment of the open amount by default', async () => {
    server.on('POST', `${INVOICE_URL}payments/`, ok(makeInvoice({ amount_paid: '90.75', payment_status: 'paid' })));
    renderApp('/sales/invoices/30');
    fireEvent.click(await screen.findByTestId('record-payment'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Still open: €70.75')).toBeInTheDocument();
    expect(within(dialog).getByTestId('payment-amount').querySelector('input') ?? within(dialog).getByTestId('payment-amount')).toHaveValue('70.75');
    fireEvent.click(within(dialog).getByTestId('save-payment'));
    await waitFor(() => expect(bodyOf('POST', `${INVOICE_URL}payments/`)).toEqual({ amount: '70.75' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers neither credit nor payment without the permissions', async () => {
    signIn({ user: makeUser({ id: 2, username: 'viewer', permissions: ['salesorders.view_invoice'] }), tenant: '3' });
    renderApp('/sales/invoices/30');
    expect(await screen.findByTestId('invoice-total-gross')).toHaveTextContent('€90.75');
    for (const id of ['credit-note', 'record-payment', 'post-invoice']) expect(screen.queryByTestId(id)).not.toBeInTheDocument();
  });
});
