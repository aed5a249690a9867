/** Payloads of /api/customers/ (backend apps/customers/api/serializers.py). */

export interface CustomerContact {
  id?: number | null;
  name: string;
  role: string;
  email: string;
  phone: string;
}

export interface Customer {
  id: number;
  number: string;
  name: string;
  email: string;
  phone: string;
  vat_id: string;
  visma_code: string;
  currency: string;
  payment_terms_days: number;
  billing_street: string;
  billing_post_code: string;
  billing_city: string;
  billing_country: string;
  delivery_street: string;
  delivery_post_code: string;
  delivery_city: string;
  delivery_country: string;
  is_active: boolean;
  notes: string;
  contacts: CustomerContact[];
  created_at: string;
  updated_at: string;
}

export type CustomerInput = Omit<Customer, 'id' | 'created_at' | 'updated_at'>;
