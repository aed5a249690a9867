import { ArrowLeftOutlined, ArrowRightOutlined, CheckOutlined, CloseOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Form, Steps } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { useUnsavedChangesGuard } from '@/shared/hooks/useUnsavedChangesGuard';
import { parentVendorName } from '@/shared/session/userNames';
import { useSession } from '@/shared/session/useSession';
import { useParentVendors } from '../../api/lookups';
import { removeFile, saveDraft, submitDraft, updateRawMaterial, uploadFile, useInvalidateRawMaterial } from '../../api/rawMaterials';
import type { FileKind, RawMaterial } from '../../api/types';
import { useEudrPortal } from '../../hooks/usePortal';
import { basicInfoErrors, materialErrors } from '../../lib/validation';
import styles from '../eudr.module.css';
import { BasicInfoStep } from './BasicInfoStep';
import { DdsFixList } from './DdsFixList';
import { MaterialDetailsStep } from './MaterialDetailsStep';
import { ReviewStep } from './ReviewStep';
import {
  aliasField,
  fileChanges,
  flattenFieldErrors,
  fromRawMaterial,
  isGeoJsonTextBroken,
  resumeStep,
  stepOfField,
  storedFiles,
  toInput,
  WIZARD_STEPS,
  type WizardValues,
} from './wizardModel';

type Busy = 'draft' | 'create' | 'review' | 'save' | null;

interface Props {
  /**
   * `create`: the three-step creation wizard with "Save draft" (resuming `initial` when it is a draft).
   * `edit`: the same steps on a submitted delivery, every step reachable, "Save changes" validating
   * everything again.
   */
  mode: 'create' | 'edit';
  initial: RawMaterial | null;
  /** The step to open on (edit mode; create mode resumes on the first step that needs work). */
  initialStep?: number;
}

/** A document the server refused, after the changes listed in `done` went through. */
class FileSaveError extends Error {
  constructor(
    readonly kind: FileKind,
    readonly reason: unknown,
    readonly saved: RawMaterial,
    readonly done: FileKind[],
  ) {
    super(`file ${kind}`);
  }
}

/**
 * The delivery form in three steps (docs/specification.md section 2): basic info, material details, review. New
 * deliveries are kept on the server as drafts (`?draft=<id>`) and submitted at the end; a submitted
 * delivery is edited with the same steps (PATCH, then the documents).
 */
