/**
 * Payloads of /api/purchaseorders/ (backend apps/purchaseorders/api/serializers.py), from the generated
 * schema. Decimals (money, quantities, weights) arrive and leave as strings.
 */
import type { components } from '@/api/schema';

type S = components['schemas'];

export type OrderStatus = S['PurchaseOrderStatusEnum'];
export const ORDER_STATUSES: readonly OrderStatus[] = ['draft', 'confirmed', 'sent', 'partly_received', 'received', 'closed', 'cancelled'];
/** The statuses goods are received in (docs/purchasing.md, "Lifecycle"). */
export const RECEIVABLE_STATUSES: readonly OrderStatus[] = ['confirmed', 'sent', 'partly_received'];
export const isReceivable = (status: OrderStatus) => RECEIVABLE_STATUSES.includes(status);

export type OrderType = S['PurchaseOrderTypeEnum'];
export const ORDER_TYPES: readonly OrderType[] = ['standard', 'blanket', 'sample'];

export type ParentVendorBrief = S['ParentVendorBrief'];
export type SupplierBrief = S['SupplierBrief'];
export type PurchaseOrder = S['PurchaseOrder'];
export type PurchaseOrderLine = S['PurchaseOrderLine'];
export type PurchaseOrderDetail = S['PurchaseOrderDetail'];
export type OrderLineInput = S['PurchaseOrderLineWriteRequest'];
export type OrderInput = S['PurchaseOrderWriteRequest'];
/** A user who may own purchase orders (GET /api/purchaseorders/orders/owners/). */
export type OwnerOption = S['OwnerOption'];
export type StatusSummaryEntry = S['StatusSummaryEntry'];
export type OrderSummary = S['OrderSummary'];
export type WarehouseBrief = S['WarehouseBrief'];
export type Receipt = S['Receipt'];
export type ReceiptLine = S['ReceiptLine'];
export type ReceiptDetail = S['ReceiptDetail'];
export type ReceiptInput = S['ReceiptWriteRequest'];
export type Warehouse = S['Warehouse'];
export type ShipmentStatus = S['ShipmentStatusEnum'];

/** An order as the order pickers show it (the order list's fields they use). */
export type OrderOption = Pick<PurchaseOrder, 'id' | 'order_number' | 'status' | 'supplier_detail' | 'order_date'>;

/** A shipment as the order page shows it (the logistics area owns the full record). */
export type OrderShipment = Pick<
  S['Shipment'],
  | 'id'
  | 'container_number'
  | 'shipment_company_detail'
  | 'tracking_url'
  | 'vessel'
  | 'voyage'
  | 'port_of_loading'
  | 'port_of_discharge'
  | 'etd'
  | 'eta'
  | 'status'
  | 'cartons_count'
>;

/** A supplier as the order form's picker uses it. */
export type SupplierOption = Pick<S['Supplier'], 'id' | 'number' | 'name' | 'currency' | 'parent_vendor'>;

/** A product as the order line picker uses it (the price only where the user may see prices). */
export type ProductOption = Pick<
  S['Product'],
  'id' | 'article_number' | 'name' | 'name_zh' | 'weight_per_carton_kg' | 'purchase_price' | 'is_active'
>;

/** Supplier invoices read from e-invoices (GET /api/purchaseorders/supplier-invoices/). */
export type SupplierInvoice = S['SupplierInvoice'];
export type SupplierInvoiceDetail = S['SupplierInvoiceDetail'];
export type SupplierInvoiceLineMatch = S['SupplierInvoiceLineMatch'];
export type SupplierInvoiceStatus = S['SupplierInvoiceStatusEnum'];
export type MatchStatus = S['MatchStatusEnum'];
export const SUPPLIER_INVOICE_STATUSES: readonly SupplierInvoiceStatus[] = ['draft', 'approved', 'rejected'];
export const MATCH_STATUSES: readonly MatchStatus[] = ['matched', 'quantity_mismatch', 'price_mismatch', 'not_received', 'unmatched'];
