/**
 * THE route table (docs/specification.md section 2). Every page is a lazily loaded module that default-exports its
 * component; feature work replaces the page module, not this table. Each route's `handle` is its
 * meta: the title (an i18n key), whether it needs a session and which kinds of user it serves
 * (`serves`: internal users only unless the route names others; RouteOutlet shows the forbidden page
 * to any other kind).
 */
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import type { UserType } from '@/api/types';
import { loadRestTexts } from '@/i18n';
import type { RouteMeta } from '@/shared/routing/routeMeta';
import { FullPageSpinner } from './routing/FullPageSpinner';
import { RootRoute } from './routing/RootRoute';
import { PageErrorPage } from './routing/PageErrorPage';
import { RouteErrorPage } from './routing/RouteErrorPage';
import { TraceHandoff } from './routing/TraceHandoff';

type PageModule = { default: ComponentType };

/** Pages of every kind of user: home and the own profile. */
const EVERYONE: readonly UserType[] = ['internal', 'warehouse', 'supplier'];
/** The warehouse pages: warehouse users, and internal users (they are in the default menu). */
const WAREHOUSE: readonly UserType[] = ['internal', 'warehouse'];
/** The supplier portal (supplier layout). */
const SUPPLIER: readonly UserType[] = ['supplier'];
const INTERNAL: readonly UserType[] = ['internal'];

interface PageOptions {
  requiresAuth?: boolean;
  staffOnly?: boolean;
  /** The kinds of user the page serves; internal users only when not given. */
  serves?: readonly UserType[];
  /**
   * A first page (login, home): its texts are among the first page's namespaces, loaded before the
   * first render. Every other page loads the features' texts with its code (src/i18n/namespaces.ts).
   */
  firstPage?: boolean;
}

function page(path: string, title: string, load: () => Promise<PageModule>, options: PageOptions = {}): RouteObject {
  const handle: RouteMeta = {
    title: `nav:routes.${title}`,
    requiresAuth: options.requiresAuth ?? true,
    ...(options.staffOnly ? { staffOnly: true } : {}),
    userTypes: options.serves ?? INTERNAL,
  };
  return {
    path,
    handle,
    lazy: async () => {
      const [module] = await Promise.all([load(), options.firstPage ? null : loadRestTexts()]);
      return { Component: module.default };
    },
  };
}

