/**
 * A tiny transport for unit tests: answers by method + path, records every request, and settles
 * like the browser transport (an aborted signal rejects with CanceledError, 'network-error' with a
 * TransportError; any status is answered and the client rejects non-2xx, as it does for the real one).
 */
import type { HttpClient } from '@/api/http';
import { CanceledError, HttpHeaders, TransportError, type Transport, type TransportRequest } from '@/api/httpClient';

export interface MockReply {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
}

/** The request as the transport receives it: `data` is the serialised body (JSON text or FormData). */
export type MockRequest = Omit<TransportRequest, 'data'> & { data: unknown };

export type MockHandler = (config: MockRequest) => MockReply | 'network-error' | Promise<MockReply | 'network-error'>;

export interface RecordedRequest {
  method: string;
  url: string;
  params: Record<string, unknown>;
  headers: HttpHeaders;
  data: unknown;
}

export class MockServer {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers = new Map<string, MockHandler>();
  private readonly original: Transport;

  constructor(private readonly instance: HttpClient) {
    this.original = instance.transport;
    instance.transport = this.transport;
  }

  on(method: string, path: string, handler: MockHandler | MockReply): this {
    this.handlers.set(`${method.toUpperCase()} ${path}`, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  restore(): void {
    this.instance.transport = this.original;
  }

  count(method: string, path: string): number {
    return this.requests.filter((r) => r.method === method.toUpperCase() && r.url.split('?')[0] === path).length;
  }

  private readonly transport: Transport = async (config) => {
    const { method, url } = config;
    const params = config.params instanceof URLSearchParams ? Object.fromEntries(config.params) : { ...(config.params ?? {}) };
    this.requests.push({ method, url, params, headers: new HttpHeaders(config.headers), data: config.data });
    if (config.signal?.aborted) throw new CanceledError();
    const handler = this.handlers.get(`${method} ${url.split('?')[0]}`);
    if (!handler) throw new Error(`No mock for ${method} ${url}`);
    const reply = await handler(config);
    if (reply === 'network-error') throw new TransportError('Network Error', 'ERR_NETWORK');
    const headers = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
    return { status: reply.status, statusText: String(reply.status), headers, data: reply.data };
  };
}

export function ok(data: unknown, code = 200): MockReply {
  return { status: 200, data: { code, message: 'success', data } };
}

/** A create's answer: HTTP 201 with the envelope's code 200 (docs/specification.md section 8: only 200 or 0 is success). */
export function created(data: unknown): MockReply {
  return { status: 201, data: { code: 200, message: 'success', data } };
}

export function fail(status: number, message: string, error: string, data: unknown = null): MockReply {
  return { status, data: { code: status, message, error, data } };
}
