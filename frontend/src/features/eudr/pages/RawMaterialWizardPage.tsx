import { ArrowLeftOutlined, ArrowRightOutlined, CheckOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Form, Skeleton, Steps } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { parentVendorName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { useParentVendors } from '../api/lookups';
import { saveDraft, submitDraft, uploadFile, useRawMaterial, useInvalidateRawMaterial } from '../api/rawMaterials';
import type { FileKind, RawMaterial } from '../api/types';
import styles from '../components/eudr.module.css';
import { BasicInfoStep } from '../components/wizard/BasicInfoStep';
import { MaterialDetailsStep } from '../components/wizard/MaterialDetailsStep';
import { ReviewStep } from '../components/wizard/ReviewStep';
import {
  aliasField,
  flattenFieldErrors,
  fromRawMaterial,
  resumeStep,
  stepOfField,
  toInput,
  type FileValue,
  type WizardValues,
} from '../components/wizard/wizardModel';
import { useEudrPortal } from '../hooks/usePortal';
import { basicInfoErrors, materialErrors } from '../lib/validation';

const STEP_KEYS = ['basic', 'materials', 'review'] as const;

/**
 * The creation wizard (SPEC.md section 2): basic info, material details, review and create. "Save
 * draft" keeps the work on the server as a delivery in status draft; `?draft=<id>` resumes it on the
 * first step that still needs something.
 */
export default function RawMaterialWizardPage() {
  const [query] = useSearchParams();
  const draftParam = query.get('draft');
  const navigate = useNavigate();
  const portal = useEudrPortal();
  const draft = useRawMaterial(draftParam ?? undefined);
  // The form is keyed by the draft it started from: saving a new draft only adds ?draft= to the URL.
  const [startedFrom] = useState(draftParam);

  useEffect(() => {
    if (draft.data && draft.data.status !== 'draft') void navigate(portal.detailPath(draft.data.id), { replace: true });
  }, [draft.data, navigate, portal]);

  if (startedFrom && draft.isError) {
    return (
      <PageContainer>
        <ErrorState error={draft.error} onRetry={() => void draft.refetch()} />
      </PageContainer>
    );
  }
  if (startedFrom && (!draft.data || draft.data.status !== 'draft')) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  return <WizardForm initialDraft={startedFrom ? (draft.data ?? null) : null} />;
}

function WizardForm({ initialDraft }: { initialDraft: RawMaterial | null }) {
  const { t, i18n } = useTranslation('eudr');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const portal = useEudrPortal();
  const mobile = useIsMobileMenu();
  const [query, setQuery] = useSearchParams();
  const draftParam = query.get('draft');
  const user = useSession((s) => s.userInfo);
  const [form] = Form.useForm<WizardValues>();
  const startValues = useMemo(() => (initialDraft ? fromRawMaterial(initialDraft) : null), [initialDraft]);
  const [step, setStep] = useState(() => (startValues ? resumeStep(startValues) : 0));
  const [saved, setSaved] = useState<RawMaterial | null>(initialDraft);
  const [busy, setBusy] = useState<'draft' | 'create' | 'review' | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const pendingErrors = useRef<Record<string, string[]> | null>(null);
  const [errorsVersion, setErrorsVersion] = useState(0);
  const invalidate = useInvalidateRawMaterial();
  const vendors = useParentVendors(!portal.supplier);

  useUnsavedChangesGuard(dirty);

  // Leave only once the guard knows the work is saved.
  useEffect(() => {
    if (leaveTo && !dirty) void navigate(leaveTo, { replace: true });
  }, [leaveTo, dirty, navigate]);

  // Server field errors go on their fields once their step is on screen.
  useEffect(() => {
    const errors = pendingErrors.current;
    if (!errors) return;
    pendingErrors.current = null;
    const registered = new Set(form.getFieldsError().map((f) => f.name.join('.')));
    const fields = Object.entries(errors)
      .filter(([name]) => registered.has(name))
      .map(([name, messages]) => ({ name: name.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors: messages }));
    form.setFields(fields as Parameters<typeof form.setFields>[0]);
  }, [errorsVersion, step, form]);

  const fixedParentVendorName = portal.supplier ? parentVendorName(user?.parent_vendor, i18n.language) || t('wizard.ownVendor') : null;
  const initialValues = useMemo<WizardValues>(
    () => startValues ?? { parent_vendor: portal.ownParentVendor, lines: [{ scientific_names: [], common_names: [] }], files: {} },
    [startValues, portal.ownParentVendor],
  );

  const values = (Form.useWatch([], { form, preserve: true }) as WizardValues | undefined) ?? initialValues;
  const chosenVendor = values.parent_vendor;
  const vendorName =
    fixedParentVendorName ??
    (() => {
      const vendor = vendors.data?.find((v) => v.id === chosenVendor);
      return vendor ? (i18n.language === 'zh' && vendor.cname ? vendor.cname : vendor.name) : '';
    })();

  const showServerError = useCallback(
    (error: unknown) => {
      const fieldErrors = isApiError(error)
        ? Object.fromEntries(Object.entries(flattenFieldErrors(error.data)).map(([name, messages]) => [aliasField(name), messages]))
        : {};
      const names = Object.keys(fieldErrors);
      if (isApiError(error) && names.length > 0) {
        setStep(Math.min(...names.map(stepOfField)));
        pendingErrors.current = fieldErrors;
        setErrorsVersion((v) => v + 1);
        setFormError(error.message);
      } else {
        setFormError(errorText(error));
      }
    },
    [errorText],
  );

  /** Saves everything as the draft (creating it the first time) and uploads the chosen files. */
  const persist = useCallback(async (): Promise<RawMaterial> => {
    const all = form.getFieldsValue(true) as WizardValues;
    const input = toInput(all, { lenientGeoJson: true });
    let result = await saveDraft(saved?.id ?? null, input);
    const files = all.files ?? {};
    for (const [kind, value] of Object.entries(files) as [FileKind, FileValue | null | undefined][]) {
      if (!value?.file) continue;
      try {
        result = await uploadFile({ rawMaterialId: result.id }, kind, value.file);
      } catch (error) {
        setSaved(result);
        if (isApiError(error) && error.fieldErrors?.file) {
          throw Object.assign(error, { fileKind: kind });
        }
        throw error;
      }
    }
    const stored = Object.fromEntries(Object.entries(result.files ?? {}).map(([kind, file]) => [kind, { stored: file }]));
    form.setFieldValue('files', stored);
    setSaved(result);
    if (String(result.id) !== draftParam) {
      setQuery((current) => {
        const next = new URLSearchParams(current);
        next.set('draft', String(result.id));
        return next;
      }, { replace: true });
    }
    void invalidate(result.id);
    return result;
  }, [form, saved, draftParam, setQuery, invalidate]);

  const fileError = (error: unknown) => {
    const kind = (error as { fileKind?: FileKind }).fileKind;
    if (kind && isApiError(error)) {
      setStep(0);
      pendingErrors.current = { [`files.${kind}`]: error.fieldErrors?.file ?? [error.message] };
      setErrorsVersion((v) => v + 1);
      setFormError(error.message);
      return true;
    }
    return false;
  };

  const onSaveDraft = async () => {
    setBusy('draft');
    setFormError(null);
    try {
      await persist();
      setDirty(false);
      void message.success(t('wizard.draftSaved'));
    } catch (error) {
      if (!fileError(error)) showServerError(error);
    } finally {
      setBusy(null);
    }
  };

  const next = async () => {
    setFormError(null);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (step === 1) {
      // The review shows the policy the server will apply: save first so the server can say which.
      setBusy('review');
      try {
        await persist();
        setDirty(false);
        setStep(2);
      } catch (error) {
        if (!fileError(error)) showServerError(error);
      } finally {
        setBusy(null);
      }
      return;
    }
    setStep((s) => Math.min(s + 1, STEP_KEYS.length - 1));
  };

  const create = async () => {
    setFormError(null);
    const all = form.getFieldsValue(true) as WizardValues;
    const input = toInput(all, { lenientGeoJson: true });
    const basic = basicInfoErrors(input);
    const materials = materialErrors(input.lines);
    if (Object.keys(basic).length > 0 || materials.list || materials.lines.some((e) => Object.keys(e).length > 0)) {
      const target = Object.keys(basic).length > 0 ? 0 : 1;
      setStep(target);
      setTimeout(() => void form.validateFields().catch(() => undefined), 0);
      return;
    }
    setBusy('create');
    try {
      const draftSaved = await persist();
      const created = await submitDraft(draftSaved.id);
      setDirty(false);
      void invalidate(created.id);
      void message.success(t('wizard.created', { number: created.delivery_number }));
      setLeaveTo(portal.detailPath(created.id));
    } catch (error) {
      if (!fileError(error)) showServerError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <PageContainer
      title={saved?.delivery_number ? t('wizard.titleDraft', { number: saved.delivery_number }) : undefined}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(portal.listPath)}>
          {t('actions.backToList')}
        </Button>
      }
    >
      <Card>
        <Steps
          className={styles.stepsBar}
          current={step}
          size="small"
          orientation={mobile ? 'vertical' : 'horizontal'}
          onChange={(target) => {
            if (target < step) setStep(target);
          }}
          items={STEP_KEYS.map((key, index) => ({
            title: t(`wizard.steps.${key}`),
            disabled: index > step,
          }))}
          data-testid="wizard-steps"
        />
        <Form<WizardValues>
            form={form}
            layout="vertical"
            initialValues={initialValues}
            onValuesChange={() => setDirty(true)}
            onFinish={() => void (step === 2 ? create() : next())}
            scrollToFirstError
            data-testid="raw-material-wizard"
          >
            {step === 0 ? <BasicInfoStep fixedParentVendorName={fixedParentVendorName} /> : null}
            {step === 1 ? <MaterialDetailsStep /> : null}
            {step === 2 ? (
              <ReviewStep
                input={toInput(form.getFieldsValue(true) as WizardValues, { lenientGeoJson: true })}
                values={values}
                parentVendorName={vendorName}
                saved={saved}
                policyLoading={busy === 'review'}
              />
            ) : null}

            {formError ? <Alert type="error" showIcon title={formError} className={styles.section} data-testid="wizard-error" /> : null}

            <Flex justify="space-between" gap="small" wrap className={styles.footer}>
              <Button icon={<SaveOutlined />} loading={busy === 'draft'} disabled={busy !== null && busy !== 'draft'} onClick={() => void onSaveDraft()} data-testid="save-draft">
                {t('wizard.saveDraft')}
              </Button>
              <Flex gap="small">
                {step > 0 ? (
                  <Button icon={<ArrowLeftOutlined />} onClick={() => setStep(step - 1)} disabled={busy !== null}>
                    {t('wizard.previous')}
                  </Button>
                ) : null}
                {step < 2 ? (
                  <Button type="primary" htmlType="submit" loading={busy === 'review'} icon={<ArrowRightOutlined />} iconPlacement="end" data-testid="wizard-next">
                    {t('wizard.next')}
                  </Button>
                ) : (
                  <Button type="primary" htmlType="submit" loading={busy === 'create'} icon={<CheckOutlined />} data-testid="wizard-create">
                    {t('wizard.create')}
                  </Button>
                )}
              </Flex>
            </Flex>
          </Form>
      </Card>
    </PageContainer>
  );
}
