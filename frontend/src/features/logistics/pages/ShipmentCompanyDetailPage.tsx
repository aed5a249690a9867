import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { DetailPage } from '@/shared/components/DetailPage';
import { useCompanyByName, useDeleteCompany } from '../api/logistics';
import { CompanyForm } from '../components/CompanyForm';
import { useMayPermission } from '@/shared/session/permissions';
import { LOGISTICS_PERMS } from '../permissions';
import { paths } from '@/shared/routing/paths';

/** /purchase/shipment-companies/{companyName}: one carrier, editable in place. */
export default function ShipmentCompanyDetailPage() {
  const { t } = useTranslation('logistics');
  const { companyName } = useParams();
  const navigate = useNavigate();
  const query = useCompanyByName(companyName);
  const remove = useDeleteCompany();
  const [editing, setEditing] = useState(false);
  const mayChange = useMayPermission(LOGISTICS_PERMS.changeCompany);
  const mayDelete = useMayPermission(LOGISTICS_PERMS.deleteCompany);

  return (
    <DetailPage
      query={query}
      invalid={!companyName}
      notFound={t('companies.notFound', { name: companyName })}
      backTo={paths.shipmentCompanies()}
      backLabel={t('companies.backToList')}
      pendingTitle={companyName}
      title={(company) => company.name}
      extra={(company) =>
        editing ? null : (
          <>
            {mayChange ? (
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                {t('form.edit')}
              </Button>
            ) : null}
            {mayDelete ? (
              <ConfirmDelete
                itemLabel={company.name}
                successMessage={t('companies.deleted')}
                onConfirm={async () => {
                  await remove.mutateAsync(company.id);
                  void navigate(paths.shipmentCompanies());
                }}
              />
            ) : null}
          </>
        )
      }
    >
      {(company) => (
        <Card>
          {editing ? (
            <CompanyForm
              key={company.id}
              company={company}
              onCancel={() => setEditing(false)}
              onSaved={(saved) => {
                setEditing(false);
                // The route is the name: a renamed company moves to its new address.
                if (saved.name !== company.name) void navigate(paths.shipmentCompany(saved.name), { replace: true });
              }}
            />
          ) : (
            <Descriptions
              column={{ xs: 1, sm: 2 }}
              items={[
                { key: 'contact', label: t('companies.fields.contact_name'), children: company.contact_name || '—' },
                {
                  key: 'email',
                  label: t('companies.fields.email'),
                  children: company.email ? <a href={`mailto:${company.email}`}>{company.email}</a> : '—',
                },
                { key: 'phone', label: t('companies.fields.phone'), children: company.phone || '—' },
                {
                  key: 'website',
                  label: t('companies.fields.website'),
                  children: company.website ? (
                    <a href={company.website} target="_blank" rel="noreferrer noopener">
                      {company.website}
                    </a>
                  ) : (
                    '—'
                  ),
                },
                {
                  key: 'template',
                  label: t('companies.fields.tracking_url_template'),
                  children: company.tracking_url_template || '—',
                  span: 'filled',
                },
                { key: 'count', label: t('companies.fields.shipments_count'), children: company.shipments_count },
              ]}
            />
          )}
        </Card>
      )}
    </DetailPage>
  );
}
