import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Col, Divider, Flex, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiForm } from '@/shared/hooks/useApiForm';
import {
  deleteScenario,
  type EmailScenario,
  OPERATORS,
  previewScenario,
  RECIPIENT_TYPES,
  saveScenario,
  sendTestScenario,
  useEventMap,
  useInvalidateEmail,
  useRolesAndDepartments,
  useTemplatesOf,
} from '../api/notifications';
import { type FormValues, type RecipientType, toInput, toRows } from '../lib/scenarioForm';
import { EditorDrawer } from './EditorDrawer';
import { PreviewPanel } from './PreviewPanel';
import { TemplateDrawer } from './TemplateDrawer';

interface Props {
  scenario?: EmailScenario;
  onClose: () => void;
}

/** Create or edit a scenario: the event, when (conditions), to whom, which template and attachments,
 * after how long and in which language; preview it on a real record and send a test to yourself. */
export function ScenarioDrawer({ scenario, onClose }: Props) {
  const { t } = useTranslation('email');
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState<EmailScenario | undefined>(scenario);
  const [newTemplate, setNewTemplate] = useState(false);
  const events = useEventMap();
  const invalidate = useInvalidateEmail();
  const { form, onFinish, submitting, formError } = useApiForm<FormValues, EmailScenario>({
    submit: (values) => saveScenario(saved?.id, toInput(values)),
    onSuccess: (result) => {
      setDirty(false);
      setSaved(result);
      void invalidate();
    },
  });
  const eventName = Form.useWatch<string | undefined>('event', form);
  const event = eventName ? events.map.get(eventName) : undefined;
  const templates = useTemplatesOf(eventName);
  const people = useRolesAndDepartments(true);
  const required = { required: true, message: t('validation.required') };

  return (
    <EditorDrawer
      title={saved ? t('scenarios.editTitle', { name: saved.name }) : t('scenarios.createTitle')}
      dirty={dirty}
      setDirty={setDirty}
      onClose={onClose}
      deletion={saved ? { itemLabel: saved.name, remove: () => deleteScenario(saved.id) } : undefined}
      dismiss="close"
      saving={submitting}
      onSave={() => form.submit()}
      saveTestId="scenario-save"
    >
      <Row gutter={24}>
        <Col xs={24} lg={13}>
          <Form<FormValues> form={form} layout="vertical" initialValues={toRows(scenario)} onFinish={onFinish} onValuesChange={() => setDirty(true)}>
            <Form.Item name="name" label={t('fields.name')} rules={[{ ...required, whitespace: true }]}>
              <Input maxLength={200} data-testid="scenario-name" />
            </Form.Item>
            <Form.Item name="event" label={t('fields.event')} rules={[required]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                options={(events.data ?? []).map((e) => ({ value: e.name, label: e.available ? e.label : `${e.label} (${t('scenarios.notYet')})` }))}
                onChange={() => form.setFieldsValue({ template: undefined, conditions: [], attachments: [], recipients: [{ type: 'contact' }] })}
                data-testid="scenario-event"
              />
            </Form.Item>
            <Form.Item name="enabled" label={t('fields.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item label={t('fields.template')} required>
              <Flex gap="small">
                <Form.Item name="template" noStyle rules={[required]}>
                  <Select
                    aria-label={t('fields.template')}
                    disabled={!eventName}
                    loading={templates.isFetching}
                    options={(templates.data?.results ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
                    placeholder={eventName ? t('scenarios.chooseTemplate') : t('templates.chooseEvent')}
                    data-testid="scenario-template"
                  />
                </Form.Item>
                <Button icon={<PlusOutlined />} disabled={!eventName} onClick={() => setNewTemplate(true)} data-testid="scenario-new-template">
                  {t('templates.new')}
                </Button>
              </Flex>
            </Form.Item>

            <Divider titlePlacement="start">{t('fields.conditions')}</Divider>
            <Typography.Paragraph type="secondary">{t('scenarios.conditionsHelp')}</Typography.Paragraph>
            <Form.List name="conditions">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field) => (
                    <Flex key={field.key} gap="small" align="start" wrap>
                      <Form.Item name={[field.name, 'field']} rules={[required]} style={{ minWidth: 180, flex: 2 }}>
                        <Select
                          aria-label={t('scenarios.conditionField')}
                          showSearch={{ optionFilterProp: 'label' }}
                          options={(event?.variables ?? []).map((v) => ({ value: v.name, label: `${v.name} · ${v.description}` }))}
                        />
                      </Form.Item>
                      <Form.Item name={[field.name, 'operator']} rules={[required]} style={{ minWidth: 120, flex: 1 }}>
                        <Select aria-label={t('scenarios.conditionOperator')} options={OPERATORS.map((op) => ({ value: op, label: t(`operators.${op}`) }))} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'value']} style={{ flex: 2, minWidth: 120 }}>
                        <Input aria-label={t('scenarios.conditionValue')} maxLength={200} />
                      </Form.Item>
                      <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('scenarios.removeCondition')} onClick={() => remove(field.name)} />
                    </Flex>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} disabled={!event} onClick={() => add({ operator: 'eq' })}>
                    {t('scenarios.addCondition')}
                  </Button>
                </>
              )}
            </Form.List>

            <Divider titlePlacement="start">{t('fields.recipients')}</Divider>
            <Form.List name="recipients">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field) => (
                    <Flex key={field.key} gap="small" align="start" wrap>
                      <Form.Item name={[field.name, 'type']} rules={[required]} style={{ minWidth: 150 }}>
                        <Select
                          aria-label={t('scenarios.recipientType')}
                          options={RECIPIENT_TYPES.map((type) => ({ value: type, label: t(`recipientTypes.${type}`) }))}
                        />
                      </Form.Item>
                      <Form.Item noStyle shouldUpdate>
                        {() => {
                          const type = form.getFieldValue(['recipients', field.name, 'type']) as RecipientType | undefined;
                          if (type === 'contact')
                            return (
                              <>
                                <Form.Item name={[field.name, 'contact']} rules={[required]} style={{ minWidth: 200, flex: 2 }}>
                                  <Select aria-label={t('recipientTypes.contact')} options={(event?.contacts ?? []).map((c) => ({ value: c.role, label: c.label }))} data-testid="scenario-contact" />
                                </Form.Item>
                                <Form.Item name={[field.name, 'match']} style={{ flex: 1, minWidth: 120 }}>
                                  <Input aria-label={t('scenarios.contactMatch')} placeholder={t('scenarios.contactMatch')} maxLength={100} />
                                </Form.Item>
                              </>
                            );
                          if (type === 'address')
                            return (
                              <Form.Item name={[field.name, 'address']} rules={[required, { type: 'email', message: t('validation.email') }]} style={{ flex: 3, minWidth: 220 }}>
                                <Input aria-label={t('recipientTypes.address')} placeholder={t('placeholders.address')} maxLength={254} data-testid="scenario-address" />
                              </Form.Item>
                            );
                          if (type === 'role')
                            return (
                              <Form.Item name={[field.name, 'role_id']} rules={[required]} style={{ flex: 3, minWidth: 200 }}>
                                <Select aria-label={t('recipientTypes.role')} options={people.roles.map((r) => ({ value: r.id, label: r.name }))} />
                              </Form.Item>
                            );
                          if (type === 'department')
                            return (
                              <Form.Item name={[field.name, 'department']} rules={[required]} style={{ flex: 3, minWidth: 200 }}>
                                <Select aria-label={t('recipientTypes.department')} options={people.departments.map((d) => ({ value: d.id, label: d.name }))} />
                              </Form.Item>
                            );
                          return null;
                        }}
                      </Form.Item>
                      <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('scenarios.removeRecipient')} onClick={() => remove(field.name)} />
                    </Flex>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ type: 'address' })} data-testid="scenario-add-recipient">
                    {t('scenarios.addRecipient')}
                  </Button>
                </>
              )}
            </Form.List>

            <Divider titlePlacement="start">{t('scenarios.sending')}</Divider>
            {event && event.attachments.length > 0 ? (
              <Form.Item name="attachments" label={t('fields.attachments')}>
                <Checkbox.Group options={event.attachments.map((a) => ({ value: a.key, label: a.label }))} />
              </Form.Item>
            ) : null}
            <Flex gap="middle" wrap>
              <Form.Item name="delay_minutes" label={t('fields.delay')}>
                <InputNumber min={0} max={10080} precision={0} />
              </Form.Item>
              {event?.uses_days ? (
                <Form.Item name="days" label={t('fields.days')} extra={event.uses_days}>
                  <InputNumber min={0} max={365} precision={0} />
                </Form.Item>
              ) : null}
              <Form.Item name="language" label={t('fields.language')} style={{ minWidth: 200 }}>
                <Select
                  options={[
                    { value: 'recipient', label: t('languages.recipient') },
                    { value: 'en', label: 'English' },
                    { value: 'zh', label: '中文' },
                  ]}
                />
              </Form.Item>
            </Flex>
            {formError ? <Alert type="error" showIcon title={formError} /> : null}
          </Form>
        </Col>
        <Col xs={24} lg={11}>
          <Divider titlePlacement="start">{t('preview.title')}</Divider>
          {saved ? (
            <PreviewPanel
              event={saved.event}
              onPreview={(record, language) => previewScenario(saved.id, { record: record ?? null, language })}
              onSendTest={(record, language) => sendTestScenario(saved.id, { record: record ?? null, language }).then(() => invalidate())}
            />
          ) : (
            <Typography.Text type="secondary">{t('scenarios.saveToPreview')}</Typography.Text>
          )}
        </Col>
      </Row>
      {newTemplate ? (
        <TemplateDrawer
          event={eventName}
          onClose={(created) => {
            setNewTemplate(false);
            if (created) {
              form.setFieldsValue({ template: created.id });
              setDirty(true);
            }
          }}
        />
      ) : null}
    </EditorDrawer>
  );
}
