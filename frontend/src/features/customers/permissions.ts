export const CUSTOMER_PERMS = {
  add: 'customers.add_customer',
  change: 'customers.change_customer',
  delete: 'customers.delete_customer',
} as const;
