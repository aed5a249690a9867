import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  PauseCircleOutlined,
  SafetyCertificateOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Descriptions, Flex, Popconfirm, Row, Skeleton, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { deleteRawMaterial, setRawMaterialStatus, useBatches, useInvalidateRawMaterial, useRawMaterial } from '../api/rawMaterials';
import type { MaterialLine, RawMaterial } from '../api/types';
import { ApproveOverCapDialog } from '../components/ApproveOverCapDialog';
import { DeliveryNotFound, isNotFound } from '../components/DeliveryNotFound';
import { BatchesTable } from '../components/BatchesTable';
import { DdsPackageButton } from '../components/DdsPackageButton';
import styles from '../components/eudr.module.css';
import { DdsFilingCard } from '../components/DdsFilingCard';
import { AuditTrailCard } from '../components/dueDiligence/AuditTrailCard';
import { DueDiligenceCard } from '../components/dueDiligence/DueDiligenceCard';
import { FiledStatementCard } from '../components/FiledStatementCard';
import { FilesCard } from '../components/FilesCard';
import { GenerateCartonsDialog } from '../components/GenerateCartonsDialog';
import { LabelsTable } from '../components/LabelsTable';
import { OutsideCountryCard } from '../components/OutsideCountryCard';
import { PlotsCard } from '../components/PlotsCard';
import { PolicySummary } from '../components/PolicySummary';
import { StatusTag } from '../components/StatusTag';
import { WeightBalance } from '../components/WeightBalance';
import { stepOfCheck, WIZARD_STEPS } from '../components/wizard/wizardModel';
import { useHasPermission, useMayPermission } from '@/shared/session/permissions';
import { APPROVE_OVER_CAP, CHANGE_DELIVERY, DELETE_DELIVERY } from '../permissions';
import { useEudrPortal } from '../hooks/usePortal';
import { VIEW_AUDIT } from '../api/dueDiligence';
import { countryName } from '@/shared/countries/countries';
import { remainingRule } from '../lib/validation';
import { formatKg } from '../lib/weight';
import { formatDate, formatDateTime } from '@/shared/utils/format';

/** A raw-material delivery: weight balance, origin, documents, plots, batches and carton labels. */
export default function RawMaterialDetailPage() {
  const { id } = useParams();
  const query = useRawMaterial(id);
  // Another vendor's delivery answers 404 too: it is simply not there for this user.
  if (query.isError && isNotFound(query.error)) return <DeliveryNotFound />;
  if (query.isError) {
    return (
      <PageContainer>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </PageContainer>
    );
  }
  if (!query.data) {
    return (
      <PageContainer>
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      </PageContainer>
    );
  }
  return <Detail material={query.data} />;
}

