import { App as AntApp, Layout } from 'antd';
import type { ComponentProps } from 'react';
import { ServiceWorkerPrompt } from '../pwa/ServiceWorkerPrompt';
import { RouteOutlet } from '../routing/RouteOutlet';
import { AppHeader } from './components/AppHeader';
import styles from './ShellLayout.module.css';

type Props = ComponentProps<typeof AppHeader> & { kind: 'default' | 'warehouse' | 'supplier' };

/**
 * What the three layouts share: the top bar, the page area, and Ant Design's App, which gives the
 * pages their message, notification and modal hooks (App.useApp).
 */
export function ShellLayout({ kind, ...header }: Props) {
  return (
    <AntApp>
      <ServiceWorkerPrompt />
      <Layout className={styles.shell} data-layout={kind} data-testid={`layout-${kind}`}>
        <AppHeader {...header} />
        <Layout.Content className={styles.content}>
          <RouteOutlet />
        </Layout.Content>
      </Layout>
    </AntApp>
  );
}
