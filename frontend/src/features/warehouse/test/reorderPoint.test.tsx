import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, created, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';

const TOTAL = {
  product: 41,
  article_number: 'CT-DW-4030',
  product_name: 'Double wall carton',
  product_unit: 'pcs',
  locations: 2,
  on_hand: '30.000',
  reserved: '0.000',
  available: '30.000',
  reorder_point: null,
};

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  const empty = ok({ count: 0, next: null, previous: null, results: [] });
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/inventory/warehouses/', empty);
  server.on('GET', '/api/products/groups/', empty);
  server.on('GET', '/api/inventory/stock/totals/', ok({ count: 1, next: null, previous: null, results: [TOTAL] }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('reorder points on the stock totals', () => {
  it('a warehouse manager sets a product\'s reorder point from its totals row', async () => {
    server.on('POST', '/api/inventory/reorder-points/', created({ id: 5, product: 41, article_number: 'CT-DW-4030', product_name: 'x', reorder_point: '500.000' }));
    signIn({ user: makeUser({ is_warehouse: true, permissions: ['inventory.view_stock', 'inventory.add_reorderpoint'] }), tenant: '3' });
    renderApp('/warehouse/inventory?tab=totals');
    const edit = await screen.findByRole('button', { name: 'Set the reorder point of CT-DW-4030' });
    fireEvent.click(edit);
    expect(await screen.findByText('Reorder point of CT-DW-4030')).toBeInTheDocument();
    fireEvent.change(await screen.findByRole('spinbutton', { name: 'Reorder point' }), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.count('POST', '/api/inventory/reorder-points/')).toBe(1));
    const sent = server.requests.find((r) => r.method === 'POST');
    expect(JSON.parse(String(sent?.data))).toEqual({ product: 41, reorder_point: '500' });
    // the totals are read again
    await waitFor(() => expect(server.count('GET', '/api/inventory/stock/totals/')).toBeGreaterThan(1));
  });

  it('shows the quantities of a product counted in pieces as whole numbers', async () => {
    server.on('GET', '/api/inventory/stock/totals/', ok({ count: 1, next: null, previous: null, results: [{ ...TOTAL, on_hand: '3095.000', available: '3095.000' }] }));
    signIn({ user: makeUser({ is_warehouse: true, permissions: ['inventory.view_stock'] }), tenant: '3' });
    renderApp('/warehouse/inventory?tab=totals');
    expect((await screen.findAllByText('3,095', {}, { timeout: 10_000 })).length).toBeGreaterThan(0);
    expect(screen.queryByText('3095.000')).toBeNull();
  });

  it('offers no editing without the permission', async () => {
    signIn({ user: makeUser({ is_warehouse: true, permissions: ['inventory.view_stock'] }), tenant: '3' });
    renderApp('/warehouse/inventory?tab=totals');
    expect(await screen.findByTestId('reorder-CT-DW-4030')).toHaveTextContent('—');
    expect(screen.queryByRole('button', { name: 'Set the reorder point of CT-DW-4030' })).not.toBeInTheDocument();
  });
});
