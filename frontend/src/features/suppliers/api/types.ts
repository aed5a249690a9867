/** Payloads of /api/suppliers/ and /api/suppliers/parent-vendors/ (backend apps/suppliers/api). */

export interface ParentVendor {
  id: number;
  name: string;
  cname: string;
  code: string;
  contact: string;
  email: string;
  phone: string;
  country: string;
  is_active: boolean;
  supplier_count: number;
  created_at: string | null;
  updated_at: string | null;
}

export type ParentVendorInput = Pick<ParentVendor, 'name' | 'cname' | 'code' | 'contact' | 'email' | 'phone' | 'country' | 'is_active'>;

export interface ParentVendorRef {
  id: number;
  name: string;
  cname: string;
  code: string;
}

export interface SupplierContact {
  name: string;
  role: string;
  email: string;
  phone: string;
}

export interface Supplier {
  id: number;
  number: string;
  name: string;
  parent_vendor: number;
  parent_vendor_detail: ParentVendorRef;
  country: string;
  address: string;
  contacts: SupplierContact[];
  email: string;
  phone: string;
  visma_code: string;
  payment_terms: string;
  currency: string;
  is_active: boolean;
  notes: string;
  created_at: string;
  updated_at: string;
}

export type SupplierInput = Omit<Supplier, 'id' | 'parent_vendor_detail' | 'created_at' | 'updated_at'>;
