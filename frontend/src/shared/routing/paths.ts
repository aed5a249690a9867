/**
 * Every route path of the web app, in one module (docs/architecture.md "Web app").
 *
 * `routePatterns` are the patterns the route table (src/app/router.tsx) declares; `paths` builds the
 * URL of a page from its parameters, for navigate(), <Link to>, <Navigate to> and href. ESLint
 * (`routePathRules` in eslint.config.js) refuses a path literal ("/...") given to navigate() or as
 * the `to` / `href` of a link or button anywhere else; paths.test.ts checks that every builder gives
 * a path the route table serves.
 */

/** A path parameter as it goes into a URL: numbers as they are, text encoded. */
const part = (value: number | string) => encodeURIComponent(String(value));

/** `?key=value&...` of the given values, empty values left out; '' when none is left. */
function query(values: Record<string, string | number | null | undefined>): string {
  const parts = Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null && entry[1] !== '')
    .map(([key, value]) => `${key}=${part(value)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The route table's patterns, absolute. The router takes them relative to the layout route. */
export const routePatterns = {
  home: '/',
  login: '/auth/login',
  trace: '/eudrtrace/:id',
  profile: '/profile',

  salesCustomers: '/sales/customer',
  salesOrderNew: '/sales/sales-order-detail',
  salesShipments: '/sales/shipment',
  salesOrders: '/sales/orders',
  salesQuotations: '/sales/quotations',
  salesQuotationNew: '/sales/quotations/create',
  salesQuotation: '/sales/quotations/:id',
  salesQuotationEdit: '/sales/quotations/:id/edit',
  salesOrder: '/sales/orders/:id',
  salesOrderEdit: '/sales/orders/:id/edit',
  salesInvoices: '/sales/invoices',
  salesInvoice: '/sales/invoices/:id',
  salesDeliveries: '/sales/deliveries',
  salesDelivery: '/sales/deliveries/:id',

  warehouseInventory: '/warehouse/inventory',
  warehouseShipments: '/warehouse/shipments',
  warehouseLogistics: '/warehouse/logistics',
  warehouseDeliveries: '/warehouse/deliveries',

  companySettings: '/settings/company',
  accounting: '/settings/accounting',
  accountingMappings: '/settings/accounting/mappings',
  accountingSyncLog: '/settings/accounting/sync-log',
  accountingCallback: '/settings/accounting/callback',

  supplierRawMaterials: '/supplier/raw-materials',
  supplierVendorRawMaterials: '/supplier/:parentVendorId/raw-materials',
  supplierRawMaterialNew: '/supplier/raw-materials/new',
  supplierVendorRawMaterialNew: '/supplier/:parentVendorId/raw-materials/new',
  supplierRawMaterial: '/supplier/raw-materials/:id',
  supplierVendorRawMaterial: '/supplier/:parentVendorId/raw-materials/:id',
  supplierRawMaterialEdit: '/supplier/raw-materials/:id/edit',
  supplierVendorRawMaterialEdit: '/supplier/:parentVendorId/raw-materials/:id/edit',
  supplierOrders: '/supplier/orders',
  supplierVendorOrders: '/supplier/:parentVendorId/orders',
  supplierOrder: '/supplier/orders/:orderNumber',
  supplierVendorOrder: '/supplier/:parentVendorId/orders/:orderNumber',

  products: '/product',
  productCreate: '/product/create',
  product: '/product/:id',
  productEdit: '/product/:id/edit',
  productGroups: '/product-group',

  suppliers: '/purchase/suppliers',
  supplier: '/purchase/suppliers/:id',
  purchaseOrders: '/purchase/orders',
  purchaseOrderNew: '/purchase/orders/new',
  purchaseOrder: '/purchase/orders/:orderNumber',
  purchaseOrderEdit: '/purchase/orders/:orderNumber/edit',
  purchaseReceipts: '/purchase/receipts',
  purchaseReceipt: '/purchase/receipts/:id',
  supplierInvoices: '/purchase/supplier-invoices',
  supplierInvoice: '/purchase/supplier-invoices/:id',
  shipments: '/purchase/shipments',
  shipmentCompanies: '/purchase/shipment-companies',
  shipmentCompanyCreate: '/purchase/shipment-companies/create',
  shipmentCompany: '/purchase/shipment-companies/:companyName',
  rawMaterials: '/purchase/eudr/raw-materials',
  rawMaterialNew: '/purchase/eudr/raw-materials/new',
  rawMaterial: '/purchase/eudr/raw-materials/:id',
  rawMaterialEdit: '/purchase/eudr/raw-materials/:id/edit',
  supplierPolicies: '/purchase/eudr/supplier-policies',
  forestLayers: '/purchase/eudr/forest-layers',
  annualReport: '/purchase/eudr/annual-report',
  receivedReferences: '/purchase/eudr/received-references',
  parentVendors: '/purchase/parent-vendors',

  customers: '/customer',

  users: '/user',
  userCreate: '/user/create',
  departments: '/user/departments',
  permissions: '/user/permissions',
  user: '/user/:id',

  reports: '/reports',
  reportTest: '/reports/test',
  importExport: '/reports/import-export',

  emailScenarios: '/core/email-scenarios',
  printerDevices: '/printer/devices',
  printerDemo: '/printer/demo',
  printerIntegration: '/printer/integration',

  testComments: '/test/comments',
  testLayout: '/test/layout',
  testUserDebug: '/test/user-debug',
  testPrinter: '/test/printer',
  testPrinterStart: '/test/printer-start',
} as const;

export type RoutePatternName = keyof typeof routePatterns;

/** The two halves of the supplier portal. */
export type SupplierSection = 'raw-materials' | 'orders';

/** The URL of every page. Builders without parameters are functions too, so every use reads alike. */
export const paths = {
  home: () => routePatterns.home,
  login: () => routePatterns.login,
  /** The public trace page of a carton (its own entry: reach it with a full page load). */
  trace: (code: string) => `/eudrtrace/${part(code)}`,
  profile: () => routePatterns.profile,

  salesCustomers: () => routePatterns.salesCustomers,
  salesOrderNew: () => routePatterns.salesOrderNew,
  /** The sales shipments; with an id, that shipment's panel open. */
  salesShipments: (shipment?: number) => `${routePatterns.salesShipments}${query({ shipment })}`,
  salesOrders: () => routePatterns.salesOrders,
  salesQuotations: () => routePatterns.salesQuotations,
  salesQuotationNew: () => routePatterns.salesQuotationNew,
  salesQuotation: (id: number) => `/sales/quotations/${id}`,
  salesQuotationEdit: (id: number) => `/sales/quotations/${id}/edit`,
  salesOrder: (id: number) => `/sales/orders/${id}`,
  salesOrderEdit: (id: number) => `/sales/orders/${id}/edit`,
  salesInvoices: () => routePatterns.salesInvoices,
  salesInvoice: (id: number) => `/sales/invoices/${id}`,
  salesDeliveries: () => routePatterns.salesDeliveries,
  salesDelivery: (id: number) => `/sales/deliveries/${id}`,

  /** The warehouse's inventory; with a carton code, that carton looked up. */
  warehouseInventory: (carton?: string) => `${routePatterns.warehouseInventory}${query({ carton })}`,
  warehouseShipments: () => routePatterns.warehouseShipments,
  warehouseLogistics: () => routePatterns.warehouseLogistics,
  warehouseDeliveries: () => routePatterns.warehouseDeliveries,

  companySettings: () => routePatterns.companySettings,
  accounting: () => routePatterns.accounting,
  accountingMappings: () => routePatterns.accountingMappings,
  accountingSyncLog: () => routePatterns.accountingSyncLog,
  accountingCallback: () => routePatterns.accountingCallback,

  /**
   * A section of the supplier portal: under the parent vendor's id when the route named it, with the
   * `pv` query when the query did (docs/specification.md section 6), else the plain path.
   */
  supplierSection: (section: SupplierSection, parentVendor?: { id: string; in: 'route' | 'query' } | null) => {
    if (parentVendor?.in === 'route') return `/supplier/${part(parentVendor.id)}/${section}`;
    if (parentVendor?.in === 'query') return `/supplier/${section}${query({ pv: parentVendor.id })}`;
    return `/supplier/${section}`;
  },
  /** The base path of the supplier portal's raw materials or orders, its parent vendor in the route when given. */
  /** The supplier portal's order list (plain path), optionally filtered by status. */
  supplierOrders: (status?: string) => `${routePatterns.supplierOrders}${status ? `?status=${status}` : ''}`,
  supplierBase: (section: SupplierSection, parentVendorId?: string | null) =>
    parentVendorId ? `/supplier/${part(parentVendorId)}/${section}` : `/supplier/${section}`,

  products: () => routePatterns.products,
  productCreate: () => routePatterns.productCreate,
  product: (id: number) => `/product/${id}`,
  productEdit: (id: number) => `/product/${id}/edit`,
  productGroups: () => routePatterns.productGroups,

  suppliers: () => routePatterns.suppliers,
  supplier: (id: number) => `/purchase/suppliers/${id}`,
  /** The purchase order list, optionally filtered by status (comma-separated). */
  purchaseOrders: (status?: string) => `${routePatterns.purchaseOrders}${status ? `?status=${status}` : ''}`,
  purchaseOrderNew: () => routePatterns.purchaseOrderNew,
  purchaseOrder: (orderNumber: string) => `/purchase/orders/${part(orderNumber)}`,
  purchaseOrderEdit: (orderNumber: string) => `/purchase/orders/${part(orderNumber)}/edit`,
  /** The order page with its receive dialog open (the receipts list's "Receive" entry point). */
  purchaseOrderReceive: (orderNumber: string) => `/purchase/orders/${part(orderNumber)}?receive=1`,
  purchaseReceipts: () => routePatterns.purchaseReceipts,
  purchaseReceipt: (id: number) => `/purchase/receipts/${id}`,
  supplierInvoices: () => routePatterns.supplierInvoices,
  supplierInvoice: (id: number) => `/purchase/supplier-invoices/${id}`,
  /** The purchase shipments, optionally filtered by status. */
  shipments: (status?: string) => `${routePatterns.shipments}${status ? `?status=${status}` : ''}`,
  shipmentCompanies: () => routePatterns.shipmentCompanies,
  shipmentCompanyCreate: () => routePatterns.shipmentCompanyCreate,
  shipmentCompany: (name: string) => `/purchase/shipment-companies/${part(name)}`,
  rawMaterials: () => routePatterns.rawMaterials,
  /** A raw-material delivery of the internal purchase pages (the supplier portal's: useEudrPortal). */
  rawMaterial: (id: number | string) => `/purchase/eudr/raw-materials/${id}`,
  supplierPolicies: () => routePatterns.supplierPolicies,
  forestLayers: () => routePatterns.forestLayers,
  annualReport: () => routePatterns.annualReport,
  receivedReferences: () => routePatterns.receivedReferences,
  parentVendors: () => routePatterns.parentVendors,

  customers: () => routePatterns.customers,

  users: () => routePatterns.users,
  userCreate: () => routePatterns.userCreate,
  departments: () => routePatterns.departments,
  permissions: () => routePatterns.permissions,
  user: (id: number) => `/user/${id}`,

  reports: () => routePatterns.reports,
  reportTest: () => routePatterns.reportTest,
  importExport: () => routePatterns.importExport,

  emailScenarios: () => routePatterns.emailScenarios,
  printerDevices: () => routePatterns.printerDevices,
  printerDemo: () => routePatterns.printerDemo,
  printerIntegration: () => routePatterns.printerIntegration,

  testComments: () => routePatterns.testComments,
  testLayout: () => routePatterns.testLayout,
  testUserDebug: () => routePatterns.testUserDebug,
  testPrinter: () => routePatterns.testPrinter,
  testPrinterStart: () => routePatterns.testPrinterStart,
} as const;

/** A pattern relative to the layout route, as the router's children take it ('sales/orders/:id'). */
export function relativePattern(name: RoutePatternName): string {
  return routePatterns[name].replace(/^\//, '');
}

/** Whether a pathname is in the supplier portal (/supplier/...). */
export const isSupplierPortalPath = (pathname: string) => pathname.startsWith('/supplier/');

/** Whether a path is one of the warehouse pages (/warehouse/...), the pages warehouse users are served. */
export const isWarehousePath = (path: string) => path.startsWith('/warehouse/');
