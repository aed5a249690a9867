import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import type { QuotationDetail } from '../api/sales';
import { makeOrder, page, startSalesServer, stopSalesServer } from './fixtures';

const QUOTATIONS = '/api/salesorders/quotations/';
const QUOTATION_URL = '/api/salesorders/quotations/5/';

function makeQuotation(overrides: Partial<QuotationDetail> = {}): QuotationDetail {
  return {
    id: 5,
    quotation_number: 'Q-2026-00005',
    customer: 4,
    customer_detail: { id: 4, number: 'C-1001', name: 'Bakkerij de Vries BV', vat_id: 'NL001234567B01' },
    quotation_date: '2026-03-01',
    valid_until: '2026-03-31',
    customer_reference: 'RFQ-77',
    currency: 'EUR',
    payment_terms_days: 30,
    language: 'en',
    terms: 'Ex works',
    owner: 2,
    owner_name: 'Sam Seller',
    status: 'sent',
    total_net: '250.00',
    total_vat: '52.50',
    total_gross: '302.50',
    lines_count: 1,
    sales_order: null,
    sales_order_number: null,
    allowed_actions: ['edit', 'accept', 'decline', 'cancel'],
    sent_at: '2026-03-01T09:00:00Z',
    accepted_at: null,
    declined_at: null,
    cancelled_at: null,
    created_at: '2026-03-01T08:00:00Z',
    updated_at: '2026-03-01T09:00:00Z',
    lines: [
      {
        id: 50,
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
      },
    ],
    ...overrides,
  };
}

let server: MockServer;

beforeEach(() => {
  server = startSalesServer();
});

afterEach(() => stopSalesServer(server));

describe('the quotation list', () => {
  it('lists the quotations with their status and opens one', async () => {
    server.on('GET', QUOTATIONS, ok(page([makeQuotation(), makeQuotation({ id: 6, quotation_number: 'Q-2026-00006', status: 'expired' })])));
    server.on('GET', QUOTATION_URL, ok(makeQuotation()));
    const { router } = renderApp('/sales/quotations');
    expect(await screen.findByText('Q-2026-00005')).toBeInTheDocument();
    expect(screen.getByText('Q-2026-00006')).toBeInTheDocument();
    expect(screen.getAllByTestId('quotation-status').map((tag) => tag.textContent)).toEqual(
      expect.arrayContaining(['Sent', 'Expired']),
    );
    fireEvent.click(screen.getByText('Q-2026-00005'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/quotations/5'));
    expect(await screen.findByTestId('quotation-total-gross')).toHaveTextContent('€302.50');
  });

  it('shows the status filter and sends it to the server', async () => {
    server.on('GET', QUOTATIONS, ok(page([])));
    renderApp('/sales/quotations?status=expired');
    await waitFor(() =>
      expect(server.requests.some((r) => r.url === QUOTATIONS && r.params?.status === 'expired')).toBe(true),
    );
  });
});

describe('accepting a quotation', () => {
  it('makes the sales order and opens it', async () => {
    server.on('GET', QUOTATION_URL, ok(makeQuotation()));
    server.on('POST', `${QUOTATION_URL}accept/`, ok({ sales_order: 12, order_number: 'SO-2026-00012', quotation: makeQuotation({ status: 'accepted' }) }));
    server.on('GET', '/api/salesorders/orders/12/', ok(makeOrder({ quotation: 5, quotation_number: 'Q-2026-00005' })));
    const { router } = renderApp('/sales/quotations/5');
    fireEvent.click(await screen.findByTestId('accept-quotation'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
    expect(server.count('POST', `${QUOTATION_URL}accept/`)).toBe(1);
    expect(await screen.findByTestId('order-quotation')).toHaveTextContent('Q-2026-00005');
  });

  it('shows the server refusal of a second accept', async () => {
    server.on('GET', QUOTATION_URL, ok(makeQuotation()));
    server.on(
      'POST',
      `${QUOTATION_URL}accept/`,
      fail(409, 'This quotation has already been accepted: its sales order is SO-2026-00012.', 'quotation_already_accepted'),
    );
    const { router } = renderApp('/sales/quotations/5');
    fireEvent.click(await screen.findByTestId('accept-quotation'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByTestId('quotation-error')).toHaveTextContent('already been accepted');
    expect(router.state.location.pathname).toBe('/sales/quotations/5');
  });

  it('offers no accept, edit or delete once accepted, and links the order', async () => {
    server.on(
      'GET',
      QUOTATION_URL,
      ok(makeQuotation({ status: 'accepted', allowed_actions: [], sales_order: 12, sales_order_number: 'SO-2026-00012' })),
    );
    renderApp('/sales/quotations/5');
    expect(await screen.findByTestId('quotation-order')).toHaveTextContent('SO-2026-00012');
    expect(screen.queryByTestId('accept-quotation')).toBeNull();
    expect(screen.queryByTestId('edit-quotation')).toBeNull();
    expect(screen.queryByTestId('delete-quotation')).toBeNull();
  });
});
