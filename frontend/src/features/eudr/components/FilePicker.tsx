import { DeleteOutlined, PaperClipOutlined, UndoOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/shared/utils/files';
import styles from './eudr.module.css';
import type { FileValue } from './wizard/wizardModel';

interface Props {
  value?: FileValue | null;
  onChange?: (value: FileValue | null) => void;
  accept?: string;
  id?: string;
  testId?: string;
}

/**
 * One document of a delivery: shows the stored file or the one just chosen. Choosing, replacing or
 * removing only changes the form; the server sees it when the user saves.
 */
export function FilePicker({ value, onChange, accept, id, testId }: Props) {
  const { t } = useTranslation('eudr');
  const chosen = value?.file;
  const stored = value?.stored;
  const removing = Boolean(value?.remove && stored && !chosen);
  const name = chosen?.name ?? stored?.name;
  const size = chosen?.size ?? stored?.size ?? null;
  return (
    <Flex align="center" gap="small" wrap>
      <Upload
        accept={accept}
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.({ stored, file });
          return false;
        }}
      >
        <Button id={id} icon={<UploadOutlined />} data-testid={testId}>
          {name && !removing ? t('files.replace') : t('files.choose')}
        </Button>
      </Upload>
      {name ? (
        <Flex align="center" gap={4} wrap>
          <PaperClipOutlined />
          <Typography.Text ellipsis delete={removing} type={removing ? 'secondary' : undefined} className={styles.fileName}>
            {name}
          </Typography.Text>
          {size !== null ? <Typography.Text type="secondary">({formatFileSize(size)})</Typography.Text> : null}
          {chosen ? <Typography.Text type="warning">{t('files.notSaved')}</Typography.Text> : null}
          {removing ? <Typography.Text type="warning">{t('files.removedOnSave')}</Typography.Text> : null}
          {chosen ? (
            <Tooltip title={t('files.discard')}>
              <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('files.discard')} onClick={() => onChange?.(stored ? { stored } : null)} />
            </Tooltip>
          ) : removing ? (
            <Tooltip title={t('files.keep')}>
              <Button type="text" size="small" icon={<UndoOutlined />} aria-label={t('files.keep')} onClick={() => onChange?.({ stored })} data-testid={testId ? `${testId}-keep` : undefined} />
            </Tooltip>
          ) : (
            <Tooltip title={t('files.remove', { name })}>
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('files.remove', { name })}
                onClick={() => onChange?.({ stored, remove: true })}
                data-testid={testId ? `${testId}-remove` : undefined}
              />
            </Tooltip>
          )}
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('files.none')}</Typography.Text>
      )}
    </Flex>
  );
}
