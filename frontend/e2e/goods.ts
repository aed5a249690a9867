import { expect, type APIRequestContext } from '@playwright/test';
import { PASSWORD } from './helpers';
import { serverShell } from './serverShell';

/**
 * The goods the journeys across areas start from, made through the API as their own screens are walked
 * elsewhere: the office orders labelled cartons, the carton factory labels them for a container on its
 * way, and the container sails and arrives. In the trading company of the demo (tenant 3).
 */

export const TENANT = 3;
export const ARTICLE = 'CT-DW-4030';
/** The demo delivery of paper the factory labels from (Shanghai Evergreen Packaging, active). */
export const DELIVERY = 'SEP-DN-2026-0101';

export interface Envelope<T> {
  data: T;
  error?: string;
}
export interface Page_<T> {
  count: number;
  results: T[];
}

export async function token(request: APIRequestContext, username: string): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { username, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as Envelope<{ access: string }>).data.access;
}

/** An API call in the trading company that must succeed; answers its data. */
export async function call<T>(
  request: APIRequestContext,
  auth: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  data?: unknown,
): Promise<T> {
  const answer = await request.fetch(`${url}${url.includes('?') ? '&' : '?'}tenant_id=${String(TENANT)}`, {
    method,
    headers: { Authorization: `Bearer ${auth}` },
    data: data as Record<string, unknown> | undefined,
  });
  expect(answer.ok(), `${method} ${url}: ${await answer.text()}`).toBeTruthy();
  return ((await answer.json()) as Envelope<T>).data;
}

/** A container number with its ISO 6346 check digit (letters A=10 upwards, skipping 11, 22 and 33). */
export function containerNumber(): string {
  const values = new Map<string, number>();
  let value = 10;
  for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    if (value % 11 === 0) value += 1;
    values.set(letter, value);
    value += 1;
  }
  const serial = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  const first = `CTFU${serial}`;
  const total = [...first].reduce((sum, char, position) => sum + (values.get(char) ?? Number(char)) * 2 ** position, 0);
  return `${first}${String((total % 11) % 10)}`;
}

export interface Goods {
  order: { id: number; number: string; line: number };
  product: number;
  container: string;
  shipment: number;
  delivery: number;
  labels: { id: number; code: string }[];
}

/** Confirms a purchase order created through the API (a new order is a draft: it cannot be received,
 *  labelled or seen by the supplier portal before it is confirmed). Returns its status. */
export async function confirmOrder(request: APIRequestContext, auth: string, id: number): Promise<string> {
  const confirmed = await call<{ status: string }>(request, auth, 'POST', `/api/purchaseorders/orders/${String(id)}/confirm/`, {});
  expect(confirmed.status).toBe('confirmed');
  return confirmed.status;
}

/** The office orders `count` cartons; the factory labels them from `deliveryNumber` (a delivery of paper
 *  of the demo carton factory) for a container, which sails and arrives. */
export async function orderAndLabel(request: APIRequestContext, count: number, description: string, deliveryNumber = DELIVERY): Promise<Goods> {
  const admin = await token(request, 'admin');
  const supplierUser = await token(request, 'supplier');
  const template = await call<{ supplier: number; lines: { product: number; product_number: string }[] }>(
    request,
    admin,
    'GET',
    '/api/purchaseorders/orders/by-number/PO-2026-00002/',
  );
  const product = template.lines.find((l) => l.product_number === ARTICLE)?.product ?? 0;
  expect(product).toBeTruthy();
  const order = await call<{ id: number; order_number: string }>(request, admin, 'POST', '/api/purchaseorders/orders/', {
    supplier: template.supplier,
    currency: 'USD',
    order_date: new Date().toISOString().slice(0, 10),
    description,
    lines: [{ product, order_qty: String(count), unit_cost: '1.03' }],
  });
  await confirmOrder(request, admin, order.id);
  const detail = await call<{ lines: { id: number }[] }>(request, admin, 'GET', `/api/purchaseorders/orders/${String(order.id)}/`);
  const line = detail.lines[0]?.id ?? 0;

  const deliveries = await call<Page_<{ id: number; delivery_number: string }>>(request, supplierUser, 'GET', `/api/eudr/raw-materials/?search=${deliveryNumber}`);
  const delivery = deliveries.results.find((d) => d.delivery_number === deliveryNumber)?.id ?? 0;
  const limit = await call<{ next_batch_code: string; max_cartons: number }>(
    request,
    supplierUser,
    'GET',
    `/api/eudr/raw-materials/${String(delivery)}/generation-limit/?product=${String(product)}&purchase_order_line=${String(line)}`,
  );
  expect(limit.max_cartons).toBe(count); // the order line binds
  const container = containerNumber();
  await call(request, supplierUser, 'POST', `/api/eudr/raw-materials/${String(delivery)}/generate-cartons/`, {
    count,
    production_batch_code: limit.next_batch_code,
    product,
    purchase_order_line: line,
    container,
  });
  const shipment = await call<{ id: number }>(request, admin, 'POST', '/api/logistics/shipments/', { container_number: container, purchase_orders: [order.id] });
  for (const status of ['in_transit', 'arrived']) {
    await call(request, admin, 'POST', `/api/logistics/shipments/${String(shipment.id)}/transition/`, { status });
  }
  const labels = await call<Page_<{ id: number; code: string }>>(request, admin, 'GET', `/api/eudr/cartons/?container=${container}&ordering=code`);
  expect(labels.count).toBe(count);
  return { order: { id: order.id, number: order.order_number, line }, product, container, shipment: shipment.id, delivery, labels: labels.results };
}

