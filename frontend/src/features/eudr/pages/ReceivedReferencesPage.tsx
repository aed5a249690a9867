import { FileSearchOutlined, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { useErrorText } from '@/shared/errors/errorText';
import { usePhone } from '@/shared/hooks/usePhone';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { useMayPermission } from '@/shared/session/permissions';
import { formatDate, formatDateTime } from '@/shared/utils/format';
import { RECEIVED_REFERENCES_URL } from '../api/endpoints';
import { useParentVendors } from '../api/lookups';
import {
  useDeleteReceivedReference,
  useIsSme,
  useVerifyReceivedReference,
  type ReceivedReference,
} from '../api/receivedReferences';
import styles from '../components/eudr.module.css';
import { ReceivedReferenceDialog } from '../components/ReceivedReferenceDialog';
import { ReferencedStatementDrawer } from '../components/ReferencedStatementDrawer';
import { ADD_RECEIVED_REFERENCE, CHANGE_RECEIVED_REFERENCE, DELETE_RECEIVED_REFERENCE } from '../permissions';

const FILTER_KEYS = ['parent_vendor', 'kind', 'verification_result'] as const;
const RESULTS = ['EXISTING_USABLE', 'EXISTING_NON_USABLE', 'NON_EXISTENT', ''] as const;
const RESULT_COLOURS: Record<string, string> = {
  EXISTING_USABLE: 'success',
  EXISTING_NON_USABLE: 'warning',
  NON_EXISTENT: 'error',
};
const resultKey = (value: string) => (value ? value : 'NOT_CHECKED');

/**
 * /purchase/eudr/received-references: the reference numbers suppliers gave with their goods, kept for
 * 5 years (a downstream operator or trader files no statement since Regulation (EU) 2025/2650), each with
 * the EU information system's last answer.
 */
export default function ReceivedReferencesPage() {
  const { t, i18n } = useTranslation('eudr');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const phone = usePhone();
  const vendors = useParentVendors();
  const isSme = useIsSme();
  const verify = useVerifyReceivedReference();
  const remove = useDeleteReceivedReference();
  const mayAdd = useMayPermission(ADD_RECEIVED_REFERENCE);
  const mayVerify = useMayPermission(CHANGE_RECEIVED_REFERENCE);
  const mayDelete = useMayPermission(DELETE_RECEIVED_REFERENCE);
  const [recording, setRecording] = useState(false);
  const [reading, setReading] = useState<ReceivedReference | null>(null);
  const [verifying, setVerifying] = useState<number | null>(null);
  const language = i18n.language;

  const vendorName = (row: ReceivedReference) => {
    const vendor = vendors.data?.find((v) => v.id === row.parent_vendor);
    return language === 'zh' && vendor?.cname ? vendor.cname : row.parent_vendor_name;
  };
  const resultLabel = (value: string) => t(`received.result.${resultKey(value)}`);
  const resultTag = (row: ReceivedReference) => {
    const value = row.verification_result;
    const tip = row.verification_message || (row.verification_status ? t('received.declarationStatus', { status: row.verification_status }) : '');
    const tag = (
      <Tag color={RESULT_COLOURS[value]} data-testid={`received-result-${row.id}`} tabIndex={tip ? 0 : undefined}>
        {resultLabel(value)}
      </Tag>
    );
    return tip ? <Tooltip title={tip}>{tag}</Tooltip> : tag;
  };
  const kindTag = (row: ReceivedReference) => <Tag>{t(`received.kind.${row.kind}`)}</Tag>;

  const runVerify = async (row: ReceivedReference) => {
    setVerifying(row.id);
    try {
      const answer = await verify.mutateAsync(row.id);
      const text = resultLabel(answer.verification_result);
      if (answer.verification_result) void message.success(t('received.verified', { result: text }));
      else void message.warning(answer.verification_message || text);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setVerifying(null);
    }
  };

  // On a phone: the supplier with the document and date, the numbers, the result and the date kept
  // until under it, and the actions.
  const columns: ServerColumn<ReceivedReference>[] = [
    {
      title: t('received.supplier'),
      key: 'parent_vendor',
      render: (_: unknown, row) => (
        <>
          {vendorName(row)}
          <PhoneLine>
            {row.document_number} · {formatDate(row.received_on, language)}
          </PhoneLine>
          <PhoneLine secondary={false}>
            {row.reference_number} {kindTag(row)}
          </PhoneLine>
          <PhoneLine>{row.verification_number}</PhoneLine>
          <PhoneLine secondary={false}>{resultTag(row)}</PhoneLine>
          <PhoneLine>{t('received.keptUntil', { date: formatDate(row.keep_until, language) })}</PhoneLine>
        </>
      ),
    },
    { title: t('received.document'), dataIndex: 'document_number', hidden: phone },
    {
      title: t('received.receivedOn'),
      dataIndex: 'received_on',
      key: 'received_on',
      sorter: true,
      hidden: phone,
      render: (v: string) => formatDate(v, language),
    },
    {
      title: t('received.reference'),
      dataIndex: 'reference_number',
      key: 'reference_number',
      sorter: true,
      hidden: phone,
      render: (v: string, row) => (
        <Space size={4} wrap>
          <span data-testid={`received-reference-${row.id}`}>{v}</span>
          {kindTag(row)}
        </Space>
      ),
    },
    { title: t('received.verification'), dataIndex: 'verification_number', hidden: phone },
    { title: t('received.resultTitle'), key: 'verification_result', hidden: phone, render: (_: unknown, row) => resultTag(row) },
    {
      title: t('received.verifiedAt'),
      dataIndex: 'verified_at',
      key: 'verified_at',
      sorter: true,
      hidden: phone,
      render: (v: string | null) => formatDateTime(v, language),
    },
    { title: t('received.keepUntil'), dataIndex: 'keep_until', hidden: phone, render: (v: string) => formatDate(v, language) },
    {
      title: t('received.actions'),
      key: 'actions',
      fixed: phone ? undefined : 'right',
      render: (_: unknown, row) => (
        <Space onClick={(event) => event.stopPropagation()} wrap>
          {mayVerify ? (
            <Tooltip title={t('received.verify')}>
              <Button
                type="text"
                icon={<SafetyCertificateOutlined />}
                aria-label={t('received.verify')}
                loading={verifying === row.id}
                onClick={() => void runVerify(row)}
                data-testid={`received-verify-${row.id}`}
              />
            </Tooltip>
          ) : null}
          {isSme === false && row.kind === 'dds' ? (
            <Tooltip title={t('received.readStatement')}>
              <Button
                type="text"
                icon={<FileSearchOutlined />}
                aria-label={t('received.readStatement')}
                onClick={() => setReading(row)}
                data-testid={`received-statement-${row.id}`}
              />
            </Tooltip>
          ) : null}
          {mayDelete ? <ConfirmDelete itemLabel={row.reference_number} onConfirm={() => remove.mutateAsync(row.id)} /> : null}
        </Space>
      ),
    },
  ];

  const filters = (list: UseListParams) => (
    <>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('received.supplier')}
        aria-label={t('received.supplier')}
        value={typeof list.filters.parent_vendor === 'string' ? Number(list.filters.parent_vendor) : undefined}
        onChange={(value: number | undefined) => list.setFilter('parent_vendor', value === undefined ? null : String(value))}
        options={(vendors.data ?? []).map((v) => ({ value: v.id, label: language === 'zh' && v.cname ? v.cname : v.name }))}
        className={styles.filterWide}
      />
      <Select
        allowClear
        placeholder={t('received.kindTitle')}
        aria-label={t('received.kindTitle')}
        value={typeof list.filters.kind === 'string' ? list.filters.kind : undefined}
        onChange={(value: string | undefined) => list.setFilter('kind', value)}
        options={(['dds', 'sd'] as const).map((v) => ({ value: v, label: t(`received.kind.${v}`) }))}
        className={styles.filterWide}
      />
      <Select
        allowClear
        placeholder={t('received.resultTitle')}
        aria-label={t('received.resultTitle')}
        value={typeof list.filters.verification_result === 'string' && list.filters.verification_result ? list.filters.verification_result : undefined}
        onChange={(value: string | undefined) => list.setFilter('verification_result', value)}
        options={RESULTS.filter(Boolean).map((v) => ({ value: v, label: resultLabel(v) }))}
        className={styles.filterWide}
      />
    </>
  );

  return (
    <>
      <ListPage<ReceivedReference>
        endpoint={RECEIVED_REFERENCES_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ filterKeys: FILTER_KEYS }}
        filters={filters}
        searchPlaceholder={t('received.search')}
        exportFileName="received-references"
        actions={
          mayAdd ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setRecording(true)} data-testid="received-new">
              {t('received.record')}
            </Button>
          ) : null
        }
      />
      <ReceivedReferenceDialog
        open={recording}
        onClose={() => setRecording(false)}
        onSaved={(saved) => {
          setRecording(false);
          void message.success(t('received.saved', { reference: saved.reference_number, result: resultLabel(saved.verification_result) }));
        }}
      />
      <ReferencedStatementDrawer reference={reading} onClose={() => setReading(null)} />
    </>
  );
}
