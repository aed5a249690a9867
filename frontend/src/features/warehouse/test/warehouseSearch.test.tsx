import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import { traceCodeOf, WarehouseSearch } from '../components/WarehouseSearch';

const SEARCH = '/api/inventory/search/';
const CARTON = { type: 'carton', id: 9, label: 'CT7K2M9QX4 · CT-DW-4030', url: '/warehouse/inventory?carton=CT7K2M9QX4', code: 'CT7K2M9QX4' };

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

function renderSearch() {
  initI18n('en', allResources());
  const router = createMemoryRouter(
    [
      { path: '/', element: <WarehouseSearch /> },
      { path: '/warehouse/inventory', element: <div data-testid="inventory" /> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return router;
}

const searches = () => server.requests.filter((r) => r.method === 'GET' && r.url.split('?')[0] === SEARCH);

describe('the warehouse search', () => {
  it('reads a carton code out of a trace URL', () => {
    expect(traceCodeOf('https://trace.example.com/eudrtrace/CT7K2M9QX4')).toBe('CT7K2M9QX4');
    expect(traceCodeOf(' http://127.0.0.1:8000/eudrtrace/CT7K2M9QX4/?from=qr ')).toBe('CT7K2M9QX4');
    expect(traceCodeOf('CT7K2M9QX4')).toBeNull();
    expect(traceCodeOf('https://example.com/other/CT7K2M9QX4')).toBeNull();
  });

  it('looks up what was typed once typing pauses, not per keystroke', async () => {
    server.on('GET', SEARCH, ok([CARTON]));
    renderSearch();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('warehouse-search'), 'CT7K2M');
    await waitFor(() => expect(searches()).toHaveLength(1));
    expect(searches()[0]?.params).toMatchObject({ q: 'CT7K2M' });
    expect(await screen.findByText('Carton: CT7K2M9QX4 · CT-DW-4030')).toBeInTheDocument();
    expect(searches()).toHaveLength(1);
  });

  it('searches at once on Enter and opens a scanned carton with one request', async () => {
    server.on('GET', SEARCH, ok([CARTON]));
    const router = renderSearch();
    // As a scanner sends it: the whole code, then Enter, with no pause between (typed key by key on a
    // busy machine, a pause over the debounce would send a search of its own before Enter).
    const field = screen.getByTestId('warehouse-search');
    const input = field instanceof HTMLInputElement ? field : (field.querySelector('input') ?? field);
    fireEvent.change(input, { target: { value: 'CT7K2M9QX4' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(router.state.location.search).toBe('?carton=CT7K2M9QX4'));
    expect(await screen.findByTestId('inventory')).toBeInTheDocument();
    expect(searches()).toHaveLength(1);
    expect(searches()[0]?.params).toMatchObject({ q: 'CT7K2M9QX4' });
  });

  it('opens the carton of a scanned trace URL directly, without a search', async () => {
    server.on('GET', SEARCH, ok([]));
    const router = renderSearch();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('warehouse-search'), 'https://trace.example.com/eudrtrace/CT7K2M9QX4{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/warehouse/inventory'));
    expect(router.state.location.search).toBe('?carton=CT7K2M9QX4');
    expect(searches()).toHaveLength(0);
  });
});
