/** Payloads of /api/suppliers/ and /api/suppliers/parent-vendors/ (backend apps/suppliers/api), from the
 * generated schema. */
import type { components } from '@/api/schema';

type S = components['schemas'];
export type ParentVendor = S['ParentVendor'];
export type ParentVendorInput = S['ParentVendorRequest'];
export type ParentVendorRef = S['ParentVendorRef'];
export type Supplier = S['Supplier'];
export type SupplierContact = S['SupplierContact'];
export type SupplierInput = S['SupplierRequest'];
