import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, ok } from '@/test/mockAdapter';
import { SAVED_URL } from '../api/reportLab';
import { SavedReportsDrawer } from './SavedReportsDrawer';

let server: MockServer;

const REPORT = {
  id: 7,
  name: 'Stock by warehouse',
  description: '',
  chart: 'bar',
  shared: true,
  is_mine: true,
  owner_name: 'Ada Admin',
};

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', SAVED_URL, ok({ count: 1, next: null, previous: null, results: [REPORT] }));
});

afterEach(() => server.restore());

describe('the saved reports', () => {
  it('open from their name as well as from the folder button', async () => {
    initI18n('en', allResources());
    const onOpenReport = vi.fn();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <App>
          <SavedReportsDrawer open onClose={() => undefined} onOpenReport={onOpenReport} currentId={null} onDeleted={() => undefined} />
        </App>
      </QueryClientProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Stock by warehouse' }));
    expect(onOpenReport).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
    fireEvent.click(screen.getByRole('button', { name: 'Open Stock by warehouse' }));
    expect(onOpenReport).toHaveBeenCalledTimes(2);
  });
});
