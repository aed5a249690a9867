import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Result, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '@/api/errors';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
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

  if (query.isLoading) {
    return (
      <PageContainer title={companyName}>
        <Card>
          <Skeleton active />
        </Card>
      </PageContainer>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return (
        <Result
          status="404"
          title={t('companies.notFound', { name: companyName })}
          extra={<Button onClick={() => void navigate(paths.shipmentCompanies())}>{t('companies.backToList')}</Button>}
        />
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const company = query.data;
  if (!company) return null;

  return (
    <PageContainer
      title={company.name}
      extra={
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
    </PageContainer>
  );
}
