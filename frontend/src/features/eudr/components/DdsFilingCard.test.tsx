import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { ddsSubmission } from '@/test/ddsSubmission';
import { makeUser, signIn } from '@/test/session';
import type { DdsFiling, DdsSubmission } from '../api/filing';
import { deliveryFixture } from '../test/fixtures';
import { renderAt } from '../test/harness';
import { DdsFilingCard } from './DdsFilingCard';

const URL = '/api/eudr/raw-materials/12/dds-filing/';

function submission(overrides: Partial<DdsSubmission> = {}): DdsSubmission {
  return ddsSubmission({
    events: [
      { action: 'submit', outcome: 'queued', status: 'draft', message: '', user: 'admin', created_at: '2026-12-30T09:00:00Z' },
      { action: 'submit', outcome: 'ok', status: 'available', message: '', user: 'admin', created_at: '2026-12-30T09:00:01Z' },
    ],
    ...overrides,
  });
}

function filing(overrides: Partial<DdsFiling> = {}): DdsFiling {
  return { account_ready: true, environment: 'acceptance', current: null, history: [], ...overrides };
}

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

const renderCard = (mayChange = true) => renderAt('/x', '/x', <DdsFilingCard material={deliveryFixture()} mayChange={mayChange} />);

describe('the filing card', () => {
  it('points to the company settings when the TRACES credentials are missing', async () => {
    server.on('GET', URL, ok(filing({ account_ready: false })));
    renderCard();
    expect(await screen.findByTestId('filing-no-account')).toHaveTextContent('Company settings');
    expect(screen.getByTestId('filing-submit')).toBeDisabled();
  });

  it('files the statement and shows the numbers the system answered', async () => {
    server.on('GET', URL, ok(filing()));
    server.on('POST', `${URL}submit/`, ok(filing({ current: submission(), history: [submission()] })));
    const user = userEvent.setup({ delay: null });
    renderCard();
    expect(await screen.findByTestId('filing-none')).toBeInTheDocument();
    await user.click(screen.getByTestId('filing-submit'));
    expect(await screen.findByTestId('filing-reference')).toHaveTextContent('26NLX7TVCZAQ2S');
    expect(screen.getByTestId('filing-verification')).toHaveTextContent('SFFCB4Y3');
    expect(screen.getByTestId('filing-status')).toHaveTextContent('Available');
    expect(server.count('POST', `${URL}submit/`)).toBe(1);
    expect(screen.getByTestId('filing-amend')).toBeInTheDocument();
  });

  it('shows a rejection with the system messages in words', async () => {
    const rejected = submission({
      status: 'rejected',
      uuid: '',
      reference_number: '',
      verification_number: '',
      can_amend: false,
      can_withdraw: false,
      messages: [{ id: 'EUDR-GEOJSON-AREA-TOO-SMALL', message: 'The area of a point must be at least 0.1 ha', field: 'Geolocation' }],
    });
    server.on('GET', URL, ok(filing({ history: [rejected] })));
    renderCard();
    const messages = await screen.findByTestId('filing-messages');
    expect(messages).toHaveTextContent('The EU information system refused the statement:');
    expect(messages).toHaveTextContent('Geolocation: The area of a point must be at least 0.1 ha');
    expect(screen.getByTestId('filing-submit')).toHaveTextContent('File a new statement');
  });

  it('asks before withdrawing, then withdraws', async () => {
    server.on('GET', URL, ok(filing({ current: submission(), history: [submission()] })));
    const withdrawn = submission({ status: 'withdrawn', can_amend: false, can_withdraw: false });
    server.on('POST', `${URL}withdraw/`, ok(filing({ history: [withdrawn] })));
    const user = userEvent.setup({ delay: null });
    renderCard();
    await user.click(await screen.findByTestId('filing-withdraw'));
    expect(await screen.findByText('Withdraw the statement?')).toBeInTheDocument();
    expect(server.count('POST', `${URL}withdraw/`)).toBe(0);
    await user.click(screen.getByTestId('filing-withdraw-confirm'));
    await waitFor(() => expect(server.count('POST', `${URL}withdraw/`)).toBe(1));
    expect(await screen.findByTestId('filing-status')).toHaveTextContent('Withdrawn');
  });

  it('hides the actions without the change permission and shows the error of the server', async () => {
    server.on('GET', URL, ok(filing({ current: submission(), history: [submission()] })));
    renderCard(false);
    expect(await screen.findByTestId('filing-status')).toBeInTheDocument();
    expect(screen.queryByTestId('filing-withdraw')).not.toBeInTheDocument();
    expect(screen.queryByTestId('filing-refresh')).not.toBeInTheDocument();
  });

  it('shows the error state when the overview cannot be read', async () => {
    server.on('GET', URL, fail(500, 'Boom', 'server_error'));
    renderCard();
    const card = await screen.findByText('Statement in the EU information system');
    await waitFor(() => expect(within(card.closest('.ant-card') as HTMLElement).getByRole('button')).toBeInTheDocument());
  });
});
