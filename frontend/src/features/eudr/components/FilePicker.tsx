import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, Upload } from 'antd';
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
 * One document of a delivery: shows the stored file or the one just chosen; choosing keeps the file
 * in the form (uploaded when the draft is saved), so nothing is sent before the user saves.
 */
export function FilePicker({ value, onChange, accept, id, testId }: Props) {
  const { t } = useTranslation('eudr');
  const chosen = value?.file;
  const stored = value?.stored;
  const name = chosen?.name ?? stored?.name;
  const size = chosen?.size ?? stored?.size ?? null;
  return (
    <Flex align="center" gap="small" wrap>
      <Upload
        accept={accept}
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.({ ...(value ?? {}), file });
          return false;
        }}
      >
        <Button id={id} icon={<UploadOutlined />} data-testid={testId}>
          {name ? t('files.replace') : t('files.choose')}
        </Button>
      </Upload>
      {name ? (
        <Flex align="center" gap={4}>
          <PaperClipOutlined />
          <Typography.Text ellipsis className={styles.fileName}>
            {name}
          </Typography.Text>
          {size !== null ? <Typography.Text type="secondary">({formatFileSize(size)})</Typography.Text> : null}
          {chosen ? <Typography.Text type="warning">{t('files.notSaved')}</Typography.Text> : null}
          {chosen ? (
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              aria-label={t('files.discard')}
              onClick={() => onChange?.(stored ? { stored } : null)}
            />
          ) : null}
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('files.none')}</Typography.Text>
      )}
    </Flex>
  );
}
