import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });
const warehouses = [
  { id: 1, code: 'MAIN', name: 'Main warehouse', address: '', is_default: true, is_active: true, locations: [] },
  { id: 2, code: 'SH', name: 'Shanghai hub', address: '', is_default: false, is_active: true, locations: [] },
];

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/salesorders/deliveries/', ok(page([])));
  server.on('GET', '/api/inventory/warehouses/', ok(page(warehouses)));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ user: makeUser({ id: 2, username: 'seller' }), tenant: '3' });
});

afterEach(() => {
  server.restore();
  reloadSession();
});

const deliveryParams = () => server.requests.filter((r) => r.url.startsWith('/api/salesorders/deliveries/')).map((r) => r.params);

describe('the delivery schedule', () => {
  it('filters the list by warehouse through the URL', async () => {
    const { router } = renderApp('/sales/deliveries');
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Warehouse' }));
    fireEvent.click(await screen.findByText('SH Shanghai hub'));
    await waitFor(() => expect(router.state.location.search).toContain('warehouse=2'));
    await waitFor(() => expect(deliveryParams().some((p) => String(p.warehouse) === '2')).toBe(true));
  });

  it('asks the calendar for the warehouse of the URL', async () => {
    renderApp('/sales/deliveries?view=week&warehouse=1&date=2026-03-04');
    await waitFor(() =>
      expect(deliveryParams()).toContainEqual(expect.objectContaining({ warehouse: '1', due_from: '2026-03-02', due_to: '2026-03-08' })),
    );
  });
});
