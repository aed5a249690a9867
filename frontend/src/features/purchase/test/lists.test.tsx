import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import { idFilter } from '../lib/options';
import { makeOrder, makeReceipt, page } from './fixtures';

let server: MockServer;
const order = makeOrder({ received_qty: '0.000', cartons_issued: 0 });
const buyer = makeUser({ id: 2, username: 'buyer', name: 'Bob Buyer' });
const summary = {
  statuses: Object.fromEntries(['draft', 'confirmed', 'sent', 'partly_received', 'received', 'closed', 'cancelled'].map((s) => [s, { count: 0, amounts: {} }])),
  total: { count: 1, amounts: {} },
};

/** Opens an Ant Design select by its test id and picks the option with `label`. */
async function pick(testId: string, label: string, type?: string) {
  const select = screen.getByTestId(testId);
  const input = select.querySelector('input') ?? select;
  fireEvent.mouseDown(select.querySelector('.p-select-selector') ?? select);
  if (type !== undefined) fireEvent.change(input, { target: { value: type } });
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('.p-select-item-option')].find((node) => node.textContent === label);
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
}

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/purchaseorders/receipts/', ok(page([makeReceipt()])));
  server.on('GET', '/api/inventory/warehouses/', ok(page([{ id: 1, code: 'RTM', name: 'Rotterdam', is_default: true, is_active: true, locations: [] }, { id: 2, code: 'HAM', name: 'Hamburg', is_default: false, is_active: false, locations: [] }])));
  server.on('GET', '/api/suppliers/3/', ok({ id: 3, number: 'S-1001', name: 'Evergreen No.1', parent_vendor: 5 }));
  server.on('GET', '/api/purchaseorders/orders/7/', ok(order));
  server.on('GET', '/api/purchaseorders/orders/', ok(page([order])));
  server.on('GET', '/api/purchaseorders/orders/summary/', ok(summary));
  server.on('GET', '/api/purchaseorders/orders/owners/', (config) => {
    const params = config.params as Record<string, unknown>;
    const all = [
      { id: 1, username: 'ada', name: 'Ada Admin' },
      { id: 2, username: 'buyer', name: 'Bob Buyer' },
    ];
    const wanted = params.id === undefined ? all : all.filter((u) => u.id === Number(params.id));
    return ok(page(wanted));
  });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('id filters from the URL', () => {
  it('reads one numeric id and ignores anything else', () => {
    expect(idFilter('12')).toBe(12);
    expect(idFilter(undefined)).toBeUndefined();
    expect(idFilter('x1')).toBeUndefined();
    expect(idFilter(['1', '2'])).toBeUndefined();
  });
});

describe('purchase receipts list', () => {
  it('sends the filters of the URL, shows their labels and binds a change back to the URL', async () => {
    signIn({ user: buyer, tenant: '3' });
    const { router } = renderApp(
      '/purchase/receipts?supplier=3&purchase_order=7&warehouse=1&receipt_date_from=2026-03-01&receipt_date_to=2026-03-31&junk=1',
    );
    await screen.findByText('RC-2026-00001');
    const request = server.requests.find((r) => r.url === '/api/purchaseorders/receipts/');
    expect(request?.params).toMatchObject({
      supplier: '3',
      purchase_order: '7',
      warehouse: '1',
      receipt_date_from: '2026-03-01',
      receipt_date_to: '2026-03-31',
    });
    expect(request?.params).not.toHaveProperty('junk');
    expect(await within(screen.getByTestId('receipts-supplier-filter')).findByText('S-1001 · Evergreen No.1')).toBeInTheDocument();
    expect(await within(screen.getByTestId('receipts-order-filter')).findByText('PO-2026-00007 · Evergreen No.1')).toBeInTheDocument();
    expect(within(screen.getByTestId('receipts-warehouse-filter')).getByText('RTM · Rotterdam')).toBeInTheDocument();
    expect(screen.getByText('5 Mar 2026')).toBeInTheDocument(); // the receipt date as every page prints days
    expect(screen.getByDisplayValue('2026-03-01')).toBeInTheDocument();
    // every filter is named for assistive technology, not only by its placeholder
    for (const name of ['Supplier', 'Warehouse', 'Purchase order']) {
      expect(screen.getByRole('combobox', { name })).toBeInTheDocument();
    }

    // inactive warehouses are offered too: their past receipts stay findable
    await pick('receipts-warehouse-filter', 'HAM · Hamburg');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('warehouse')).toBe('2'));
    expect(new URLSearchParams(router.state.location.search).get('supplier')).toBe('3');
  });

  it('"Receive" picks an open order and goes to its receive dialog', async () => {
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_receipt', 'purchaseorders.add_receipt'] }), tenant: '3' });
    const { router } = renderApp('/purchase/receipts');
    fireEvent.click(await screen.findByTestId('receipts-receive'));
    await pick('receive-picker-order', 'PO-2026-00007 · Evergreen No.1');
    // the picker searches the orders that can receive goods only
    expect(
      server.requests.some((r) => r.url === '/api/purchaseorders/orders/' && r.params.status === 'confirmed,sent,partly_received'),
    ).toBe(true);
    fireEvent.click(screen.getByTestId('receive-picker-continue'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/purchase/orders/PO-2026-00007'));
    expect(router.state.location.search).toBe('?receive=1');
  });

  it('offers no "Receive" without the permission', async () => {
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_receipt'] }), tenant: '3' });
    renderApp('/purchase/receipts');
    await screen.findByText('RC-2026-00001');
    expect(screen.queryByTestId('receipts-receive')).not.toBeInTheDocument();
  });
});

