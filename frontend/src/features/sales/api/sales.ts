/**
 * Payloads and hooks of /api/salesorders/ (backend apps/salesorders/api/). Types come from the generated
 * OpenAPI schema; decimals (money, quantities) arrive and leave as strings.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { del, download, get, patch, post, put } from '@/api/http';
import type { Paginated } from '@/api/types';
import { useSession } from '@/shared/session/useSession';
import { saveBlob } from '@/shared/utils/saveFile';

type S = components['schemas'];
export type SalesOrder = S['SalesOrder'];
export type SalesOrderDetail = S['SalesOrderDetail'];
export type SalesOrderLine = S['SalesOrderLine'];
export type SalesShipment = S['SalesShipment'];
export type SalesShipmentDetail = S['SalesShipmentDetail'];
export type Invoice = S['Invoice'];
export type InvoiceDetail = S['InvoiceDetail'];
export type InvoicePayment = S['InvoicePayment'];
export type Delivery = S['Delivery'];
export type OrderStatus = SalesOrder['status'];
export type ShipmentStatus = SalesShipment['status'];
export type PaymentStatus = Invoice['payment_status'];
export type OrderInput = S['SalesOrderWriteRequest'];
export type ShipmentInput = S['SalesShipmentWriteRequest'];
export type InvoiceInput = S['InvoiceCreateRequest'];
export type InvoiceChange = S['PatchedInvoiceUpdateRequest'];
export type CreditNoteInput = S['CreditNoteRequest'];
export type CreditLineInput = S['CreditLineWriteRequest'];
export type PaymentInput = S['PaymentRequest'];
export type CartonCodesInput = S['CartonCodesRequest'];
export type VatTreatment = S['VatTreatment'];
export type EInvoiceDelivery = S['EInvoiceDelivery'];
export type Quotation = S['SalesQuotation'];
export type QuotationDetail = S['SalesQuotationDetail'];
export type QuotationLine = S['SalesQuotationLine'];
export type QuotationStatus = Quotation['status'];
export type QuotationInput = S['SalesQuotationWriteRequest'];
export type QuotationAccepted = S['QuotationAccepted'];
export type EInvoiceEmailInput = S['EInvoiceEmailRequest'];
export type EInvoiceFormat = EInvoiceEmailInput['formats'][number];
export const EINVOICE_FORMATS: EInvoiceFormat[] = ['ubl', 'facturx', 'pdf'];

export const ORDER_STATUSES: OrderStatus[] = [
  'draft',
  'confirmed',
  'partially_shipped',
  'shipped',
  'partially_invoiced',
  'invoiced',
  'closed',
  'cancelled',
];
export const QUOTATION_STATUSES: QuotationStatus[] = ['draft', 'sent', 'accepted', 'declined', 'expired', 'cancelled'];
export const SHIPMENT_STATUSES: ShipmentStatus[] = ['draft', 'picked', 'shipped', 'delivered'];
export const PAYMENT_STATUSES: PaymentStatus[] = ['draft', 'open', 'partially_paid', 'paid', 'overdue', 'credited', 'credit_note'];

export const ORDERS_URL = '/api/salesorders/orders/';
export const QUOTATIONS_URL = '/api/salesorders/quotations/';
export const SHIPMENTS_URL = '/api/salesorders/shipments/';
export const INVOICES_URL = '/api/salesorders/invoices/';
export const DELIVERIES_URL = '/api/salesorders/deliveries/';
export const CUSTOMERS_URL = '/api/customers/';
export const PRODUCTS_URL = '/api/products/';
export const WAREHOUSES_URL = '/api/inventory/warehouses/';

/** What the selects use of a customer and a product (the list endpoints answer the whole records). */
export type CustomerOption = Pick<
  S['Customer'],
  | 'id'
  | 'number'
  | 'name'
  | 'currency'
  | 'payment_terms_days'
  | 'billing_street'
  | 'billing_post_code'
  | 'billing_city'
  | 'billing_country'
  | 'delivery_street'
  | 'delivery_post_code'
  | 'delivery_city'
  | 'delivery_country'