/** Routes inside the selected layout (warehouse, supplier or default). */
export const layoutRoutes: RouteObject[] = [
  page('', 'home', () => import('@/features/home/pages/HomePage'), { serves: EVERYONE, firstPage: true }),

  // Sales
  page('sales/customer', 'customerList', () => import('@/features/customers/pages/CustomerListPage')),
  page('sales/sales-order-detail', 'newOrder', () => import('@/features/sales/pages/SalesOrderCreatePage')),
  page('sales/shipment', 'salesShipments', () => import('@/features/sales/pages/SalesShipmentsPage')),
  page('sales/orders', 'salesOrders', () => import('@/features/sales/pages/SalesOrdersPage')),
  page('sales/orders/:id', 'salesOrder', () => import('@/features/sales/pages/SalesOrderDetailPage')),
  page('sales/orders/:id/edit', 'salesOrderEdit', () => import('@/features/sales/pages/SalesOrderEditPage')),
  page('sales/invoices', 'salesInvoices', () => import('@/features/sales/pages/SalesInvoicesPage')),
  page('sales/invoices/:id', 'salesInvoice', () => import('@/features/sales/pages/SalesInvoiceDetailPage')),
  page('sales/deliveries', 'salesDeliveries', () => import('@/features/sales/pages/SalesDeliveriesPage')),
  page('sales/deliveries/:id', 'salesDelivery', () => import('@/features/sales/pages/SalesDeliveryDetailPage')),

  // Warehouse
  page('warehouse/inventory', 'inventory', () => import('@/features/warehouse/pages/InventoryPage'), { serves: WAREHOUSE }),
  page('warehouse/shipments', 'warehouseShipments', () => import('@/features/warehouse/pages/WarehouseShipmentsPage'), { serves: WAREHOUSE }),
  page('warehouse/logistics', 'warehouseLogistics', () => import('@/features/warehouse/pages/WarehouseLogisticsPage'), { serves: WAREHOUSE }),
  page('warehouse/deliveries', 'warehouseDeliveries', () => import('@/features/warehouse/pages/WarehouseDeliveriesPage'), { serves: WAREHOUSE }),

  page('profile', 'profile', () => import('@/features/profile/pages/ProfilePage'), { serves: EVERYONE }),
  // The company as EUDR operator (user menu, internal users): the data of due diligence statements.
  page('settings/company', 'companySettings', () => import('@/features/company/pages/CompanySettingsPage')),
  // The accounting integration with Visma (user menu, internal users with accounting permissions).
  page('settings/accounting', 'accountingConnection', () => import('@/features/accounting/pages/AccountingConnectionPage')),
  page('settings/accounting/mappings', 'accountingMappings', () => import('@/features/accounting/pages/AccountingMappingsPage')),
  page('settings/accounting/sync-log', 'accountingSyncLog', () => import('@/features/accounting/pages/AccountingSyncLogPage')),
  // Visma eAccounting sends the browser back here after the consent (the redirect URI registered with Visma).
  page('settings/accounting/callback', 'accountingCallback', () => import('@/features/accounting/pages/AccountingCallbackPage')),

  // Supplier portal; the parentVendorId forms come from the supplier redirect rule.
  page('supplier/raw-materials', 'supplierRawMaterials', () => import('@/features/eudr/pages/SupplierRawMaterialsPage'), { serves: SUPPLIER }),
  page('supplier/:parentVendorId/raw-materials', 'supplierRawMaterials', () => import('@/features/eudr/pages/SupplierRawMaterialsPage'), { serves: SUPPLIER }),
  page('supplier/raw-materials/new', 'rawMaterialNew', () => import('@/features/eudr/pages/RawMaterialWizardPage'), { serves: SUPPLIER }),
  page('supplier/:parentVendorId/raw-materials/new', 'rawMaterialNew', () => import('@/features/eudr/pages/RawMaterialWizardPage'), { serves: SUPPLIER }),
  page('supplier/raw-materials/:id', 'rawMaterial', () => import('@/features/eudr/pages/RawMaterialDetailPage'), { serves: SUPPLIER }),
  page('supplier/:parentVendorId/raw-materials/:id', 'rawMaterial', () => import('@/features/eudr/pages/RawMaterialDetailPage'), { serves: SUPPLIER }),
  page('supplier/raw-materials/:id/edit', 'rawMaterialEdit', () => import('@/features/eudr/pages/RawMaterialEditPage'), { serves: SUPPLIER }),
  page('supplier/:parentVendorId/raw-materials/:id/edit', 'rawMaterialEdit', () => import('@/features/eudr/pages/RawMaterialEditPage'), { serves: SUPPLIER }),
  page('supplier/orders', 'supplierOrders', () => import('@/features/purchase/pages/SupplierOrdersPage'), { serves: SUPPLIER }),
  page('supplier/:parentVendorId/orders', 'supplierOrders', () => import('@/features/purchase/pages/SupplierOrdersPage'), { serves: SUPPLIER }),
  page('supplier/orders/:orderNumber', 'purchaseOrder', () => import('@/features/purchase/pages/PurchaseOrderDetailPage'), { serves: SUPPLIER }),
  page('supplier/:parentVendorId/orders/:orderNumber', 'purchaseOrder', () => import('@/features/purchase/pages/PurchaseOrderDetailPage'), { serves: SUPPLIER }),

  // Products
  page('product', 'productList', () => import('@/features/products/pages/ProductListPage')),
  page('product/create', 'productCreate', () => import('@/features/products/pages/ProductCreatePage')),
  page('product/:id', 'product', () => import('@/features/products/pages/ProductDetailPage')),
  page('product/:id/edit', 'productEdit', () => import('@/features/products/pages/ProductEditPage')),
  page('product-group', 'productGroups', () => import('@/features/products/pages/ProductGroupsPage')),

  // Purchase
  page('purchase/suppliers', 'supplierList', () => import('@/features/suppliers/pages/SupplierListPage')),
  page('purchase/suppliers/:id', 'supplier', () => import('@/features/suppliers/pages/SupplierDetailPage')),
  page('purchase/orders', 'purchaseOrders', () => import('@/features/purchase/pages/PurchaseOrdersPage')),
  page('purchase/orders/new', 'purchaseOrderNew', () => import('@/features/purchase/pages/PurchaseOrderCreatePage')),
  page('purchase/orders/:orderNumber', 'purchaseOrder', () => import('@/features/purchase/pages/PurchaseOrderDetailPage')),
  page('purchase/orders/:orderNumber/edit', 'purchaseOrderEdit', () => import('@/features/purchase/pages/PurchaseOrderEditPage')),
  page('purchase/receipts', 'purchaseReceipts', () => import('@/features/purchase/pages/PurchaseReceiptsPage')),
  page('purchase/receipts/:id', 'purchaseReceipt', () => import('@/features/purchase/pages/PurchaseReceiptDetailPage')),
  page('purchase/supplier-invoices', 'supplierInvoices', () => import('@/features/purchase/pages/SupplierInvoicesPage')),
  page('purchase/supplier-invoices/:id', 'supplierInvoice', () => import('@/features/purchase/pages/SupplierInvoiceDetailPage')),
  page('purchase/shipments', 'shipments', () => import('@/features/logistics/pages/ShipmentsPage')),
  page('purchase/shipment-companies', 'shipmentCompanies', () => import('@/features/logistics/pages/ShipmentCompaniesPage')),
  page('purchase/shipment-companies/create', 'shipmentCompanyCreate', () => import('@/features/logistics/pages/ShipmentCompanyCreatePage')),
  page('purchase/shipment-companies/:companyName', 'shipmentCompany', () => import('@/features/logistics/pages/ShipmentCompanyDetailPage')),
  page('purchase/eudr/raw-materials', 'rawMaterials', () => import('@/features/eudr/pages/RawMaterialsPage')),
  page('purchase/eudr/raw-materials/new', 'rawMaterialNew', () => import('@/features/eudr/pages/RawMaterialWizardPage')),
  page('purchase/eudr/raw-materials/:id', 'rawMaterial', () => import('@/features/eudr/pages/RawMaterialDetailPage')),
  page('purchase/eudr/raw-materials/:id/edit', 'rawMaterialEdit', () => import('@/features/eudr/pages/RawMaterialEditPage')),
  page('purchase/eudr/supplier-policies', 'supplierPolicies', () => import('@/features/eudr/pages/SupplierPoliciesPage')),
  page('purchase/eudr/forest-layers', 'forestLayers', () => import('@/features/eudr/pages/ForestLayersPage')),
  page('purchase/eudr/annual-report', 'annualReport', () => import('@/features/eudr/pages/AnnualReportPage')),
  page('purchase/eudr/received-references', 'receivedReferences', () => import('@/features/eudr/pages/ReceivedReferencesPage')),
  page('purchase/parent-vendors', 'parentVendors', () => import('@/features/suppliers/pages/ParentVendorsPage')),

  page('customer', 'customerList', () => import('@/features/customers/pages/CustomerListPage')),

  // Users
  page('user', 'userList', () => import('@/features/users/pages/UserListPage')),
  page('user/create', 'userCreate', () => import('@/features/users/pages/UserCreatePage')),
  page('user/departments', 'departments', () => import('@/features/users/pages/DepartmentsPage')),
  page('user/permissions', 'permissions', () => import('@/features/users/pages/PermissionsPage')),
  page('user/:id', 'user', () => import('@/features/users/pages/UserDetailPage')),

  // Data / reports
  page('reports', 'reportLab', () => import('@/features/reports/pages/ReportLabPage')),
  page('reports/test', 'reportTest', () => import('@/features/reports/pages/ReportTestPage')),
  page('reports/import-export', 'importExport', () => import('@/features/reports/pages/ImportExportPage')),

  // Core
  page('core/email-scenarios', 'emailScenarios', () => import('@/features/email-scenarios/pages/EmailScenariosPage')),
  page('printer/devices', 'printerDevices', () => import('@/features/printing/pages/PrinterDevicesPage')),
  page('printer/demo', 'printerDemo', () => import('@/features/printing/pages/PrinterDemoPage')),
  page('printer/integration', 'printerIntegration', () => import('@/features/printing/pages/PrinterIntegrationPage')),

  // Staff-only tools
  page('test/comments', 'testComments', () => import('@/features/dev-tools/pages/CommentsTestPage'), { staffOnly: true }),
  page('test/layout', 'testLayout', () => import('@/features/dev-tools/pages/LayoutTestPage'), { staffOnly: true }),
  page('test/user-debug', 'testUserDebug', () => import('@/features/dev-tools/pages/UserDebugPage'), { staffOnly: true }),
  page('test/printer', 'testPrinter', () => import('@/features/printing/pages/PrinterTestConsolePage'), { staffOnly: true }),
  page('test/printer-start', 'testPrinterStart', () => import('@/features/printing/pages/PrinterTestStartPage'), { staffOnly: true }),
];

const notFoundMeta: RouteMeta = { title: 'nav:routes.notFound', requiresAuth: false };

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: FullPageSpinner,
    children: [
      page('/auth/login', 'login', () => import('@/features/auth/pages/LoginPage'), { requiresAuth: false, serves: EVERYONE, firstPage: true }),
      // The public trace page is its own light entry (trace.html); reach it with a full page load.
      { path: '/eudrtrace/:id', element: <TraceHandoff />, handle: { title: 'nav:routes.trace', requiresAuth: false } satisfies RouteMeta },
      // The layouts load after the entry, with the first page: the login page does not need them.
      {
        path: '/',
        lazy: async () => ({ Component: (await import('./layouts/LayoutSwitch')).LayoutSwitch }),
        // A page that crashes or cannot load its code (offline, before it was ever opened) is shown in
        // the layout, which keeps its bar, menu and offline notice (PageErrorPage).
        children: [{ errorElement: <PageErrorPage />, children: layoutRoutes }],
      },
      { path: '*', handle: notFoundMeta, lazy: async () => ({ Component: (await import('./routing/NotFoundPage')).NotFoundPage }) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
