/** The tenant's filed due diligence statement: the numbers the EU information system answered. */
import { del, post } from '@/api/http';
import type { components } from '@/api/schema';
import { rawMaterialUrl } from './endpoints';
import type { RawMaterial } from './types';

export type FiledDdsInput = components['schemas']['RecordDdsRequest'];

/** Records (or replaces) the filed statement; internal users with change permission; a draft answers 409. */
export const recordFiledDds = (id: number, input: FiledDdsInput) => post<RawMaterial>(`${rawMaterialUrl(id)}filed-dds/`, input);

/** Removes a statement recorded by mistake. */
export const clearFiledDds = (id: number) => del<RawMaterial>(`${rawMaterialUrl(id)}filed-dds/`);
