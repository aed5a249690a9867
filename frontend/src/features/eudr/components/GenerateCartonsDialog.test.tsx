import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { MockServer, ok } from '@/test/mockAdapter';
import { makeUser, signIn } from '@/test/session';
import { deliveryFixture } from '../test/fixtures';
import { renderAt } from '../test/harness';
import { GenerateCartonsDialog } from './GenerateCartonsDialog';

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/eudr/raw-materials/12/generation-limit/', ok({ next_batch_code: '20261126C', net_weight_per_carton_kg: null, max_cartons: null, binding: null, limits: null }));
  signIn({ tenant: '3', user: makeUser({ permissions: ['eudr.add_cartonlabel'] }) });
});

afterEach(() => {
  server.restore();
});

/** The form item (label, control and its messages) that holds a control. */
function itemOf(testId: string): HTMLElement {
  const item = screen.getByTestId(testId).closest<HTMLElement>('.ant-form-item, .p-form-item');
  if (!item) throw new Error(`${testId} is not inside a form item`);
  return item;
}

describe('GenerateCartonsDialog', () => {
  it('submitted empty, says the order line is required once, under the line field', async () => {
    const user = userEvent.setup();
    renderAt('/', '/', <GenerateCartonsDialog material={deliveryFixture()} batches={[]} open onClose={() => undefined} onGenerated={() => undefined} />);

    await user.click(await screen.findByTestId('generate-submit'));

    await waitFor(() => expect(screen.getByText('Product is required')).toBeInTheDocument());
    const messages = await screen.findAllByText('Purchase order line is required');
    expect(messages).toHaveLength(1);
    expect(itemOf('generate-line')).toContainElement(messages[0] ?? null);
    expect(itemOf('generate-order')).not.toHaveTextContent('required');
    // Nothing was sent.
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('refuses 0 and a negative count with a message instead of turning them into 1', async () => {
    const user = userEvent.setup();
    renderAt('/', '/', <GenerateCartonsDialog material={deliveryFixture()} batches={[]} open onClose={() => undefined} onGenerated={() => undefined} />);
    for (const typed of ['0', '-5']) {
      const field = await screen.findByTestId('generate-count');
      await user.clear(field);
      await user.type(field, typed);
      await user.click(screen.getByTestId('generate-submit'));
      await waitFor(() => expect(itemOf('generate-count')).toHaveTextContent('Enter a whole number of cartons, at least 1.'));
      expect(field).toHaveValue(typed);
    }
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("proposes today's first free code from the server, which knows every delivery's batches", async () => {
    const user = userEvent.setup();
    renderAt('/', '/', <GenerateCartonsDialog material={deliveryFixture()} batches={[]} open onClose={() => undefined} onGenerated={() => undefined} />);
    await user.click(await screen.findByTestId('generate-suggest-code'));
    // A and B are taken by other deliveries: this delivery has no batch, yet C is proposed.
    await waitFor(() => expect(screen.getByTestId('generate-batch-code')).toHaveValue('20261126C'));
    expect(server.count('GET', '/api/eudr/raw-materials/12/generation-limit/')).toBeGreaterThanOrEqual(2);
  });
});
