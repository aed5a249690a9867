import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, created, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import { PrintLabelsButton, proposedPrinter } from './PrintLabelsButton';
import type { PrinterDevice } from './printApi';

const PRINTERS = '/api/printing/devices/';
const JOBS = '/api/printing/jobs/';

function printer(id: number, name: string, online: boolean, extra: Partial<PrinterDevice> = {}): PrinterDevice {
  return { id, name, agent_online: online, default_document_type: 'carton_label', ...extra } as PrinterDevice;
}

function job(extra: Record<string, unknown> = {}) {
  return { id: 41, label_count: 2, printer_name: 'Line 2', waits_for_agent: false, expires_at: '2026-11-26T15:10:00Z', status: 'queued', ...extra };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

function renderButton() {
  initI18n('en', allResources());
  const router = createMemoryRouter([{ path: '/', element: <PrintLabelsButton selected={[7, 8]} filter={{}} count={2} /> }]);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <App>
          <RouterProvider router={router} />
        </App>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

async function openPanel() {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByTestId('print-labels'));
  await screen.findByTestId('print-panel');
  return user;
}

const sentPrinter = () => (JSON.parse(server.requests.find((r) => r.method === 'POST')?.data as string) as { printer: number }).printer;

describe('the printer proposed', () => {
  it('is the last one used when it is online, else the first online one for carton labels', () => {
    const list = [printer(1, 'Office', false), printer(2, 'Line 2', true, { default_document_type: 'test_label' }), printer(3, 'Line 3', true)];
    expect(proposedPrinter(list, 2)).toBe(2);
    expect(proposedPrinter(list, 1)).toBe(3);
    expect(proposedPrinter(list, undefined)).toBe(3);
    expect(proposedPrinter([printer(1, 'Office', false)], 1)).toBeUndefined();
  });
});

describe('the print panel', () => {
  it('proposes the last printer used that is online, and remembers the one printed on', async () => {
    window.localStorage.setItem('print-last-printer:3', '2');
    server.on('GET', PRINTERS, ok({ count: 2, next: null, previous: null, results: [printer(1, 'Line 1', true), printer(2, 'Line 2', true)] }));
    server.on('POST', JOBS, created(job()));
    renderButton();
    const user = await openPanel();
    await waitFor(() => expect(screen.getByTestId('print-last-used')).toBeInTheDocument());
    await user.click(screen.getByTestId('print-labels-run'));
    await waitFor(() => expect(screen.getByTestId('print-queued')).toBeInTheDocument());
    expect(sentPrinter()).toBe(2);
    expect(window.localStorage.getItem('print-last-printer:3')).toBe('2');
  });

  it('says when no printer is online and proposes none', async () => {
    window.localStorage.setItem('print-last-printer:3', '1');
    server.on('GET', PRINTERS, ok({ count: 1, next: null, previous: null, results: [printer(1, 'Line 1', false)] }));
    renderButton();
    await openPanel();
    await waitFor(() =>
      expect(screen.getByTestId('print-none-online')).toHaveTextContent('No printer is online: a job sent now waits until its print agent is back.'),
    );
    expect(screen.getByTestId('print-labels-run')).toBeDisabled();
  });

  it('shows a refusal in words in the panel and sends nothing else', async () => {
    server.on('GET', PRINTERS, ok({ count: 1, next: null, previous: null, results: [printer(1, 'Line 1', true)] }));
    server.on('POST', JOBS, fail(409, 'This printer is switched off in the settings.', 'printer_inactive'));
    renderButton();
    const user = await openPanel();
    await waitFor(() => expect(screen.getByTestId('print-labels-run')).toBeEnabled());
    await user.click(screen.getByTestId('print-labels-run'));
    await waitFor(() => expect(screen.getByTestId('print-refused')).toHaveTextContent('Not sent: This printer is switched off in the settings.'));
    expect(screen.getByTestId('print-panel')).toBeInTheDocument();
    expect(server.count('POST', JOBS)).toBe(1);
  });

  it('says that a job for an offline agent waits', async () => {
    server.on('GET', PRINTERS, ok({ count: 1, next: null, previous: null, results: [printer(1, 'Line 2', true)] }));
    server.on('POST', JOBS, created(job({ waits_for_agent: true })));
    renderButton();
    const user = await openPanel();
    await waitFor(() => expect(screen.getByTestId('print-labels-run')).toBeEnabled());
    await user.click(screen.getByTestId('print-labels-run'));
    await waitFor(() => expect(screen.getByTestId('print-waits')).toHaveTextContent(/Print job #41 waits: the print agent of Line 2 is offline/));
    expect(screen.queryByTestId('print-queued')).not.toBeInTheDocument();
  });
});
