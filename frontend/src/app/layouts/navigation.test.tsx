import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../router';
import type { MenuNode } from '@/shared/components/menu/MenuList';
import { DEFAULT_MENU, WAREHOUSE_MENU, isGroup, selectedMenuKey, toMenuEntries, type NavNode } from './navigation';

function leafPaths(nodes: readonly NavNode[]): string[] {
  return nodes.flatMap((node) => (isGroup(node) ? leafPaths(node.children) : [node.to]));
}

const t = ((key: string) => key) as never;

describe('menus', () => {
  it.each([...leafPaths(DEFAULT_MENU), ...leafPaths(WAREHOUSE_MENU)])('menu entry %s leads to a route of the table', (path) => {
    const matches = matchRoutes(routes, path) ?? [];
    const leaf = matches[matches.length - 1];
    expect(leaf?.route.path).not.toBe('*');
    expect(leaf?.route.path).toBeDefined();
  });

  it('has every top-level area of docs/specification.md', () => {
    expect(DEFAULT_MENU.map((node) => node.label)).toEqual([
      'menu.sales',
      'menu.purchase',
      'menu.warehouse',
      'menu.products',
      'menu.core',
      'menu.dataReport',
    ]);
  });

  it('hides the staff-only printer tests from other users', () => {
    const all = (entries: MenuNode[]): string[] =>
      entries.flatMap((entry) => ('divider' in entry ? [] : [entry.key, ...all(entry.children ?? [])]));
    expect(all(toMenuEntries(DEFAULT_MENU, t, true))).toContain('/test/printer');
    expect(all(toMenuEntries(DEFAULT_MENU, t, false))).not.toContain('/test/printer');
    expect(all(toMenuEntries(DEFAULT_MENU, t, false))).toContain('/printer/devices');
  });

  it("shows each user only the entries their permissions open, and no empty group", () => {
    const all = (entries: MenuNode[]): string[] =>
      entries.flatMap((entry) => ('divider' in entry ? [] : [entry.key, ...all(entry.children ?? [])]));
    // What the Sales role grants (apps/users/roles.py): sales, customers, reading products, logistics,
    // inventory and reports.
    const sales = [
      'salesorders.view_salesorder',
      'salesorders.add_salesorder',
      'salesorders.view_shipment',
      'salesorders.view_invoice',
      'customers.view_customer',
      'products.view_product',
      'products.view_productgroup',
      'logistics.view_shipmentinfo',
      'logistics.view_shipmentcompany',
      'inventory.view_stock',
      'reports.view_savedreport',
    ];
    const seen = all(toMenuEntries(DEFAULT_MENU, t, false, sales));
    expect(seen).toEqual(expect.arrayContaining(['/sales/orders', '/sales/invoices', '/sales/customer', '/product', '/reports']));
    for (const hidden of ['/purchase/orders', '/purchase/suppliers', '/purchase/eudr/raw-materials', '/printer/devices', '/core/email-scenarios']) {
      expect(seen).not.toContain(hidden);
    }
    expect(seen).not.toContain('group:menu.core');
    expect(seen.filter((key) => key.startsWith('group:menu.purchase/group:menu.eudrTracking'))).toEqual([]);
    // No permissions: only the entry that needs none (import and export offers what the user may import);
    // permissions not loaded yet: every entry.
    expect(all(toMenuEntries(DEFAULT_MENU, t, false, [])).filter((key) => !key.startsWith('group:'))).toEqual(['/reports/import-export']);
    expect(all(toMenuEntries(DEFAULT_MENU, t, false, undefined))).toContain('/purchase/orders');
  });

  it('selects the longest matching entry', () => {
    expect(selectedMenuKey(DEFAULT_MENU, '/purchase/eudr/raw-materials/12')).toBe('/purchase/eudr/raw-materials');
    expect(selectedMenuKey(DEFAULT_MENU, '/product/5/edit')).toBe('/product');
    expect(selectedMenuKey(DEFAULT_MENU, '/product-group')).toBe('/product-group');
    expect(selectedMenuKey(DEFAULT_MENU, '/profile')).toBeUndefined();
  });
});

describe('route table', () => {
  const spec = [
    '/', '/auth/login', '/eudrtrace/ABC',
    '/sales/customer', '/sales/sales-order-detail', '/sales/shipment', '/sales/orders', '/sales/orders/1', '/sales/quotations', '/sales/quotations/create', '/sales/quotations/1', '/sales/quotations/1/edit', '/sales/invoices', '/sales/invoices/1', '/sales/deliveries', '/sales/deliveries/1',
    '/warehouse/inventory', '/warehouse/shipments', '/warehouse/logistics', '/warehouse/deliveries', '/profile',
    '/supplier/raw-materials', '/supplier/orders',
    '/product', '/product/create', '/product/1', '/product/1/edit', '/product-group',
    '/purchase/suppliers', '/purchase/suppliers/1', '/purchase/orders', '/purchase/orders/PO-1', '/purchase/receipts', '/purchase/receipts/1', '/purchase/shipments',
    '/purchase/shipment-companies', '/purchase/shipment-companies/create', '/purchase/shipment-companies/DHL', '/purchase/eudr/raw-materials', '/purchase/eudr/raw-materials/1',
    '/purchase/eudr/supplier-policies', '/purchase/eudr/forest-layers', '/purchase/eudr/annual-report', '/purchase/eudr/received-references', '/purchase/parent-vendors', '/customer', '/user', '/user/1', '/user/departments', '/user/permissions',
    '/reports', '/reports/test', '/reports/import-export', '/core/email-scenarios', '/printer/devices', '/printer/demo', '/printer/integration',
    '/test/comments', '/test/layout', '/test/user-debug', '/test/printer', '/test/printer-start',
  ];

  it.each(spec)('registers %s with a title', (path) => {
    const matches = matchRoutes(routes, path) ?? [];
    const leaf = matches[matches.length - 1];
    expect(leaf?.route.path).not.toBe('*');
    const handle: unknown = leaf?.route.handle;
    expect(handle).toMatchObject({ title: expect.stringMatching(/^nav:routes\./) as unknown });
  });

  it('marks the /test/* pages staff-only and the login page public', () => {
    const leafHandle = (path: string): unknown => (matchRoutes(routes, path) ?? []).at(-1)?.route.handle;
    expect(leafHandle('/test/comments')).toMatchObject({ staffOnly: true, requiresAuth: true });
    expect(leafHandle('/auth/login')).toMatchObject({ requiresAuth: false });
    expect(leafHandle('/sales/orders/1')).toMatchObject({ requiresAuth: true });
  });

  it('sends unknown paths to the not-found page', () => {
    expect((matchRoutes(routes, '/nothing/here') ?? []).at(-1)?.route.path).toBe('*');
  });

  it('does not let /user/:id swallow /user/create', () => {
    expect((matchRoutes(routes, '/user/create') ?? []).at(-1)?.route.path).toBe('user/create');
  });
});
