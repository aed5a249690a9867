/**
 * The paths module and the route table agree (docs/architecture.md "Web app"): every path that
 * src/shared/routing/paths.ts builds is served by a route of src/app/router.tsx, not by the not-found page.
 */
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths, routePatterns } from '@/shared/routing/paths';
import { routes } from './router';

/** The deepest matched route's pattern, or '*' for the not-found page. */
function servedBy(path: string): string | undefined {
  const matches = matchRoutes(routes, path);
  return matches?.[matches.length - 1]?.route.path;
}

const samples: Record<keyof typeof paths, string[]> = {
  home: [paths.home()],
  login: [paths.login()],
  trace: [paths.trace('ABC 12/3')],
  profile: [paths.profile()],
  salesCustomers: [paths.salesCustomers()],
  salesOrderNew: [paths.salesOrderNew()],
  salesShipments: [paths.salesShipments(), paths.salesShipments(4)],
  salesOrders: [paths.salesOrders()],
  salesQuotations: [paths.salesQuotations()],
  salesQuotationNew: [paths.salesQuotationNew()],
  salesQuotation: [paths.salesQuotation(7)],
  salesQuotationEdit: [paths.salesQuotationEdit(7)],
  salesOrder: [paths.salesOrder(7)],
  salesOrderEdit: [paths.salesOrderEdit(7)],
  salesInvoices: [paths.salesInvoices()],
  salesInvoice: [paths.salesInvoice(7)],
  salesDeliveries: [paths.salesDeliveries()],
  salesDelivery: [paths.salesDelivery(7)],
  warehouseInventory: [paths.warehouseInventory(), paths.warehouseInventory('C-1')],
  warehouseShipments: [paths.warehouseShipments()],
  warehouseLogistics: [paths.warehouseLogistics()],
  warehouseDeliveries: [paths.warehouseDeliveries()],
  companySettings: [paths.companySettings()],
  accounting: [paths.accounting()],
  accountingMappings: [paths.accountingMappings()],
  accountingSyncLog: [paths.accountingSyncLog()],
  accountingCallback: [paths.accountingCallback()],
  supplierSection: [
    paths.supplierSection('orders'),
    paths.supplierSection('raw-materials', { id: '3', in: 'route' }),
    paths.supplierSection('orders', { id: '3', in: 'query' }),
  ],
  supplierOrders: [paths.supplierOrders(), paths.supplierOrders('draft')],
  supplierBase: [paths.supplierBase('raw-materials'), paths.supplierBase('orders', '3')],
  products: [paths.products()],
  productCreate: [paths.productCreate()],
  product: [paths.product(7)],
  productEdit: [paths.productEdit(7)],
  productGroups: [paths.productGroups()],
  suppliers: [paths.suppliers()],
  supplier: [paths.supplier(7)],
  purchaseOrders: [paths.purchaseOrders(), paths.purchaseOrders('confirmed,sent')],
  purchaseOrderNew: [paths.purchaseOrderNew()],
  purchaseOrder: [paths.purchaseOrder('PO-2026/00001')],
  purchaseOrderEdit: [paths.purchaseOrderEdit('PO-2026-00001')],
  purchaseOrderReceive: [paths.purchaseOrderReceive('PO-2026-00001')],
  purchaseReceipts: [paths.purchaseReceipts()],
  purchaseReceipt: [paths.purchaseReceipt(7)],
  supplierInvoices: [paths.supplierInvoices()],
  supplierInvoice: [paths.supplierInvoice(7)],
  shipments: [paths.shipments(), paths.shipments('in_transit')],
  shipmentCompanies: [paths.shipmentCompanies()],
  shipmentCompanyCreate: [paths.shipmentCompanyCreate()],
  shipmentCompany: [paths.shipmentCompany('DHL / Express')],
  rawMaterials: [paths.rawMaterials()],
  rawMaterial: [paths.rawMaterial(7)],
  supplierPolicies: [paths.supplierPolicies()],
  forestLayers: [paths.forestLayers()],
  annualReport: [paths.annualReport()],
  receivedReferences: [paths.receivedReferences()],
  parentVendors: [paths.parentVendors()],
  customers: [paths.customers()],
  users: [paths.users()],
  userCreate: [paths.userCreate()],
  departments: [paths.departments()],
  permissions: [paths.permissions()],
  user: [paths.user(7)],
  reports: [paths.reports()],
  reportTest: [paths.reportTest()],
  importExport: [paths.importExport()],
  emailScenarios: [paths.emailScenarios()],
  printerDevices: [paths.printerDevices()],
  printerDemo: [paths.printerDemo()],
  printerIntegration: [paths.printerIntegration()],
  testComments: [paths.testComments()],
  testLayout: [paths.testLayout()],
  testUserDebug: [paths.testUserDebug()],
  testPrinter: [paths.testPrinter()],
  testPrinterStart: [paths.testPrinterStart()],
};

describe('the paths module', () => {
  it('builds only paths the route table serves', () => {
    for (const [name, built] of Object.entries(samples)) {
      for (const path of built) {
        const pattern = servedBy(path.split('?')[0] ?? path);
        expect(pattern, `${name}: ${path}`).toBeDefined();
        expect(pattern, `${name}: ${path}`).not.toBe('*');
      }
    }
  });

  it('names every pattern of the route table', () => {
    for (const pattern of Object.values(routePatterns)) {
      const concrete = pattern.replace(/:(\w+)/g, '1');
      expect(servedBy(concrete), pattern).not.toBe('*');
    }
  });

  it('builds the paths the pages used before', () => {
    expect(paths.salesOrder(12)).toBe('/sales/orders/12');
    expect(paths.salesShipments(4)).toBe('/sales/shipment?shipment=4');
    expect(paths.purchaseOrder('PO-1/2')).toBe('/purchase/orders/PO-1%2F2');
    expect(paths.purchaseOrderReceive('PO-1')).toBe('/purchase/orders/PO-1?receive=1');
    expect(paths.shipmentCompany('A B')).toBe('/purchase/shipment-companies/A%20B');
    expect(paths.warehouseInventory('X Y')).toBe('/warehouse/inventory?carton=X%20Y');
    expect(paths.purchaseOrders('confirmed,sent,partly_received')).toBe('/purchase/orders?status=confirmed,sent,partly_received');
    expect(paths.supplierSection('orders', { id: '9', in: 'query' })).toBe('/supplier/orders?pv=9');
    expect(paths.supplierBase('raw-materials', '9')).toBe('/supplier/9/raw-materials');
    expect(paths.home()).toBe('/');
  });
});
