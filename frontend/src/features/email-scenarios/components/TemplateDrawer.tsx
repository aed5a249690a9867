import { Alert, Col, Collapse, Form, Input, Row, Select, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import {
  deleteTemplate,
  type EmailTemplate,
  type EmailTemplateInput,
  previewTemplate,
  saveTemplate,
  templatePreviewInput,
  useEventMap,
  useInvalidateEmail,
} from '../api/notifications';
import { EditorDrawer } from './EditorDrawer';
import { PreviewPanel } from './PreviewPanel';
import styles from './email.module.css';

interface Props {
  template?: EmailTemplate;
  /** The event of a new template (e.g. chosen in the scenario form). */
  event?: string;
  onClose: (saved?: EmailTemplate) => void;
}

const PARTS = ['subject', 'body_html', 'body_text'] as const;

/** Create or edit a template: subject, HTML and text bodies in English and Chinese, the event's
 * variables at hand, and a live preview against a real record. */
export function TemplateDrawer({ template, event, onClose }: Props) {
  const { t } = useTranslation('email');
  const [dirty, setDirty] = useState(false);
  const events = useEventMap();
  const invalidate = useInvalidateEmail();
  const { form, onFinish, submitting, formError } = useApiForm<EmailTemplateInput, EmailTemplate>({
    submit: (values) => saveTemplate(template?.id, values),
    onSuccess: (saved) => {
      setDirty(false);
      void invalidate();
      onClose(saved);
    },
  });
  const eventName = Form.useWatch<string | undefined>('event', form);
  const current = eventName ? events.map.get(eventName) : undefined;
  const required = { required: true, whitespace: true, message: t('validation.required') };

  const languageTab = (language: 'en' | 'zh') => ({
    key: language,
    label: language === 'en' ? 'English' : '中文',
    forceRender: true,
    children: (
      <>
        {PARTS.map((part) => (
          <Form.Item key={part} name={`${part}_${language}`} label={t(`fields.${part}`)}>
            {part === 'subject' ? (
              <Input maxLength={500} data-testid={`template-${part}-${language}`} />
            ) : (
              <Input.TextArea autoSize={{ minRows: part === 'body_html' ? 6 : 4, maxRows: 18 }} spellCheck={false} data-testid={`template-${part}-${language}`} />
            )}
          </Form.Item>
        ))}
      </>
    ),
  });

  return (
    <EditorDrawer
      title={template ? t('templates.editTitle', { name: template.name }) : t('templates.createTitle')}
      dirty={dirty}
      setDirty={setDirty}
      onClose={() => onClose()}
      deletion={template ? { itemLabel: template.name, remove: () => deleteTemplate(template.id) } : undefined}
      dismiss="cancel"
      saving={submitting}
      onSave={() => form.submit()}
      saveTestId="template-save"
    >
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <Form<EmailTemplateInput>
            form={form}
            layout="vertical"
            initialValues={template ?? { name: '', event: event ?? undefined }}
            onFinish={onFinish}
            onValuesChange={() => setDirty(true)}
          >
            <Form.Item name="name" label={t('fields.name')} rules={[required]}>
              <Input maxLength={200} data-testid="template-name" />
            </Form.Item>
            <Form.Item name="event" label={t('fields.event')} rules={[{ required: true, message: t('validation.required') }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                options={(events.data ?? []).map((e) => ({ value: e.name, label: e.label }))}
                data-testid="template-event"
              />
            </Form.Item>
            <Tabs items={[languageTab('en'), languageTab('zh')]} />
            {formError ? <Alert type="error" showIcon title={formError} /> : null}
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          <Collapse
            defaultActiveKey={['variables', 'preview']}
            items={[
              {
                key: 'variables',
                label: t('templates.variables'),
                children: current ? (
                  <div className={styles.variables}>
                    <Typography.Paragraph type="secondary">{t('templates.variablesHelp')}</Typography.Paragraph>
                    {current.variables.map((variable) => (
                      <div key={variable.name}>
                        <Typography.Text code copyable={{ text: `{{ ${variable.name} }}` }}>
                          {variable.name}
                        </Typography.Text>{' '}
                        <Typography.Text type="secondary">{variable.description}</Typography.Text>
                      </div>
                    ))}
                  </div>
                ) : (
                  <Typography.Text type="secondary">{t('templates.chooseEvent')}</Typography.Text>
                ),
              },
              {
                key: 'preview',
                label: t('preview.title'),
                children: (
                  <PreviewPanel
                    event={eventName}
                    onPreview={(record, language) =>
                      previewTemplate(templatePreviewInput(form.getFieldsValue(true) as Partial<EmailTemplateInput>, record, language))
                    }
                  />
                ),
              },
            ]}
          />
        </Col>
      </Row>
    </EditorDrawer>
  );
}
