import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, fail, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import type { RawMaterial } from '../api/types';
import { deliveryFixture } from '../test/fixtures';
import { renderAt } from '../test/harness';
import { OutsideCountryCard } from './OutsideCountryCard';

const URL = '/api/eudr/raw-materials/12/confirm-outside-country/';
const OPEN = { plots: [1, 3], confirmed: false, confirmed_at: null, confirmed_by_name: '', reason: '' };

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  signIn({ tenant: '3', user: makeUser() });
});

afterEach(() => server.restore());

function renderCard(material: RawMaterial, mayConfirm = true) {
  return renderAt('/x', '/x', <OutsideCountryCard material={material} mayConfirm={mayConfirm} />);
}

describe('plots outside the country of production', () => {
  it('shows nothing when every plot lies inside', () => {
    renderCard(deliveryFixture({ outside_country: { ...OPEN, plots: [] } }));
    expect(screen.queryByTestId('outside-country')).not.toBeInTheDocument();
  });

  it('names the plots (counted from 1) as an error, and only a user who may confirm sees the button', () => {
    const { unmount } = renderCard(deliveryFixture({ outside_country: OPEN, country_name: 'China' }));
    expect(screen.getByTestId('outside-country')).toHaveTextContent('Plots 2, 4 lie outside China.');
    expect(screen.getByTestId('outside-confirm')).toBeInTheDocument();
    unmount();
    renderCard(deliveryFixture({ outside_country: { ...OPEN, plots: [0] }, country_name: 'China' }), false);
    expect(screen.getByTestId('outside-country')).toHaveTextContent('Plot 1 lies outside China.');
    expect(screen.queryByTestId('outside-confirm')).not.toBeInTheDocument();
  });

  it('asks for a reason, sends it, and shows the server refusal in the dialog', async () => {
    const user = userEvent.setup();
    server.on('POST', URL, fail(409, 'Every plot lies in its country of production: there is nothing to confirm.', 'no_plot_outside_country'));
    renderCard(deliveryFixture({ outside_country: OPEN }));
    await user.click(screen.getByTestId('outside-confirm'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveFocus());
    await user.click(screen.getByTestId('outside-dialog-ok'));
    expect(await screen.findByText('Give the reason.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.type(screen.getByTestId('outside-dialog-reason'), 'Border plot, surveyed on site');
    await user.click(screen.getByTestId('outside-dialog-ok'));
    expect(await screen.findByText('Every plot lies in its country of production: there is nothing to confirm.')).toBeInTheDocument();
    const body = JSON.parse(server.requests.find((r) => r.method === 'POST')?.data as string) as Record<string, unknown>;
    expect(body).toEqual({ reason: 'Border plot, surveyed on site' });
  });

  it('shows a confirmation with its reason, who and when', () => {
    server.on('GET', '/x', ok({}));
    renderCard(
      deliveryFixture({
        outside_country: { plots: [0], confirmed: true, confirmed_at: '2026-11-20T09:30:00Z', confirmed_by_name: 'Ada Admin', reason: 'Border plot' },
      }),
    );
    expect(screen.getByTestId('outside-country')).toHaveTextContent('confirmed as right');
    expect(screen.getByTestId('outside-reason')).toHaveTextContent('Border plot');
    expect(screen.getByText(/Ada Admin/)).toBeInTheDocument();
    expect(screen.queryByTestId('outside-confirm')).not.toBeInTheDocument();
  });
});
