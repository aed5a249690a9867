import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import { MockServer, fail, ok, type MockReply } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { EmailHealth, EmailMessage } from '../api/notifications';
import { DeliveryHealth } from './DeliveryHealth';

const HEALTH = '/api/core/email-log/health/';

function message(id: number, changes: Partial<EmailMessage> = {}): EmailMessage {
  return {
    id,
    created_at: '2026-11-26T08:00:00Z',
    sent_at: null,
    scenario: 1,
    scenario_name: 'Invoice to the customer',
    event: 'invoice.posted',
    event_label: 'Invoice posted',
    record_label: `Invoice INV-${id}`,
    record_url: `/sales/invoices/INV-${id}`,
    object_id: String(id),
    to: ['ap@customer.example'],
    subject: `Invoice INV-${id}`,
    status: 'failed',
    attempts: 10,
    last_error: '554 5.7.1 Message rejected',
    next_attempt_at: null,
    transport: 'tenant_smtp',
    language: 'en',
    is_test: false,
    ...changes,
  } as EmailMessage;
}

function health(changes: Partial<EmailHealth> = {}): EmailHealth {
  return {
    by_status: { queued: 2, sending: 0, sent: 40, uncertain: 1, failed: 1 },
    failed_last_day: 2,
    retrying: 1,
    oldest_waiting_since: '2026-11-26T07:00:00Z',
    attention_total: 2,
    attention: [message(7), message(8, { status: 'uncertain', attempts: 1, last_error: 'timed out after DATA' })],
    ...changes,
  };
}

let server: MockServer;

beforeEach(() => {
  initI18n('en', allResources());
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

function renderHealth(onOpen = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <App>
          <DeliveryHealth onOpen={onOpen} />
        </App>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { onOpen };
}

describe('delivery health', () => {
  it('shows the counts by status and the messages that need attention', async () => {
    server.on('GET', HEALTH, ok(health()));
    const { onOpen } = renderHealth();
    const panel = await screen.findByTestId('email-health');
    expect(within(screen.getByTestId('health-failed')).getByText('Failed')).toBeInTheDocument();
    expect(screen.getByTestId('health-sent')).toHaveTextContent('40');
    expect(screen.getByTestId('health-uncertain')).toHaveTextContent('Maybe sent1');
    expect(screen.getByTestId('health-retrying')).toHaveTextContent('Waiting for a retry1');
    expect(screen.getByTestId('health-failed-last-day')).toHaveTextContent('2');
    expect(within(panel).getByTestId('health-oldest')).toHaveTextContent('The oldest message waiting was created');
    expect(screen.getByText('2 messages need attention')).toBeInTheDocument();
    const rows = screen.getAllByTestId('health-message');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('554 5.7.1 Message rejected');
    expect(rows[0]).toHaveTextContent('tries: 10');

    await userEvent.setup().click(within(rows[0]).getByText('Invoice INV-7'));
    expect(onOpen).toHaveBeenCalledWith(7);
  });

  it('retries a failed message at once, with a loading state, and reads the health again', async () => {
    let answer: (reply: MockReply) => void = () => undefined;
    server.on('GET', HEALTH, ok(health()));
    server.on('POST', '/api/core/email-log/7/retry/', () => new Promise<MockReply>((resolve) => (answer = resolve)));
    renderHealth();
    const user = userEvent.setup();
    const [failed] = await screen.findAllByTestId('health-message');
    const retry = within(failed).getByRole('button', { name: 'Retry Invoice INV-7' });
    await user.click(retry);
    await waitFor(() => expect(retry).toHaveClass(/loading/));
    const before = server.count('GET', HEALTH);

    server.on('GET', HEALTH, ok(health({ attention_total: 1, attention: [message(8, { status: 'uncertain' })] })));
    answer(ok(message(7, { status: 'queued' })));
    expect(await screen.findByText('Queued again')).toBeInTheDocument();
    await waitFor(() => expect(server.count('GET', HEALTH)).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getAllByTestId('health-message')).toHaveLength(1));
    expect(server.count('POST', '/api/core/email-log/7/retry/')).toBe(1);
  });

  it('asks before retrying a maybe-sent message, and shows a refused retry', async () => {
    server.on('GET', HEALTH, ok(health()));
    server.on('POST', '/api/core/email-log/8/retry/', fail(409, 'Only a failed or maybe-sent message can be retried; this one is not.', 'not_retryable'));
    renderHealth();
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId('health-message');
    await user.click(within(rows[1]).getByRole('button', { name: 'Retry Invoice INV-8' }));
    expect(await screen.findByText('Retry a message that may have arrived?')).toBeInTheDocument();
    expect(server.count('POST', '/api/core/email-log/8/retry/')).toBe(0);

    const confirm = screen.getAllByRole('button', { name: 'Retry' }).at(-1)!;
    await user.click(confirm);
    expect(await screen.findByTestId('health-retry-error')).toHaveTextContent('can be retried');
    expect(server.count('POST', '/api/core/email-log/8/retry/')).toBe(1);
  });

  it('says so when nothing needs attention', async () => {
    server.on('GET', HEALTH, ok(health({ attention_total: 0, attention: [], oldest_waiting_since: null })));
    renderHealth();
    expect(await screen.findByTestId('health-all-good')).toHaveTextContent('No message has failed or is maybe sent.');
    expect(screen.queryByTestId('health-oldest')).not.toBeInTheDocument();
  });

  it('counts the shown messages when there are more than the list holds', async () => {
    server.on('GET', HEALTH, ok(health({ attention_total: 25 })));
    renderHealth();
    expect(await screen.findByText('The newest 2 of 25 messages that need attention')).toBeInTheDocument();
  });

  it('shows a load failure with a retry', async () => {
    server.on('GET', HEALTH, fail(500, 'The server had a problem.', 'server_error'));
    renderHealth();
    expect(await screen.findByTestId('error-state')).toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    server.on('GET', HEALTH, ok(health()));
    await i18n.changeLanguage('zh');
    try {
      renderHealth();
      expect(await screen.findByText('邮件投递状况')).toBeInTheDocument();
      expect(screen.getByText('2 封邮件需要处理')).toBeInTheDocument();
      expect(screen.getAllByRole('button', { name: /重试/ })).toHaveLength(2);
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
