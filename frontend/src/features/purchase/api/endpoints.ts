export const ORDERS_URL = '/api/purchaseorders/orders/';
export const ORDER_SUMMARY_URL = '/api/purchaseorders/orders/summary/';
export const ORDER_OWNERS_URL = '/api/purchaseorders/orders/owners/';
export const RECEIPTS_URL = '/api/purchaseorders/receipts/';
export const WAREHOUSES_URL = '/api/inventory/warehouses/';
export const SHIPMENTS_URL = '/api/logistics/shipments/';
export const SUPPLIERS_URL = '/api/suppliers/';
export const PRODUCTS_URL = '/api/products/';
/** The query key stem of the receive picker's open orders (RemoteSelect). */
export const OPEN_ORDERS_KEY = `${ORDERS_URL}?status=open`;

export const orderUrl = (id: number) => `${ORDERS_URL}${id}/`;
export const orderByNumberUrl = (orderNumber: string) => `${ORDERS_URL}by-number/${encodeURIComponent(orderNumber)}/`;
export const orderTransitionUrl = (id: number) => `${ORDERS_URL}${id}/transition/`;
/** The acts on an order: confirm, send (e-mails the supplier), close, cancel. */
export type OrderAction = 'confirm' | 'send' | 'close' | 'cancel';
export const orderActionUrl = (id: number, act: OrderAction) => `${ORDERS_URL}${id}/${act}/`;
export const orderPdfUrl = (id: number) => `${ORDERS_URL}${id}/pdf/`;
export const receiptUrl = (id: number | string) => `${RECEIPTS_URL}${id}/`;

export const SUPPLIER_INVOICES_URL = '/api/purchaseorders/supplier-invoices/';
export const supplierInvoiceUrl = (id: number | string) => `${SUPPLIER_INVOICES_URL}${id}/`;
/** The decisions on a draft supplier invoice. */
export type SupplierInvoiceAction = 'approve' | 'reject';
export const supplierInvoiceActionUrl = (id: number, act: SupplierInvoiceAction) => `${supplierInvoiceUrl(id)}${act}/`;
export const supplierInvoiceOriginalUrl = (id: number) => `${supplierInvoiceUrl(id)}original/`;
