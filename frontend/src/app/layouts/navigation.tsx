/** Menu trees of the layouts (SPEC.md section 2) and their menu entries. */
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

export interface NavLeaf {
  /** i18n key in the nav namespace. */
  label: string;
  to: string;
  icon?: ReactNode;
  staffOnly?: boolean;
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

/** Default layout top menu: every entry of SPEC.md section 2 "Default layout top menu". */
export const DEFAULT_MENU: NavNode[] = [
  {
    label: 'menu.sales',
    icon: <ShoppingCartOutlined />,
    children: [
      { label: 'menu.salesOrders', to: '/sales/orders' },
      { label: 'menu.salesShipments', to: '/sales/shipment' },
      { label: 'menu.salesInvoices', to: '/sales/invoices' },
      { label: 'menu.customerList', to: '/sales/customer' },
      { label: 'menu.newOrder', to: '/sales/sales-order-detail' },
      { label: 'menu.deliverySchedule', to: '/sales/deliveries' },
    ],
  },
  {
    label: 'menu.purchase',
    icon: <ShopOutlined />,
    children: [
      { label: 'menu.purchaseOrders', to: '/purchase/orders' },
      { label: 'menu.purchaseReceipts', to: '/purchase/receipts' },
      { label: 'menu.shipmentList', to: '/purchase/shipments' },
      { label: 'menu.shipmentCompanies', to: '/purchase/shipment-companies' },
      { label: 'menu.supplierList', to: '/purchase/suppliers' },
      { label: 'menu.parentVendors', to: '/purchase/parent-vendors' },
      {
        label: 'menu.eudrTracking',
        children: [
          { label: 'menu.rawMaterials', to: '/purchase/eudr/raw-materials' },
          { label: 'menu.supplierPolicies', to: '/purchase/eudr/supplier-policies' },
        ],
      },
    ],
  },
  {
    label: 'menu.warehouse',
    icon: <ContainerOutlined />,
    children: [
      { label: 'menu.inventory', to: '/warehouse/inventory' },
      { label: 'menu.shipmentListWh', to: '/warehouse/shipments' },
      { label: 'menu.orderDelivery', to: '/warehouse/deliveries' },
    ],
  },
  {
    label: 'menu.products',
    icon: <AppstoreOutlined />,
    children: [
      { label: 'menu.productList', to: '/product' },
      { label: 'menu.productGroups', to: '/product-group' },
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
          { label: 'menu.printerDevices', to: '/printer/devices' },
          { label: 'menu.printerIntegration', to: '/printer/integration' },
          { label: 'menu.printerDemo', to: '/printer/demo' },
          { label: 'menu.printerTestConsole', to: '/test/printer', staffOnly: true },
          { label: 'menu.printerTestStart', to: '/test/printer-start', staffOnly: true },
        ],
      },
      { label: 'menu.emailScenarios', to: '/core/email-scenarios' },
    ],
  },
  {
    label: 'menu.dataReport',
    icon: <BarChartOutlined />,
    children: [
      { label: 'menu.reportLab', to: '/reports' },
      { label: 'menu.importExport', to: '/reports/import-export' },
    ],
  },
];

/** Warehouse layout menu: Inventory, Shipment List, Sales Delivery. */
export const WAREHOUSE_MENU: NavNode[] = [
  { label: 'menu.inventory', to: '/warehouse/inventory', icon: <ContainerOutlined /> },
  { label: 'menu.shipmentList', to: '/warehouse/shipments', icon: <TruckOutlined /> },
  { label: 'menu.salesDelivery', to: '/warehouse/deliveries', icon: <ShoppingCartOutlined /> },
];

/** Menu entries of the menubar and the phone menu; leaves are links keyed by their path, staff-only entries only for staff. */
export function toMenuEntries(nodes: readonly NavNode[], t: TFunction, isStaff: boolean, parentKey = ''): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const node of nodes) {
    if (isGroup(node)) {
      const key = `${parentKey}group:${node.label}`;
      const children = toMenuEntries(node.children, t, isStaff, `${key}/`);
      if (children.length > 0) entries.push({ key, label: t(`nav:${node.label}`), icon: node.icon, children });
    } else if (!node.staffOnly || isStaff) {
      entries.push({ key: node.to, to: node.to, icon: node.icon, disabled: node.disabled, testId: node.testId, label: t(`nav:${node.label}`) });
    }
  }
  return entries;
}

function leaves(nodes: readonly NavNode[]): NavLeaf[] {
  return nodes.flatMap((node) => (isGroup(node) ? leaves(node.children) : [node]));
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
