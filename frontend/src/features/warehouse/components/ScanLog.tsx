import { CheckCircleOutlined, ClockCircleOutlined, CloseCircleOutlined } from '@ant-design/icons';
import { List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './warehouse.module.css';

export interface ScanLogEntry {
  id: string;
  code: string;
  state: 'done' | 'queued' | 'refused';
  text: string;
}

/** The last scans of this page, newest first: accepted, queued (offline) or refused with the reason. */
export function ScanLog({ entries }: { entries: ScanLogEntry[] }) {
  const { t } = useTranslation('warehouse');
  if (!entries.length) return null;
  return (
    <List
      size="small"
      className={styles.log}
      aria-label={t('scan.log')}
      dataSource={entries}
      data-testid="scan-log"
      renderItem={(entry) => (
        <List.Item data-state={entry.state}>
          <span className={styles[entry.state === 'done' ? 'ok' : entry.state === 'queued' ? 'queued' : 'refused']}>
            {entry.state === 'done' ? <CheckCircleOutlined /> : entry.state === 'queued' ? <ClockCircleOutlined /> : <CloseCircleOutlined />}
          </span>{' '}
          <Typography.Text strong>{entry.code}</Typography.Text> <Typography.Text type={entry.state === 'refused' ? 'danger' : 'secondary'}>{entry.text}</Typography.Text>
        </List.Item>
      )}
    />
  );
}
