import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions, Empty, Flex, Select, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '@/api/http';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { countryName } from '@/shared/countries/countries';
import { useErrorText } from '@/shared/errors/errorText';
import { saveBlob } from '@/shared/utils/saveFile';
import { type AnnualFigures, annualReportUrl, useAnnualFigures } from '../api/forestLayers';
import styles from '../components/eudr.module.css';

const FIRST_YEAR = 2020;
const LEVEL_COLOR: Record<string, string> = { low: 'green', standard: 'gold', high: 'red' };

/**
 * /purchase/eudr/annual-report: the annual review of the due diligence system and the public report
 * (Art. 12): the year's figures from the records, and the report as a PDF in English or Chinese.
 */
export default function AnnualReportPage() {
  const { t } = useTranslation('dueDiligence');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [downloading, setDownloading] = useState<'en' | 'zh' | null>(null);
  const query = useAnnualFigures(year);
  const years = Array.from({ length: Math.max(1, thisYear - FIRST_YEAR + 1) }, (_, i) => thisYear - i);

  const save = async (language: 'en' | 'zh') => {
    setDownloading(language);
    try {
      const file = await download(annualReportUrl(year, language));
      saveBlob(file.blob, file.fileName ?? `due-diligence-${year}-${language}.pdf`);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <PageContainer
      extra={
        <>
          <Select
            value={year}
            onChange={setYear}
            options={years.map((y) => ({ value: y, label: String(y) }))}
            aria-label={t('report.year')}
            data-testid="report-year"
            style={{ minWidth: 100 }}
          />
          {(['en', 'zh'] as const).map((language) => (
            <Button key={language} icon={<DownloadOutlined />} loading={downloading === language} onClick={() => void save(language)} data-testid={`report-pdf-${language}`}>
              {t(`report.pdf.${language}`)}
            </Button>
          ))}
        </>
      }
    >
      <Typography.Paragraph type="secondary">{t('report.intro')}</Typography.Paragraph>
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data ? (
        <Figures figures={query.data} />
      ) : (
        <Skeleton active paragraph={{ rows: 6 }} aria-busy="true" />
      )}
    </PageContainer>
  );
}

function Figures({ figures }: { figures: AnnualFigures }) {
  const { t, i18n } = useTranslation('dueDiligence');
  return (
    <Flex vertical gap="middle" data-testid="report-figures">
      <Card size="small" title={t('report.title', { year: figures.year })}>
        <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
          <Descriptions.Item label={t('report.filed')}>
            <span data-testid="report-filed">{figures.statements_filed}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('report.recorded')}>
            <span data-testid="report-recorded">{figures.statements_recorded}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('report.deliveries')}>{figures.deliveries}</Descriptions.Item>
          <Descriptions.Item label={t('report.assessments')}>
            {t('conclusion.negligible')}: {figures.assessments.negligible} · {t('conclusion.not_negligible')}: {figures.assessments.not_negligible}
          </Descriptions.Item>
          <Descriptions.Item label={t('report.concernsRaised')}>{figures.concerns_raised}</Descriptions.Item>
          <Descriptions.Item label={t('report.concernsResolved')}>{figures.concerns_resolved}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title={t('report.countries')}>
        <Table
          rowKey="country_code"
          size="small"
          pagination={false}
          dataSource={figures.countries}
          locale={{ emptyText: <Empty description={t('report.noStatements')} /> }}
          columns={[
            { title: t('report.country'), dataIndex: 'country_code', render: (code: string) => (code === '—' ? '—' : countryName(code, i18n.language)) },
            { title: t('report.level'), dataIndex: 'level', render: (level: string | null) => (level ? <Tag color={LEVEL_COLOR[level]}>{t(`level.${level}`)}</Tag> : '—') },
            { title: t('report.statements'), dataIndex: 'statements', align: 'right' },
          ]}
        />
      </Card>
      <Card size="small" title={t('report.references', { count: figures.statements.length })}>
        {figures.statements.length === 0 ? (
          <Typography.Text type="secondary">{t('report.noStatements')}</Typography.Text>
        ) : (
          <ul className={styles.plainList} data-testid="report-statements">
            {figures.statements.map((reference, index) => (
              <li key={`${reference}-${index}`}>
                <Typography.Text code>{reference || '—'}</Typography.Text>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </Flex>
  );
}
