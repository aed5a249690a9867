import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/common/dashboard/', ok({ counts: { products: 4, mystery: 1 } }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

describe('app shell routing', () => {
  it('sends a visit to a protected route without a session to the login page with the way back', async () => {
    reloadSession();
    const { router } = renderApp('/sales/orders?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fsales%2Forders%3Fpage%3D2');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sign in | CartonTrace'));
  });

  it('shows the not-found page for an unknown path', async () => {
    reloadSession();
    renderApp('/no/such/page');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });

  it('chooses the warehouse layout for a warehouse user', async () => {
    const empty = ok({ count: 0, next: null, previous: null, results: [] });
    server.on('GET', '/api/inventory/warehouses/', empty);
    server.on('GET', '/api/products/groups/', empty);
    server.on('GET', '/api/inventory/stock/', empty);
    signIn({ user: makeUser({ is_warehouse: true }), tenant: '3' });
    renderApp('/warehouse/inventory');
    expect(await screen.findByTestId('layout-warehouse')).toBeInTheDocument();
    // The real Inventory page (no longer a placeholder), not the forbidden page.
    expect(await screen.findByRole('heading', { level: 1, name: 'Inventory' })).toBeInTheDocument();
    expect(screen.queryByTestId('forbidden')).not.toBeInTheDocument();
    await waitFor(() => expect(server.count('GET', '/api/inventory/stock/')).toBeGreaterThan(0));
    await waitFor(() => expect(document.title).toBe('Inventory | CartonTrace'));
  });

  it('chooses the supplier layout and disables Orders without a parent vendor', async () => {
    signIn({ user: makeUser({ is_supplier: true, parent_vendor: null }), tenant: '3' });
    renderApp('/supplier/raw-materials');
    expect(await screen.findByTestId('layout-supplier')).toBeInTheDocument();
    const orders = await screen.findByTestId('supplier-menu-orders');
    expect(orders).toHaveAttribute('role', 'menuitem');
    expect(orders).toHaveAttribute('aria-disabled', 'true');
    expect(orders.closest('a')).toBeNull();
  });

  it('redirects a supplier known only from storage to the stored vendor raw materials', async () => {
    window.localStorage.setItem('current_parent_vendor_id', '44');
    signIn({ user: makeUser({ is_supplier: true, parent_vendor: null }), tenant: '3' });
    const { router } = renderApp('/supplier/orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/supplier/44/raw-materials'));
  });

  it('uses the default layout for internal users and shows the dashboard', async () => {
    signIn({ user: makeUser({ name: 'Ada' }), tenant: '3' });
    renderApp('/');
    expect(await screen.findByTestId('layout-default')).toBeInTheDocument();
    expect(await screen.findByText('Welcome, Ada')).toBeInTheDocument();
    const counts = await screen.findByTestId('home-counts');
    expect(counts).toHaveTextContent('Active products');
    expect(counts).toHaveTextContent('4');
    expect(counts).toHaveTextContent('Mystery');
    expect(within(screen.getByTestId('app-header')).getByTestId('language-switcher')).toBeInTheDocument();
  });

  it('shows the /test/* pages to staff only', async () => {
    signIn({ user: makeUser({ is_staff: false }), tenant: '3' });
    const first = renderApp('/test/user-debug');
    expect(await screen.findByTestId('forbidden')).toBeInTheDocument();
    expect(screen.getByTestId('forbidden-need')).toHaveTextContent('This page is for staff accounts only.');
    first.unmount();
    signIn({ user: makeUser({ is_staff: true }), tenant: '3' });
    renderApp('/test/user-debug');
    expect(await screen.findByTestId('user-info-json')).toBeInTheDocument();
  });

  it('says in words that signing in needs a connection when the device is offline', async () => {
    // Signed out, whatever an earlier test left in storage.
    localStorage.clear();
    sessionStorage.clear();
    reloadSession();
    server.on('POST', '/api/users/login/', () => 'network-error');
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp('/auth/login');
    const form = await screen.findByTestId('login-form', {}, { timeout: 10_000 });
    const input = (name: string) => form.querySelector(`input[autocomplete="${name}"]`) as HTMLInputElement;
    fireEvent.change(input('username'), { target: { value: 'ada' } });
    fireEvent.change(input('current-password'), { target: { value: 'secret' } });
    fireEvent.submit(form);
    expect(await screen.findByTestId('login-error', {}, { timeout: 10_000 })).toHaveTextContent('You are offline: signing in needs a connection');
    onLine.mockRestore();
  });
});
