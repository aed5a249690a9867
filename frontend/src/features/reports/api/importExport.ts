/** The lists the import/export page offers: each endpoint answers export/, import-template/ and import/. */
export const IMPORT_EXPORT_ENDPOINTS = {
  products: '/api/products/',
  productGroups: '/api/products/groups/',
  customers: '/api/customers/',
  suppliers: '/api/suppliers/',
  parentVendors: '/api/suppliers/parent-vendors/',
} as const;

/** Keys to invalidate after an import: every query of the list starts with its endpoint. */
export const importExportKeys = { list: (endpoint: string) => [endpoint] as const };
