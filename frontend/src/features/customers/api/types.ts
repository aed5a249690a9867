/** Payloads of /api/customers/ (backend apps/customers/api/serializers.py), from the generated schema. */
import type { components } from '@/api/schema';

type S = components['schemas'];
export type Customer = S['Customer'];
export type CustomerContact = S['CustomerContact'];
export type CustomerInput = S['CustomerRequest'];
