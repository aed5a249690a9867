import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/errors';
import { paths } from '@/shared/routing/paths';
import { renderAt } from '@/test/renderAt';
import { DetailPage, type DetailQuery } from './DetailPage';

interface Order {
  id: number;
  number: string;
}

const loaded = (data: Order): DetailQuery<Order> => ({ data, error: null, isError: false, refetch: vi.fn() });
const failed = (error: unknown): DetailQuery<Order> => ({ data: undefined, error, isError: true, refetch: vi.fn() });
const pending: DetailQuery<Order> = { data: undefined, error: null, isError: false, refetch: vi.fn() };

function renderPage(query: DetailQuery<Order>, props: { invalid?: boolean; backInHeader?: boolean; bare?: boolean } = {}) {
  return renderAt(
    paths.salesOrder(7),
    '/sales/orders/:id',
    <DetailPage
      query={query}
      invalid={props.invalid}
      backTo={paths.salesOrders()}
      backLabel="Back to the list"
      backTestId="back"
      backInHeader={props.backInHeader}
      notFound="No such order"
      pendingTitle="Order"
      title={props.bare ? undefined : (order) => order.number}
      tags={<span data-testid="status-tag">open</span>}
      extra={(order) => <button type="button">{`Edit ${order.number}`}</button>}
    >
      {(order) => <p data-testid="body">{`Lines of ${order.number}`}</p>}
    </DetailPage>,
  );
}

describe('DetailPage', () => {
  it('shows a skeleton under the pending title while the record loads', () => {
    const { container } = renderPage(pending);
    expect(screen.getByRole('heading', { level: 1, name: 'Order' })).toBeInTheDocument();
    expect(container.querySelector('.ant-skeleton')).not.toBeNull();
    expect(screen.queryByTestId('body')).toBeNull();
  });

  it('shows the error with a retry that refetches', () => {
    const query = failed(new ApiError({ code: 500, message: 'The server broke', status: 500 }));
    renderPage(query);
    expect(screen.getByTestId('error-state')).toHaveTextContent('The server broke');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('body')).toBeNull();
  });

  it('shows "not found" for a 404 and for a parameter that cannot name a record', () => {
    renderPage(failed(new ApiError({ code: 404, message: 'Not found.', status: 404 })));
    expect(screen.getByTestId('document-not-found')).toHaveTextContent('No such order');
    expect(screen.queryByTestId('error-state')).toBeNull();
  });

  it('treats an invalid parameter as not found without a query answer', () => {
    renderPage(pending, { invalid: true });
    expect(screen.getByTestId('document-not-found')).toHaveTextContent('No such order');
  });

  it('renders the record: title with its tags, actions and content', () => {
    renderPage(loaded({ id: 7, number: 'SO-2026-00007' }));
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('SO-2026-00007');
    expect(heading).toContainElement(screen.getByTestId('status-tag'));
    expect(screen.getByRole('button', { name: 'Edit SO-2026-00007' })).toBeInTheDocument();
    expect(screen.getByTestId('body')).toHaveTextContent('Lines of SO-2026-00007');
    // the back button is on the not-found state only, unless it belongs in the header
    expect(screen.queryByTestId('back')).toBeNull();
  });

  it('leaves the frame to a view that draws its own header', () => {
    renderPage(loaded({ id: 7, number: 'SO-2026-00007' }), { bare: true });
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.getByTestId('body')).toHaveTextContent('Lines of SO-2026-00007');
  });

  it('goes back to the list from the not-found state', async () => {
    const { router } = renderPage(pending, { invalid: true });
    fireEvent.click(screen.getByTestId('back'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.salesOrders()));
  });

  it('goes back to the list from the header, in every state', async () => {
    const { router } = renderPage(loaded({ id: 7, number: 'SO-2026-00007' }), { backInHeader: true });
    const back = screen.getByTestId('back');
    expect(back).toHaveTextContent('Back to the list');
    fireEvent.click(back);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.salesOrders()));
  });
});
