import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { i18n, initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, ok, type MockReply } from '@/test/mockAdapter';
import { ServerTable } from './ServerTable';

let server: MockServer;
let answer: (reply: MockReply) => void = () => undefined;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/things/', () => new Promise<MockReply>((resolve) => (answer = resolve)));
});

afterEach(() => server.restore());

function renderTable() {
  initI18n('en', allResources());
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <App>
            <ServerTable<{ id: number; name: string }>
              endpoint="/api/things/"
              rowKey="id"
              columns={[{ title: 'Name', dataIndex: 'name' }]}
              exportable={false}
            />
          </App>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('a server list', () => {
  it('shows loading until the server answers, and "nothing here" only when it answered with no rows', async () => {
    renderTable();
    expect(await screen.findByTestId('table-loading')).toHaveTextContent('Loading…');
    expect(screen.queryByText('Nothing here yet')).not.toBeInTheDocument();
    answer(ok({ count: 0, next: null, previous: null, results: [] }));
    expect(await screen.findByText('Nothing here yet')).toBeInTheDocument();
    expect(screen.queryByTestId('table-loading')).not.toBeInTheDocument();
  });

  it('shows an exact count as the total', async () => {
    renderTable();
    answer(ok({ count: 42, count_more: false, next: null, previous: null, results: [{ id: 1, name: 'A' }] }));
    expect(await screen.findByText('42 in total')).toBeInTheDocument();
  });

  it('shows "more than" a bounded count and still offers the next page', async () => {
    renderTable();
    const rows = Array.from({ length: 20 }, (_, n) => ({ id: n + 1, name: `Row ${n + 1}` }));
    answer(ok({ count: 10000, count_more: true, next: '/api/things/?page=2', previous: null, results: rows }));
    expect(await screen.findByText('more than 10,000')).toBeInTheDocument();
    expect(screen.queryByText(/in total/)).not.toBeInTheDocument();
    expect(screen.getByTitle('Next Page')).not.toHaveClass('ant-pagination-disabled');
  });

  it('says it in Chinese too', async () => {
    renderTable();
    await i18n.changeLanguage('zh');
    try {
      answer(ok({ count: 10000, count_more: true, next: '/api/things/?page=2', previous: null, results: [{ id: 1, name: 'A' }] }));
      await screen.findByText('A');
      expect(await screen.findByText('超过 10,000 条')).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
