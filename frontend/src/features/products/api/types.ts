/**
 * Payloads of /api/products/ and /api/products/groups/ (backend apps/products/api/serializers.py).
 * Decimal values arrive and leave as strings.
 */

export type ProductUnit = 'pcs' | 'carton' | 'set' | 'pack' | 'roll' | 'pallet' | 'kg' | 'm2';
export const PRODUCT_UNITS: readonly ProductUnit[] = ['pcs', 'carton', 'set', 'pack', 'roll', 'pallet', 'kg', 'm2'];

export interface Product {
  id: number;
  article_number: string;
  name: string;
  name_zh: string;
  group: number | null;
  group_name: string | null;
  group_path: string | null;
  unit: ProductUnit;
  weight_per_carton_kg: string | null;
  carton_length_mm: number | null;
  carton_width_mm: number | null;
  carton_height_mm: number | null;
  hs_code: string;
  is_active: boolean;
  purchase_price: string | null;
  sales_price: string | null;
  currency: string;
  description: string;
  barcode: string;
  visma_code: string;
  created_at: string;
  updated_at: string;
}

export type ProductInput = Omit<Product, 'id' | 'group_name' | 'group_path' | 'created_at' | 'updated_at'>;

export interface ProductGroup {
  id: number;
  name: string;
  code: string;
  description: string;
  parent: number | null;
  parent_name: string | null;
  path: string;
  depth: number;
  product_count: number;
  children_count: number;
}

export interface ProductGroupInput {
  name: string;
  code: string;
  description: string;
  parent: number | null;
}

/** A node of `GET /api/products/groups/tree/`. */
export interface ProductGroupNode {
  id: number;
  name: string;
  code: string;
  description: string;
  parent: number | null;
  depth: number;
  product_count: number;
  children_count: number;
  children: ProductGroupNode[];
}
