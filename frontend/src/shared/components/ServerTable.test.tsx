import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
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
});
