import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/session';
import { isExternalUser, layoutFor, userTypeOf } from './userType';

describe('user type', () => {
  it('is warehouse when is_warehouse, even if also a supplier', () => {
    expect(userTypeOf(makeUser({ is_warehouse: true, is_supplier: true }))).toBe('warehouse');
  });
  it('is supplier when is_supplier', () => {
    expect(userTypeOf(makeUser({ is_supplier: true }))).toBe('supplier');
    expect(isExternalUser(makeUser({ is_supplier: true }))).toBe(true);
  });
  it('is internal otherwise', () => {
    expect(userTypeOf(makeUser())).toBe('internal');
    expect(isExternalUser(makeUser())).toBe(false);
  });
});

describe('layout choice', () => {
  it('warehouse user -> warehouse layout', () => {
    expect(layoutFor(makeUser({ is_warehouse: true }))).toBe('warehouse');
    expect(layoutFor(makeUser({ is_warehouse: true, is_supplier: true }))).toBe('warehouse');
  });
  it('supplier (external, non-warehouse) user -> supplier layout', () => {
    expect(layoutFor(makeUser({ is_supplier: true }))).toBe('supplier');
  });
  it('everyone else and no user info yet -> default layout', () => {
    expect(layoutFor(makeUser())).toBe('default');
    expect(layoutFor(null)).toBe('default');
    expect(layoutFor(undefined)).toBe('default');
  });
});
