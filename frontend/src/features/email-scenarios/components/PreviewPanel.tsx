import { EyeOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Flex, Segmented, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { type Language, type Preview, useEventRecords } from '../api/notifications';
import { MailBody } from './MailBody';

interface Props {
  event: string | undefined;
  /** Renders the preview for a record (undefined: the latest) in a language. */
  onPreview: (record: number | undefined, language: Language) => Promise<Preview>;
  /** "Send a test to me", when offered. */
  onSendTest?: (record: number | undefined, language: Language) => Promise<unknown>;
}

/** Pick a real record of the event's type and a language; see the message as it would be sent. */
export function PreviewPanel({ event, onPreview, onSendTest }: Props) {
  const { t } = useTranslation('email');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [search, setSearch] = useState('');
  const [record, setRecord] = useState<number | undefined>();
  const [language, setLanguage] = useState<Language>('en');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'test' | null>(null);
  const records = useEventRecords(event, search);

  const run = async () => {
    setBusy('preview');
    setError(null);
    try {
      setPreview(await onPreview(record, language));
    } catch (failure) {
      setPreview(null);
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  };

  const sendTest = async () => {
    if (!onSendTest) return;
    setBusy('test');
    try {
      await onSendTest(record, language);
      void message.success(t('preview.testSent'));
    } catch (failure) {
      void message.error(errorText(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex vertical gap="small" data-testid="preview-panel">
      <Flex gap="small" wrap align="center">
        <Select
          aria-label={t('preview.record')}
          placeholder={t('preview.latestRecord')}
          allowClear
          showSearch={{ filterOption: false, onSearch: setSearch }}
          loading={records.isFetching}
          value={record}
          onChange={(value: number | undefined) => setRecord(value)}
          options={(records.data ?? []).map((option) => ({ value: option.id, label: option.label }))}
          style={{ minWidth: 220 }}
          disabled={!event}
          data-testid="preview-record"
        />
        <Segmented<Language>
          aria-label={t('preview.language')}
          value={language}
          onChange={setLanguage}
          options={[
            { value: 'en', label: 'English' },
            { value: 'zh', label: '中文' },
          ]}
        />
        <Button icon={<EyeOutlined />} onClick={() => void run()} loading={busy === 'preview'} disabled={!event} data-testid="preview-run">
          {t('preview.run')}
        </Button>
        {onSendTest ? (
          <Button icon={<SendOutlined />} onClick={() => void sendTest()} loading={busy === 'test'} data-testid="preview-send-test">
            {t('preview.sendTest')}
          </Button>
        ) : null}
      </Flex>
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {preview ? (
        <Flex vertical gap="small">
          {preview.error ? <Alert type="error" showIcon title={t('preview.templateError')} description={preview.error} /> : null}
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('preview.recordLabel')}>{preview.record.label}</Descriptions.Item>
            <Descriptions.Item label={t('fields.subject')}>
              <Typography.Text strong data-testid="preview-subject">
                {preview.subject}
              </Typography.Text>
            </Descriptions.Item>
            {preview.conditions_hold !== null && preview.conditions_hold !== undefined ? (
              <Descriptions.Item label={t('fields.conditions')}>
                <Tag color={preview.conditions_hold ? 'success' : 'warning'}>
                  {preview.conditions_hold ? t('preview.conditionsHold') : t('preview.conditionsFail')}
                </Tag>
              </Descriptions.Item>
            ) : null}
            {preview.conditions_hold !== null && preview.conditions_hold !== undefined ? (
              <Descriptions.Item label={t('fields.recipients')}>
                {preview.recipients.length
                  ? preview.recipients.map((r) => `${r.name ? `${r.name} ` : ''}<${r.email}> (${r.language})`).join(', ')
                  : t('preview.noRecipients')}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          <MailBody html={preview.body_html} text={preview.body_text} label={t('preview.frameLabel')} />
        </Flex>
      ) : null}
    </Flex>
  );
}
