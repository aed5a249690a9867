/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { App, Button } from 'antd';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import type { ScanRequest } from '../api/warehouse';
import { ScanLog } from '../components/ScanLog';
import { useScanner } from '../lib/useScanner';

const URL = '/api/inventory/cartons/receive/';

let server: MockServer;
let online = true;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
  online = true;
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
});

afterEach(() => {
  server.restore();
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => true });
});

function Scanner() {
  const scanner = useScanner(() => 'Received');
  const request = (code: string) => (scanId: string): ScanRequest => ({ url: URL, body: { code, scan_id: scanId, shipment: 1 } });
  return (
    <>
      <Button onClick={() => void scanner.scan('GOOD01', request('GOOD01'))}>good</Button>
      <Button onClick={() => void scanner.scan('BAD002', request('BAD002'))}>bad</Button>
      <ScanLog entries={scanner.log} />
    </>
  );
}

function renderScanner() {
  initI18n('en', allResources());
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <App>
          <Scanner />
        </App>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const entry = (code: string) => screen.getByText(code).closest('[data-state]');

describe('the scan log after reconnecting', () => {
  it('shows queued scans as sent, and refusals during the resend in the log', async () => {
    server.on('POST', URL, (request) => {
      const body = JSON.parse(request.data as string) as { code: string };
      return body.code === 'BAD002'
        ? fail(409, 'This carton was already received.', 'carton_already_received')
        : ok({ duplicate: false, carton: { code: 'GOOD01' } });
    });
    renderScanner();
    online = false;
    act(() => screen.getByText('good').click());
    act(() => screen.getByText('bad').click());
    await waitFor(() => {
      expect(entry('GOOD01')).toHaveAttribute('data-state', 'queued');
      expect(entry('BAD002')).toHaveAttribute('data-state', 'queued');
    });
    expect(entry('GOOD01')).toHaveTextContent('Offline: queued, sent when back online');

    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => {
      expect(entry('GOOD01')).toHaveAttribute('data-state', 'done');
      expect(entry('BAD002')).toHaveAttribute('data-state', 'refused');
    });
    expect(entry('GOOD01')).toHaveTextContent('Received');
    expect(entry('GOOD01')).not.toHaveTextContent('Offline');
    expect(entry('BAD002')).toHaveTextContent('This carton was already received.');
    expect(server.count('POST', URL)).toBe(2);
  });
});

describe('styles of the app', () => {
  it('use the theme variables of the component prefix (--p-), never the default prefix (--ant-)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.css') ? [path] : [];
      });
    const sheets = files(join(process.cwd(), 'src'));
    expect(sheets.length).toBeGreaterThan(10);
    expect(sheets.filter((path) => readFileSync(path, 'utf8').includes('var(--ant-'))).toEqual([]);
  });
});
