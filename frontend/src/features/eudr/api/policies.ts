import { useMutation, useQueryClient } from '@tanstack/react-query';
import { del, patch, post } from '@/api/http';
import { POLICIES_URL } from './endpoints';
import type { SupplierPolicy } from './types';

export type SupplierPolicyInput = Omit<SupplierPolicy, 'id' | 'parent_vendor_name' | 'created_at' | 'updated_at'>;

const policyUrl = (id: number) => `${POLICIES_URL}${id}/`;

export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: SupplierPolicyInput }) =>
      id === undefined ? post<SupplierPolicy>(POLICIES_URL, input) : patch<SupplierPolicy>(policyUrl(id), input),
    onSuccess: () => client.invalidateQueries({ queryKey: [POLICIES_URL] }),
  });
}

export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => del(policyUrl(id)),
    onSuccess: () => client.invalidateQueries({ queryKey: [POLICIES_URL] }),
  });
}
