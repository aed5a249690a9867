import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { usePhone } from '@/shared/hooks/usePhone';
import styles from './PhoneLine.module.css';

/**
 * A second line in a list cell, on a phone only: what the columns hidden there (`hidden: phone`, with
 * usePhone) would have said, so that the list fits the screen without scrolling sideways; a long line
 * wraps. Nothing on wider screens.
 */
export function PhoneLine({ children, secondary = true }: { children: ReactNode; secondary?: boolean }) {
  const phone = usePhone();
  if (!phone) return null;
  return <div className={styles.line}>{secondary ? <Typography.Text type="secondary">{children}</Typography.Text> : children}</div>;
}
