import { expect, type APIRequestContext } from '@playwright/test';
import { PASSWORD } from './helpers';

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

/** The office orders `count` cartons; the factory labels them for a container, which sails and arrives. */
export async function orderAndLabel(request: APIRequestContext, count: number, description: string): Promise<Goods> {
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
  const detail = await call<{ lines: { id: number }[] }>(request, admin, 'GET', `/api/purchaseorders/orders/${String(order.id)}/`);
  const line = detail.lines[0]?.id ?? 0;

  const deliveries = await call<Page_<{ id: number; delivery_number: string }>>(request, supplierUser, 'GET', `/api/eudr/raw-materials/?search=${DELIVERY}`);
  const delivery = deliveries.results.find((d) => d.delivery_number === DELIVERY)?.id ?? 0;
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
