import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import { makeOrder, ORDER_URL, startSalesServer, stopSalesServer } from './fixtures';

let server: MockServer;

beforeEach(() => {
  server = startSalesServer();
  server.on('GET', ORDER_URL, ok(makeOrder()));
});

afterEach(() => stopSalesServer(server));

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

describe('loading an order', () => {
  it('says an unknown order is not found on the order and the edit page', async () => {
    server.on('GET', ORDER_URL, fail(404, 'Not found.', 'not_found'));
    const first = renderApp('/sales/orders/12');
    expect(await screen.findByTestId('document-not-found')).toHaveTextContent('does not exist');
    first.unmount();
    renderApp('/sales/orders/12/edit');
    expect(await screen.findByTestId('document-not-found')).toHaveTextContent('does not exist');
    expect(screen.queryByTestId('save-order')).not.toBeInTheDocument();
  });

  it('shows a failed load with a retry that loads the order', async () => {
    server.on('GET', ORDER_URL, fail(500, 'The server had a problem.', 'server_error'));
    renderApp('/sales/orders/12/edit');
    expect(await screen.findByTestId('error-state')).toHaveTextContent('The server had a problem.');
    server.on('GET', ORDER_URL, ok(makeOrder()));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByDisplayValue('PO-77')).toBeInTheDocument();
  });
});
