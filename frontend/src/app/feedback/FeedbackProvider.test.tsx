import { act, render, screen } from '@testing-library/react';
import { App, Button } from 'antd';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import { FeedbackProvider } from './FeedbackProvider';

function Page() {
  const { message, modal, notification } = App.useApp();
  return (
    <>
      <Button onClick={() => void message.success('Saved')}>save</Button>
      <Button onClick={() => modal.confirm({ title: 'Delete it?', okText: 'Delete' })}>delete</Button>
      <Button onClick={() => notification.info({ title: 'Heads up' })}>notify</Button>
    </>
  );
}

describe('FeedbackProvider (App.useApp without loading its code first)', () => {
  it('renders no holder before the first call, then shows each kind of feedback', async () => {
    const { container } = render(
      <ThemeProvider>
        <FeedbackProvider>
          <Page />
        </FeedbackProvider>
      </ThemeProvider>,
    );
    expect(document.querySelector('.p-message')).toBeNull();
    expect(container.querySelector('[class*="p-modal"]')).toBeNull();

    act(() => screen.getByRole('button', { name: 'save' }).click());
    expect(await screen.findByText('Saved')).toBeInTheDocument();

    act(() => screen.getByRole('button', { name: 'delete' }).click());
    expect((await screen.findAllByText('Delete it?')).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();

    act(() => screen.getByRole('button', { name: 'notify' }).click());
    expect(await screen.findByText('Heads up')).toBeInTheDocument();
  });

  it('is not a thenable (awaiting the API does not hang)', async () => {
    const seen: unknown[] = [];
    function Grab() {
      const { message } = App.useApp();
      useEffect(() => {
        seen.push(message);
      }, [message]);
      return null;
    }
    render(
      <FeedbackProvider>
        <Grab />
      </FeedbackProvider>,
    );
    const [api] = seen;
    expect(api).toBeDefined();
    expect(await Promise.resolve(api)).toBe(api);
  });
});
