import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/api/queryClient';
import { http } from '@/api/http';
import type { ContentType } from '@/api/types';
import { MockServer, ok } from '@/test/mockAdapter';
import { signIn } from '@/test/session';
import { createContentTypeRegistry, fetchContentTypes, findContentType } from './contentTypes';

const LIST: ContentType[] = [
  { id: 11, app_label: 'purchaseorders', model: 'purchaseorder' },
  { id: 12, app_label: 'salesorders', model: 'salesorder' },
  { id: 13, app_label: 'logistics', model: 'shipmentinfo' },
  { id: 14, app_label: 'suppliers', model: 'supplier' },
  { id: 15, app_label: 'products', model: 'product' },
];

describe('findContentType', () => {
  it.each([
    ['purchaseorder', 11],
    ['PurchaseOrder', 11],
    ['salesorder', 12],
    ['shipment', 13],
    ['shipmentinfo', 13],
    ['ShipmentInfo', 13],
    ['supplier', 14],
    ['products.product', 15],
    ['Products.Product', 15],
  ])('%s -> %d', (name, id) => {
    expect(findContentType(LIST, name)?.id).toBe(id);
  });

  it('tries the prefixes for bare model names', () => {
    const list: ContentType[] = [{ id: 21, app_label: 'logistics', model: 'shipmentcompany' }];
    expect(findContentType(list, 'ShipmentCompany')?.id).toBe(21);
  });

  it('finds nothing for unknown names', () => {
    expect(findContentType(LIST, 'invoice')).toBeUndefined();
    expect(findContentType(LIST, '')).toBeUndefined();
  });
});

describe('content type registry', () => {
  it('loads once, then answers from the cache', async () => {
    const fetcher = vi.fn().mockResolvedValue(LIST);
    const registry = createContentTypeRegistry(createQueryClient(), fetcher);
    await registry.preload();
    expect(await registry.resolveId('purchaseorder')).toBe(11);
    expect(await registry.resolveId('supplier')).toBe(14);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('passes numeric ids through', async () => {
    const fetcher = vi.fn().mockResolvedValue(LIST);
    const registry = createContentTypeRegistry(createQueryClient(), fetcher);
    expect(await registry.resolveId(99)).toBe(99);
    expect(await registry.resolveId('98')).toBe(98);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('reloads on demand when a name is missing', async () => {
    const fetcher = vi
      .fn<() => Promise<ContentType[]>>()
      .mockResolvedValueOnce(LIST)
      .mockResolvedValueOnce([...LIST, { id: 30, app_label: 'eudr', model: 'rawmaterial' }]);
    const registry = createContentTypeRegistry(createQueryClient(), fetcher);
    await registry.preload();
    expect(await registry.resolveId('eudr.rawmaterial')).toBe(30);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('raises the docs/specification.md error when the name is still missing', async () => {
    const fetcher = vi.fn().mockResolvedValue(LIST);
    const registry = createContentTypeRegistry(createQueryClient(), fetcher);
    await expect(registry.resolveId('invoice')).rejects.toThrow(
      'Cannot find ContentType for: invoice. Please ensure the ContentType exists in the system.',
    );
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});

describe('fetchContentTypes', () => {
  it("says 'Invalid response format' when data is not an array", async () => {
    signIn();
    const server = new MockServer(http);
    server.on('GET', '/api/common/content-types/', ok({ results: [] }));
    await expect(fetchContentTypes()).rejects.toThrow('Invalid response format');
    server.on('GET', '/api/common/content-types/', ok(LIST));
    await expect(fetchContentTypes()).resolves.toHaveLength(5);
    server.restore();
  });
});
