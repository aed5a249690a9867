import { Layout } from 'antd';
import type { ComponentProps } from 'react';
import { FeedbackProvider } from '../feedback/FeedbackProvider';
import { ServiceWorkerPrompt } from '../pwa/ServiceWorkerPrompt';
import { RouteOutlet } from '../routing/RouteOutlet';
import { AppHeader } from './components/AppHeader';
import styles from './ShellLayout.module.css';

type Props = ComponentProps<typeof AppHeader> & { kind: 'default' | 'warehouse' | 'supplier' };

/**
 * What the three layouts share: the top bar, the page area, and what Ant Design's App gave the pages,
 * their message, notification and modal hooks (App.useApp), loaded on first use (FeedbackProvider).
 */
export function ShellLayout({ kind, ...header }: Props) {
  return (
    <FeedbackProvider>
      <ServiceWorkerPrompt />
      <Layout className={styles.shell} data-layout={kind} data-testid={`layout-${kind}`}>
        <AppHeader {...header} />
        <Layout.Content className={styles.content}>
          <RouteOutlet />
        </Layout.Content>
      </Layout>
    </FeedbackProvider>
  );
}
