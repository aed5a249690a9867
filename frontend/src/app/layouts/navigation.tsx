/** Menu trees of the layouts (docs/specification.md section 2) and their menu entries. */
import {
  AppstoreOutlined,
  BarChartOutlined,
  ContainerOutlined,
  PrinterOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  TruckOutlined,
} from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { MenuEntry } from '@/shared/components/menu/MenuList';
import { paths } from '@/shared/routing/paths';

export interface NavLeaf {
  /** i18n key in the nav namespace. */
  label: string;
  to: string;
  icon?: ReactNode;
  staffOnly?: boolean;
  /** The permission ("app.codename") the page's list needs: without it the entry is left out. */
  permission?: string;
  disabled?: boolean;
  testId?: string;
}

export interface NavGroup {
  label: string;
  icon?: ReactNode;
  children: NavNode[];
}

export type NavNode = NavLeaf | NavGroup;

export function isGroup(node: NavNode): node is NavGroup {
  return 'children' in node;
}

/** Default layout top menu: every entry of docs/specification.md section 2 "Default layout top menu". */
export const DEFAULT_MENU: NavNode[] = [
  {
    label: 'menu.sales',
    icon: <ShoppingCartOutlined />,
    children: [
      { label: 'menu.salesQuotations', to: paths.salesQuotations(), permission: 'salesorders.view_salesquotation' },
      { label: 'menu.salesOrders', to: paths.salesOrders(), permission: 'salesorders.view_salesorder' },
      { label: 'menu.salesShipments', to: paths.salesShipments(), permission: 'salesorders.view_shipment' },
      { label: 'menu.salesInvoices', to: paths.salesInvoices(), permission: 'salesorders.view_invoice' },
      { label: 'menu.customerList', to: paths.salesCustomers(), permission: 'customers.view_customer' },
      { label: 'menu.newOrder', to: paths.salesOrderNew(), permission: 'salesorders.add_salesorder' },
      { label: 'menu.deliverySchedule', to: paths.salesDeliveries(), permission: 'salesorders.view_salesorder' },
    ],
  },
  {
    label: 'menu.purchase',
    icon: <ShopOutlined />,
    children: [
      { label: 'menu.purchaseOrders', to: paths.purchaseOrders(), permission: 'purchaseorders.view_purchaseorder' },
      { label: 'menu.purchaseReceipts', to: paths.purchaseReceipts(), permission: 'purchaseorders.view_receipt' },
      { label: 'menu.supplierInvoices', to: paths.supplierInvoices(), permission: 'purchaseorders.view_supplierinvoice' },
      { label: 'menu.shipmentList', to: paths.shipments(), permission: 'logistics.view_shipmentinfo' },
      { label: 'menu.shipmentCompanies', to: paths.shipmentCompanies(), permission: 'logistics.view_shipmentcompany' },
      { label: 'menu.supplierList', to: paths.suppliers(), permission: 'suppliers.view_supplier' },
      { label: 'menu.parentVendors', to: paths.parentVendors(), permission: 'suppliers.view_parentvendor' },
      {
        label: 'menu.eudrTracking',
        children: [
          { label: 'menu.rawMaterials', to: paths.rawMaterials(), permission: 'eudr.view_rawmaterialdelivery' },
          { label: 'menu.receivedReferences', to: paths.receivedReferences(), permission: 'eudr.view_receivedreference' },
          { label: 'menu.supplierPolicies', to: paths.supplierPolicies(), permission: 'eudr.view_supplierpolicy' },
          { label: 'menu.forestLayers', to: paths.forestLayers(), permission: 'duediligence.view_forestlayer' },
          { label: 'menu.annualReport', to: paths.annualReport(), permission: 'duediligence.view_riskassessment' },
        ],
      },
    ],
  },
  {
    label: 'menu.warehouse',
    icon: <ContainerOutlined />,
    children: [
      { label: 'menu.inventory', to: paths.warehouseInventory(), permission: 'inventory.view_stock' },
      { label: 'menu.shipmentListWh', to: paths.warehouseShipments(), permission: 'logistics.view_shipmentinfo' },
      { label: 'menu.orderDelivery', to: paths.warehouseDeliveries(), permission: 'salesorders.view_shipment' },
    ],
  },
  {
    label: 'menu.products',
    icon: <AppstoreOutlined />,
    children: [
      { label: 'menu.productList', to: paths.products(), permission: 'products.view_product' },
      { label: 'menu.productGroups', to: paths.productGroups(), permission: 'products.view_productgroup' },
    ],
  },
  {
    label: 'menu.core',
    icon: <SettingOutlined />,
    children: [
      {
        label: 'menu.printer',
        icon: <PrinterOutlined />,
        children: [
          { label: 'menu.printerDevices', to: paths.printerDevices(), permission: 'printing.view_printerdevice' },
          { label: 'menu.printerIntegration', to: paths.printerIntegration(), permission: 'printing.view_printagent' },
          { label: 'menu.printerDemo', to: paths.printerDemo(), permission: 'printing.view_printerdevice' },
          { label: 'menu.printerTestConsole', to: paths.testPrinter(), staffOnly: true },
          { label: 'menu.printerTestStart', to: paths.testPrinterStart(), staffOnly: true },
        ],
      },
      { label: 'menu.emailScenarios', to: paths.emailScenarios(), permission: 'notifications.view_emailscenario' },
    ],
  },
  {
    label: 'menu.dataReport',
    icon: <BarChartOutlined />,
    children: [
      { label: 'menu.reportLab', to: paths.reports(), permission: 'reports.view_savedreport' },
      { label: 'menu.importExport', to: paths.importExport() },
    ],
  },
];

