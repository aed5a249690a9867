import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

  it('lays a month out seven days a row, Monday first, the first day under its weekday', async () => {
    const original = window.matchMedia;
    window.matchMedia = vi.fn((query: string) => ({ ...original(query), matches: query === '(min-width: 992px)' }));
    try {
      renderApp('/sales/deliveries?view=month&date=2026-03-10');
      const calendar = await screen.findByTestId('delivery-calendar');
      expect(calendar.style.gridTemplateColumns).toBe('repeat(7, minmax(0, 1fr))');
      const cells = Array.from(calendar.children);
      // Seven weekday names, then six blank cells: 1 March 2026 is a Sunday.
      expect(cells.slice(0, 7).map((cell) => cell.textContent)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
      expect(cells.slice(7, 13).every((cell) => cell.textContent === '')).toBe(true);
      const days = screen.getAllByTestId('calendar-day');
      expect(days).toHaveLength(31);
      expect(cells[13]).toBe(days[0]);
      expect(days[0]?.getAttribute('data-day')).toBe('2026-03-01');
      expect(days[0]?.textContent).toContain('Sun');
    } finally {
      window.matchMedia = original;
    }
  });

  it('lists the days one under another on a narrow screen', async () => {
    renderApp('/sales/deliveries?view=week&date=2026-03-04');
    const calendar = await screen.findByTestId('delivery-calendar');
    expect(calendar.style.gridTemplateColumns).toBe('minmax(0, 1fr)');
    expect(screen.getAllByTestId('calendar-day')).toHaveLength(7);
    expect(calendar.children[0]?.getAttribute('data-day')).toBe('2026-03-02');
  });
});
