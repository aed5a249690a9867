import type { UserType } from '@/api/types';
import { isWarehousePath, paths } from '@/shared/routing/paths';

/** Where the card of a dashboard count leads; counts with unknown keys get a card without a link. */
export const COUNT_LINKS: Readonly<Record<string, string>> = {
  products: paths.products(),
  product_groups: paths.productGroups(),
  customers: paths.customers(),
  suppliers: paths.suppliers(),
  parent_vendors: paths.parentVendors(),
  purchase_orders: paths.purchaseOrders(),
  open_purchase_orders: paths.purchaseOrders('confirmed,sent,partly_received'),
  purchase_orders_draft: paths.purchaseOrders('draft'),
  purchase_receipts: paths.purchaseReceipts(),
  shipments: paths.shipments(),
  shipments_in_transit: paths.shipments('in_transit'),
  shipment_companies: paths.shipmentCompanies(),
  sales_orders: paths.salesOrders(),
  sales_shipments: paths.salesShipments(),
  sales_invoices: paths.salesInvoices(),
  sales_deliveries: paths.salesDeliveries(),
  inventory: paths.warehouseInventory(),
  stock: paths.warehouseInventory(),
  raw_materials: paths.rawMaterials(),
  supplier_policies: paths.supplierPolicies(),
  cartons: paths.rawMaterials(),
  users: paths.users(),
  email_scenarios: paths.emailScenarios(),
  printers: paths.printerDevices(),
};

/** Supplier users reach their areas through the portal paths. */
const SUPPLIER_LINKS: Readonly<Record<string, string>> = {
  raw_materials: paths.supplierSection('raw-materials'),
  cartons: paths.supplierSection('raw-materials'),
  purchase_orders: paths.supplierSection('orders'),
  open_purchase_orders: paths.supplierOrders('confirmed,sent,partly_received'),
};

export function countLink(key: string, userType: UserType): string | undefined {
  if (userType === 'supplier') return SUPPLIER_LINKS[key];
  const link = COUNT_LINKS[key];
  // Warehouse users are served the warehouse pages only (router.tsx): other counts are not links.
  if (userType === 'warehouse') return link !== undefined && isWarehousePath(link) ? link : undefined;
  return link;
}

export interface Shortcut {
  /** i18n key in the nav namespace. */
  label: string;
  to: string;
}

export const SHORTCUTS: Readonly<Record<UserType, readonly Shortcut[]>> = {
  internal: [
    { label: 'menu.newOrder', to: paths.salesOrderNew() },
    { label: 'menu.salesOrders', to: paths.salesOrders() },
    { label: 'menu.purchaseOrders', to: paths.purchaseOrders() },
    { label: 'menu.rawMaterials', to: paths.rawMaterials() },
    { label: 'menu.productList', to: paths.products() },
    { label: 'menu.customerList', to: paths.customers() },
  ],
  warehouse: [
    { label: 'menu.inventory', to: paths.warehouseInventory() },
    { label: 'menu.warehouseShipments', to: paths.warehouseShipments() },
    { label: 'menu.salesDelivery', to: paths.warehouseDeliveries() },
  ],
  supplier: [
    { label: 'menu.rawMaterials', to: paths.supplierSection('raw-materials') },
    { label: 'menu.orders', to: paths.supplierSection('orders') },
  ],
};

/** A readable label for a count key the UI has no translation for: `sales_orders` -> `Sales orders`. */
export function humanizeKey(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
