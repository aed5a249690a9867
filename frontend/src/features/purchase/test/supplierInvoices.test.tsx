import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { SupplierInvoiceDetail, SupplierInvoiceLineMatch } from '../api/types';
import { page } from './fixtures';

const URL = '/api/purchaseorders/supplier-invoices/';
let server: MockServer;
const buyer = makeUser({
  id: 2,
  username: 'buyer',
  permissions: [
    'purchaseorders.view_supplierinvoice',
    'purchaseorders.add_supplierinvoice',
    'purchaseorders.change_supplierinvoice',
    'purchaseorders.delete_supplierinvoice',
    'purchaseorders.view_purchaseorder',
    'products.see_prices',
  ],
});

function makeLine(overrides: Partial<SupplierInvoiceLineMatch> = {}): SupplierInvoiceLineMatch {
  return {
    id: 1,
    line_id: '1',
    description: 'Carton 600x400',
    seller_item_id: 'CT-6040',
    order_line_reference: '1',
    quantity: '100.000',
    unit_code: 'C62',
    net_price: '1.2500',
    line_net: '125.00',
    vat_category: 'S',
    vat_rate: '21.00',
    order_line: 11,
    order_line_number: 1,
    ordered: '100.000',
    received: '100.000',
    invoiced: '100.000',
    order_price: '1.2500',
    price_difference: '0.0000',
    status: 'matched',
    ...overrides,
  };
}

function makeInvoice(overrides: Partial<SupplierInvoiceDetail> = {}): SupplierInvoiceDetail {
  return {
    id: 5,
    invoice_number: 'SUP-1001',
    kind: 'invoice',
    issue_date: '2026-03-10',
    due_date: '2026-04-09',
    currency: 'EUR',
    total_net: '125.00',
    total_vat: '26.25',
    total_gross: '151.25',
    seller_name: 'Evergreen No.1',
    seller_vat_id: 'CN91310000MA1K',
    order_reference: 'PO-2026-00001',
    supplier: { id: 3, number: 'S-1001', name: 'Evergreen No.1', parent_vendor: { id: 5, name: 'Evergreen', cname: '' } },
    purchase_order: { id: 7, order_number: 'PO-2026-00001', currency: 'EUR', status: 'received' },
    status: 'draft',
    match_status: 'matched',
    syntax: 'ubl',
    original_filename: 'invoice.xml',
    created_at: '2026-03-11T08:00:00Z',
    decision_reason: '',
    decided_at: null,
    decided_by: null,
    created_by: 'buyer',
    price_tolerance: '0.01',
    einvoice_findings: [],
    lines: [makeLine()],
    ...overrides,
  };
}

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('supplier invoices list', () => {
  it('lists the invoices with their match and sends the URL filters', async () => {
    server.on('GET', URL, ok(page([makeInvoice({ match_status: 'quantity_mismatch' })])));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices?match_status=quantity_mismatch&status=draft');
    await screen.findByText('SUP-1001', undefined, { timeout: 20_000 });
    expect(screen.getByTestId('match-quantity_mismatch')).toHaveTextContent('Quantity mismatch');
    expect(screen.getByRole('link', { name: 'PO-2026-00001' })).toHaveAttribute('href', '/purchase/orders/PO-2026-00001');
    // issue and due dates as every page prints days
    expect(screen.getByText('10 Mar 2026')).toBeInTheDocument();
    expect(screen.getByText('9 Apr 2026')).toBeInTheDocument();
    const request = server.requests.find((r) => r.url === URL);
    expect(request?.params).toMatchObject({ match_status: 'quantity_mismatch', status: 'draft' });
  });

  it('uploads a file and shows the refusal in words', async () => {
    server.on('GET', URL, ok(page([])));
    server.on('POST', URL, fail(400, 'The e-invoice has no invoice number (BT-1).', 'einvoice_invalid', { term: 'BT-1' }));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices');
    const button = await screen.findByTestId('supplier-invoices-upload');
    const input = button.closest('.p-upload')?.querySelector('input[type="file"]') ?? document.querySelector('input[type="file"]');
    expect(input).not.toBeNull();
    fireEvent.change(input as HTMLInputElement, { target: { files: [new File(['<x/>'], 'bad.xml', { type: 'application/xml' })] } });
    expect(await screen.findByText('The e-invoice has no invoice number (BT-1).')).toBeInTheDocument();
    const upload = server.requests.find((r) => r.method === 'POST' && r.url === URL);
    expect(upload?.data).toBeInstanceOf(FormData);
  });

  it('hides the upload button without the permission', async () => {
    server.on('GET', URL, ok(page([])));
    signIn({ user: makeUser({ ...buyer, permissions: ['purchaseorders.view_supplierinvoice'] }), tenant: '3' });
    renderApp('/purchase/supplier-invoices');
    await waitFor(() => expect(server.requests.some((r) => r.url === URL)).toBe(true));
    expect(screen.queryByTestId('supplier-invoices-upload')).toBeNull();
  });
});

