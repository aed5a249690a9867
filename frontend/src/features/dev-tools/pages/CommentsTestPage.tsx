import { Alert, Button, Card, Form, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CommentsPanel } from '@/shared/comments/CommentsPanel';
import { PageContainer } from '@/shared/components/PageContainer';
import { CONTENT_TYPE_ALIASES } from '@/shared/contentTypes/contentTypes';
import styles from './DevTools.module.css';

/** The record kinds comments can be attached to (docs/specification.md section 7), by the names the UI uses. */
const COMMENTABLE = ['supplier', 'purchaseorder', 'salesorder', 'shipment'] as const;

interface Target {
  type: string;
  id: number;
}

/** Staff only: the shared comments panel on any record, chosen by content type and object id (kept in
 * the URL, `?type=supplier&id=4`), to try comments and attachments outside their pages. */
export default function CommentsTestPage() {
  const { t } = useTranslation('devTools');
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? '';
  const id = Number(params.get('id'));
  const chosen = (COMMENTABLE as readonly string[]).includes(type) && Number.isInteger(id) && id > 0;
  const [form] = Form.useForm<Target>();

  return (
    <PageContainer>
      <Card title={t('comments.record')}>
        <Typography.Paragraph type="secondary">{t('comments.hint')}</Typography.Paragraph>
        <Form<Target>
          form={form}
          layout="inline"
          initialValues={{ type: chosen ? type : 'supplier', id: chosen ? id : undefined }}
          onFinish={(values) => setParams({ type: values.type, id: String(values.id) })}
          data-testid="comments-target"
        >
          <Form.Item name="type" label={t('comments.contentType')} rules={[{ required: true, message: t('comments.required') }]}>
            <Select
              className={styles.typeSelect}
              options={COMMENTABLE.map((name) => ({ value: name, label: `${t(`comments.types.${name}`)} (${CONTENT_TYPE_ALIASES[name]})` }))}
            />
          </Form.Item>
          <Form.Item name="id" label={t('comments.objectId')} rules={[{ required: true, message: t('comments.required') }]}>
            <InputNumber min={1} precision={0} className={styles.idInput} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit">
              {t('comments.show')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Card
        className={styles.block}
        title={chosen ? t('comments.panelTitle', { type: t(`comments.types.${type}`), id }) : t('comments.panel')}
        data-testid="comments-test-panel"
      >
        {chosen ? (
          <CommentsPanel key={`${type}:${id}`} contentType={type} objectId={id} />
        ) : (
          <Alert type="info" showIcon title={t('comments.choose')} />
        )}
      </Card>
    </PageContainer>
  );
}
