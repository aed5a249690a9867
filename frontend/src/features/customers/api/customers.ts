import { useMutation, useQueryClient } from '@tanstack/react-query';
import { del, patch, post } from '@/api/http';
import type { Customer, CustomerInput } from './types';

export const CUSTOMERS_URL = '/api/customers/';
export const customerUrl = (id: number) => `${CUSTOMERS_URL}${id}/`;

export const createCustomer = (input: CustomerInput) => post<Customer>(CUSTOMERS_URL, input);
export const updateCustomer = (id: number, input: CustomerInput) => patch<Customer>(customerUrl(id), input);
export const deleteCustomer = (id: number) => del(customerUrl(id));

/** Refreshes every customer list (the ServerTable's queries start with the endpoint). */
export function useInvalidateCustomers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [CUSTOMERS_URL] });
}

export function useSaveCustomer(id: number | undefined) {
  const invalidate = useInvalidateCustomers();
  return useMutation({
    mutationFn: (input: CustomerInput) => (id === undefined ? createCustomer(input) : updateCustomer(id, input)),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteCustomer() {
  const invalidate = useInvalidateCustomers();
  return useMutation({ mutationFn: deleteCustomer, onSuccess: () => invalidate() });
}