export function DeliveryWizard({ mode, initial, initialStep }: Props) {
  const editing = mode === 'edit';
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
  const startValues = useMemo(() => (initial ? fromRawMaterial(initial) : null), [initial]);
  const [step, setStep] = useState(() => (editing ? (initialStep ?? 0) : startValues ? resumeStep(startValues) : 0));
  const [saved, setSaved] = useState<RawMaterial | null>(initial);
  const [busy, setBusy] = useState<Busy>(null);
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

  // Field errors go on their fields once their step is on screen.
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

  const showFieldErrors = useCallback((errors: Record<string, string[]>) => {
    const names = Object.keys(errors);
    if (names.length === 0) return;
    setStep(Math.min(...names.map(stepOfField)));
    pendingErrors.current = errors;
    setErrorsVersion((v) => v + 1);
  }, []);

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
      if (vendor) return i18n.language === 'zh' && vendor.cname ? vendor.cname : vendor.name;
      if (initial && initial.parent_vendor === chosenVendor) return i18n.language === 'zh' && initial.parent_vendor_cname ? initial.parent_vendor_cname : initial.parent_vendor_name;
      return '';
    })();

  const showServerError = useCallback(
    (error: unknown) => {
      const fieldErrors = isApiError(error)
        ? Object.fromEntries(Object.entries(flattenFieldErrors(error.data)).map(([name, messages]) => [aliasField(name), messages]))
        : {};
      if (isApiError(error) && Object.keys(fieldErrors).length > 0) {
        showFieldErrors(fieldErrors);
        setFormError(error.message);
      } else {
        setFormError(errorText(error));
      }
    },
    [errorText, showFieldErrors],
  );

  /** Uploads the newly chosen documents and removes those marked for removal; the form then shows what is stored. */
  const saveFiles = useCallback(
    async (material: RawMaterial, files: WizardValues['files']): Promise<RawMaterial> => {
      let result = material;
      const { uploads, removals } = fileChanges(files);
      const done: FileKind[] = [];
      const steps: [FileKind, () => Promise<RawMaterial>][] = [
        ...uploads.map(([kind, file]): [FileKind, () => Promise<RawMaterial>] => [kind, () => uploadFile({ rawMaterialId: material.id }, kind, file)]),
        ...removals.map((kind): [FileKind, () => Promise<RawMaterial>] => [kind, () => removeFile({ rawMaterialId: material.id }, kind)]),
      ];
      for (const [kind, run] of steps) {
        try {
          result = await run();
          done.push(kind);
        } catch (error) {
          throw new FileSaveError(kind, error, result, done);
        }
      }
      form.setFieldValue('files', storedFiles(result));
      return result;
    },
    [form],
  );

  /** A document the server refused: what was saved before it stays saved; the error goes on its field. */
  const fileError = (error: unknown) => {
    if (!(error instanceof FileSaveError)) return false;
    setSaved(error.saved);
    const reason = error.reason;
    const messages = isApiError(reason) ? (reason.fieldErrors?.file ?? [reason.message]) : [errorText(reason)];
    // The documents that did save are shown as stored; the refused one and those after it stay to retry.
    const current = { ...((form.getFieldValue('files') ?? {}) as NonNullable<WizardValues['files']>) };
    const stored = storedFiles(error.saved);
    for (const kind of error.done) current[kind] = stored[kind] ?? null;
    form.setFieldValue('files', current);
    showFieldErrors({ [`files.${error.kind}`]: messages });
    setFormError(isApiError(reason) ? reason.message : errorText(reason));
    return true;
  };

  const geoJsonNotSaved = () => {
    showFieldErrors({ location_geojson_text: [t('wizard.geojsonSyntax')] });
    void message.warning(t('wizard.geojsonNotSaved'));
  };

  /** Saves everything as the draft (creating it the first time) and its documents. */
  const persistDraft = useCallback(async (): Promise<{ material: RawMaterial; geoJsonKept: boolean }> => {
    const all = form.getFieldsValue(true) as WizardValues;
    const input = toInput(all, { lenientGeoJson: true });
    let result = await saveDraft(saved?.id ?? null, input);
    setSaved(result);
    if (String(result.id) !== draftParam) {
      setQuery(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('draft', String(result.id));
          return next;
        },
        { replace: true },
      );
    }
    result = await saveFiles(result, all.files);
    setSaved(result);
    void invalidate(result.id);
    return { material: result, geoJsonKept: !isGeoJsonTextBroken(all) };
  }, [form, saved, draftParam, setQuery, invalidate, saveFiles]);

  const onSaveDraft = async () => {
    setBusy('draft');
    setFormError(null);
    try {
      const { geoJsonKept } = await persistDraft();
      if (geoJsonKept) {
        setDirty(false);
        void message.success(t('wizard.draftSaved'));
      } else {
        // The rest is saved; the text stays in the form (and the page still asks before leaving).
        geoJsonNotSaved();
      }
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
    if (step === 1 && !editing) {
      // The review shows the policy the server will apply: save first so the server can say which.
      setBusy('review');
      try {
        const { geoJsonKept } = await persistDraft();
        if (geoJsonKept) setDirty(false);
        setStep(2);
      } catch (error) {
        if (!fileError(error)) showServerError(error);
      } finally {
        setBusy(null);
      }
      return;
    }
    setStep((s) => Math.min(s + 1, WIZARD_STEPS.length - 1));
  };

  /** Everything a delivery needs before it is submitted or saved (docs/specification.md section 5); jumps to the step to fix. */
  const readyToSubmit = (all: WizardValues): boolean => {
    if (isGeoJsonTextBroken(all)) {
      showFieldErrors({ location_geojson_text: [t('wizard.geojsonSyntax')] });
      return false;
    }
    const input = toInput(all);
    const basic = basicInfoErrors(input);
    const materials = materialErrors(input.lines);
    if (Object.keys(basic).length > 0 || materials.list || materials.lines.some((e) => Object.keys(e).length > 0)) {
      setStep(Object.keys(basic).length > 0 ? 0 : 1);
      setTimeout(() => void form.validateFields().catch(() => undefined), 0);
      return false;
    }
    return true;
  };

  const create = async () => {
    setFormError(null);
    const all = form.getFieldsValue(true) as WizardValues;
    if (!readyToSubmit(all)) return;
    setBusy('create');
    try {
      const { material } = await persistDraft();
      const created = await submitDraft(material.id);
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

  const saveChanges = async () => {
    setFormError(null);
    const all = form.getFieldsValue(true) as WizardValues;
    if (!saved || !readyToSubmit(all)) return;
    setBusy('save');
    const before = saved.status;
    try {
      let result = await updateRawMaterial(saved.id, toInput(all));
      setSaved(result);
      result = await saveFiles(result, all.files);
      setSaved(result);
      setDirty(false);
      void invalidate(result.id);
      if (before === 'expired' && result.status === 'active') void message.success(t('edit.reactivated'));
      else if (result.status === 'expired') void message.warning(t('edit.stillExpired'));
      else void message.success(t('edit.saved', { number: result.delivery_number }));
      setLeaveTo(portal.detailPath(result.id));
    } catch (error) {
      if (!fileError(error)) showServerError(error);
    } finally {
      setBusy(null);
    }
  };

  const submit = () => void (step === 2 ? (editing ? saveChanges() : create()) : next());
  const title = editing
    ? t('edit.title', { number: initial?.delivery_number ?? '' })
    : saved?.delivery_number
      ? t('wizard.titleDraft', { number: saved.delivery_number })
      : undefined;

  return (
    <PageContainer
      title={title}
      extra={
        editing ? (
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(portal.detailPath(initial?.id ?? ''))}>
            {t('edit.backToDelivery')}
          </Button>
        ) : (
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(portal.listPath)}>
            {t('actions.backToList')}
          </Button>
        )
      }
    >
      {editing && initial ? <DdsFixList material={initial} onGoToStep={setStep} /> : null}
      <Card>
        <Steps
          className={styles.stepsBar}
          current={step}
          size="small"
          orientation={mobile ? 'vertical' : 'horizontal'}
          onChange={(target) => {
            if (editing || target < step) setStep(target);
          }}
          items={WIZARD_STEPS.map((key, index) => ({
            title: editing && key === 'review' ? t('edit.reviewStep') : t(`wizard.steps.${key}`),
            disabled: !editing && index > step,
          }))}
          data-testid="wizard-steps"
        />
        <Form<WizardValues>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onValuesChange={() => setDirty(true)}
          onFinish={submit}
          scrollToFirstError
          data-testid="raw-material-wizard"
          data-mode={mode}
        >
          {step === 0 ? <BasicInfoStep fixedParentVendorName={fixedParentVendorName} parentVendorLocked={editing} /> : null}
          {step === 1 ? <MaterialDetailsStep rawMaterialId={saved?.id ?? null} /> : null}
          {step === 2 ? (
            <ReviewStep
              input={toInput(form.getFieldsValue(true) as WizardValues, { lenientGeoJson: true })}
              values={values}
              parentVendorName={vendorName}
              saved={saved}
              policyLoading={busy === 'review'}
              policyTitle={editing ? t('detail.policy') : undefined}
            />
          ) : null}

          {formError ? <Alert type="error" showIcon title={formError} className={styles.section} data-testid="wizard-error" /> : null}

          <Flex justify="space-between" gap="small" wrap className={styles.footer}>
            {editing ? (
              <Button icon={<CloseOutlined />} disabled={busy !== null} onClick={() => void navigate(portal.detailPath(initial?.id ?? ''))} data-testid="edit-cancel">
                {t('common:actions.cancel')}
              </Button>
            ) : (
              <Button icon={<SaveOutlined />} loading={busy === 'draft'} disabled={busy !== null && busy !== 'draft'} onClick={() => void onSaveDraft()} data-testid="save-draft">
                {t('wizard.saveDraft')}
              </Button>
            )}
            <Flex gap="small" wrap>
              {step > 0 ? (
                <Button icon={<ArrowLeftOutlined />} onClick={() => setStep(step - 1)} disabled={busy !== null}>
                  {t('wizard.previous')}
                </Button>
              ) : null}
              {step < 2 ? (
                <Button
                  type={editing ? 'default' : 'primary'}
                  htmlType={editing ? 'button' : 'submit'}
                  onClick={editing ? () => void next() : undefined}
                  loading={busy === 'review'}
                  icon={<ArrowRightOutlined />}
                  iconPlacement="end"
                  data-testid="wizard-next"
                >
                  {t('wizard.next')}
                </Button>
              ) : null}
              {editing ? (
                <Button type="primary" icon={<SaveOutlined />} loading={busy === 'save'} disabled={busy !== null && busy !== 'save'} onClick={() => void saveChanges()} data-testid="edit-save">
                  {t('edit.save')}
                </Button>
              ) : step === 2 ? (
                <Button type="primary" htmlType="submit" loading={busy === 'create'} icon={<CheckOutlined />} data-testid="wizard-create">
                  {t('wizard.create')}
                </Button>
              ) : null}
            </Flex>
          </Flex>
        </Form>
      </Card>
    </PageContainer>
  );
}
