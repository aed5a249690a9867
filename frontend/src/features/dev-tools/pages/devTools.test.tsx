import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { queryClient } from '@/api/queryClient';
import { reloadSession } from '@/shared/session/sessionStore';
import { MockServer, ok } from '@/test/mockAdapter';
import { renderApp } from '@/test/renderApp';
import { makeUser, signIn } from '@/test/session';

let server: MockServer;

beforeEach(() => {
  server = new MockServer(http);
  server.on('GET', '/api/tenants/', ok([{ id: '3', name: 'Trading Co' }]));
  server.on(
    'GET',
    '/api/common/content-types/',
    ok([
      { id: 11, app_label: 'suppliers', model: 'supplier' },
      { id: 12, app_label: 'purchaseorders', model: 'purchaseorder' },
    ]),
  );
  server.on('GET', '/api/common/comments/', (config) => {
    const params = config.params as Record<string, unknown>;
    const results =
      params.content_type === 11 && String(params.object_id) === '4'
        ? [
            {
              id: 1,
              content_type: 11,
              object_id: 4,
              content: 'Checked the mill certificate',
              status: 'normal',
              author: { id: 1, username: 'alice', name: 'Alice' },
              attachments: [],
              can_edit: true,
              created_at: '2025-01-02T10:00:00Z',
              updated_at: '2025-01-02T10:00:00Z',
            },
          ]
        : [];
    return ok({ count: results.length, next: null, previous: null, results });
  });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn({ user: makeUser({ is_staff: true }), tenant: '3' });
});

afterEach(() => {
  server.restore();
  queryClient.clear();
  reloadSession();
});

describe('/test/comments', () => {
  it('shows the comments panel of the record named in the URL', async () => {
    renderApp('/test/comments?type=supplier&id=4');
    expect(await screen.findByText('Checked the mill certificate')).toBeInTheDocument();
    expect(screen.getByTestId('comments-test-panel')).toHaveTextContent('Comments on Supplier 4');
    const listCall = server.requests.find((r) => r.url === '/api/common/comments/' && r.method === 'GET');
    expect(listCall?.params).toMatchObject({ content_type: 11, object_id: 4 });
  });

  it('asks for a record first, then shows the chosen one', async () => {
    const { router } = renderApp('/test/comments');
    const panel = await screen.findByTestId('comments-test-panel');
    expect(within(panel).getByText('Choose a record above.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Object id'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show comments' }));
    await waitFor(() => expect(router.state.location.search).toBe('?type=supplier&id=4'));
    expect(await screen.findByText('Checked the mill certificate')).toBeInTheDocument();
  });
});

describe('/test/layout', () => {
  it('shows the breakpoint, the theme tokens and the layer levels', async () => {
    renderApp('/test/layout');
    const breakpoint = await screen.findByTestId('layout-breakpoint');
    expect(breakpoint).toHaveTextContent('Window width');
    expect(screen.getByTestId('layout-mobile-menu')).toBeInTheDocument();
    const themeCard = screen.getByTestId('layout-theme');
    expect(themeCard).toHaveTextContent('Aura');
    expect(themeCard).toHaveTextContent('colorPrimary');
    const layers = screen.getByTestId('layout-layers');
    for (const level of ['7000', '8000', '8100', '9000', '10000']) expect(layers).toHaveTextContent(level);
  });
});