describe('purchase orders list', () => {
  it('shows the total only with the price permission (products.see_prices)', async () => {
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_purchaseorder', 'products.see_prices'] }), tenant: '3' });
    const first = renderApp('/purchase/orders');
    const priced = await screen.findByRole('table');
    expect(within(priced).getAllByText('Total amount').length).toBeGreaterThan(0);
    first.unmount();
    // An internal user without the price permission (a warehouse user may not open /purchase/orders at all).
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_purchaseorder'] }), tenant: '3' });
    renderApp('/purchase/orders');
    const plain = await screen.findByRole('table');
    expect(within(plain).getAllByText('Order number').length).toBeGreaterThan(0);
    expect(within(plain).queryAllByText('Total amount')).toHaveLength(0);
  });

  it('shows the owner and filters by owner through the URL', async () => {
    signIn({ user: buyer, tenant: '3' });
    const { router } = renderApp('/purchase/orders?owner=2');
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Bob Buyer')).toBeInTheDocument();
    expect(server.requests.find((r) => r.url === '/api/purchaseorders/orders/')?.params).toMatchObject({ owner: '2' });
    expect(await within(screen.getByTestId('orders-owner-filter')).findByText('Bob Buyer')).toBeInTheDocument();
    await pick('orders-owner-filter', 'Ada Admin');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('owner')).toBe('1'));
  });
});

describe('order form owner', () => {
  it('defaults a new order to its creator', async () => {
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/orders/new');
    const owner = await screen.findByTestId('order-owner-select');
    expect(within(owner).getByText('Bob Buyer')).toBeInTheDocument();
  });

  async function editOrder(): Promise<unknown[]> {
    server.on('GET', `/api/purchaseorders/orders/by-number/${order.order_number}/`, ok(order));
    server.on('GET', '/api/logistics/shipments/', ok(page([])));
    const patches: unknown[] = [];
    server.on('PATCH', '/api/purchaseorders/orders/7/', (config) => {
      patches.push(JSON.parse(String(config.data)));
      return ok(order);
    });
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007/edit');
    await screen.findByTestId('order-form');
    return patches;
  }

  it('keeps the owner out of the request when it was not changed', async () => {
    const patches = await editOrder();
    fireEvent.click(screen.getByTestId('order-save'));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).not.toHaveProperty('owner');
  });

  it('sends the owner chosen in the form', async () => {
    const patches = await editOrder();
    await pick('order-owner-select', 'Ada Admin');
    fireEvent.click(screen.getByTestId('order-save'));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ owner: 1 });
  });

  it('locks product and weight of a labelled line, and the supplier of an order with receipts', async () => {
    const locked = makeOrder();
    server.on('GET', `/api/purchaseorders/orders/by-number/${locked.order_number}/`, ok(locked));
    server.on('GET', '/api/logistics/shipments/', ok(page([])));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007/edit');
    await screen.findByTestId('order-form');
    expect(screen.getByText('Goods were received: the product cannot change.')).toBeInTheDocument();
    expect(screen.getByText('Carton labels used this weight: it cannot change.')).toBeInTheDocument();
    expect(screen.getByText(/its supplier can no longer change/)).toBeInTheDocument();
    expect(screen.getByTestId('line-product-0')).toHaveClass('p-select-disabled');
  });
});
