/**
 * Payloads of /api/purchaseorders/ (backend apps/purchaseorders/api/serializers.py).
 * Decimals (money, quantities, weights) arrive and leave as strings.
 */

export type OrderStatus = 'open' | 'on_hold' | 'completed' | 'cancelled';
export const ORDER_STATUSES: readonly OrderStatus[] = ['open', 'on_hold', 'completed', 'cancelled'];

export type OrderType = 'standard' | 'blanket' | 'sample';
export const ORDER_TYPES: readonly OrderType[] = ['standard', 'blanket', 'sample'];

export interface ParentVendorBrief {
  id: number;
  name: string;
  cname: string;
}

export interface SupplierBrief {
  id: number;
  number: string;
  name: string;
  parent_vendor: ParentVendorBrief;
}

export interface PurchaseOrder {
  id: number;
  order_number: string;
  order_date: string;
  supplier: number;
  supplier_detail: SupplierBrief;
  currency: string;
  total_amount: string;
  description: string;
  type: OrderType;
  promise_date: string | null;
  owner: number | null;
  owner_name: string;
  status: OrderStatus;
  lines_count: number;
  ordered_qty: string;
  received_qty: string;
  cartons_issued: number;
  allowed_transitions: OrderStatus[];
  lines_editable: boolean;
  created_at: string;
  updated_at: string;
}

export interface PurchaseOrderLine {
  id: number;
  line_number: number;
  product: number;
  product_number: string;
  product_name: string;
  product_name_zh: string;
  line_description: string;
  order_qty: string;
  unit_cost: string;
  amount: string;
  weight_per_carton: string | null;
  received_qty: string;
  open_qty: string;
  cartons_issued: number;
}

export interface PurchaseOrderDetail extends PurchaseOrder {
  lines: PurchaseOrderLine[];
}

export interface OrderLineInput {
  id?: number;
  product: number;
  product_number?: string;
  line_description?: string;
  order_qty: string;
  unit_cost: string;
  weight_per_carton?: string | null;
}

export interface OrderInput {
  order_number?: string;
  order_date: string;
  supplier: number;
  currency?: string;
  description?: string;
  type?: OrderType;
  promise_date?: string | null;
  owner?: number | null;
  lines: OrderLineInput[];
}

/** A user who may own purchase orders (GET /api/purchaseorders/orders/owners/). */
export interface OwnerOption {
  id: number;
  username: string;
  name: string;
}

/** An order as the order pickers show it (the order list's fields they use). */
export type OrderOption = Pick<PurchaseOrder, 'id' | 'order_number' | 'status' | 'supplier_detail' | 'order_date'>;

export interface StatusSummaryEntry {
  count: number;
  amounts: Record<string, string>;
}

export interface OrderSummary {
  statuses: Record<OrderStatus, StatusSummaryEntry>;
  total: StatusSummaryEntry;
}

export interface WarehouseBrief {
  id: number;
  code: string;
  name: string;
}

export interface Receipt {
  id: number;
  receipt_number: string;
  purchase_order: number;
  purchase_order_number: string;
  supplier: SupplierBrief;
  warehouse: number;
  warehouse_detail: WarehouseBrief;
  receipt_date: string;
  note: string;
  over_receipt: boolean;
  lines_count: number;
  total_qty: string;
  created_by_name: string;
  created_at: string;
}

export interface ReceiptLine {
  id: number;
  order_line: number;
  line_number: number;
  product: number;
  product_number: string;
  line_description: string;
  quantity: string;
  stock_move: number | null;
  location: string;
}

export interface ReceiptDetail extends Receipt {
  lines: ReceiptLine[];
}

export interface ReceiptInput {
  purchase_order: number;
  warehouse?: number | null;
  receipt_date?: string | null;
  note?: string;
  allow_over_receipt?: boolean;
  lines: { order_line: number; quantity: string }[];
}

export interface Warehouse extends WarehouseBrief {
  is_default: boolean;
  is_active: boolean;
  locations: { id: number; code: string; name: string; kind: string; is_active: boolean }[];
}

export type ShipmentStatus = 'planned' | 'in_transit' | 'arrived' | 'received';

/** A shipment as the order page shows it (the logistics area owns the full record). */
export interface OrderShipment {
  id: number;
  container_number: string;
  shipment_company_detail: { id: number; name: string } | null;
  tracking_url: string;
  vessel: string;
  voyage: string;
  port_of_loading: string;
  port_of_discharge: string;
  etd: string | null;
  eta: string | null;
  status: ShipmentStatus;
  cartons_count: number;
}

export interface SupplierOption {
  id: number;
  number: string;
  name: string;
  currency?: string;
  parent_vendor: number;
}

export interface ProductOption {
  id: number;
  article_number: string;
  name: string;
  name_zh: string;
  weight_per_carton_kg: string | null;
  purchase_price?: string | null;
  is_active: boolean;
}
