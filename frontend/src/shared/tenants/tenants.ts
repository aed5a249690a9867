/** Tenants (companies): the list comes from the server (docs/design.md section 8); the choice is stored. */
import { TENANTS_URL } from '@/api/endpoints';
import { get } from '@/api/http';
import type { TenantRef } from '@/api/types';
import { getSession, isAuthenticated, setTenantId } from '@/shared/session/sessionStore';

export { TENANTS_URL };
export const TENANTS_QUERY_KEY = ['tenants'] as const;

export function fetchTenants(): Promise<TenantRef[]> {
  return get<TenantRef[]>(TENANTS_URL);
}

/**
 * Start-up step two: keep the stored tenant if the user belongs to it, else default to the first of
 * the user's tenants. Skipped when signed out; a failure is only logged (docs/specification.md section 8).
 */
export async function ensureTenant(load: () => Promise<TenantRef[]> = fetchTenants): Promise<string | null> {
  if (!isAuthenticated()) return getSession().tenantId;
  try {
    const tenants = await load();
    const stored = getSession().tenantId;
    if (stored && tenants.some((t) => String(t.id) === stored)) return stored;
    const first = tenants[0];
    if (first) {
      setTenantId(String(first.id));
      return String(first.id);
    }
    console.error('The signed-in user belongs to no tenant.');
    return stored;
  } catch (error) {
    console.error('Tenants could not be loaded.', error);
    return getSession().tenantId;
  }
}

/** Choosing a tenant stores it and reloads the whole page (docs/specification.md section 2 "Tenant selector"). */
export function switchTenant(tenantId: string, reload: () => void = () => window.location.reload()): void {
  setTenantId(tenantId);
  reload();
}
