import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import { carton, makeOrder, makeReceipt, page } from './fixtures';

let server: MockServer;
const order = makeOrder();
const supplierUser = makeUser({
  id: 40,
  username: 'supplier',
  is_supplier: true,
  parent_vendor: { id: 5, name: 'Shanghai Evergreen Packaging', cname: '上海常青包装' },
});

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/purchaseorders/orders/', ok(page([order])));
  server.on('GET', '/api/purchaseorders/orders/summary/', ok({
      statuses: Object.fromEntries(['draft', 'confirmed', 'sent', 'partly_received', 'received', 'closed', 'cancelled'].map((s) => [s, { count: s === 'partly_received' ? 1 : 0, amounts: {} }])),
      total: { count: 1, amounts: { EUR: '125.00' } },
    }),
  );
  server.on('GET', `/api/purchaseorders/orders/by-number/${order.order_number}/`, ok(order));
  server.on('GET', '/api/purchaseorders/receipts/', ok(page([makeReceipt()])));
  server.on('GET', '/api/logistics/shipments/', ok(page([])));
  server.on('GET', '/api/common/content-types/', ok([{ id: 21, app_label: 'purchaseorders', model: 'purchaseorder' }]));
  server.on('GET', '/api/common/comments/', ok(page([])));
  server.on('GET', '/api/eudr/cartons/', ok({ ...page([carton(1), carton(2)]), count: 2 }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('supplier portal', () => {
  it('lists the orders with description and owner, and a row opens the order inside the portal', async () => {
    signIn({ user: supplierUser, tenant: '3' });
    const { router } = renderApp('/supplier/orders');
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    // docs/specification.md section 3 "Purchase order (supplier view)", in its order
    const spec = ['Order number', 'Order date', 'Supplier', 'Total amount', 'Description', 'Type', 'Promise date', 'Owner', 'Status'];
    expect(headers.filter((h) => spec.includes(h ?? ''))).toEqual(spec);
    expect(screen.queryByRole('tab', { name: /^Draft/ })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /^Partly received/ })).toBeInTheDocument();
    const row = await within(table).findByText('Spring carton run');
    expect(within(table).getByText('Bob Buyer')).toBeInTheDocument();
    fireEvent.click(row);
    await waitFor(() => expect(router.state.location.pathname).toBe('/supplier/orders/PO-2026-00007'));
    expect(await screen.findByTestId('layout-supplier')).toBeInTheDocument();
    expect(await screen.findByTestId('order-lines')).toHaveTextContent('CT-6040');
  });

  it('shows the order read-only to its supplier: no actions, receipts without links, comments panel', async () => {
    // permissions not loaded: internal pages would show every action; the supplier view shows none
    signIn({ user: supplierUser, tenant: '3' });
    const { router } = renderApp('/supplier/orders/PO-2026-00007');
    expect(await screen.findByTestId('order-lines')).toBeInTheDocument();
    expect(screen.getByTestId('order-owner')).toHaveTextContent('Bob Buyer');
    for (const action of ['receive-goods', 'edit-order']) expect(screen.queryByTestId(action)).not.toBeInTheDocument();
    for (const action of ['order-confirm', 'order-send', 'order-close', 'order-cancel']) expect(screen.queryByTestId(action)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /cancel order|delete/i })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Receipts' }));
    const receipts = await screen.findByTestId('order-receipts');
    expect(await within(receipts).findByText('RC-2026-00001')).toBeInTheDocument();
    expect(within(receipts).queryByRole('link')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Comments' }));
    expect(await screen.findByTestId('comments-panel')).toBeInTheDocument();
    await waitFor(() => expect(server.count('GET', '/api/common/comments/')).toBeGreaterThan(0));
    const comments = server.requests.find((r) => r.url === '/api/common/comments/');
    expect(comments?.params).toMatchObject({ object_id: 7 });

    fireEvent.click(screen.getByTestId('back-to-orders'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/supplier/orders'));
  });

  it('keeps the parent vendor of the route when going back', async () => {
    signIn({ user: makeUser({ is_supplier: true, parent_vendor: null }), tenant: '3' });
    const { router } = renderApp('/supplier/5/orders/PO-2026-00007');
    fireEvent.click(await screen.findByTestId('back-to-orders'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/supplier/5/orders'));
  });

  it('answers another vendor’s order as not found, with the way back to the portal', async () => {
    server.on('GET', '/api/purchaseorders/orders/by-number/PO-OTHER/', {
      status: 404,
      data: { code: 404, message: 'Not found.', error: 'not_found', data: null },
    });
    signIn({ user: supplierUser, tenant: '3' });
    // A supplier opens orders inside the portal; /purchase/orders/* is internal (the forbidden page).
    const { router } = renderApp('/supplier/orders/PO-OTHER');
    expect(await screen.findByTestId('order-not-found')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back to my orders' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/supplier/orders'));
  });

  it('expands a line into the cartons issued against it, each linking to its trace page', async () => {
    signIn({ user: supplierUser, tenant: '3' });
    renderApp('/supplier/orders/PO-2026-00007');
    const lines = await screen.findByTestId('order-lines');
    fireEvent.click(within(lines).getByRole('button', { name: /expand row/i }));
    const cartons = await screen.findByTestId('line-cartons-1');
    const links = await within(cartons).findAllByTestId('carton-trace-link');
    expect(links[0]).toHaveAttribute('href', 'https://trace.example/eudrtrace/CODE1');
    expect(links[0]).toHaveAttribute('target', '_blank');
    const request = server.requests.find((r) => r.url === '/api/eudr/cartons/');
    expect(request?.params).toMatchObject({ purchase_order_line: 70, page: 1 });
  });
});

describe('internal order page', () => {
  it('opens the receive dialog from ?receive=1 for an open order', async () => {
    server.on('GET', '/api/inventory/warehouses/', ok(page([{ id: 1, code: 'RTM', name: 'Rotterdam', is_default: true, is_active: true, locations: [] }])));
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_purchaseorder', 'purchaseorders.add_receipt'] }), tenant: '3' });
    const { router } = renderApp('/purchase/orders/PO-2026-00007?receive=1');
    expect(await screen.findByText('Receive goods for PO-2026-00007')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-order')).not.toBeInTheDocument(); // no change permission
    fireEvent.click(screen.getByRole('button', { name: /close/i }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('does not expand lines into cartons for a user without access to labels', async () => {
    // Warehouse users get the forbidden page here; an internal user lacking eudr.view_cartonlabel reaches the lines.
    signIn({ user: makeUser({ permissions: ['purchaseorders.view_purchaseorder'] }), tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007');
    const lines = await screen.findByTestId('order-lines');
    expect(within(lines).getByText('CT-6040')).toBeInTheDocument();
    expect(within(lines).queryByRole('button', { name: /expand row/i })).not.toBeInTheDocument();
    expect(server.count('GET', '/api/eudr/cartons/')).toBe(0);
  });
});