/** Warehouse layout menu: Inventory, Shipment List, Sales Delivery. */
export const WAREHOUSE_MENU: NavNode[] = [
  { label: 'menu.inventory', to: paths.warehouseInventory(), icon: <ContainerOutlined /> },
  { label: 'menu.shipmentList', to: paths.warehouseShipments(), icon: <TruckOutlined /> },
  { label: 'menu.salesDelivery', to: paths.warehouseDeliveries(), icon: <ShoppingCartOutlined /> },
];

/**
 * Menu entries of the menubar and the phone menu; leaves are links keyed by their path. Each user sees
 * only what they may open: staff-only entries only for staff, an entry with a permission only when the
 * user's permissions in this company (`permissions`, from /api/users/me/) grant it; a group left empty
 * is left out. While the permissions are not loaded (undefined), every entry shows.
 */
export function toMenuEntries(
  nodes: readonly NavNode[],
  t: TFunction,
  isStaff: boolean,
  permissions?: readonly string[],
  parentKey = '',
): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const node of nodes) {
    if (isGroup(node)) {
      const key = `${parentKey}group:${node.label}`;
      const children = toMenuEntries(node.children, t, isStaff, permissions, `${key}/`);
      if (children.length > 0) entries.push({ key, label: t(`nav:${node.label}`), icon: node.icon, children });
    } else if ((!node.staffOnly || isStaff) && (!node.permission || !permissions || permissions.includes(node.permission))) {
      entries.push({ key: node.to, to: node.to, icon: node.icon, disabled: node.disabled, testId: node.testId, label: t(`nav:${node.label}`) });
    }
  }
  return entries;
}

function leaves(nodes: readonly NavNode[]): NavLeaf[] {
  return nodes.flatMap((node) => (isGroup(node) ? leaves(node.children) : [node]));
}

/**
 * The menu entry of the default layout whose page is exactly `pathname` and needs a permission: what the
 * forbidden page names when the user's permissions lack it.
 */
export function permissionLeaf(pathname: string): (NavLeaf & { permission: string }) | undefined {
  for (const leaf of leaves(DEFAULT_MENU)) {
    const path = leaf.to.split('?')[0] ?? leaf.to;
    if (leaf.permission && path === pathname) return leaf as NavLeaf & { permission: string };
  }
  return undefined;
}

/** The menu entry for the current path: the longest leaf path that is the path or a parent of it. */
export function selectedMenuKey(nodes: readonly NavNode[], pathname: string): string | undefined {
  let best: string | undefined;
  for (const leaf of leaves(nodes)) {
    const path = leaf.to.split('?')[0] ?? leaf.to;
    if (pathname === path || pathname.startsWith(`${path}/`)) {
      if (!best || path.length > best.length) best = leaf.to;
    }
  }
  return best;
}
