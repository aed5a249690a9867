import type { UserType } from '@/api/types';

/** Where the card of a dashboard count leads; counts with unknown keys get a card without a link. */
export const COUNT_LINKS: Readonly<Record<string, string>> = {
  products: '/product',
  product_groups: '/product-group',
  customers: '/customer',
  suppliers: '/purchase/suppliers',
  parent_vendors: '/purchase/parent-vendors',
  purchase_orders: '/purchase/orders',
  open_purchase_orders: '/purchase/orders?status=confirmed,sent,partly_received',
  purchase_orders_draft: '/purchase/orders?status=draft',
  purchase_receipts: '/purchase/receipts',
  shipments: '/purchase/shipments',
  shipments_in_transit: '/purchase/shipments?status=in_transit',
  shipment_companies: '/purchase/shipment-companies',
  sales_orders: '/sales/orders',
  sales_shipments: '/sales/shipment',
  sales_invoices: '/sales/invoices',
  sales_deliveries: '/sales/deliveries',
  inventory: '/warehouse/inventory',
  stock: '/warehouse/inventory',
  raw_materials: '/purchase/eudr/raw-materials',
  supplier_policies: '/purchase/eudr/supplier-policies',
  cartons: '/purchase/eudr/raw-materials',
  users: '/user',
  email_scenarios: '/core/email-scenarios',
  printers: '/printer/devices',
};

/** Supplier users reach their areas through the portal paths. */
const SUPPLIER_LINKS: Readonly<Record<string, string>> = {
  raw_materials: '/supplier/raw-materials',
  cartons: '/supplier/raw-materials',
  purchase_orders: '/supplier/orders',
  open_purchase_orders: '/supplier/orders?status=confirmed,sent,partly_received',
};

export function countLink(key: string, userType: UserType): string | undefined {
  if (userType === 'supplier') return SUPPLIER_LINKS[key];
  const link = COUNT_LINKS[key];
  // Warehouse users are served the warehouse pages only (router.tsx): other counts are not links.
  if (userType === 'warehouse') return link?.startsWith('/warehouse/') ? link : undefined;
  return link;
}

export interface Shortcut {
  /** i18n key in the nav namespace. */
  label: string;
  to: string;
}

export const SHORTCUTS: Readonly<Record<UserType, readonly Shortcut[]>> = {
  internal: [
    { label: 'menu.newOrder', to: '/sales/sales-order-detail' },
    { label: 'menu.salesOrders', to: '/sales/orders' },
    { label: 'menu.purchaseOrders', to: '/purchase/orders' },
    { label: 'menu.rawMaterials', to: '/purchase/eudr/raw-materials' },
    { label: 'menu.productList', to: '/product' },
    { label: 'menu.customerList', to: '/customer' },
  ],
  warehouse: [
    { label: 'menu.inventory', to: '/warehouse/inventory' },
    { label: 'menu.warehouseShipments', to: '/warehouse/shipments' },
    { label: 'menu.salesDelivery', to: '/warehouse/deliveries' },
  ],
  supplier: [
    { label: 'menu.rawMaterials', to: '/supplier/raw-materials' },
    { label: 'menu.orders', to: '/supplier/orders' },
  ],
};

/** A readable label for a count key the UI has no translation for: `sales_orders` -> `Sales orders`. */
export function humanizeKey(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
