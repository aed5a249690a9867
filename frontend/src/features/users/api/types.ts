/** Payloads of the users admin (/api/users/, departments, roles; backend apps/users/api). */
import type { UserType } from '@/api/types';

export interface NamedRef {
  id: number;
  name: string;
}

export interface VendorRef {
  id: number;
  name: string;
  cname: string;
}

export interface UserRow {
  id: number;
  username: string;
  name: string;
  profile_name: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  user_type: UserType;
  is_active: boolean;
  is_supplier: boolean;
  is_warehouse: boolean;
  parent_vendor: VendorRef | null;
  roles: NamedRef[];
  department: NamedRef | null;
  membership_active: boolean;
  last_login: string | null;
  date_joined: string;
}

export interface UserDetail extends Omit<UserRow, 'parent_vendor'> {
  visma_id: string;
  visma_owner_id: string;
  visma_code: string;
  address: string;
  city: string;
  country: string;
  post_code: string;
  language: string;
  parent_vendor: number | null;
  parent_vendor_detail: VendorRef | null;
  can_manage_account: boolean;
}

export interface UserAccountInput {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  name: string;
  profile_name: string;
  phone: string;
  visma_id: string;
  visma_owner_id: string;
  visma_code: string;
  address: string;
  city: string;
  country: string;
  post_code: string;
  language: string;
  user_type: UserType;
  parent_vendor: number | null;
}

export interface UserCreateInput extends Partial<UserAccountInput> {
  username: string;
  password: string;
  role_ids?: number[];
  department_id?: number | null;
}

export interface Membership {
  tenant: { id: string; name: string };
  is_member: boolean;
  is_active: boolean;
  roles: number[];
  department: number | null;
  available_roles: NamedRef[];
  available_departments: NamedRef[];
}

export interface Memberships {
  memberships: Membership[];
  other_tenants: { id: string; name: string }[];
}

export interface MembershipInput {
  tenant: number;
  roles: number[];
  department: number | null;
  is_active: boolean;
}

export interface Department {
  id: number;
  name: string;
  description: string;
  parent: number | null;
  parent_name: string | null;
  member_count: number;
}

export interface Role {
  id: number;
  name: string;
  description: string;
  permissions: string[];
  user_count: number;
}

export type MatrixAction = 'view' | 'add' | 'change' | 'delete';

export interface MatrixModel {
  model: string;
  name: string;
  permissions: Record<MatrixAction, string | null>;
  extra: { codename: string; name: string }[];
}

export interface MatrixArea {
  app_label: string;
  name: string;
  models: MatrixModel[];
}
