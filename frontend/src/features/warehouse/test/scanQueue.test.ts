import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/errors';
import { flushQueue, loadQueue, sendScan } from '../lib/scanQueue';

const offline = () => new ApiError({ message: 'Network Error', code: 0, error: 'network_error' });
const scan = (code: string, scanId: string) => ({ url: '/api/inventory/cartons/receive/', body: { code, scan_id: scanId, shipment: 1 } });

describe('the offline scan queue', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('queues a scan made offline and sends it once when back online', async () => {
    const send = vi.fn().mockRejectedValueOnce(offline());
    const outcome = await sendScan(scan('ABC123', 'id-1'), '3', send);
    expect(outcome.state).toBe('queued');
    expect(loadQueue()).toHaveLength(1);

    send.mockResolvedValue({ duplicate: false });
    const report = await flushQueue('3', send);
    expect(report).toMatchObject({ sent: 1, remaining: 0 });
    expect(loadQueue()).toHaveLength(0);
    await flushQueue('3', send);
    // one failed attempt while offline, one delivery: never twice
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]).toEqual(['/api/inventory/cartons/receive/', { code: 'ABC123', scan_id: 'id-1', shipment: 1 }]);
  });

  it('keeps the queue in order when the network fails again, and sends each scan id once', async () => {
    const send = vi.fn().mockRejectedValue(offline());
    await sendScan(scan('A1', 'a'), '3', send);
    await sendScan(scan('B2', 'b'), '3', send);
    await flushQueue('3', send);
    expect(loadQueue().map((item) => item.body.code)).toEqual(['A1', 'B2']);

    send.mockReset().mockResolvedValue({});
    const [first, second] = await Promise.all([flushQueue('3', send), flushQueue('3', send)]);
    expect(first).toBe(second);
    expect(send.mock.calls.map((call) => (call[1] as { scan_id: string }).scan_id)).toEqual(['a', 'b']);
  });

  it('drops a refused scan with its reason and does not send another tenant’s scans', async () => {
    const send = vi.fn().mockRejectedValue(offline());
    await sendScan(scan('X9', 'x'), '3', send);
    await sendScan(scan('Y9', 'y'), '2', send);
    send.mockReset().mockRejectedValue(new ApiError({ message: 'This carton was already received.', code: 409, error: 'carton_already_received' }));
    const report = await flushQueue('3', send);
    expect(report.refused).toHaveLength(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(loadQueue().map((item) => item.tenant)).toEqual(['2']);
  });

  it('answers a refusal at once when online', async () => {
    const send = vi.fn().mockRejectedValue(new ApiError({ message: 'No carton has this code.', code: 404, error: 'carton_unknown' }));
    const outcome = await sendScan(scan('NOPE', 'n'), '3', send);
    expect(outcome.state).toBe('refused');
    expect(loadQueue()).toHaveLength(0);
  });
});
