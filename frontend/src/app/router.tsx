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
import { relativePattern, routePatterns } from '@/shared/routing/paths';
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
  page(relativePattern('home'), 'home', () => import('@/features/home/pages/HomePage'), { serves: EVERYONE, firstPage: true }),

  // Sales
  page(relativePattern('salesCustomers'), 'customerList', () => import('@/features/customers/pages/CustomerListPage')),
  page(relativePattern('salesOrderNew'), 'newOrder', () => import('@/features/sales/pages/SalesOrderCreatePage')),
  page(relativePattern('salesShipments'), 'salesShipments', () => import('@/features/sales/pages/SalesShipmentsPage')),
  page(relativePattern('salesOrders'), 'salesOrders', () => import('@/features/sales/pages/SalesOrdersPage')),
  page(relativePattern('salesQuotations'), 'salesQuotations', () => import('@/features/sales/pages/SalesQuotationsPage')),
  page(relativePattern('salesQuotationNew'), 'newQuotation', () => import('@/features/sales/pages/SalesQuotationCreatePage')),
  page(relativePattern('salesQuotation'), 'salesQuotation', () => import('@/features/sales/pages/SalesQuotationDetailPage')),
  page(relativePattern('salesQuotationEdit'), 'salesQuotationEdit', () => import('@/features/sales/pages/SalesQuotationEditPage')),
  page(relativePattern('salesOrder'), 'salesOrder', () => import('@/features/sales/pages/SalesOrderDetailPage')),
  page(relativePattern('salesOrderEdit'), 'salesOrderEdit', () => import('@/features/sales/pages/SalesOrderEditPage')),
  page(relativePattern('salesInvoices'), 'salesInvoices', () => import('@/features/sales/pages/SalesInvoicesPage')),
  page(relativePattern('salesInvoice'), 'salesInvoice', () => import('@/features/sales/pages/SalesInvoiceDetailPage')),
  page(relativePattern('salesDeliveries'), 'salesDeliveries', () => import('@/features/sales/pages/SalesDeliveriesPage')),
  page(relativePattern('salesDelivery'), 'salesDelivery', () => import('@/features/sales/pages/SalesDeliveryDetailPage')),

  // Warehouse
  page(relativePattern('warehouseInventory'), 'inventory', () => import('@/features/warehouse/pages/InventoryPage'), { serves: WAREHOUSE }),
  page(relativePattern('warehouseShipments'), 'warehouseShipments', () => import('@/features/warehouse/pages/WarehouseShipmentsPage'), { serves: WAREHOUSE }),
  page(relativePattern('warehouseLogistics'), 'warehouseLogistics', () => import('@/features/warehouse/pages/WarehouseLogisticsPage'), { serves: WAREHOUSE }),
  page(relativePattern('warehouseDeliveries'), 'warehouseDeliveries', () => import('@/features/warehouse/pages/WarehouseDeliveriesPage'), { serves: WAREHOUSE }),

  page(relativePattern('profile'), 'profile', () => import('@/features/profile/pages/ProfilePage'), { serves: EVERYONE }),
  // The company as EUDR operator (user menu, internal users): the data of due diligence statements.
  page(relativePattern('companySettings'), 'companySettings', () => import('@/features/company/pages/CompanySettingsPage')),
  // The accounting integration with Visma (user menu, internal users with accounting permissions).
  page(relativePattern('accounting'), 'accountingConnection', () => import('@/features/accounting/pages/AccountingConnectionPage')),
  page(relativePattern('accountingMappings'), 'accountingMappings', () => import('@/features/accounting/pages/AccountingMappingsPage')),
  page(relativePattern('accountingSyncLog'), 'accountingSyncLog', () => import('@/features/accounting/pages/AccountingSyncLogPage')),
  // Visma eAccounting sends the browser back here after the consent (the redirect URI registered with Visma).
  page(relativePattern('accountingCallback'), 'accountingCallback', () => import('@/features/accounting/pages/AccountingCallbackPage')),

  // Supplier portal; the parentVendorId forms come from the supplier redirect rule.
  page(relativePattern('supplierRawMaterials'), 'supplierRawMaterials', () => import('@/features/eudr/pages/SupplierRawMaterialsPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierVendorRawMaterials'), 'supplierRawMaterials', () => import('@/features/eudr/pages/SupplierRawMaterialsPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierRawMaterialNew'), 'rawMaterialNew', () => import('@/features/eudr/pages/RawMaterialWizardPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierVendorRawMaterialNew'), 'rawMaterialNew', () => import('@/features/eudr/pages/RawMaterialWizardPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierRawMaterial'), 'rawMaterial', () => import('@/features/eudr/pages/RawMaterialDetailPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierVendorRawMaterial'), 'rawMaterial', () => import('@/features/eudr/pages/RawMaterialDetailPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierRawMaterialEdit'), 'rawMaterialEdit', () => import('@/features/eudr/pages/RawMaterialEditPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierVendorRawMaterialEdit'), 'rawMaterialEdit', () => import('@/features/eudr/pages/RawMaterialEditPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierOrders'), 'supplierOrders', () => import('@/features/purchase/pages/SupplierOrdersPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierVendorOrders'), 'supplierOrders', () => import('@/features/purchase/pages/SupplierOrdersPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierOrder'), 'purchaseOrder', () => import('@/features/purchase/pages/PurchaseOrderDetailPage'), { serves: SUPPLIER }),
  page(relativePattern('supplierVendorOrder'), 'purchaseOrder', () => import('@/features/purchase/pages/PurchaseOrderDetailPage'), { serves: SUPPLIER }),

  // Products
  page(relativePattern('products'), 'productList', () => import('@/features/products/pages/ProductListPage')),
  page(relativePattern('productCreate'), 'productCreate', () => import('@/features/products/pages/ProductCreatePage')),
  page(relativePattern('product'), 'product', () => import('@/features/products/pages/ProductDetailPage')),
  page(relativePattern('productEdit'), 'productEdit', () => import('@/features/products/pages/ProductEditPage')),
  page(relativePattern('productGroups'), 'productGroups', () => import('@/features/products/pages/ProductGroupsPage')),

  // Purchase
  page(relativePattern('suppliers'), 'supplierList', () => import('@/features/suppliers/pages/SupplierListPage')),
  page(relativePattern('supplier'), 'supplier', () => import('@/features/suppliers/pages/SupplierDetailPage')),
  page(relativePattern('purchaseOrders'), 'purchaseOrders', () => import('@/features/purchase/pages/PurchaseOrdersPage')),
  page(relativePattern('purchaseOrderNew'), 'purchaseOrderNew', () => import('@/features/purchase/pages/PurchaseOrderCreatePage')),
  page(relativePattern('purchaseOrder'), 'purchaseOrder', () => import('@/features/purchase/pages/PurchaseOrderDetailPage')),
  page(relativePattern('purchaseOrderEdit'), 'purchaseOrderEdit', () => import('@/features/purchase/pages/PurchaseOrderEditPage')),
  page(relativePattern('purchaseReceipts'), 'purchaseReceipts', () => import('@/features/purchase/pages/PurchaseReceiptsPage')),
  page(relativePattern('purchaseReceipt'), 'purchaseReceipt', () => import('@/features/purchase/pages/PurchaseReceiptDetailPage')),
  page(relativePattern('supplierInvoices'), 'supplierInvoices', () => import('@/features/purchase/pages/SupplierInvoicesPage')),
  page(relativePattern('supplierInvoice'), 'supplierInvoice', () => import('@/features/purchase/pages/SupplierInvoiceDetailPage')),
  page(relativePattern('shipments'), 'shipments', () => import('@/features/logistics/pages/ShipmentsPage')),
  page(relativePattern('shipmentCompanies'), 'shipmentCompanies', () => import('@/features/logistics/pages/ShipmentCompaniesPage')),
  page(relativePattern('shipmentCompanyCreate'), 'shipmentCompanyCreate', () => import('@/features/logistics/pages/ShipmentCompanyCreatePage')),
  page(relativePattern('shipmentCompany'), 'shipmentCompany', () => import('@/features/logistics/pages/ShipmentCompanyDetailPage')),
  page(relativePattern('rawMaterials'), 'rawMaterials', () => import('@/features/eudr/pages/RawMaterialsPage')),
  page(relativePattern('rawMaterialNew'), 'rawMaterialNew', () => import('@/features/eudr/pages/RawMaterialWizardPage')),
  page(relativePattern('rawMaterial'), 'rawMaterial', () => import('@/features/eudr/pages/RawMaterialDetailPage')),
  page(relativePattern('rawMaterialEdit'), 'rawMaterialEdit', () => import('@/features/eudr/pages/RawMaterialEditPage')),
  page(relativePattern('supplierPolicies'), 'supplierPolicies', () => import('@/features/eudr/pages/SupplierPoliciesPage')),
  page(relativePattern('forestLayers'), 'forestLayers', () => import('@/features/eudr/pages/ForestLayersPage')),
  page(relativePattern('annualReport'), 'annualReport', () => import('@/features/eudr/pages/AnnualReportPage')),
  page(relativePattern('receivedReferences'), 'receivedReferences', () => import('@/features/eudr/pages/ReceivedReferencesPage')),
  page(relativePattern('parentVendors'), 'parentVendors', () => import('@/features/suppliers/pages/ParentVendorsPage')),

  page(relativePattern('customers'), 'customerList', () => import('@/features/customers/pages/CustomerListPage')),

  // Users
  page(relativePattern('users'), 'userList', () => import('@/features/users/pages/UserListPage')),
  page(relativePattern('userCreate'), 'userCreate', () => import('@/features/users/pages/UserCreatePage')),
  page(relativePattern('departments'), 'departments', () => import('@/features/users/pages/DepartmentsPage')),
  page(relativePattern('permissions'), 'permissions', () => import('@/features/users/pages/PermissionsPage')),
  page(relativePattern('user'), 'user', () => import('@/features/users/pages/UserDetailPage')),

  // Data / reports
  page(relativePattern('reports'), 'reportLab', () => import('@/features/reports/pages/ReportLabPage')),
  page(relativePattern('reportTest'), 'reportTest', () => import('@/features/reports/pages/ReportTestPage')),
  page(relativePattern('importExport'), 'importExport', () => import('@/features/reports/pages/ImportExportPage')),

  // Core
  page(relativePattern('emailScenarios'), 'emailScenarios', () => import('@/features/email-scenarios/pages/EmailScenariosPage')),
  page(relativePattern('printerDevices'), 'printerDevices', () => import('@/features/printing/pages/PrinterDevicesPage')),
  page(relativePattern('printerDemo'), 'printerDemo', () => import('@/features/printing/pages/PrinterDemoPage')),
  page(relativePattern('printerIntegration'), 'printerIntegration', () => import('@/features/printing/pages/PrinterIntegrationPage')),

  // Staff-only tools
  page(relativePattern('testComments'), 'testComments', () => import('@/features/dev-tools/pages/CommentsTestPage'), { staffOnly: true }),
  page(relativePattern('testLayout'), 'testLayout', () => import('@/features/dev-tools/pages/LayoutTestPage'), { staffOnly: true }),
  page(relativePattern('testUserDebug'), 'testUserDebug', () => import('@/features/dev-tools/pages/UserDebugPage'), { staffOnly: true }),
  page(relativePattern('testPrinter'), 'testPrinter', () => import('@/features/printing/pages/PrinterTestConsolePage'), { staffOnly: true }),
  page(relativePattern('testPrinterStart'), 'testPrinterStart', () => import('@/features/printing/pages/PrinterTestStartPage'), { staffOnly: true }),
];

const notFoundMeta: RouteMeta = { title: 'nav:routes.notFound', requiresAuth: false };

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: FullPageSpinner,
    children: [
      page(routePatterns.login, 'login', () => import('@/features/auth/pages/LoginPage'), { requiresAuth: false, serves: EVERYONE, firstPage: true }),
      // The public trace page is its own light entry (trace.html); reach it with a full page load.
      { path: routePatterns.trace, element: <TraceHandoff />, handle: { title: 'nav:routes.trace', requiresAuth: false } satisfies RouteMeta },
      // The layouts load after the entry, with the first page: the login page does not need them.
      {
        path: routePatterns.home,
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