>;
/** An internal user of the tenant who may own an order (the candidates the order's `owner` accepts). */
export type OwnerOption = S['OwnerOption'];

/** The ship-to address fields of an order. */
export interface ShipTo {
  ship_to_name: string;
  ship_to_street: string;
  ship_to_post_code: string;
  ship_to_city: string;
  ship_to_country: string;
}
export const SHIP_TO_FIELDS = ['ship_to_name', 'ship_to_street', 'ship_to_post_code', 'ship_to_city', 'ship_to_country'] as const;

/** What a new order takes from its customer unless given, as the server computes it
 * (apps/salesorders/services/orders.py `_customer_defaults`): the delivery address when the customer has one
 * (a street or a city), else the billing address; the customer's currency (EUR) and terms (30 days). */
export function customerDefaults(c: CustomerOption): ShipTo & { currency: string; payment_terms_days: number } {
  const delivery = Boolean(c.delivery_street || c.delivery_city);
  return {
    ship_to_name: c.name,
    ship_to_street: c.delivery_street || c.billing_street || '',
    ship_to_post_code: (delivery ? c.delivery_post_code : c.billing_post_code) ?? '',
    ship_to_city: (delivery ? c.delivery_city : c.billing_city) ?? '',
    ship_to_country: (delivery ? c.delivery_country : c.billing_country) || '',
    currency: c.currency || 'EUR',
    payment_terms_days: c.payment_terms_days ?? 30,
  };
}
export type ProductOption = Pick<S['Product'], 'id' | 'article_number' | 'name' | 'name_zh' | 'sales_price'>;
export type Warehouse = S['Warehouse'];

export const searchCustomers = (search: string, signal?: AbortSignal) =>
  get<Paginated<CustomerOption>>(CUSTOMERS_URL, { params: { search, page_size: 20, is_active: true }, signal });
export const fetchCustomer = (id: number, signal?: AbortSignal) => get<CustomerOption>(`${CUSTOMERS_URL}${id}/`, { signal });
/** Owner candidates: internal members of the tenant (the same set the order's `owner` accepts). */
export const OWNERS_URL = '/api/salesorders/orders/owners/';
export const searchOwners = (search: string, signal?: AbortSignal) =>
  get<Paginated<OwnerOption>>(OWNERS_URL, { params: { search, page_size: 20 }, signal });
export const searchProducts = (search: string, signal?: AbortSignal) =>
  get<Paginated<ProductOption>>(PRODUCTS_URL, { params: { search, page_size: 20, is_active: true }, signal });

/** Keys to invalidate: every query of an endpoint starts with it (ServerTable's lists too). */
export const salesKeys = {
  orders: [ORDERS_URL] as const,
  quotations: [QUOTATIONS_URL] as const,
  shipments: [SHIPMENTS_URL] as const,
  invoices: [INVOICES_URL] as const,
  deliveries: [DELIVERIES_URL] as const,
};

/** The due deliveries from `from` to `to` (YYYY-MM-DD) for the schedule's calendar, with its filters. */
export const deliveryCalendarQueryOptions = (
  tenant: string | null,
  from: string,
  to: string,
  filters: { customer: string | null; status: string | null; warehouse: string | null },
) =>
  queryOptions({
    queryKey: [DELIVERIES_URL, 'calendar', tenant, from, to, filters.customer, filters.status, filters.warehouse],
    queryFn: ({ signal }) =>
      get<Paginated<Delivery>>(DELIVERIES_URL, {
        params: {
          due_from: from,
          due_to: to,
          page_size: 500,
          ordering: 'due_date',
          ...(filters.customer ? { customer: filters.customer } : {}),
          ...(filters.status ? { status: filters.status } : {}),
          ...(filters.warehouse ? { warehouse: filters.warehouse } : {}),
        },
        signal,
      }),
  });

