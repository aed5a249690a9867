/** Paths of the EUDR endpoints (issue "EUDR traceability I" and "II"). */
export const RAW_MATERIALS_URL = '/api/eudr/raw-materials/';
export const CARTONS_URL = '/api/eudr/cartons/';
export const POLICIES_URL = '/api/eudr/supplier-policies/';
export const GEOJSON_VALIDATE_URL = '/api/eudr/geojson/validate/';
export const PARSE_DELIVERY_FILE_URL = '/api/eudr/raw-materials/parse-delivery-file/';
export const DELIVERY_FILE_TEMPLATE_URL = '/api/eudr/raw-materials/delivery-file-template/';
export const PRODUCTS_URL = '/api/products/';
export const PARENT_VENDORS_URL = '/api/suppliers/parent-vendors/';
export const PURCHASE_ORDERS_URL = '/api/purchaseorders/orders/';

export const rawMaterialUrl = (id: number | string) => `${RAW_MATERIALS_URL}${id}/`;
export const RECEIVED_REFERENCES_URL = '/api/eudr/received-references/';
export const TENANT_SETTINGS_URL = '/api/tenants/current/';
