import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post, put } from '@/api/http';
import type { Paginated } from '@/api/types';
import type {
  Department,
  MatrixArea,
  MembershipInput,
  Memberships,
  Role,
  UserAccountInput,
  UserCreateInput,
  UserDetail,
} from './types';

export const USERS_URL = '/api/users/';
export const DEPARTMENTS_URL = '/api/users/departments/';
export const ROLES_URL = '/api/users/roles/';

/** Keys to invalidate: every query of an endpoint starts with it (ServerTable's lists too). */
export const usersKeys = {
  users: [USERS_URL] as const,
  departments: [DEPARTMENTS_URL] as const,
  roles: [ROLES_URL] as const,
};

export const userQuery = (id: string | number) =>
  queryOptions({ queryKey: [USERS_URL, 'detail', String(id)], queryFn: () => get<UserDetail>(`${USERS_URL}${id}/`) });

export const membershipsQuery = (id: string | number) =>
  queryOptions({ queryKey: [USERS_URL, 'memberships', String(id)], queryFn: () => get<Memberships>(`${USERS_URL}${id}/memberships/`) });

export const createUser = (input: UserCreateInput) => post<UserDetail>(USERS_URL, input);
export const updateUser = (id: number, input: Partial<UserAccountInput>) => patch<UserDetail>(`${USERS_URL}${id}/`, input);
export const deactivateUser = (id: number) => post<UserDetail>(`${USERS_URL}${id}/deactivate/`);
export const activateUser = (id: number) => post<UserDetail>(`${USERS_URL}${id}/activate/`);
export const resetPassword = (id: number, password: string) => post<null>(`${USERS_URL}${id}/reset-password/`, { password });
export const setMemberships = (id: number, memberships: MembershipInput[]) =>
  put<Memberships>(`${USERS_URL}${id}/memberships/`, { memberships });

export function useInvalidateUsers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: usersKeys.users });
}

/** Roles and departments of the current company, for selects. */
export function useRoleOptions() {
  return useQuery({
    queryKey: [ROLES_URL, 'options'],
    queryFn: () => get<Paginated<Role>>(ROLES_URL, { params: { page_size: 200 } }),
    select: (data) => data.results,
    staleTime: 60_000,
  });
}

export function useDepartmentOptions() {
  return useQuery({
    queryKey: [DEPARTMENTS_URL, 'options'],
    queryFn: () => get<Paginated<Department>>(DEPARTMENTS_URL, { params: { page_size: 200 } }),
    select: (data) => data.results,
    staleTime: 60_000,
  });
}

/** Parent vendors of the current company, for supplier users (read through the suppliers API). */
export function useVendorOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['/api/suppliers/parent-vendors/', 'options'],
    queryFn: () =>
      get<Paginated<{ id: number; name: string; cname: string }>>('/api/suppliers/parent-vendors/', {
        params: { page_size: 200, ordering: 'name' },
      }),
    select: (data) => data.results,
    enabled,
    staleTime: 60_000,
  });
}

export const createDepartment = (input: Partial<Department>) => post<Department>(DEPARTMENTS_URL, input);
export const updateDepartment = (id: number, input: Partial<Department>) => patch<Department>(`${DEPARTMENTS_URL}${id}/`, input);
export const deleteDepartment = (id: number) => del(`${DEPARTMENTS_URL}${id}/`);

export const createRole = (input: Pick<Role, 'name' | 'description'>) => post<Role>(ROLES_URL, input);
export const updateRole = (id: number, input: Partial<Pick<Role, 'name' | 'description'>>) => patch<Role>(`${ROLES_URL}${id}/`, input);
export const deleteRole = (id: number) => del(`${ROLES_URL}${id}/`);
export const setRolePermissions = (id: number, permissions: string[]) => put<Role>(`${ROLES_URL}${id}/permissions/`, { permissions });

export function usePermissionMatrix() {
  return useQuery({
    queryKey: [ROLES_URL, 'permission-matrix'],
    queryFn: () => get<{ areas: MatrixArea[] }>(`${ROLES_URL}permission-matrix/`),
    staleTime: Infinity,
  });
}

export function useAllRoles() {
  return useQuery({
    queryKey: [ROLES_URL, 'all'],
    queryFn: () => get<Paginated<Role>>(ROLES_URL, { params: { page_size: 200 } }),
    select: (data) => data.results,
  });
}
