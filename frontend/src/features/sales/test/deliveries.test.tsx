import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, type MockServer } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { page, startSalesServer, stopSalesServer, warehouses } from './fixtures';

let server: MockServer;

beforeEach(() => {
  server = startSalesServer();
  server.on('GET', '/api/salesorders/deliveries/', ok(page([])));
  server.on('GET', '/api/inventory/warehouses/', ok(page(warehouses)));
});

afterEach(() => stopSalesServer(server));

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
