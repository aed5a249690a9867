import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { FeedbackProvider } from '@/app/feedback/FeedbackProvider';
import { ThemeProvider } from '@/shared/theme/ThemeProvider';
import { SW_OFFLINE_READY } from './registerServiceWorker';
import { ServiceWorkerPrompt } from './ServiceWorkerPrompt';

describe('the "ready to work offline" notice', () => {
  it('appears at the bottom right, away from the user menu at the top right', async () => {
    initI18n('en', allResources());
    render(
      <ThemeProvider>
        <FeedbackProvider>
          <ServiceWorkerPrompt />
        </FeedbackProvider>
      </ThemeProvider>,
    );
    act(() => {
      window.dispatchEvent(new Event(SW_OFFLINE_READY));
    });
    const notice = await screen.findByText('The app is ready to work offline');
    const container = notice.closest('[class*="notification-bottomRight"]');
    expect(container).not.toBeNull();
  });
});
