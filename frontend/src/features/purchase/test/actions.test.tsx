import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import type { PurchaseOrderDetail } from '../api/types';
import { makeOrder, makeReceipt, page } from './fixtures';

const confirmTitle = () => document.querySelector('.p-modal-confirm-title');
/** The button of the open confirmation dialog with exactly this text. */
const dialogButton = (text: string) =>
  [...document.querySelectorAll<HTMLButtonElement>('.p-modal-confirm-btns button')].find((b) => b.textContent === text);
const ORDER_URL = '/api/purchaseorders/orders/7/';
const BY_NUMBER = '/api/purchaseorders/orders/by-number/PO-2026-00007/';
const buyer = makeUser({
  id: 2,
  username: 'buyer',
  permissions: ['purchaseorders.view_purchaseorder', 'purchaseorders.change_purchaseorder', 'purchaseorders.add_receipt', 'products.see_prices'],
});
let server: MockServer;

function showOrder(order: PurchaseOrderDetail) {
  server.on('GET', BY_NUMBER, ok(order));
  signIn({ user: buyer, tenant: '3' });
  return renderApp('/purchase/orders/PO-2026-00007');
}

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/purchaseorders/receipts/', ok(page([makeReceipt()])));
  server.on('GET', '/api/logistics/shipments/', ok(page([])));
  server.on('GET', '/api/common/content-types/', ok([{ id: 21, app_label: 'purchaseorders', model: 'purchaseorder' }]));
  server.on('GET', '/api/common/comments/', ok(page([])));
  server.on('GET', '/api/eudr/cartons/', ok(page([])));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('purchase order status actions', () => {
  it('offers the PDF only to those who may see prices (it shows them; the server refuses the others)', async () => {
    server.on('GET', BY_NUMBER, ok(makeOrder({ status: 'confirmed', allowed_transitions: ['sent', 'cancelled'] })));
    signIn({ user: makeUser({ ...buyer, permissions: buyer.permissions?.filter((p) => p !== 'products.see_prices') }), tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007');
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Confirmed');
    expect(screen.getByTestId('order-send')).toBeInTheDocument();
    expect(screen.queryByTestId('order-pdf')).not.toBeInTheDocument();
  });

  it('a draft shows its status, Confirm and Cancel, no Send, Close or Receive; Confirm posts at once', async () => {
    const draft = makeOrder({ status: 'draft', received_qty: '0.000', allowed_transitions: ['confirmed', 'cancelled'] });
    server.on('POST', `${ORDER_URL}confirm/`, ok({ ...draft, status: 'confirmed', allowed_transitions: ['sent', 'cancelled'] }));
    showOrder(draft);
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Draft');
    expect(screen.getByTestId('order-confirm')).toHaveTextContent('Confirm');
    expect(screen.getByTestId('order-cancel')).toBeInTheDocument();
    for (const id of ['order-send', 'order-close', 'receive-goods']) expect(screen.queryByTestId(id)).not.toBeInTheDocument();
    expect(screen.getByTestId('order-pdf')).toHaveTextContent('Download PDF');
    fireEvent.click(screen.getByTestId('order-confirm'));
    await waitFor(() => expect(server.count('POST', `${ORDER_URL}confirm/`)).toBe(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a confirmed order is sent by e-mail and can be received', async () => {
    const confirmed = makeOrder({ status: 'confirmed', received_qty: '0.000', allowed_transitions: ['sent', 'cancelled'] });
    server.on('POST', `${ORDER_URL}send/`, ok({ ...confirmed, status: 'sent', allowed_transitions: ['sent', 'cancelled'] }));
    showOrder(confirmed);
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Confirmed');
    expect(screen.getByTestId('receive-goods')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('order-send'));
    await waitFor(() => expect(server.count('POST', `${ORDER_URL}send/`)).toBe(1));
  });

  it('cancelling asks first, and keeping the order posts nothing', async () => {
    const sent = makeOrder({ status: 'sent', received_qty: '0.000', allowed_transitions: ['sent', 'cancelled'] });
    server.on('POST', `${ORDER_URL}cancel/`, ok({ ...sent, status: 'cancelled', allowed_transitions: [] }));
    showOrder(sent);
    fireEvent.click(await screen.findByTestId('order-cancel'));
    await waitFor(() => expect(confirmTitle()).toHaveTextContent('Cancel PO-2026-00007?'));
    fireEvent.click(dialogButton('Keep as it is')!);
    await waitFor(() => expect(confirmTitle()).toBeNull());
    expect(server.count('POST', `${ORDER_URL}cancel/`)).toBe(0);

    fireEvent.click(screen.getByTestId('order-cancel'));
    await waitFor(() => expect(dialogButton('Cancel order')).toBeDefined());
    fireEvent.click(dialogButton('Cancel order')!);
    await waitFor(() => expect(server.count('POST', `${ORDER_URL}cancel/`)).toBe(1));
  });

  it('a partly received order is closed short after a confirmation', async () => {
    const partly = makeOrder({ status: 'partly_received', allowed_transitions: ['closed'] });
    server.on('POST', `${ORDER_URL}close/`, ok({ ...partly, status: 'closed', allowed_transitions: [], lines_editable: false }));
    showOrder(partly);
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Partly received');
    expect(screen.getByTestId('receive-goods')).toBeInTheDocument();
    expect(screen.queryByTestId('order-cancel')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('order-close'));
    await waitFor(() => expect(confirmTitle()).toHaveTextContent('Close PO-2026-00007?'));
    fireEvent.click(dialogButton('Close')!);
    await waitFor(() => expect(server.count('POST', `${ORDER_URL}close/`)).toBe(1));
  });

  it('a received order offers Close only, a closed one no action but the PDF', async () => {
    showOrder(makeOrder({ status: 'closed', allowed_transitions: [], lines_editable: false }));
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Closed');
    for (const id of ['order-confirm', 'order-send', 'order-close', 'order-cancel', 'receive-goods']) {
      expect(screen.queryByTestId(id)).not.toBeInTheDocument();
    }
    expect(screen.getByTestId('order-pdf')).toBeInTheDocument();
  });
});

describe('editing a purchase order', () => {
  it('sends each kept line with its id, so the server updates the line instead of replacing it', async () => {
    const order = makeOrder({ status: 'draft', received_qty: '0.000', allowed_transitions: ['confirmed', 'cancelled'] });
    server.on('GET', BY_NUMBER, ok(order));
    server.on('GET', '/api/purchaseorders/orders/owners/', ok([]));
    server.on('GET', '/api/suppliers/', ok(page([])));
    server.on('GET', '/api/products/', ok(page([])));
    server.on('PATCH', ORDER_URL, ok(order));
    signIn({ user: buyer, tenant: '3' });
    renderApp('/purchase/orders/PO-2026-00007/edit');
    const save = await screen.findByTestId('order-save');
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.click(save);
    await waitFor(() => expect(server.count('PATCH', ORDER_URL)).toBe(1));
    const sent = JSON.parse(String(server.requests.find((r) => r.method === 'PATCH')?.data)) as { lines: { id?: number }[] };
    expect(sent.lines.map((line) => line.id)).toEqual(order.lines.map((line) => line.id));
  });
});
