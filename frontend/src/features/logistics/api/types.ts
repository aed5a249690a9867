/** Payloads of /api/logistics/ (backend apps/logistics/api/serializers.py), from the generated schema. */
import type { components } from '@/api/schema';

type S = components['schemas'];

export type ShipmentStatus = S['ShipmentStatusEnum'];
export const SHIPMENT_STATUSES: readonly ShipmentStatus[] = ['planned', 'in_transit', 'arrived', 'received'];

export type ShipmentCompany = S['ShipmentCompany'];
export type ShipmentCompanyInput = S['ShipmentCompanyRequest'];
export type CarriedOrder = S['CarriedOrder'];
export type Shipment = S['Shipment'];
export type ShipmentInput = S['ShipmentWriteRequest'];

/** An order as the shipment form's order picker shows it. */
export type OrderOption = Pick<S['PurchaseOrder'], 'id' | 'order_number' | 'supplier_detail' | 'status'>;
