import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { useMediaQuery } from '@/shared/hooks/useMediaQuery';
import { LogTab } from '../components/LogTab';
import { ScenariosTab } from '../components/ScenariosTab';
import { SmtpTab } from '../components/SmtpTab';
import { TemplatesTab } from '../components/TemplatesTab';

const TABS = ['scenarios', 'templates', 'log', 'smtp'] as const;
type Tab = (typeof TABS)[number];

/** /core/email-scenarios: scenarios, templates, the log of sent mail and the company's SMTP server. */
export default function EmailScenariosPage() {
  const { t } = useTranslation('email');
  // On a phone the four tabs fit side by side when drawn small and close together: an overflowing tab
  // bar puts its "more" button inside the tab list, which screen readers cannot make sense of.
  const narrow = useMediaQuery('(max-width: 600px)');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'scenarios';
  return (
    <PageContainer>
      <Card>
        <Tabs
          activeKey={tab}
          destroyOnHidden
          size={narrow ? 'small' : undefined}
          tabBarGutter={narrow ? 12 : undefined}
          onChange={(key) => setParams({ tab: key })}
          items={[
            { key: 'scenarios', label: t('tabs.scenarios'), children: <ScenariosTab /> },
            { key: 'templates', label: t('tabs.templates'), children: <TemplatesTab /> },
            { key: 'log', label: t('tabs.log'), children: <LogTab /> },
            { key: 'smtp', label: t('tabs.smtp'), children: <SmtpTab /> },
          ]}
        />
      </Card>
    </PageContainer>
  );
}
