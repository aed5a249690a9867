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

  it('shows the one limit the server computes and says which binds', async () => {
    server.on('GET', '/api/eudr/raw-materials/12/generation-limit/', ok({
      max_cartons: 549,
      binding: 'order_line',
      weight_cartons: 3999,
      line_cartons: 549,
      cap_cartons: 4000,
      net_weight_per_carton_kg: '0.500',
      next_batch_code: '20261126B',
    }));
    renderAt('/', '/', <GenerateCartonsDialog material={deliveryFixture()} batches={[]} open onClose={() => undefined} onGenerated={() => undefined} />);
    const limit = await screen.findByTestId('generate-limit');
    expect(limit).toHaveTextContent('At most 549 cartons can be generated now.');
    expect(limit).toHaveTextContent('The purchase order line binds');
    expect(limit).not.toHaveTextContent('3999');
  });

  it("Today's code proposes the server's next free code, not a code another delivery took", async () => {
    const user = userEvent.setup();
    server.on('GET', '/api/eudr/raw-materials/12/generation-limit/', ok({
      max_cartons: null,
      binding: null,
      weight_cartons: null,
      line_cartons: null,
      cap_cartons: null,
      net_weight_per_carton_kg: null,
      next_batch_code: '20261126B',
    }));
    // this delivery has no batch of today: a guess from its own batches would say A, which is taken
    renderAt('/', '/', <GenerateCartonsDialog material={deliveryFixture()} batches={[]} open onClose={() => undefined} onGenerated={() => undefined} />);
    await user.click(await screen.findByTestId('generate-suggest-code'));
    await waitFor(() => expect(screen.getByTestId('generate-batch-code')).toHaveValue('20261126B'));
    expect(screen.queryByTestId('generate-limit')).not.toBeInTheDocument();
  });
});
