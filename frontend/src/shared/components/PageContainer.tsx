import { Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '@/shared/routing/routeMeta';
import styles from './PageContainer.module.css';

interface Props {
  /** Defaults to the route's title. */
  title?: ReactNode;
  /** Actions shown at the right of the title (buttons). */
  extra?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of a page: its title (the route's by default), actions, then the content. The title is the
 * page's one level-one heading (<h1>), drawn at the size of a section title (a plain element styled with
 * the theme's tokens: antd's Typography would bring tooltips and text areas into every first page).
 */
export function PageContainer({ title, extra, children }: Props) {
  const { t } = useTranslation();
  const meta = useRouteMeta();
  const heading = title ?? (meta ? t(meta.title) : null);
  return (
    <div className={styles.page}>
      <Flex justify="space-between" align="center" wrap gap="small" className={styles.header}>
        <h1 className={styles.title}>{heading}</h1>
        {extra ? <Flex gap="small" wrap>{extra}</Flex> : null}
      </Flex>
      {children}
    </div>
  );
}
