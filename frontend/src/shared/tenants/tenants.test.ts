import { describe, expect, it, vi } from 'vitest';
import { signIn } from '@/test/session';
import { getSession, reloadSession } from '@/shared/session/sessionStore';
import { ensureTenant, switchTenant } from './tenants';

const TENANTS = [
  { id: '2', name: 'Packaging Co' },
  { id: '3', name: 'Trading Co' },
];

describe('ensureTenant', () => {
  it('defaults to the first tenant when none is stored', async () => {
    signIn({ tenant: null });
    expect(await ensureTenant(() => Promise.resolve(TENANTS))).toBe('2');
    expect(window.localStorage.getItem('tenant_id')).toBe('2');
  });

  it('keeps a stored tenant the user belongs to', async () => {
    signIn({ tenant: '3' });
    expect(await ensureTenant(() => Promise.resolve(TENANTS))).toBe('3');
  });

  it('replaces a stored tenant the user does not belong to', async () => {
    signIn({ tenant: '1' });
    expect(await ensureTenant(() => Promise.resolve(TENANTS))).toBe('2');
    expect(getSession().tenantId).toBe('2');
  });

  it('is skipped when signed out', async () => {
    reloadSession();
    const load = vi.fn();
    await ensureTenant(load);
    expect(load).not.toHaveBeenCalled();
  });

  it('only logs a load failure', async () => {
    signIn({ tenant: '3' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await ensureTenant(() => Promise.reject(new Error('down')))).toBe('3');
    expect(error).toHaveBeenCalled();
  });
});

describe('switchTenant', () => {
  it('stores the tenant and reloads the whole page', () => {
    const reload = vi.fn();
    switchTenant('3', reload);
    expect(window.localStorage.getItem('tenant_id')).toBe('3');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
