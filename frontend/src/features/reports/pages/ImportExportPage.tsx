import {
  AppstoreOutlined,
  ClusterOutlined,
  DownloadOutlined,
  FileExcelOutlined,
  ShopOutlined,
  TeamOutlined,
  UploadOutlined,
  ApartmentOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Dropdown, Empty, Flex, Row, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { ImportDialog } from '@/shared/import/ImportDialog';
import { IMPORT_FILE_FORMATS, downloadImportTemplate, exportList, type ImportFileFormat } from '@/shared/import/importApi';
import { useSession } from '@/shared/session/useSession';
import styles from '../components/importExport.module.css';
import { IMPORT_EXPORT_ENDPOINTS, importExportKeys } from '../api/importExport';
import { paths } from '@/shared/routing/paths';

interface Resource {
  key: string;
  endpoint: string;
  /** The list page of the resource. */
  page: string;
  /** `app_label.model` of its permissions. */
  perm: [app: string, model: string];
  icon: ReactNode;
}

/** Everything that can be exported and imported; each endpoint offers export/, import-template/ and import/. */
const RESOURCES: Resource[] = [
  { key: 'products', endpoint: IMPORT_EXPORT_ENDPOINTS.products, page: paths.products(), perm: ['products', 'product'], icon: <AppstoreOutlined /> },
  { key: 'productGroups', endpoint: IMPORT_EXPORT_ENDPOINTS.productGroups, page: paths.productGroups(), perm: ['products', 'productgroup'], icon: <ClusterOutlined /> },
  { key: 'customers', endpoint: IMPORT_EXPORT_ENDPOINTS.customers, page: paths.customers(), perm: ['customers', 'customer'], icon: <TeamOutlined /> },
  { key: 'suppliers', endpoint: IMPORT_EXPORT_ENDPOINTS.suppliers, page: paths.suppliers(), perm: ['suppliers', 'supplier'], icon: <ShopOutlined /> },
  {
    key: 'parentVendors',
    endpoint: IMPORT_EXPORT_ENDPOINTS.parentVendors,
    page: paths.parentVendors(),
    perm: ['suppliers', 'parentvendor'],
    icon: <ApartmentOutlined />,
  },
];

function may(permissions: string[] | undefined, permission: string): boolean {
  return permissions === undefined || permissions.includes(permission);
}

/** Gathers the export and import of every master-data list (docs/design.md section 8). */
export default function ImportExportPage() {
  const { t } = useTranslation('importExport');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const permissions = useSession((s) => s.userInfo?.permissions);
  const [importing, setImporting] = useState<Resource | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const visible = RESOURCES.filter(({ perm: [app, model] }) => may(permissions, `${app}.view_${model}`));

  const run = async (id: string, job: () => Promise<void>) => {
    setBusy(id);
    try {
      await job();
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setBusy(null);
    }
  };

  const formatItems = IMPORT_FILE_FORMATS.map((format) => ({ key: format, label: t(`formats.${format}`) }));

  return (
    <PageContainer>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {visible.length === 0 ? (
        <Card>
          <Empty description={t('nothing')} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {visible.map((resource) => {
            const [app, model] = resource.perm;
            const mayImport = may(permissions, `${app}.add_${model}`) && may(permissions, `${app}.change_${model}`);
            const stem = resource.endpoint.split('/').filter(Boolean).slice(1).join('-') || resource.key;
            return (
              <Col key={resource.key} xs={24} md={12} xl={8}>
                <Card
                  className={styles.card}
                  data-testid={`resource-${resource.key}`}
                  title={
                    <Flex gap="small" align="center">
                      {resource.icon}
                      {t(`resources.${resource.key}.title`)}
                    </Flex>
                  }
                  extra={<Link to={resource.page}>{t('openList')}</Link>}
                >
                  <Typography.Paragraph type="secondary" className={styles.description}>
                    {t(`resources.${resource.key}.description`)}
                  </Typography.Paragraph>
                  <Flex gap="small" wrap className={styles.actions}>
                    <Dropdown
                      menu={{
                        items: formatItems,
                        onClick: ({ key }) => void run(`${resource.key}-export`, () => exportList(resource.endpoint, key as ImportFileFormat, stem)),
                      }}
                    >
                      <Button icon={<DownloadOutlined />} loading={busy === `${resource.key}-export`}>
                        {t('export')}
                      </Button>
                    </Dropdown>
                    {mayImport ? (
                      <>
                        <Dropdown
                          menu={{
                            items: formatItems,
                            onClick: ({ key }) =>
                              void run(`${resource.key}-template`, () => downloadImportTemplate(resource.endpoint, key as ImportFileFormat, stem)),
                          }}
                        >
                          <Button icon={<FileExcelOutlined />} loading={busy === `${resource.key}-template`}>
                            {t('template')}
                          </Button>
                        </Dropdown>
                        <Button type="primary" icon={<UploadOutlined />} onClick={() => setImporting(resource)} data-testid={`import-${resource.key}`}>
                          {t('import')}
                        </Button>
                      </>
                    ) : null}
                  </Flex>
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
      <ImportDialog
        open={importing !== null}
        onClose={() => setImporting(null)}
        endpoint={importing?.endpoint ?? ''}
        kind={importing ? importing.perm.join('.') : ''}
        resourceLabel={importing ? t(`resources.${importing.key}.inSentence`) : ''}
        fileStem={importing?.key ?? 'import'}
        onImported={() => {
          if (importing) void queryClient.invalidateQueries({ queryKey: importExportKeys.list(importing.endpoint) });
        }}
      />
    </PageContainer>
  );
}
