import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/api/queryClient';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { templatePreviewInput } from '../api/notifications';
import { EditorDrawer } from './EditorDrawer';

beforeEach(() => {
  initI18n('en', allResources());
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

function Editor({ onClose, remove, onSave, startDirty = false }: { onClose: () => void; remove?: () => Promise<unknown>; onSave: () => void; startDirty?: boolean }) {
  const [dirty, setDirty] = useState(startDirty);
  return (
    <EditorDrawer
      title="Edit thing"
      dirty={dirty}
      setDirty={setDirty}
      onClose={onClose}
      deletion={remove ? { itemLabel: 'Thing', remove } : undefined}
      dismiss="cancel"
      saving={false}
      onSave={onSave}
      saveTestId="thing-save"
    >
      <input aria-label="Name" onChange={() => setDirty(true)} />
    </EditorDrawer>
  );
}

function renderEditor(props: Parameters<typeof Editor>[0]) {
  const router = createMemoryRouter([{ path: '/', element: <AntApp><Editor {...props} /></AntApp> }], { initialEntries: ['/'] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('EditorDrawer', () => {
  it('closes at once without changes and saves through the footer button', () => {
    const onClose = vi.fn();
    const onSave = vi.fn();
    renderEditor({ onClose, onSave });
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull(); // nothing saved: nothing to delete
    fireEvent.click(screen.getByTestId('thing-save'));
    expect(onSave).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks before unsaved changes are thrown away', async () => {
    const onClose = vi.fn();
    renderEditor({ onClose, onSave: vi.fn() });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).not.toHaveBeenCalled();
    const leave = await screen.findByRole('button', { name: /leave/i });
    fireEvent.click(leave);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('deletes after the confirmation, then closes without asking about the changes', async () => {
    const onClose = vi.fn();
    const remove = vi.fn(() => Promise.resolve());
    renderEditor({ onClose, onSave: vi.fn(), remove, startDirty: true });
    fireEvent.click(screen.getByRole('button', { name: /delete/i }));
    expect(remove).not.toHaveBeenCalled();
    const buttons = await screen.findAllByRole('button', { name: /delete/i });
    fireEvent.click(buttons[buttons.length - 1]);
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });
});

describe('templatePreviewInput', () => {
  it('sends every part, the ones left empty as ""', () => {
    expect(templatePreviewInput({ event: 'invoice.posted', subject_en: 'Invoice {{ invoice.number }}' }, undefined, 'zh')).toEqual({
      event: 'invoice.posted',
      record: null,
      language: 'zh',
      subject_en: 'Invoice {{ invoice.number }}',
      subject_zh: '',
      body_html_en: '',
      body_html_zh: '',
      body_text_en: '',
      body_text_zh: '',
    });
    expect(templatePreviewInput({}, 12, 'en')).toMatchObject({ event: '', record: 12, language: 'en' });
  });
});
