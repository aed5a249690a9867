/** The tenant's filed due diligence statement: the numbers the EU information system answered. */
import { post } from '@/api/http';
import type { components } from '@/api/schema';
import { rawMaterialUrl } from './endpoints';
import type { RawMaterial } from './types';

export type FiledDdsInput = components['schemas']['RecordDdsRequest'];

/** Records (or replaces) the filed statement; internal users with change permission; a draft answers 409. */
export const recordFiledDds = (id: number, input: FiledDdsInput) => post<RawMaterial>(`${rawMaterialUrl(id)}filed-dds/`, input);

/** Voids a statement recorded by mistake: the numbers leave the delivery, the record keeps them with the
 * reason (a recorded statement is kept five years and never deleted; docs/duediligence.md). */
export const voidFiledDds = (id: number, reason: string) => post<unknown>(`/api/duediligence/deliveries/${id}/void-statement/`, { reason });

/** Confirms, with a reason, that the plots outside their country of production are right (internal users). */
export const confirmOutsideCountry = (id: number, reason: string) =>
  post<RawMaterial>(`${rawMaterialUrl(id)}confirm-outside-country/`, { reason });
