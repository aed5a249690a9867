/**
 * The tenant rule of docs/specification.md section 5: every request carries `tenant_id` from storage as a query
 * parameter, except requests to paths containing /api/eudrtrack/ or /api/printer/, where it is removed.
 */
export const TENANT_PARAM = 'tenant_id';
const TENANTLESS_PATHS = ['/api/eudrtrack/', '/api/printer/'];

export function isTenantless(url: string | undefined): boolean {
  return TENANTLESS_PATHS.some((path) => (url ?? '').includes(path));
}

type Params = Record<string, unknown> | URLSearchParams | undefined;

function withoutTenantInUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = new URLSearchParams(url.slice(queryStart + 1));
  if (!query.has(TENANT_PARAM)) return url;
  query.delete(TENANT_PARAM);
  const rest = query.toString();
  return url.slice(0, queryStart) + (rest ? `?${rest}` : '');
}

export interface TenantParamResult {
  url: string | undefined;
  params: Params;
  /** True when the request needed a tenant but none is stored (the caller logs a warning). */
  missing: boolean;
}

export function applyTenantParam(url: string | undefined, params: Params, tenantId: string | null): TenantParamResult {
  if (isTenantless(url)) {
    let cleaned: Params = params;
    if (params instanceof URLSearchParams) {
      cleaned = new URLSearchParams(params);
      cleaned.delete(TENANT_PARAM);
    } else if (params && TENANT_PARAM in params) {
      const { [TENANT_PARAM]: _removed, ...rest } = params;
      cleaned = rest;
    }
    return { url: url === undefined ? url : withoutTenantInUrl(url), params: cleaned, missing: false };
  }
  if (!tenantId) return { url, params, missing: true };
  if (params instanceof URLSearchParams) {
    const next = new URLSearchParams(params);
    next.set(TENANT_PARAM, tenantId);
    return { url, params: next, missing: false };
  }
  return { url: url === undefined ? url : withoutTenantInUrl(url), params: { ...(params ?? {}), [TENANT_PARAM]: tenantId }, missing: false };
}
