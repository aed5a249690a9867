import { Button, Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/shared/utils/format';
import type { ProductionBatch } from '../api/types';
import { formatKg } from '../lib/weight';
import styles from './eudr.module.css';

interface Props {
  batches: readonly ProductionBatch[];
  loading: boolean;
  onPick: (code: string) => void;
}

/** Production batches of the delivery; picking one filters the labels below. */
export function BatchesTable({ batches, loading, onPick }: Props) {
  const { t, i18n } = useTranslation('eudr');
  const kg = (v: string) => t('units.kg', { value: formatKg(v, i18n.language) });
  return (
    <Card title={t('batches.title')} size="small" className={styles.section} data-testid="batches-card">
      <Table<ProductionBatch>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={[...batches]}
        pagination={batches.length > 10 ? { pageSize: 10 } : false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('batches.empty') }}
        onRow={(row) => ({ onClick: () => onPick(row.production_batch_code), className: styles.clickable })}
        columns={[
          {
            title: t('fields.production_batch_code'),
            dataIndex: 'production_batch_code',
            // A button, so a keyboard picks a batch too (and reaches the table when it scrolls sideways).
            render: (v: string) => (
              <Button
                type="link"
                size="small"
                className={styles.inlineLink}
                onClick={(event) => {
                  event.stopPropagation();
                  onPick(v);
                }}
              >
                {v}
              </Button>
            ),
          },
          { title: t('batches.productionDate'), dataIndex: 'production_date', responsive: ['md'], render: (v: string) => formatDate(v, i18n.language) },
          { title: t('fields.article_number'), dataIndex: 'article_number' },
          { title: t('generate.product'), dataIndex: 'product_name', responsive: ['lg'] },
          { title: t('fields.purchase_order'), dataIndex: 'purchase_order' },
          { title: t('fields.container'), dataIndex: 'container', responsive: ['lg'] },
          { title: t('batches.cartons'), dataIndex: 'carton_count', align: 'right' },
          { title: t('batches.perCarton'), dataIndex: 'net_weight_per_carton_kg', align: 'right', render: kg },
          { title: t('batches.used'), dataIndex: 'used_kg', align: 'right', render: kg },
          { title: t('batches.createdBy'), dataIndex: 'created_by_name', responsive: ['xl'] },
        ]}
      />
    </Card>
  );
}
