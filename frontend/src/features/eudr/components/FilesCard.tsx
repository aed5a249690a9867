import { DownloadOutlined, PaperClipOutlined } from '@ant-design/icons';
import { App, Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { formatFileSize } from '@/shared/utils/files';
import { downloadFile } from '../api/rawMaterials';
import { FILE_KINDS, type FileKind, type RawMaterial } from '../api/types';
import styles from './eudr.module.css';
import { formatDate } from '@/shared/utils/format';

/** The delivery's six documents; each downloads through the API client (auth and tenant apply). */
export function FilesCard({ material }: { material: RawMaterial }) {
  const { t, i18n } = useTranslation('eudr');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [busy, setBusy] = useState<FileKind | null>(null);

  const fetchFile = async (kind: FileKind, name: string) => {
    setBusy(kind);
    try {
      await downloadFile({ rawMaterialId: material.id }, kind, name);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('detail.files')} size="small" className={styles.section} data-testid="files-card">
      <ul className={styles.plainList}>
        {FILE_KINDS.map((kind) => {
          const file = material.files?.[kind];
          return (
            <li key={kind} className={styles.fileRow}>
              <PaperClipOutlined />
              <div className={styles.grow}>
                <Typography.Text strong>{t(`fileKind.${kind}`)}</Typography.Text>
                <div>
                  {file ? (
                    <Typography.Text type="secondary" ellipsis className={styles.fileName}>
                      {file.name} · {formatFileSize(file.size ?? 0)}
                      {file.uploaded_at ? ` · ${formatDate(file.uploaded_at, i18n.language)}` : ''}
                    </Typography.Text>
                  ) : (
                    <Typography.Text type="secondary">{t('files.none')}</Typography.Text>
                  )}
                </div>
              </div>
              {file ? (
                <Button
                  type="link"
                  size="small"
                  icon={<DownloadOutlined />}
                  loading={busy === kind}
                  onClick={() => void fetchFile(kind, file.name)}
                  aria-label={t('files.download', { name: file.name })}
                  data-testid={`download-${kind}`}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
