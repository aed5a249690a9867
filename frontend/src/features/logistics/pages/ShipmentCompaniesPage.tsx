import { PlusOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { COMPANIES_URL, companyPath } from '../api/logistics';
import type { ShipmentCompany } from '../api/types';
import { useMayPermission } from '@/shared/session/permissions';
import { LOGISTICS_PERMS } from '../permissions';

/** /purchase/shipment-companies: the carriers. */
export default function ShipmentCompaniesPage() {
  const { t } = useTranslation('logistics');
  const navigate = useNavigate();
  const mayAdd = useMayPermission(LOGISTICS_PERMS.addCompany);
  const columns: ServerColumn<ShipmentCompany>[] = [
    { title: t('companies.fields.name'), dataIndex: 'name', sorter: true, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
    { title: t('companies.fields.contact_name'), dataIndex: 'contact_name', sorter: true },
    { title: t('companies.fields.email'), dataIndex: 'email' },
    { title: t('companies.fields.phone'), dataIndex: 'phone' },
    {
      title: t('companies.fields.website'),
      dataIndex: 'website',
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
      onRowClick={(company) => void navigate(companyPath(company.name))}
      actions={
        mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/purchase/shipment-companies/create')}>
            {t('companies.new')}
          </Button>
        ) : null
      }
    />
  );
}
