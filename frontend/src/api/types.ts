/**
 * Payload shapes of the API contract (docs/api-contract.md) that the shell relies on.
 * Generated types for every endpoint live in schema.d.ts (`npm run gen:types`); these hand-written
 * ones cover the envelope and the session objects, which the schema describes only per endpoint.
 */

/** Every response under /api/ (docs/api-contract.md "Envelope"). */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
  error?: string;
}

/** Field errors of a validation error: field name -> messages. */
export type FieldErrors = Record<string, string[]>;

/** `data` of every list endpoint. */
export interface Paginated<T> {
  /** Exact, unless `count_more`: then a lower bound (the server counts up to its limit, 10,000 by default). */
  count: number;
  /** True when the list has more rows than `count`. */
  count_more?: boolean;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface ParentVendorRef {
  id: number;
  name: string;
  cname: string;
}

export type UserType = 'internal' | 'warehouse' | 'supplier';

/** The user object (docs/specification.md section 3 "User info", docs/api-contract.md "Auth"). */
export interface UserInfo {
  id: number;
  username: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  name?: string;
  profile_name?: string;
  visma_id?: string | null;
  visma_owner_id?: string | number | null;
  visma_code?: string | null;
  address?: string;
  city?: string;
  country?: string;
  post_code?: string;
  is_supplier: boolean;
  is_warehouse: boolean;
  is_staff?: boolean;
  user_type?: UserType;
  parent_vendor?: number | ParentVendorRef | null;
  department?: { id: number; name: string } | null;
  language?: string;
  tenants?: TenantRef[];
  permissions?: string[];
}

export interface TenantRef {
  id: string;
  name: string;
}

export interface LoginData {
  access: string;
  refresh: string;
  user: UserInfo;
}

export interface RefreshData {
  access: string;
  refresh?: string;
}

export interface ContentType {
  id: number;
  app_label: string;
  model: string;
}
