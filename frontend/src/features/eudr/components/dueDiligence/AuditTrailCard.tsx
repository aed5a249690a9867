import { Card, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { type AuditEntry, useAuditTrail } from '../../api/dueDiligence';
import styles from '../eudr.module.css';
import { formatDateTime } from '@/shared/utils/format';

/** Every change to the delivery and what its statements rest on: who, when, field, before, after. */
export function AuditTrailCard({ deliveryId }: { deliveryId: number }) {
  const { t, i18n } = useTranslation('dueDiligence');
  const [page, setPage] = useState(1);
  const query = useAuditTrail(deliveryId, page);
  const recordName = (entry: AuditEntry) => {
    const key = `audit.records.${entry.record_type}`;
    return i18n.exists(key, { ns: 'dueDiligence' })
      ? t(key, { id: entry.record_id })
      : t('audit.records.other', { type: entry.record_type, id: entry.record_id });
  };
  const value = (text: string) => (text ? <Typography.Text className={styles.auditValue}>{text}</Typography.Text> : t('eudr:common.none'));
  return (
    <Card title={t('audit.title')} size="small" className={styles.section} data-testid="audit-trail">
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        // The wrapper scrolls sideways and takes the focus, so a keyboard can scroll a trail whose rows
        // hold no link or button (axe: scrollable-region-focusable).
        <div className={styles.scrollRegion} tabIndex={0} role="region" aria-label={t('audit.title')}>
          <Table<AuditEntry>
            size="small"
            rowKey="id"
            loading={query.isFetching}
            dataSource={query.data?.results ?? []}
            locale={{ emptyText: t('audit.none') }}
            pagination={{ current: page, pageSize: 20, total: query.data?.count ?? 0, onChange: setPage, showSizeChanger: false }}
            columns={[
              { title: t('audit.when'), dataIndex: 'at', render: (v: string) => formatDateTime(v, i18n.language) },
              { title: t('audit.who'), dataIndex: 'username', render: (v: string) => v || t('audit.system') },
              {
                title: t('audit.record'),
                key: 'record',
                render: (_v, entry) => (
                  <>
                    {recordName(entry)} · {t(`audit.actions.${entry.action}`)}
                  </>
                ),
              },
              { title: t('audit.field'), dataIndex: 'field', render: (v: string) => <span className={styles.mono}>{v || t('eudr:common.none')}</span> },
              { title: t('audit.old'), dataIndex: 'old_value', render: value },
              { title: t('audit.new'), dataIndex: 'new_value', render: value },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
