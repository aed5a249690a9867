import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/api/http';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { MockServer, created, ok } from '@/test/mockAdapter';
import { DepartmentModal } from './DepartmentModal';
import { RoleModal } from './RoleModal';
import { UserCreateDrawer } from './UserCreateDrawer';

const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };
let server: MockServer;

beforeEach(() => {
  initI18n('en', allResources());
  server = new MockServer(http);
  server.on('GET', '/api/users/roles/', ok(EMPTY_PAGE));
  server.on('GET', '/api/users/departments/', ok(EMPTY_PAGE));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => server.restore());

function renderAt(element: ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <AntApp>{element}</AntApp> },
      { path: '/elsewhere', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** A page holding one of the dialogs, closing it like the real pages do. */
function Host({ kind, onClose }: { kind: 'role' | 'department' | 'user'; onClose: () => void }) {
  const [open, setOpen] = useState(true);
  const navigate = useNavigate();
  const close = () => {
    setOpen(false);
    onClose();
  };
  const saved = () => {
    setOpen(false);
    void navigate('/elsewhere');
  };
  if (kind === 'role') return <RoleModal role={open ? null : undefined} onClose={close} onSaved={saved} />;
  if (kind === 'department') return <DepartmentModal department={open ? null : undefined} onClose={close} onSaved={saved} />;
  return <UserCreateDrawer open={open} onClose={close} onCreated={saved} />;
}

const confirmTitle = () => document.querySelector('.ant-modal-confirm-title');

describe.each([
  ['role', 'Name'],
  ['department', 'Name'],
  ['user', 'Username'],
] as const)('the %s dialog', (kind, field) => {
  it('closes at once when nothing was changed', async () => {
    const onClose = vi.fn();
    renderAt(<Host kind={kind} onClose={onClose} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(confirmTitle()).toBeNull();
  });

  it('asks before discarding changes; Stay keeps it open, Leave closes it', async () => {
    const onClose = vi.fn();
    renderAt(<Host kind={kind} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText(field), { target: { value: 'Buyers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(confirmTitle()).toHaveTextContent('Leave without saving?'));
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText(field)).toHaveValue('Buyers');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });
});

describe('after a save', () => {
  it('navigating away is not blocked by the changes just saved', async () => {
    server.on('POST', '/api/users/roles/', created({ id: 5, name: 'Buyers', description: '' }));
    const router = renderAt(<Host kind="role" onClose={() => undefined} />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Buyers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));
    expect(confirmTitle()).toBeNull();
  });
});
