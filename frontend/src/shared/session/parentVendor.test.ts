import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/session';
import { resolveParentVendor, supplierPath, supplierRedirect } from './parentVendor';

describe('parent vendor resolution', () => {
  const all = { routeParam: '20', queryPv: '30', stored: '40' };
  it('prefers user info, then route parameter, then query pv, then the stored value', () => {
    expect(resolveParentVendor({ user: makeUser({ parent_vendor: { id: 10, name: 'A', cname: 'A' } }), ...all })).toEqual({ id: '10', source: 'user' });
    expect(resolveParentVendor({ user: makeUser(), ...all })).toEqual({ id: '20', source: 'route' });
    expect(resolveParentVendor({ user: makeUser(), ...all, routeParam: undefined })).toEqual({ id: '30', source: 'query' });
    expect(resolveParentVendor({ user: null, routeParam: null, queryPv: '', stored: '40' })).toEqual({ id: '40', source: 'stored' });
    expect(resolveParentVendor({ user: null, routeParam: null, queryPv: null, stored: null })).toEqual({ id: null, source: null });
  });
});

describe('supplier redirect rule', () => {
  it('sends a supplier known only from storage to the stored vendor raw materials', () => {
    expect(supplierRedirect('/supplier/orders', { id: '40', source: 'stored' })).toBe('/supplier/40/raw-materials');
  });
  it('leaves other cases alone', () => {
    expect(supplierRedirect('/supplier/orders', { id: '10', source: 'user' })).toBeNull();
    expect(supplierRedirect('/supplier/20/orders', { id: '20', source: 'route' })).toBeNull();
    expect(supplierRedirect('/profile', { id: '40', source: 'stored' })).toBeNull();
    expect(supplierRedirect('/supplier/orders', { id: null, source: null })).toBeNull();
  });
  it('builds portal paths that keep the source', () => {
    expect(supplierPath('orders', { id: '10', source: 'user' })).toBe('/supplier/orders');
    expect(supplierPath('orders', { id: '20', source: 'route' })).toBe('/supplier/20/orders');
    expect(supplierPath('raw-materials', { id: '30', source: 'query' })).toBe('/supplier/raw-materials?pv=30');
  });
});
