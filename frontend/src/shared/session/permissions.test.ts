import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/session';
import { mayPermission } from './permissions';

const state = (permissions: string[] | undefined) => ({ userInfo: makeUser({ permissions }) });

describe('mayPermission', () => {
  it('is true when the roles grant the permission', () => {
    expect(mayPermission(state(['products.add_product']), 'products.add_product')).toBe(true);
  });
  it('is false when the loaded list lacks it', () => {
    expect(mayPermission(state(['products.view_product']), 'products.add_product')).toBe(false);
    expect(mayPermission(state([]), 'products.add_product')).toBe(false);
  });
  it('is true while the list is not loaded (the server decides)', () => {
    expect(mayPermission(state(undefined), 'products.add_product')).toBe(true);
  });
});
