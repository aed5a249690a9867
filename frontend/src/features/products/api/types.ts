/**
 * Payloads of /api/products/ and /api/products/groups/ (backend apps/products/api/serializers.py), from the
 * generated schema. Decimal values arrive and leave as strings.
 */
import type { components } from '@/api/schema';

type S = components['schemas'];
export type ProductUnit = S['UnitEnum'];
export const PRODUCT_UNITS: readonly ProductUnit[] = ['pcs', 'carton', 'set', 'pack', 'roll', 'pallet', 'kg', 'm2'];

export type Product = S['Product'];
export type ProductInput = S['ProductRequest'];
export type ProductGroup = S['ProductGroup'];
export type ProductGroupInput = S['ProductGroupRequest'];

/** A node of `GET /api/products/groups/tree/`: the schema describes `children` only as objects; they are
 * nodes of the same shape. */
export type ProductGroupNode = Omit<S['ProductGroupTree'], 'children'> & { children: ProductGroupNode[] };
