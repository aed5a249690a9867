import { Alert, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useCompanySettings, type MissingSetting } from '../api/companySettings';
import { CompanySettingsForm } from '../components/CompanySettingsForm';
import { PeppolSettingsCard } from '../components/PeppolSettingsCard';
import { TracesAccountCard } from '../components/TracesAccountCard';
import styles from './CompanySettingsPage.module.css';

/** What due diligence statements still need from these settings (the server decides: missing_for_statement). */
function StatementReadiness({ missing }: { missing: MissingSetting[] }) {
  const { t } = useTranslation('company');
  if (missing.length === 0) {
    return <Alert type="success" showIcon title={t('ready')} data-testid="statement-ready" />;
  }
  return (
    <Alert
      type="warning"
      showIcon
      title={t('missingTitle')}
      description={
        <ul className={styles.missing}>
          {missing.map((key) => (
            <li key={key}>{t(`missing.${key}`)}</li>
          ))}
        </ul>
      }
      data-testid="statement-missing"
    />
  );
}

/** Company settings: the company as EUDR operator, the data of every due diligence statement. */
export default function CompanySettingsPage() {
  const { t } = useTranslation('company');
  const query = useCompanySettings();

  if (query.isPending) {
    return (
      <PageContainer>
        <Card loading />
      </PageContainer>
    );
  }
  if (query.isError) {
    return (
      <PageContainer>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </PageContainer>
    );
  }
  const settings = query.data;
  return (
    <PageContainer>
      <Typography.Paragraph type="secondary" className={styles.intro}>
        {t('intro')}
      </Typography.Paragraph>
      <Flex vertical gap="small">
        <StatementReadiness missing={settings.missing_for_statement} />
        {settings.can_edit ? null : <Alert type="info" showIcon title={t('readOnly')} data-testid="company-read-only" />}
      </Flex>
      <CompanySettingsForm key={settings.id} settings={settings} />
      <TracesAccountCard />
      <PeppolSettingsCard />
    </PageContainer>
  );
}
