/** Payloads of /api/logistics/ (backend apps/logistics/api/serializers.py). */

export type ShipmentStatus = 'planned' | 'in_transit' | 'arrived' | 'received';
export const SHIPMENT_STATUSES: readonly ShipmentStatus[] = ['planned', 'in_transit', 'arrived', 'received'];

export interface ShipmentCompany {
  id: number;
  name: string;
  contact_name: string;
  email: string;
  phone: string;
  website: string;
  tracking_url_template: string;
  shipments_count: number;
  created_at: string | null;
  updated_at: string | null;
}

export type ShipmentCompanyInput = Omit<ShipmentCompany, 'id' | 'shipments_count' | 'created_at' | 'updated_at'>;

export interface CarriedOrder {
  id: number;
  order_number: string;
  supplier_name: string;
  status: string;
  promise_date: string | null;
}

export interface Shipment {
  id: number;
  container_number: string;
  seal_number: string;
  shipment_company: number | null;
  shipment_company_detail: { id: number; name: string; tracking_url_template: string } | null;
  tracking_url: string;
  vessel: string;
  voyage: string;
  port_of_loading: string;
  port_of_discharge: string;
  etd: string | null;
  eta: string | null;
  status: ShipmentStatus;
  note: string;
  purchase_orders: number[];
  purchase_orders_detail: CarriedOrder[];
  cartons_count: number;
  allowed_transitions: ShipmentStatus[];
  created_at: string;
  updated_at: string | null;
}

export interface ShipmentInput {
  container_number: string;
  seal_number?: string;
  shipment_company?: number | null;
  vessel?: string;
  voyage?: string;
  port_of_loading?: string;
  port_of_discharge?: string;
  etd?: string | null;
  eta?: string | null;
  note?: string;
  purchase_orders?: number[];
}

export interface OrderOption {
  id: number;
  order_number: string;
  supplier_detail: { name: string };
  status: string;
}
