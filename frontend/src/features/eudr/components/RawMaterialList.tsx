import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import type { UseListParams } from '@/shared/hooks/useListParams';
import { RAW_MATERIALS_URL } from '../api/endpoints';
import { useParentVendors } from '../api/lookups';
import type { RawMaterialListItem } from '../api/types';
import { useEudrPortal } from '../hooks/usePortal';
import { countryName, countryOptions } from '@/shared/countries/countries';
import { MATERIAL_TYPES, STATUSES } from '../lib/options';
import styles from './eudr.module.css';
import { StatusTag } from './StatusTag';
import { WeightCell } from './WeightBalance';
import { formatDate } from '@/shared/utils/format';

const FILTER_KEYS = ['status', 'parent_vendor', 'material_type', 'country_code'] as const;

/**
 * Raw-material deliveries of the supplier portal (own parent vendor: the server scopes) or of the
 * purchase area (every vendor, with a vendor filter). Drafts are listed with a Draft tag and open
 * back into the wizard.
 */
export function RawMaterialList() {
  const { t, i18n } = useTranslation('eudr');
  const navigate = useNavigate();
  const portal = useEudrPortal();
  const phone = usePhone();
  const vendors = useParentVendors(!portal.supplier);
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);

  // On a phone (below 576px): the number with the vendor (purchase area) and country of harvest, and the status.
  const columns: ServerColumn<RawMaterialListItem>[] = [
    {
      title: t('fields.delivery_number'),
      dataIndex: 'delivery_number',
      key: 'delivery_number',
      sorter: true,
      render: (value: string, row) => (
        <>
          <Space size={4}>
            <Typography.Text strong>{value || t('list.untitledDraft', { id: row.id })}</Typography.Text>
          </Space>
          {portal.supplier ? null : <PhoneLine>{row.parent_vendor_name ?? ''}</PhoneLine>}
          {row.country_code ? <PhoneLine>{countryName(row.country_code, i18n.language)}</PhoneLine> : null}
        </>
      ),
    },
    ...(portal.supplier
      ? []
      : [
          {
            title: t('fields.parent_vendor'),
            key: 'parent_vendor_name',
            hidden: phone,
            render: (_: unknown, row: RawMaterialListItem) => row.parent_vendor_name ?? '',
          } satisfies ServerColumn<RawMaterialListItem>,
        ]),
    {
      title: t('fields.status'),
      dataIndex: 'status',
      key: 'status',
      sorter: true,
      render: (value: string) => <StatusTag status={value} />,
    },
    {
      title: t('fields.material_type'),
      key: 'material_types',
      hidden: phone,
      render: (_: unknown, row) => (
        <Space size={[4, 4]} wrap>
          {row.material_types.map((type) => (
            <Tag key={type}>{t(`materialType.${type}`, { defaultValue: type })}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('fields.country'),
      dataIndex: 'country_code',
      key: 'country_code',
      hidden: phone,
      render: (code: string) => (code ? `${countryName(code, i18n.language)} (${code})` : ''),
    },
    {
      title: t('list.weight'),
      key: 'remaining_kg',
      hidden: phone,
      render: (_: unknown, row) => (row.status === 'draft' ? null : <WeightCell weight={row.weight} />),
    },
    { title: t('fields.issued_cartons'), dataIndex: 'issued_cartons', key: 'issued_cartons', sorter: true, align: 'right', hidden: phone },
    {
      title: t('fields.created_at'),
      dataIndex: 'created_at',
      key: 'created_at',
      sorter: true,
      hidden: phone,
      render: (value: string) => formatDate(value, i18n.language),
    },
  ];

  const filters = (list: UseListParams) => (
    <>
      <Select
        allowClear
        placeholder={t('fields.status')}
        aria-label={t('fields.status')}
        value={typeof list.filters.status === 'string' ? list.filters.status : undefined}
        onChange={(value: string | undefined) => list.setFilter('status', value)}
        options={STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        className={styles.filterNarrow}
        data-testid="filter-status"
      />
      {portal.supplier ? null : (
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('fields.parent_vendor')}
          aria-label={t('fields.parent_vendor')}
          loading={vendors.isLoading}
          value={typeof list.filters.parent_vendor === 'string' ? Number(list.filters.parent_vendor) : undefined}
          onChange={(value: number | undefined) => list.setFilter('parent_vendor', value === undefined ? null : String(value))}
          options={(vendors.data ?? []).map((vendor) => ({
            value: vendor.id,
            label: i18n.language === 'zh' && vendor.cname ? vendor.cname : vendor.name,
          }))}
          className={styles.filterWide}
        />
      )}
      <Select
        allowClear
        placeholder={t('fields.material_type')}
        aria-label={t('fields.material_type')}
        value={typeof list.filters.material_type === 'string' ? list.filters.material_type : undefined}
        onChange={(value: string | undefined) => list.setFilter('material_type', value)}
        options={MATERIAL_TYPES.map((type) => ({ value: type, label: t(`materialType.${type}`) }))}
        className={styles.filterNarrow}
      />
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('fields.country')}
        aria-label={t('fields.country')}
        value={typeof list.filters.country_code === 'string' ? list.filters.country_code : undefined}
        onChange={(value: string | undefined) => list.setFilter('country_code', value)}
        options={countries}
        className={styles.filterWide}
        popupMatchSelectWidth={false}
      />
    </>
  );

  return (
    <ListPage<RawMaterialListItem>
      endpoint={RAW_MATERIALS_URL}
      rowKey="id"
      columns={columns}
      listOptions={{ filterKeys: FILTER_KEYS, defaultOrdering: '-created_at' }}
      filters={filters}
      searchPlaceholder={t('list.searchPlaceholder')}
      exportFileName="raw-materials"
      onRowClick={(row) => void navigate(row.status === 'draft' ? portal.newPath(row.id) : portal.detailPath(row.id))}
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(portal.newPath())} data-testid="new-delivery">
          {t('list.newDelivery')}
        </Button>
      }
      tableProps={{ size: 'middle' }}
    />
  );
}