describe('supplier invoice detail', () => {
  it('shows ordered, received and invoiced per line with its match tag and links the order', async () => {
    const invoice = makeInvoice({
      match_status: 'quantity_mismatch',
      lines: [
        makeLine({ received: '60.000', status: 'quantity_mismatch' }),
        makeLine({ id: 2, line_id: '2', description: 'Freight', seller_item_id: '', order_line: null, order_line_number: null, ordered: null, received: null, invoiced: null, order_price: null, price_difference: null, status: 'unmatched' }),
      ],
    });
    server.on('GET', `${URL}5/`, ok(invoice));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices/5');
    const table = await screen.findByTestId('supplier-invoice-lines');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('60')).toBeInTheDocument();
    expect(within(rows[0]).getByTestId('match-quantity_mismatch')).toHaveTextContent('Quantity mismatch');
    expect(within(rows[1]).getByTestId('match-unmatched')).toHaveTextContent('Unmatched');
    expect(screen.getByTestId('supplier-invoice-order')).toHaveAttribute('href', '/purchase/orders/PO-2026-00001');
    expect(screen.getByText('10 Mar 2026')).toBeInTheDocument();
    expect(screen.getByText('9 Apr 2026')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('2026-03-10');
  });

  it('asks for a reason before approving a mismatched invoice and sends it', async () => {
    server.on('GET', `${URL}5/`, ok(makeInvoice({ match_status: 'price_mismatch', lines: [makeLine({ status: 'price_mismatch' })] })));
    server.on('POST', `${URL}5/approve/`, ok(makeInvoice({ status: 'approved', decision_reason: 'price rise agreed' })));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices/5');
    fireEvent.click(await screen.findByTestId('supplier-invoice-approve'));
    fireEvent.click(await screen.findByTestId('supplier-invoice-decide'));
    expect(await screen.findByText('Give a reason to approve a mismatched invoice.')).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('supplier-invoice-reason'), { target: { value: 'price rise agreed' } });
    fireEvent.click(screen.getByTestId('supplier-invoice-decide'));
    await waitFor(() => {
      const request = server.requests.find((r) => r.method === 'POST' && r.url === `${URL}5/approve/`);
      expect(JSON.parse(String(request?.data))).toEqual({ reason: 'price rise agreed' });
    });
  });

  it('lists the e-invoice findings and shows them when approving, which needs no reason', async () => {
    const findings = [
      { rule: 'UBL-XSD', message: "line 15: Element 'TaxTotal': This element is not expected." },
      { rule: 'BR-07', message: 'An Invoice shall contain the Buyer name (BT-44).' },
    ];
    server.on('GET', `${URL}5/`, ok(makeInvoice({ einvoice_findings: findings })));
    server.on('POST', `${URL}5/approve/`, ok(makeInvoice({ status: 'approved', einvoice_findings: findings })));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices/5');
    const list = await screen.findByTestId('supplier-invoice-findings');
    expect(screen.getByText('E-invoice check: 2 findings')).toBeInTheDocument();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[1]).getByText('BR-07')).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('An Invoice shall contain the Buyer name (BT-44).');
    fireEvent.click(screen.getByTestId('supplier-invoice-approve'));
    const warning = await screen.findByTestId('supplier-invoice-approve-findings');
    expect(warning).toHaveTextContent('The e-invoice has 2 findings. It can be approved; check them first:');
    expect(within(warning).getByText('UBL-XSD')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('supplier-invoice-decide'));
    await waitFor(() => {
      const request = server.requests.find((r) => r.method === 'POST' && r.url === `${URL}5/approve/`);
      expect(JSON.parse(String(request?.data))).toEqual({ reason: '' });
    });
  });

  it('shows no findings section for a file without findings', async () => {
    server.on('GET', `${URL}5/`, ok(makeInvoice()));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices/5');
    await screen.findByTestId('supplier-invoice-lines');
    expect(screen.queryByTestId('supplier-invoice-findings')).toBeNull();
    fireEvent.click(screen.getByTestId('supplier-invoice-approve'));
    await screen.findByTestId('supplier-invoice-decide');
    expect(screen.queryByTestId('supplier-invoice-approve-findings')).toBeNull();
  });

  it('offers no decisions on an approved invoice', async () => {
    server.on('GET', `${URL}5/`, ok(makeInvoice({ status: 'approved' })));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/supplier-invoices/5');
    await screen.findByTestId('supplier-invoice-original');
    expect(screen.queryByTestId('supplier-invoice-approve')).toBeNull();
    expect(screen.queryByTestId('supplier-invoice-delete')).toBeNull();
  });
});
