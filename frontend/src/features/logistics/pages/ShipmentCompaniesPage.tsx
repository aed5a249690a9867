import { PlusOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { COMPANIES_URL } from '../api/logistics';
import type { ShipmentCompany } from '../api/types';
import { useMayPermission } from '@/shared/session/permissions';
import { LOGISTICS_PERMS } from '../permissions';
import { paths } from '@/shared/routing/paths';

/** /purchase/shipment-companies: the carriers. */
export default function ShipmentCompaniesPage() {
  const { t } = useTranslation('logistics');
  const navigate = useNavigate();
  const mayAdd = useMayPermission(LOGISTICS_PERMS.addCompany);
  const phone = usePhone();
  // On a phone (below 576px): the name with the contact, email and phone under it, and the shipments.
  const columns: ServerColumn<ShipmentCompany>[] = [
    {
      title: t('companies.fields.name'),
      dataIndex: 'name',
      sorter: true,
      render: (v: string, c) => (
        <>
          <Typography.Text strong>{v}</Typography.Text>
          {c.contact_name ? <PhoneLine>{c.contact_name}</PhoneLine> : null}
          {c.email ? <PhoneLine>{c.email}</PhoneLine> : null}
          {c.phone ? <PhoneLine>{c.phone}</PhoneLine> : null}
        </>
      ),
    },
    { title: t('companies.fields.contact_name'), dataIndex: 'contact_name', sorter: true, hidden: phone },
    { title: t('companies.fields.email'), dataIndex: 'email', hidden: phone },
    { title: t('companies.fields.phone'), dataIndex: 'phone', hidden: phone },
    {
      title: t('companies.fields.website'),
      dataIndex: 'website',
      hidden: phone,
      render: (v: string) =>
        v ? (
          <a href={v} target="_blank" rel="noreferrer noopener" onClick={(event) => event.stopPropagation()}>
            {v.replace(/^https?:\/\//, '')}
          </a>
        ) : (
          '—'
        ),
    },
    { title: t('companies.fields.shipments_count'), dataIndex: 'shipments_count', align: 'right' },
  ];
  return (
    <ListPage<ShipmentCompany>
      endpoint={COMPANIES_URL}
      rowKey="id"
      columns={columns}
      listOptions={{ defaultOrdering: 'name' }}
      exportFileName="shipment-companies"
      onRowClick={(company) => void navigate(paths.shipmentCompany(company.name))}
      actions={
        mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(paths.shipmentCompanyCreate())}>
            {t('companies.new')}
          </Button>
        ) : null
      }
    />
  );
}
