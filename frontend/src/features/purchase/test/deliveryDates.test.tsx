import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { fail, MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { PurchaseOrderDetail, PurchaseOrderLine } from '../api/types';
import { makeOrder, page } from './fixtures';

const BY_NUMBER = '/api/purchaseorders/orders/by-number/PO-2026-00007/';
const ORDER_URL = '/api/purchaseorders/orders/7/';

let server: MockServer;
const buyer = makeUser({ id: 2, username: 'buyer', name: 'Bob Buyer' });
const supplierUser = makeUser({
  id: 40,
  username: 'supplier',
  is_supplier: true,
  parent_vendor: { id: 5, name: 'Shanghai Evergreen Packaging', cname: '上海常青包装' },
});

/** Ordered 2026-03-01, promised for 2026-04-01: line 1 is due 2026-04-20, line 2 on the promise date. */
function datedOrder(overrides: Partial<PurchaseOrderDetail> = {}): PurchaseOrderDetail {
  const base = makeOrder({ received_qty: '0.000', cartons_issued: 0 });
  const first: PurchaseOrderLine = { ...base.lines[0], received_qty: '0.000', open_qty: '100.000', cartons_issued: 0, delivery_date: '2026-04-20' };
  const second: PurchaseOrderLine = { ...first, id: 71, line_number: 2, product: 10, product_number: 'CT-3020', delivery_date: null };
  return { ...base, lines: [first, second], ...overrides };
}

/** Types a day into a date picker and confirms it, as a user does with the keyboard. */
function typeDate(input: HTMLElement, value: string) {
  act(() => {
    fireEvent.mouseDown(input);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.blur(input);
  });
}

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/purchaseorders/orders/owners/', ok(page([])));
  server.on('GET', '/api/suppliers/', ok(page([])));
  server.on('GET', '/api/products/', ok(page([])));
  server.on('GET', '/api/purchaseorders/receipts/', ok(page([])));
  server.on('GET', '/api/logistics/shipments/', ok(page([])));
  server.on('GET', '/api/common/content-types/', ok([{ id: 21, app_label: 'purchaseorders', model: 'purchaseorder' }]));
  server.on('GET', '/api/common/comments/', ok(page([])));
  server.on('GET', '/api/eudr/cartons/', ok(page([])));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
  vi.useRealTimers();
});

describe('order form: a delivery date per line', () => {
  async function editOrder(order: PurchaseOrderDetail) {
    server.on('GET', BY_NUMBER, ok(order));
    server.on('PATCH', ORDER_URL, ok(order));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007/edit');
    const save = await screen.findByTestId('order-save');
    await waitFor(() => expect(save).toBeEnabled());
    return save;
  }

  const sentLines = () =>
    (JSON.parse(String(server.requests.find((r) => r.method === 'PATCH')?.data)) as { lines: { id?: number; delivery_date?: string | null }[] }).lines;

  it('names each line’s picker and sends each line’s date, empty as null', async () => {
    const save = await editOrder(datedOrder());
    expect(screen.getByRole('textbox', { name: 'Delivery date, line 1' })).toHaveValue('2026-04-20');
    const second = screen.getByRole('textbox', { name: 'Delivery date, line 2' });
    expect(second).toHaveValue('');
    // empty: the order's promise date applies, shown as the placeholder
    expect(second).toHaveAttribute('placeholder', '2026-04-01');
    fireEvent.click(save);
    await waitFor(() => expect(server.count('PATCH', ORDER_URL)).toBe(1));
    expect(sentLines().map((line) => [line.id, line.delivery_date])).toEqual([
      [70, '2026-04-20'],
      [71, null],
    ]);
  });

  it('sends a date typed into a line', async () => {
    const save = await editOrder(datedOrder());
    typeDate(screen.getByRole('textbox', { name: 'Delivery date, line 2' }), '2026-05-02');
    fireEvent.click(save);
    await waitFor(() => expect(server.count('PATCH', ORDER_URL)).toBe(1));
    expect(sentLines().map((line) => line.delivery_date)).toEqual(['2026-04-20', '2026-05-02']);
  });

  it('refuses a line date before the order date, and sends nothing', async () => {
    const save = await editOrder(datedOrder({ lines: datedOrder().lines.map((line) => ({ ...line, delivery_date: line.line_number === 2 ? '2026-02-20' : line.delivery_date })) }));
    fireEvent.click(save);
    expect(await screen.findByText('The delivery date cannot be before the order date')).toBeInTheDocument();
    expect(server.count('PATCH', ORDER_URL)).toBe(0);
  });

  it('shows the server’s refusal on the line’s picker', async () => {
    const order = datedOrder();
    server.on('GET', BY_NUMBER, ok(order));
    server.on(
      'PATCH',
      ORDER_URL,
      fail(400, 'Please correct the highlighted fields.', 'validation_error', {
        lines: [{}, { delivery_date: ['The delivery date cannot be before the order date.'] }],
      }),
    );
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007/edit');
    const save = await screen.findByTestId('order-save');
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.click(save);
    expect(await screen.findByText('The delivery date cannot be before the order date.')).toBeInTheDocument();
  });
});

describe('order page: the lines’ delivery dates', () => {
  it('shows a line’s own date, else the promise date muted, and marks an open line past its day late', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-04-10T10:00:00Z'));
    server.on('GET', BY_NUMBER, ok(datedOrder()));
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_purchaseorder'] }), tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007');
    const lines = await screen.findByTestId('order-lines');
    expect(within(lines).getByRole('columnheader', { name: 'Delivery date' })).toBeInTheDocument();
    const own = within(lines).getByTestId('line-delivery-1');
    expect(own).toHaveTextContent('20 Apr 2026');
    expect(own).not.toHaveTextContent('Late');
    const fromOrder = within(lines).getByTestId('line-delivery-2');
    expect(within(fromOrder).getByTitle("No date of its own: the order's promise date")).toHaveTextContent('1 Apr 2026');
    expect(fromOrder).toHaveTextContent('Late'); // due 1 Apr, nothing received on 10 Apr
  });

  it('shows a dash when neither the line nor the order has a date', async () => {
    const order = datedOrder({ promise_date: null });
    server.on('GET', BY_NUMBER, ok({ ...order, lines: order.lines.map((line) => ({ ...line, delivery_date: null })) }));
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_purchaseorder'] }), tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007');
    const lines = await screen.findByTestId('order-lines');
    expect(within(lines).queryByTestId('line-delivery-1')).not.toBeInTheDocument();
    expect(within(lines).getAllByRole('row')[1]).toHaveTextContent('—');
  });

  it('shows the supplier the line dates of its order in the portal', async () => {
    server.on('GET', BY_NUMBER, ok(datedOrder({ status: 'received' })));
    signIn({ user: supplierUser, tenant: '3' });
    renderApp('/supplier/orders/PO-2026-00007');
    const lines = await screen.findByTestId('order-lines');
    expect(within(lines).getByTestId('line-delivery-1')).toHaveTextContent('20 Apr 2026');
    expect(within(lines).getByTestId('line-delivery-2')).toHaveTextContent('1 Apr 2026');
    expect(within(lines).queryByText('Late')).not.toBeInTheDocument(); // a received order is not late
  });
});
