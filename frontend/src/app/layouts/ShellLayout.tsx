import type { ComponentProps } from 'react';
import { CSS_VAR_CLASS } from '@/shared/theme/buildTheme';
import { FeedbackProvider } from '../feedback/FeedbackProvider';
import { ServiceWorkerPrompt } from '../pwa/ServiceWorkerPrompt';
import { RouteOutlet } from '../routing/RouteOutlet';
import { AppHeader } from './components/AppHeader';
import styles from './ShellLayout.module.css';

type Props = ComponentProps<typeof AppHeader> & { kind: 'default' | 'warehouse' | 'supplier' };

/**
 * What the three layouts share: the top bar, the page area, and what Ant Design's App gave the pages,
 * their message, notification and modal hooks (App.useApp), loaded on first use (FeedbackProvider).
 * The frame is plain elements; it carries the theme's class, under which Ant Design defines the
 * theme's CSS variables that the frame and the top bar are drawn with.
 */
export function ShellLayout({ kind, ...header }: Props) {
  return (
    <FeedbackProvider>
      <ServiceWorkerPrompt />
      <div className={`${CSS_VAR_CLASS} ${styles.shell}`} data-layout={kind} data-testid={`layout-${kind}`}>
        <AppHeader {...header} />
        <main className={styles.content}>
          <RouteOutlet />
        </main>
      </div>
    </FeedbackProvider>
  );
}