/** One order; `frozen` (the edit page) under a key of its own, see `useSalesOrder`. */
export const salesOrderQueryOptions = (tenant: string | null, id: number, frozen = false) =>
  queryOptions({
    queryKey: frozen ? [ORDERS_URL, tenant, id, 'edit'] : [ORDERS_URL, tenant, id],
    queryFn: ({ signal }) => get<SalesOrderDetail>(`${ORDERS_URL}${id}/`, { signal }),
  });

/** One quotation; `frozen` (the edit page) under a key of its own, as an order's. */
export const quotationQueryOptions = (tenant: string | null, id: number, frozen = false) =>
  queryOptions({
    queryKey: frozen ? [QUOTATIONS_URL, tenant, id, 'edit'] : [QUOTATIONS_URL, tenant, id],
    queryFn: ({ signal }) => get<QuotationDetail>(`${QUOTATIONS_URL}${id}/`, { signal }),
  });

function useTenant() {
  return useSession((s) => s.tenantId);
}

/** One order. `frozen` (the edit page): read afresh when the page opens (no cached copy), then kept
 * while it is open: the form works on the version it opened, and the server refuses its save if the
 * order changed meanwhile. */
/** The tenant's warehouses (few: one page), for the delivery schedule's warehouse filter. */
export function useWarehouses() {
  const tenant = useTenant();
  return useQuery({
    queryKey: [WAREHOUSES_URL, tenant, 'sales-filter'],
    queryFn: ({ signal }) => get<Paginated<Warehouse>>(WAREHOUSES_URL, { params: { page_size: 100 }, signal }),
    staleTime: 5 * 60_000,
  });
}

export function useSalesOrder(id: number, { frozen = false }: { frozen?: boolean } = {}) {
  const tenant = useTenant();
  return useQuery({
    ...salesOrderQueryOptions(tenant, id, frozen),
    enabled: Number.isFinite(id),
    ...(frozen ? { staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false, refetchOnReconnect: false } : {}),
  });
}

/** One quotation; `frozen` for the edit page (read once when it opens, kept while it is open). */
export function useQuotation(id: number, { frozen = false }: { frozen?: boolean } = {}) {
  const tenant = useTenant();
  return useQuery({
    ...quotationQueryOptions(tenant, id, frozen),
    enabled: Number.isFinite(id),
    ...(frozen ? { staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false, refetchOnReconnect: false } : {}),
  });
}

export function useShipment(id: number | null) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [SHIPMENTS_URL, tenant, id],
    queryFn: ({ signal }) => get<SalesShipmentDetail>(`${SHIPMENTS_URL}${id}/`, { signal }),
    enabled: id !== null && Number.isFinite(id),
  });
}

export function useOrderShipments(orderId: number) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [SHIPMENTS_URL, 'of-order', tenant, orderId],
    queryFn: ({ signal }) =>
      get<Paginated<SalesShipment>>(SHIPMENTS_URL, { params: { sales_order: orderId, page_size: 100 }, signal }),
  });
}

export function useOrderInvoices(orderId: number) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [INVOICES_URL, 'of-order', tenant, orderId],
    queryFn: ({ signal }) => get<Paginated<Invoice>>(INVOICES_URL, { params: { sales_order: orderId, page_size: 100 }, signal }),
  });
}

/** The VAT the server proposes for goods sold to the customer and shipped to `shipToCountry` (backend
 * apps/common/tax.py): new lines take its rate. */
export function useVatTreatment(customer: number | undefined, shipToCountry: string) {
  const tenant = useTenant();
  const country = /^[A-Za-z]{2}$/.test(shipToCountry) ? shipToCountry.toUpperCase() : '';
  return useQuery({
    queryKey: [ORDERS_URL, 'vat-treatment', tenant, customer, country],
    queryFn: ({ signal }) =>
      get<VatTreatment>(`${ORDERS_URL}vat-treatment/`, { params: { customer, ...(country ? { ship_to_country: country } : {}) }, signal }),
    enabled: customer !== undefined,
    staleTime: 60_000,
  });
}