/** The warehouse receives the container's cartons by scanning them, and posts them to stock. */
export async function receiveByScan(request: APIRequestContext, goods: Goods): Promise<void> {
  const warehouse = await token(request, 'warehouse');
  for (const [index, label] of goods.labels.entries()) {
    await call(request, warehouse, 'POST', '/api/inventory/cartons/receive/', {
      code: label.code,
      scan_id: `receive-${goods.container}-${String(index)}`,
      shipment: goods.shipment,
    });
  }
  await call(request, warehouse, 'POST', `/api/inventory/inbound/${String(goods.shipment)}/post-receipts/`);
}

/** The office sells one carton of the goods to the first customer; the warehouse picks `code` for it.
 *  Answers the sales shipment, not shipped yet. */
export async function sellAndPick(request: APIRequestContext, goods: Goods, code: string): Promise<{ id: number; shipment_number: string }> {
  const admin = await token(request, 'admin');
  const warehouse = await token(request, 'warehouse');
  const customers = await call<Page_<{ id: number }>>(request, admin, 'GET', '/api/customers/?page_size=1');
  const order = await call<{ id: number; lines: { id: number }[] }>(request, admin, 'POST', '/api/salesorders/orders/', {
    customer: customers.results[0]?.id,
    order_date: new Date().toISOString().slice(0, 10),
    lines: [{ product: goods.product, quantity: '1', unit_price: '3', vat_rate: '21' }],
  });
  await call(request, admin, 'POST', `/api/salesorders/orders/${String(order.id)}/confirm/`);
  const shipment = await call<{ id: number; shipment_number: string }>(request, admin, 'POST', '/api/salesorders/shipments/', {
    sales_order: order.id,
    lines: [{ order_line: order.lines[0]?.id, quantity: '1' }],
  });
  await call(request, warehouse, 'POST', `/api/salesorders/shipments/${String(shipment.id)}/cartons/`, { codes: [code], code, scan_id: `pick-${code}` });
  return shipment;
}

/** The company files with its TRACES web-service account (the test server's local EU system accepts
 *  any), and ships imported cartons only once a statement of its own covers them (the default). */
export async function fileWithTheLocalSystem(request: APIRequestContext): Promise<void> {
  const admin = await token(request, 'admin');
  await call(request, admin, 'PATCH', '/api/tenants/current/', { allow_unlabelled_shipping: false, allow_uncovered_shipping: false });
  await call(request, admin, 'PUT', '/api/eudr/traces-account/', {
    username: 'eurotrade-ws',
    auth_key: 'e2e-authentication-key',
    client_id: 'eudr-test',
    environment: 'acceptance',
  });
}

/** The half hour the EU system asks before a status read, passed for the statements `filter` finds
 *  (keyword arguments of DdsSubmission.objects.filter, as Python): answers how many were moved. */
export function statusReadDue(filter: string): number {
  const out = serverShell(`from django.utils import timezone
from apps.eudr.filing_models import DdsSubmission
from apps.tenancy.context import tenant_context
with tenant_context(${String(TENANT)}):
    print(DdsSubmission.objects.filter(${filter}).exclude(uuid="").update(status_due_at=timezone.now()))`);
  return Number(out.trim().split('\n').pop());
}
