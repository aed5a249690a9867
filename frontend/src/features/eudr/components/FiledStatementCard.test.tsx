import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, created, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { RawMaterial } from '../api/types';
import { deliveryFixture } from '../test/fixtures';
import { renderAt } from '../test/harness';
import { FiledStatementCard } from './FiledStatementCard';

const URL = '/api/eudr/raw-materials/12/filed-dds/';

const filed: Partial<RawMaterial> = {
  dds_reference_number: '25NLSN6LX69730',
  dds_verification_number: 'K7R8LA90',
  dds_filed_at: '2026-11-20T09:30:00Z',
  dds_filed_by_name: 'Admin',
};

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

function renderCard(material: RawMaterial, options: { supplier?: boolean; mayChange?: boolean } = {}) {
  return renderAt('/x', '/x', <FiledStatementCard material={material} supplier={options.supplier ?? false} mayChange={options.mayChange ?? true} />);
}

const postedBody = () => JSON.parse(server.requests.find((r) => r.method === 'POST')?.data as string) as Record<string, unknown>;

/**
 * Opens the dialog and waits until it has taken the focus. The modal moves the focus to itself a moment
 * after it opens; a test that typed before that lost the keystrokes typed after it (seen on a busy
 * machine), as a user typing that fast would.
 */
async function openDialog(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(screen.getByTestId('filed-record'));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveFocus());
}

describe('the filed statement card', () => {
  it('says "Not filed yet" and hides the button without change permission', () => {
    renderCard(deliveryFixture(), { mayChange: false });
    expect(screen.getByTestId('filed-none')).toHaveTextContent('Not filed yet');
    expect(screen.queryByTestId('filed-record')).not.toBeInTheDocument();
  });

  it('shows the recorded numbers, when and by whom', () => {
    renderCard(deliveryFixture(filed));
    expect(screen.getByTestId('filed-reference')).toHaveTextContent('25NLSN6LX69730');
    expect(screen.getByTestId('filed-verification')).toHaveTextContent('K7R8LA90');
    expect(screen.getByText('Admin')).toBeInTheDocument();
    expect(screen.getByTestId('filed-record')).toHaveTextContent('Change');
    expect(screen.getByTestId('filed-clear')).toBeInTheDocument();
  });

  it('shows suppliers the reference number only, read-only', () => {
    renderCard(deliveryFixture({ ...filed, dds_verification_number: '' }), { supplier: true, mayChange: true });
    expect(screen.getByTestId('filed-reference')).toHaveTextContent('25NLSN6LX69730');
    expect(screen.queryByText('Verification number')).not.toBeInTheDocument();
    expect(screen.queryByTestId('filed-record')).not.toBeInTheDocument();
    expect(screen.queryByTestId('filed-clear')).not.toBeInTheDocument();
  });

  it('validates the numbers like the server before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    renderCard(deliveryFixture());
    await openDialog(user);
    await user.click(screen.getByTestId('filed-save'));
    // The messages are waited for as they stand: the form validates again on every change, and a message
    // element found while it was being replaced is no longer in the document a moment later.
    await waitFor(() => {
      expect(screen.getByText("Enter the statement's reference number.")).toBeInTheDocument();
      expect(screen.getByText("Enter the statement's verification number.")).toBeInTheDocument();
    });

    await user.type(screen.getByTestId('filed-reference-input'), '25FI-KGLE 0Q7R');
    await user.type(screen.getByTestId('filed-verification-input'), 'K7R8');
    await user.click(screen.getByTestId('filed-save'));
    await waitFor(() => {
      expect(screen.getByText(/Enter the reference number as the EU information system gives it/)).toBeInTheDocument();
      expect(screen.getByText('The verification number has 5 to 35 letters and digits.')).toBeInTheDocument();
    });
    expect(server.count('POST', URL)).toBe(0);
  });

  it('sends the compacted numbers and the filing time, then refreshes the delivery', async () => {
    const user = userEvent.setup({ delay: null });
    server.on('POST', URL, ok(deliveryFixture(filed)));
    const { client } = renderCard(deliveryFixture());
    const refreshed: unknown[] = [];
    client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'invalidate') refreshed.push(event.query.queryKey);
    });
    client.setQueryData(['eudr', 'raw-material', '3', '12'], deliveryFixture());
    await openDialog(user);
    await user.type(screen.getByTestId('filed-reference-input'), '25nlsn 6lx69730');
    await user.type(screen.getByTestId('filed-verification-input'), 'K7R8LA90');
    const before = Date.now();
    await user.click(screen.getByTestId('filed-save'));

    await waitFor(() => expect(server.count('POST', URL)).toBe(1));
    const body = postedBody();
    expect(body.dds_reference_number).toBe('25NLSN6LX69730');
    expect(body.dds_verification_number).toBe('K7R8LA90');
    // Defaults to now (the picker keeps minutes).
    expect(Math.abs(Date.parse(body.dds_filed_at as string) - before)).toBeLessThan(120_000);
    expect(await screen.findByText('Filed statement recorded')).toBeInTheDocument();
    await waitFor(() => expect(refreshed).toContainEqual(['eudr', 'raw-material', '3', '12']));
  });

  it("puts the server's field error on its field", async () => {
    const user = userEvent.setup({ delay: null });
    server.on('POST', URL, fail(400, 'Invalid input.', 'validation_error', { dds_filed_at: ['The filing time cannot be in the future.'] }));
    renderCard(deliveryFixture());
    await openDialog(user);
    await user.type(screen.getByTestId('filed-reference-input'), '26NLQ8M3ZP41TK');
    await user.type(screen.getByTestId('filed-verification-input'), 'K7R8LA90');
    await user.click(screen.getByTestId('filed-save'));

    const error = await screen.findByText('The filing time cannot be in the future.');
    expect(error.closest('.ant-form-item')).toHaveTextContent('Filed at');
    expect(screen.getByTestId('filed-save')).toBeInTheDocument();
  });

  it('voids a recorded statement with a reason, never deletes it', async () => {
    const user = userEvent.setup({ delay: null });
    const VOID = '/api/duediligence/deliveries/12/void-statement/';
    server.on('POST', VOID, created({ id: 1, kind: 'statement_voided', reason: 'Wrong number' }));
    renderCard(deliveryFixture(filed));
    await user.click(screen.getByTestId('filed-clear'));
    const reason = await screen.findByTestId('filed-clear-dialog-reason');
    await user.click(screen.getByTestId('filed-clear-dialog-ok'));
    expect(await screen.findByText('Give the reason.')).toBeInTheDocument();
    expect(server.count('POST', VOID)).toBe(0);
    await user.type(reason, 'Wrong number');
    await user.click(screen.getByTestId('filed-clear-dialog-ok'));
    await waitFor(() => expect(server.count('POST', VOID)).toBe(1));
    expect(JSON.parse(server.requests.find((r) => r.url === VOID)?.data as string)).toEqual({ reason: 'Wrong number' });
    expect(await screen.findByText('Recorded statement voided')).toBeInTheDocument();
    expect(server.count('DELETE', URL)).toBe(0);
  });
});