export function useInvoice(id: number) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [INVOICES_URL, tenant, id],
    queryFn: ({ signal }) => get<InvoiceDetail>(`${INVOICES_URL}${id}/`, { signal }),
    enabled: Number.isFinite(id),
  });
}

export function useDelivery(id: number) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [DELIVERIES_URL, tenant, id],
    queryFn: ({ signal }) => get<Delivery>(`${DELIVERIES_URL}${id}/`, { signal }),
    enabled: Number.isFinite(id),
  });
}

/** Every sales write refreshes every sales query (lists and details): statuses move together. */
function useSalesMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all(
        Object.values(salesKeys).map((queryKey) => client.invalidateQueries({ queryKey })),
      ),
  });
}

export const useCreateOrder = () => useSalesMutation((input: OrderInput) => post<SalesOrderDetail>(ORDERS_URL, input));
/** PUT of a draft from the edit page: the whole form, with the `updated_at` it was read at
 * (`unchanged_since`), so a change made meanwhile (a confirmation) refuses the save: 409 `order_changed`. */
export const useUpdateOrder = () =>
  useSalesMutation(({ id, ...input }: OrderInput & { id: number }) => put<SalesOrderDetail>(`${ORDERS_URL}${id}/`, input));
export const useOrderAction = () =>
  useSalesMutation(({ id, action }: { id: number; action: 'confirm' | 'cancel' | 'close' }) =>
    post<SalesOrderDetail>(`${ORDERS_URL}${id}/${action}/`),
  );
export const useDeleteOrder = () => useSalesMutation((id: number) => del(`${ORDERS_URL}${id}/`));
export const useCreateQuotation = () =>
  useSalesMutation((input: QuotationInput) => post<QuotationDetail>(QUOTATIONS_URL, input));
/** PUT of a draft or sent quotation from the edit page: the whole form, lines kept by id. */
export const useUpdateQuotation = () =>
  useSalesMutation(({ id, ...input }: QuotationInput & { id: number }) => put<QuotationDetail>(`${QUOTATIONS_URL}${id}/`, input));
export const useQuotationAction = () =>
  useSalesMutation(({ id, action }: { id: number; action: 'send' | 'decline' | 'cancel' }) =>
    post<QuotationDetail>(`${QUOTATIONS_URL}${id}/${action}/`),
  );
/** The customer accepted: the server makes the sales order (once) and answers its id. */
export const useAcceptQuotation = () => useSalesMutation((id: number) => post<QuotationAccepted>(`${QUOTATIONS_URL}${id}/accept/`));
export const useDeleteQuotation = () => useSalesMutation((id: number) => del(`${QUOTATIONS_URL}${id}/`));
export const quotationPdfUrl = (id: number) => `${QUOTATIONS_URL}${id}/pdf/`;
export const useCreateShipment = () =>
  useSalesMutation((input: ShipmentInput) => post<SalesShipmentDetail>(SHIPMENTS_URL, input));
export const useShipmentAction = () =>
  useSalesMutation(({ id, action }: { id: number; action: 'pick' | 'ship' | 'deliver' }) =>
    post<SalesShipmentDetail>(`${SHIPMENTS_URL}${id}/${action}/`),
  );
export const useDeleteShipment = () => useSalesMutation((id: number) => del(`${SHIPMENTS_URL}${id}/`));
export const useAddCartons = () =>
  useSalesMutation(({ id, ...input }: CartonCodesInput & { id: number }) => post<SalesShipmentDetail>(`${SHIPMENTS_URL}${id}/cartons/`, input));