function Detail({ material }: { material: RawMaterial }) {
  const { t, i18n } = useTranslation('eudr');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const portal = useEudrPortal();
  const batches = useBatches(material.id);
  const invalidate = useInvalidateRawMaterial();
  const [generating, setGenerating] = useState(false);
  const [approving, setApproving] = useState(false);
  const [batchCode, setBatchCode] = useState<string | undefined>(undefined);
  const mayApprove = useHasPermission(APPROVE_OVER_CAP);
  const mayGenerate = useMayPermission('eudr.add_cartonlabel');
  const mayDeleteLabels = useMayPermission('eudr.delete_cartonlabel');
  const mayChange = useMayPermission(CHANGE_DELIVERY);
  const mayDelete = useMayPermission(DELETE_DELIVERY);
  const mayDueDiligence = useHasPermission('duediligence.view_riskassessment');
  const mayAudit = useHasPermission(VIEW_AUDIT);
  const dash = t('common.none');
  const show = (value: string | null | undefined) => value || dash;
  const vendorName = i18n.language === 'zh' && material.parent_vendor_cname ? material.parent_vendor_cname : material.parent_vendor_name;

  const isDraft = material.status === 'draft';
  const generateBlock =
    material.status !== 'active' ? t(`detail.notActive.${material.status}`) : remainingRule(material.weight.remaining_kg) ? t('validation.insufficientWeightMin') : null;

  const changeStatus = async (status: 'active' | 'inactive') => {
    try {
      await setRawMaterialStatus(material.id, status);
      await invalidate(material.id);
      void message.success(t(`detail.statusChanged.${status}`));
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const remove = async () => {
    try {
      await deleteRawMaterial(material.id);
      void message.success(t('detail.deleted'));
      void navigate(portal.listPath, { replace: true });
      void invalidate(material.id);
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  /** The edit form on the step that fixes a check (DDS or delivery check); null when the form cannot fix it. */
  const fixPath = (code: string | null) => {
    const step = code === null ? 0 : stepOfCheck(code);
    return step === null ? null : portal.editPath(material.id, step === 0 ? undefined : WIZARD_STEPS[step]);
  };
  const mayEdit = mayChange && !isDraft;
  const fixableCheck = material.checks.find((check) => stepOfCheck(check.key) !== null);

  const actions = (
    <>
      <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(portal.listPath)}>
        {t('actions.backToList')}
      </Button>
      {isDraft && mayChange ? (
        <Button type="primary" icon={<EditOutlined />} onClick={() => void navigate(portal.newPath(material.id))} data-testid="continue-draft">
          {t('detail.continueDraft')}
        </Button>
      ) : null}
      {mayEdit ? (
        <Button icon={<EditOutlined />} onClick={() => void navigate(portal.editPath(material.id))} data-testid="edit-delivery">
          {t('detail.edit')}
        </Button>
      ) : null}
      {!isDraft && mayGenerate ? (
        <Tooltip title={generateBlock}>
          <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setGenerating(true)} disabled={generateBlock !== null} data-testid="open-generate">
            {t('generate.open')}
          </Button>
        </Tooltip>
      ) : null}
      {!isDraft ? (
        <DdsPackageButton
          material={material}
          filingHint={!portal.supplier && mayChange}
          onFix={
            mayEdit
              ? (code) => {
                  const path = fixPath(code);
                  if (path) void navigate(path);
                }
              : undefined
          }
        />
      ) : null}
      {!portal.supplier && !isDraft && mayApprove ? (
        <Button icon={<SafetyCertificateOutlined />} onClick={() => setApproving(true)} data-testid="open-approve">
          {t('cap.open')}
        </Button>
      ) : null}
      {!portal.supplier && mayChange && material.status === 'active' ? (
        <Popconfirm title={t('detail.deactivateQuestion')} okText={t('detail.deactivate')} cancelText={t('common:actions.cancel')} onConfirm={() => changeStatus('inactive')}>
          <Button icon={<PauseCircleOutlined />}>{t('detail.deactivate')}</Button>
        </Popconfirm>
      ) : null}
      {!portal.supplier && mayChange && (material.status === 'inactive' || material.status === 'expired') ? (
        <Button icon={<CheckCircleOutlined />} onClick={() => void changeStatus('active')}>
          {t('detail.activate')}
        </Button>
      ) : null}
      {mayDelete && material.issued_cartons === 0 && batches.isSuccess && batches.data.length === 0 ? (
        <Popconfirm
          title={t('detail.deleteQuestion')}
          description={t('detail.deleteText', { number: material.delivery_number || t('list.untitledDraft', { id: material.id }) })}
          okText={t('common:actions.delete')}
          okButtonProps={{ danger: true, 'data-testid': 'confirm-delete-delivery' }}
          cancelText={t('common:actions.cancel')}
          onConfirm={remove}
        >
          <Tooltip title={t('common:actions.delete')}>
            <Button danger icon={<DeleteOutlined />} aria-label={t('common:actions.delete')} data-testid="delete-delivery" />
          </Tooltip>
        </Popconfirm>
      ) : null}
    </>
  );

  return (
    <PageContainer
      title={
        <Flex align="center" gap="small" wrap>
          <span data-testid="detail-title">{material.delivery_number || t('list.untitledDraft', { id: material.id })}</span>
          <StatusTag status={material.status ?? 'draft'} />
        </Flex>
      }
      extra={actions}
    >
      {material.checks.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          className={styles.section}
          title={t('detail.checks')}
          description={
            <ul>
              {material.checks.map((check) => (
                <li key={check.key}>{check.message}</li>
              ))}
            </ul>
          }
          action={
            mayEdit && fixableCheck ? (
              <Button size="small" icon={<EditOutlined />} onClick={() => void navigate(fixPath(fixableCheck.key) ?? portal.editPath(material.id))} data-testid="fix-checks">
                {t('detail.fixChecks')}
              </Button>
            ) : undefined
          }
          data-testid="delivery-checks"
        />
      ) : null}

      <Card title={t('detail.weightBalance')} size="small" className={styles.section}>
        <WeightBalance
          weight={material.weight}
          issuedCartons={material.issued_cartons}
          allowedCartonCap={material.allowed_carton_cap}
          approvedOverCap={material.approved_over_cap}
        />
      </Card>

      <Row gutter={16}>
        <Col xs={24} lg={15}>
          <Card title={t('detail.delivery')} size="small" className={styles.section}>
            <Descriptions size="small" column={{ xs: 1, sm: 2 }} data-testid="delivery-descriptions">
              <Descriptions.Item label={t('fields.parent_vendor')}>{show(vendorName)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.document_from')}>{show(material.document_from)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.country')}>
                {material.country_code ? `${countryName(material.country_code, i18n.language)} (${material.country_code})` : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('fields.forest_supplier_name')}>{show(material.forest_supplier_name)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.material_sc_number')}>{show(material.material_sc_number)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.harvest')}>
                {material.harvest_begin_month || material.harvest_end_month
                  ? t('detail.harvestRange', { begin: material.harvest_begin_month || dash, end: material.harvest_end_month || dash })
                  : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('fields.created_at')}>{formatDateTime(material.created_at, i18n.language)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.submitted_at')}>
                {material.submitted_at ? formatDateTime(material.submitted_at, i18n.language) : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('fields.description')} span="filled">
                {show(material.description)}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('detail.certifications')} size="small" className={styles.section}>
            <Descriptions size="small" column={{ xs: 1, sm: 2 }} data-testid="certifications">
              <Descriptions.Item label={t('fields.fm_certification_type')}>
                {material.fm_certification_type ? t(`certification.${material.fm_certification_type}`) : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('fields.fm_certificate_number')}>{show(material.fm_certificate_number)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.fm_certificate_expiry')}>{formatDate(material.fm_certificate_expiry, i18n.language)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.coc_certification')}>{show(material.coc_certification)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.coc_certificate_number')}>{show(material.coc_certificate_number)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.coc_certificate_expiry')}>{formatDate(material.coc_certificate_expiry, i18n.language)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.upstream_dds_reference')}>{show(material.upstream_dds_reference)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.upstream_dds_verification')}>{show(material.upstream_dds_verification)}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('detail.policy')} size="small" className={styles.section}>
            <PolicySummary material={material} />
          </Card>
        </Col>
        <Col xs={24} lg={9}>
          {!isDraft && !portal.supplier && mayDueDiligence ? <DueDiligenceCard material={material} /> : null}
          {!isDraft && !portal.supplier ? <DdsFilingCard material={material} mayChange={mayChange} /> : null}
          {!isDraft ? <FiledStatementCard material={material} supplier={portal.supplier} mayChange={mayChange} /> : null}
          <FilesCard material={material} />
          {!portal.supplier || (material.cap_approvals?.length ?? 0) > 0 ? (
            <Card title={t('cap.listTitle')} size="small" className={styles.section} data-testid="cap-approvals">
              {(material.cap_approvals ?? []).length === 0 ? (
                <Typography.Text type="secondary">{t('cap.none')}</Typography.Text>
              ) : (
                <ul className={styles.plainList}>
                  {(material.cap_approvals ?? []).map((approval) => (
                    <li key={approval.id} className={styles.approval}>
                      <Typography.Text strong>{t('cap.item', { count: approval.extra_cartons, name: approval.approved_by.name })}</Typography.Text>
                      <Typography.Text type="secondary"> · {formatDateTime(approval.approved_at, i18n.language)}</Typography.Text>
                      <div>{approval.reason}</div>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          ) : null}
        </Col>
      </Row>

      <Card title={t('detail.lines', { count: material.lines?.length ?? 0 })} size="small" className={styles.section}>
        <Table<MaterialLine>
          size="small"
          rowKey={(line) => String(line.id)}
          pagination={false}
          dataSource={material.lines}
          scroll={{ x: 'max-content' }}
          data-testid="lines-table"
          columns={[
            { title: t('fields.material_type'), dataIndex: 'material_type', render: (v: string) => (v ? t(`materialType.${v}`) : dash) },
            { title: t('fields.weight_kg'), dataIndex: 'weight_kg', align: 'right', render: (v: string) => formatKg(v, i18n.language) },
            { title: t('fields.pulp_type'), dataIndex: 'pulp_type', render: (v: string) => (v ? t(`pulpType.${v}`) : dash) },
            { title: t('fields.pulp_brand'), dataIndex: 'pulp_brand', render: show },
            { title: t('fields.scientific_names'), dataIndex: 'scientific_names', render: (v: string[]) => <i>{v.join(', ') || dash}</i> },
            { title: t('fields.common_names'), dataIndex: 'common_names', render: (v: string[]) => v.join(', ') || dash },
          ]}
        />
      </Card>

      <OutsideCountryCard material={material} mayConfirm={mayChange && !portal.supplier} />
      <PlotsCard material={material} />

      {!isDraft ? (
        <>
          <BatchesTable batches={batches.data ?? []} loading={batches.isFetching} onPick={setBatchCode} />
          <LabelsTable
            rawMaterialId={material.id}
            batches={batches.data ?? []}
            batchCode={batchCode}
            onBatchCodeChange={setBatchCode}
            canDelete={mayDeleteLabels}
          />
        </>
      ) : null}

      {!portal.supplier && mayAudit ? <AuditTrailCard deliveryId={material.id} /> : null}

      <GenerateCartonsDialog
        material={material}
        batches={batches.data ?? []}
        open={generating}
        onClose={() => setGenerating(false)}
        onGenerated={(result) => {
          setBatchCode(result.batch.production_batch_code);
          void message.success(t('generate.done', { count: result.generated, code: result.batch.production_batch_code }));
        }}
      />
      {!portal.supplier ? (
        <ApproveOverCapDialog
          material={material}
          open={approving}
          onClose={() => setApproving(false)}
          onApproved={(extra) => void message.success(t('cap.done', { count: extra }))}
        />
      ) : null}
    </PageContainer>
  );
}
