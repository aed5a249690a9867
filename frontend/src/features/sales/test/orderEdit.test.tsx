import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { fail, MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { SalesOrderDetail } from '../api/sales';

const ORDER_URL = '/api/salesorders/orders/12/';

function makeOrder(overrides: Partial<SalesOrderDetail> = {}): SalesOrderDetail {
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
    lines: [
      {
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
      },
    ],
    status_explanation: { ordered: '100.000', reserved: '0.000', shipped: '0.000', invoiced: '0.000' },
    ...overrides,
  } as SalesOrderDetail;
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', ORDER_URL, ok(makeOrder()));
  server.on('GET', '/api/common/content-types/', ok([{ id: 31, app_label: 'salesorders', model: 'salesorder' }]));
  server.on('GET', '/api/common/comments/', ok({ count: 0, next: null, previous: null, results: [] }));
  server.on('GET', '/api/salesorders/shipments/', ok({ count: 0, next: null, previous: null, results: [] }));
  server.on('GET', '/api/salesorders/invoices/', ok({ count: 0, next: null, previous: null, results: [] }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ user: makeUser({ id: 2, username: 'seller' }), tenant: '3' });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

const quantityInput = () => screen.getByRole('spinbutton', { name: 'Quantity 1' });

describe('editing a draft sales order', () => {
  it('opens from the order page filled in, follows the typing in the totals and saves with PUT', async () => {
    let saved: Record<string, unknown> | null = null;
    server.on('PUT', ORDER_URL, (config) => {
      saved = JSON.parse(String(config.data)) as Record<string, unknown>;
      return ok(makeOrder({ total_gross: '363.00', updated_at: '2026-03-02T09:00:00Z' }));
    });
    const { router } = renderApp('/sales/orders/12');
    fireEvent.click(await screen.findByTestId('edit-order'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12/edit'));

    // the header and the line as the order has them
    expect(await screen.findByDisplayValue('PO-77')).toBeInTheDocument();
    expect(screen.getByText('C-1001 Bakkerij de Vries BV')).toBeInTheDocument();
    expect(screen.getByText('CT-6040 Carton 60x40')).toBeInTheDocument();
    expect(quantityInput()).toHaveValue('100');
    expect(screen.getByTestId('total-gross')).toHaveTextContent('€302.50');

    fireEvent.change(quantityInput(), { target: { value: '120' } });
    await waitFor(() => expect(screen.getByTestId('total-gross')).toHaveTextContent('€363.00'));
    expect(screen.getByTestId('line-amount-0')).toHaveTextContent('€300.00');

    fireEvent.click(screen.getByTestId('save-order'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
    expect(saved).toMatchObject({
      customer: 4,
      order_date: '2026-03-01',
      customer_reference: 'PO-77',
      description: 'Spring run',
      unchanged_since: '2026-03-01T08:00:00.123456Z',
      lines: [
        {
          id: 120,
          product: 9,
          quantity: '120',
          unit_price: '2.5000',
          requested_date: '2026-03-20',
          // not on the form, sent back so the PUT keeps it
          confirmed_date: '2026-03-22',
        },
      ],
    });
  });

  it("shows the server's field errors on their fields, line errors on the line's cell", async () => {
    server.on(
      'PUT',
      ORDER_URL,
      fail(400, 'Invalid input.', 'validation_error', {
        customer_reference: ['Ensure this field has no more than 100 characters.'],
        lines: [{ requested_date: ['A delivery date is before the order date.'] }],
      }),
    );
    const { router } = renderApp('/sales/orders/12/edit');
    fireEvent.change(await screen.findByDisplayValue('PO-77'), { target: { value: 'PO-78' } });
    fireEvent.click(screen.getByTestId('save-order'));

    const reference = (await screen.findByText('Ensure this field has no more than 100 characters.')).closest('.p-form-item');
    expect(reference).not.toBeNull();
    expect(within(reference as HTMLElement).getByDisplayValue('PO-78')).toBeInTheDocument();
    const row = screen.getByText('A delivery date is before the order date.').closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByRole('spinbutton', { name: 'Quantity 1' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sales/orders/12/edit');
  });

  it("is refused with the server's message once the order was confirmed meanwhile", async () => {
    const message = 'The order was changed since it was opened (it is now confirmed) and was not saved.';
    server.on('PUT', ORDER_URL, fail(409, message, 'order_changed'));
    const { router } = renderApp('/sales/orders/12/edit');
    fireEvent.change(await screen.findByDisplayValue('PO-77'), { target: { value: 'PO-78' } });
    fireEvent.click(screen.getByTestId('save-order'));
    expect(await screen.findByTestId('create-error')).toHaveTextContent(message);
    expect(router.state.location.pathname).toBe('/sales/orders/12/edit');
  });

  it('offers no form for an order that is no longer a draft, and no Edit action on its page', async () => {
    server.on('GET', ORDER_URL, ok(makeOrder({ status: 'confirmed', allowed_actions: ['cancel'] })));
    renderApp('/sales/orders/12/edit');
    expect(await screen.findByTestId('edit-refused')).toHaveTextContent('Order SO-2026-00012 is Confirmed');
    expect(screen.queryByTestId('save-order')).not.toBeInTheDocument();
  });

  it('hides the Edit action of a confirmed order and from a user without the change permission', async () => {
    server.on('GET', ORDER_URL, ok(makeOrder({ status: 'confirmed', allowed_actions: ['cancel'] })));
    const first = renderApp('/sales/orders/12');
    expect(await screen.findByTestId('status-why')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-order')).not.toBeInTheDocument();
    first.unmount();

    server.on('GET', ORDER_URL, ok(makeOrder()));
    signIn({ user: makeUser({ id: 2, username: 'seller', permissions: ['salesorders.view_salesorder'] }), tenant: '3' });
    renderApp('/sales/orders/12');
    expect(await screen.findByTestId('status-why')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-order')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /delete draft/i })).not.toBeInTheDocument();
  });

  it('asks before leaving with unsaved changes, and not when nothing changed', async () => {
    const { router } = renderApp('/sales/orders/12/edit');
    await screen.findByDisplayValue('PO-77');
    fireEvent.change(quantityInput(), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('cancel-edit'));
    expect((await screen.findAllByText('Leave without saving?')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryAllByText('Leave without saving?')).toHaveLength(0));
    expect(router.state.location.pathname).toBe('/sales/orders/12/edit');

    // typing the old value back (100 is 100.000) makes the form clean again: leaving no longer asks
    fireEvent.change(quantityInput(), { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('cancel-edit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sales/orders/12'));
  });
});
