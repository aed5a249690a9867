import type { RemoteOption } from '@/shared/components/RemoteSelect';
import type { OrderOption, OwnerOption, SupplierOption } from '../api/types';

/** Options of the remote selects (owner, supplier, order) and the URL's id filters. */
export function ownerOption(owner: OwnerOption): RemoteOption<OwnerOption> {
  return { value: owner.id, label: owner.name || owner.username, record: owner };
}

export function supplierOption(supplier: SupplierOption): RemoteOption<SupplierOption> {
  return { value: supplier.id, label: `${supplier.number} · ${supplier.name}`, record: supplier };
}

export function orderOption(order: OrderOption): RemoteOption<OrderOption> {
  return { value: order.id, label: `${order.order_number} · ${order.supplier_detail.name}`, record: order };
}

/** A numeric id filter from the URL (absent, repeated or not a number: none). */
export function idFilter(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