export const useRemoveCartons = () =>
  useSalesMutation(({ id, ...input }: CartonCodesInput & { id: number }) =>
    post<SalesShipmentDetail>(`${SHIPMENTS_URL}${id}/cartons/remove/`, input),
  );
export const useCreateInvoice = () =>
  useSalesMutation((input: InvoiceInput) => post<InvoiceDetail>(INVOICES_URL, input));
export const usePostInvoice = () => useSalesMutation((id: number) => post<InvoiceDetail>(`${INVOICES_URL}${id}/post/`, {}));
export const useDeleteInvoice = () => useSalesMutation((id: number) => del(`${INVOICES_URL}${id}/`));
export const useCreditNote = () =>
  useSalesMutation(({ id, ...input }: CreditNoteInput & { id: number }) => post<InvoiceDetail>(`${INVOICES_URL}${id}/credit-note/`, input));
export const useRecordPayment = () =>
  useSalesMutation(({ id, ...input }: PaymentInput & { id: number }) => post<InvoiceDetail>(`${INVOICES_URL}${id}/payments/`, input));
export const useUpdateInvoice = () =>
  useSalesMutation(({ id, ...fields }: InvoiceChange & { id: number }) => patch<InvoiceDetail>(`${INVOICES_URL}${id}/`, fields));

/** Opens a PDF of the API in a new tab (fetched with the session's credentials). */
export async function openPdf(url: string): Promise<void> {
  const file = await download(url);
  const blobUrl = URL.createObjectURL(new Blob([file.blob], { type: 'application/pdf' }));
  window.open(blobUrl, '_blank', 'noopener');
  window.setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
}

export const invoicePdfUrl = (id: number) => `${INVOICES_URL}${id}/pdf/`;
export const invoiceUblUrl = (id: number) => `${INVOICES_URL}${id}/ubl/`;

/** Saves the posted invoice's or credit note's e-invoice (UBL 2.1, Peppol BIS Billing 3.0) as a file. */
export async function downloadUbl(id: number, fallbackName: string): Promise<void> {
  const file = await download(invoiceUblUrl(id));
  saveBlob(file.blob, file.fileName ?? fallbackName);
}

export const invoiceFacturxUrl = (id: number) => `${INVOICES_URL}${id}/facturx/`;

/** Saves the posted document's Factur-X e-invoice (its PDF/A-3 with factur-x.xml embedded) as a file. */
export async function downloadFacturx(id: number, fallbackName: string): Promise<void> {
  const file = await download(invoiceFacturxUrl(id));
  saveBlob(file.blob, file.fileName ?? fallbackName);
}

/** The document's e-invoice deliveries (Peppol and e-mail), newest first. */
export function useInvoiceDeliveries(id: number, enabled: boolean) {
  const tenant = useTenant();
  return useQuery({
    queryKey: [INVOICES_URL, tenant, id, 'deliveries'],
    queryFn: ({ signal }) => get<EInvoiceDelivery[]>(`${INVOICES_URL}${id}/deliveries/`, { signal }),
    enabled: enabled && Number.isFinite(id),
  });
}

/** A send whose outcome is recorded either way (a failed Peppol delivery stays listed): the deliveries
 * are read again after success and failure. */
function useDeliveryMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: salesKeys.invoices }),
  });
}
export const useSendEInvoiceEmail = () =>
  useDeliveryMutation(({ id, ...input }: EInvoiceEmailInput & { id: number }) =>
    post<EInvoiceDelivery>(`${INVOICES_URL}${id}/send-email/`, input),
  );
export const useSendPeppol = () => useDeliveryMutation((id: number) => post<EInvoiceDelivery>(`${INVOICES_URL}${id}/peppol/`, {}));

/** A rule the e-invoice broke (409 `ubl_invalid`: the server did not issue it). */
export interface UblProblem {
  rule: string;
  message: string;
}
export const deliveryNoteUrl = (id: number) => `${SHIPMENTS_URL}${id}/delivery-note/`;
