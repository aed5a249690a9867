import { screen } from '@testing-library/react';
import { matchRoutes, type UIMatch } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import type { UserType } from '@/api/types';
import { servesUserType } from '@/shared/routing/routeMeta';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';
import { layoutRoutes, routes } from '../router';

/** Each route declares the kinds of user it serves; any other kind gets the forbidden page. */

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on('GET', '/api/common/dashboard/', ok({ counts: {} }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  server.restore();
  reloadSession();
});

const USERS: Record<UserType, Parameters<typeof makeUser>[0]> = {
  internal: {},
  warehouse: { is_warehouse: true },
  supplier: { is_supplier: true, parent_vendor: { id: 7, name: 'Evergreen', cname: '' } as never },
};

function served(path: string, type: UserType): boolean {
  const matches = (matchRoutes(routes, path) ?? []).map((m) => ({ ...m, handle: m.route.handle as unknown }) as unknown as UIMatch);
  return servesUserType(matches, type);
}

describe('route table: user types', () => {
  it('every page inside a layout declares the user types it serves', () => {
    for (const route of layoutRoutes) {
      const handle = route.handle as { userTypes?: readonly UserType[] };
      expect(handle.userTypes?.length, `route '${route.path ?? ''}'`).toBeGreaterThan(0);
    }
  });

  it.each([
    ['/', ['internal', 'warehouse', 'supplier']],
    ['/profile', ['internal', 'warehouse', 'supplier']],
    ['/warehouse/inventory', ['internal', 'warehouse']],
    ['/supplier/orders', ['supplier']],
    ['/supplier/7/raw-materials/3/edit', ['supplier']],
    ['/purchase/orders', ['internal']],
    ['/purchase/orders/PO-1', ['internal']],
    ['/sales/orders', ['internal']],
    ['/user/1', ['internal']],
    ['/product/1/edit', ['internal']],
  ] as const)('%s serves %j', (path, types) => {
    for (const type of ['internal', 'warehouse', 'supplier'] as const) {
      expect(served(path, type), `${path} for ${type}`).toBe((types as readonly string[]).includes(type));
    }
  });

  it('pages outside the layouts (login, not found) serve everyone', () => {
    expect(served('/auth/login', 'supplier')).toBe(true);
    expect(served('/no/such/page', 'warehouse')).toBe(true);
  });
});

describe('pages for another kind of user', () => {
  it('a supplier who types /purchase/orders gets the forbidden page in the supplier layout', async () => {
    signIn({ user: makeUser(USERS.supplier), tenant: '3' });
    renderApp('/purchase/orders');
    expect(await screen.findByTestId('layout-supplier', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByTestId('forbidden', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('a warehouse user who types /sales/orders gets the forbidden page', async () => {
    signIn({ user: makeUser(USERS.warehouse), tenant: '3' });
    renderApp('/sales/orders');
    expect(await screen.findByTestId('layout-warehouse', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByTestId('forbidden', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('forbidden-need')).toHaveTextContent('This page is for internal users.');
  });

  it('a warehouse user who types a supplier portal address is told the page is for supplier users', async () => {
    signIn({ user: makeUser(USERS.warehouse), tenant: '3' });
    renderApp('/supplier/orders');
    expect(await screen.findByTestId('forbidden-need', {}, { timeout: 10_000 })).toHaveTextContent('This page is for supplier users.');
  });

  it('an internal user without the permission a menu page needs is told which permission', async () => {
    signIn({ user: makeUser({ permissions: ['customers.view_customer'] }), tenant: '3' });
    renderApp('/sales/orders');
    const need = await screen.findByTestId('forbidden-need', {}, { timeout: 10_000 });
    expect(need).toHaveTextContent('salesorders.view_salesorder');
    expect(need).toHaveTextContent('Sales Orders');
  });

  it('an internal user who types a supplier portal address gets the forbidden page', async () => {
    signIn({ user: makeUser(USERS.internal), tenant: '3' });
    renderApp('/supplier/orders');
    expect(await screen.findByTestId('forbidden', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('the own profile opens for a supplier', async () => {
    server.on('GET', '/api/users/me/', ok(makeUser(USERS.supplier)));
    signIn({ user: makeUser(USERS.supplier), tenant: '3' });
    renderApp('/profile');
    expect(await screen.findByTestId('layout-supplier', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByLabelText('Current password', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('forbidden')).toBeNull();
  });
});

describe('offline', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['warehouse', '/warehouse/deliveries'],
    ['supplier', '/profile'],
    ['internal', '/sales/orders'],
  ] as const)('the %s layout shows the offline badge and the page says it cannot load and what still works', async (type, path) => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    signIn({ user: makeUser(USERS[type]), tenant: '3' });
    renderApp(path);
    expect(await screen.findByTestId('offline-badge', {}, { timeout: 10_000 })).toHaveTextContent('Offline');
    const notice = await screen.findByTestId('offline-notice', {}, { timeout: 10_000 });
    expect(notice).toHaveTextContent('cannot load or save data until the connection is back');
    expect(notice).toHaveTextContent('Pages already open keep what they show');
  });
});
