/**
 * A tiny axios adapter for unit tests: answers by method + path, records every request, and
 * settles like axios's own adapters (non-2xx rejects with an AxiosError carrying the response).
 */
import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosInstance, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

export interface MockReply {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
}

export type MockHandler = (config: InternalAxiosRequestConfig) => MockReply | 'network-error' | Promise<MockReply | 'network-error'>;

export interface RecordedRequest {
  method: string;
  url: string;
  params: Record<string, unknown>;
  headers: AxiosHeaders;
  data: unknown;
}

export class MockServer {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers = new Map<string, MockHandler>();
  private readonly original: AxiosInstance['defaults']['adapter'];

  constructor(private readonly instance: AxiosInstance) {
    this.original = instance.defaults.adapter;
    instance.defaults.adapter = this.adapter;
  }

  on(method: string, path: string, handler: MockHandler | MockReply): this {
    this.handlers.set(`${method.toUpperCase()} ${path}`, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  restore(): void {
    this.instance.defaults.adapter = this.original;
  }

  count(method: string, path: string): number {
    return this.requests.filter((r) => r.method === method.toUpperCase() && r.url.split('?')[0] === path).length;
  }

  private readonly adapter: AxiosAdapter = async (config) => {
    const method = (config.method ?? 'get').toUpperCase();
    const url = config.url ?? '';
    const headers = AxiosHeaders.from(config.headers);
    this.requests.push({ method, url, params: { ...((config.params as Record<string, unknown> | undefined) ?? {}) }, headers, data: config.data });
    if (config.signal?.aborted) {
      throw new AxiosError('canceled', AxiosError.ERR_CANCELED, config);
    }
    const handler = this.handlers.get(`${method} ${url.split('?')[0]}`);
    if (!handler) throw new Error(`No mock for ${method} ${url}`);
    const reply = await handler(config);
    if (reply === 'network-error') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
    const response: AxiosResponse = {
      status: reply.status,
      statusText: String(reply.status),
      data: reply.data,
      headers: reply.headers ?? {},
      config,
      request: {},
    };
    const validate = config.validateStatus;
    if (!validate || validate(reply.status)) return response;
    throw new AxiosError(
      `Request failed with status code ${reply.status}`,
      reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
}

export function ok(data: unknown, code = 200): MockReply {
  return { status: 200, data: { code, message: 'success', data } };
}

/** A create's answer: HTTP 201 with the envelope's code 200 (SPEC.md section 8: only 200 or 0 is success). */
export function created(data: unknown): MockReply {
  return { status: 201, data: { code: 200, message: 'success', data } };
}

export function fail(status: number, message: string, error: string, data: unknown = null): MockReply {
  return { status, data: { code: status, message, error, data } };
}
