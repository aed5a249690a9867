import { DeleteOutlined, DownloadOutlined, FileOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Image, Popconfirm, Skeleton, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { formatFileSize, isImageFile } from '@/shared/utils/files';
import { saveBlob } from '@/shared/utils/saveFile';
import { attachmentBlobQueryOptions, fetchAttachmentBlob, type CommentAttachment } from './commentsApi';
import styles from './CommentsPanel.module.css';

/** An image attachment's preview: the file is fetched with the bearer token and shown from a blob URL. */
function ImagePreview({ attachment }: { attachment: CommentAttachment }) {
  const { t } = useTranslation('comments');
  const query = useQuery({ ...attachmentBlobQueryOptions(attachment.id), staleTime: Infinity });
  const blob = query.data?.blob;
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (query.isError) return <FileOutlined className={styles.fileIcon} aria-label={t('previewFailed')} />;
  if (!url) return <Skeleton.Image active className={styles.thumb} />;
  return <Image src={url} alt={attachment.file_name} width={72} height={72} className={styles.thumb} />;
}

interface Props {
  attachment: CommentAttachment;
  /** Offer removal (own comment). */
  onRemove?: () => Promise<unknown>;
}

/** One attachment: preview for images (by extension), name, formatted size, download, remove. */
export function AttachmentItem({ attachment, onRemove }: Props) {
  const { t } = useTranslation('comments');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [downloading, setDownloading] = useState(false);
  const image = isImageFile(attachment.file_name);

  const save = async () => {
    setDownloading(true);
    try {
      const file = await fetchAttachmentBlob(attachment.id);
      saveBlob(file.blob, attachment.file_name);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Flex align="center" gap="small" className={styles.attachment} data-testid="comment-attachment">
      {image ? <ImagePreview attachment={attachment} /> : <FileOutlined className={styles.fileIcon} />}
      <Flex vertical className={styles.attachmentText}>
        <Typography.Link onClick={() => void save()} ellipsis className={styles.fileName}>
          {attachment.file_name}
        </Typography.Link>
        <Typography.Text type="secondary" className={styles.fileSize}>
          {formatFileSize(attachment.size)}
        </Typography.Text>
      </Flex>
      <Tooltip title={t('download')}>
        <Button type="text" size="small" icon={<DownloadOutlined />} loading={downloading} onClick={() => void save()} aria-label={t('download')} />
      </Tooltip>
      {onRemove ? (
        <Popconfirm
          title={t('removeAttachmentTitle')}
          description={t('removeAttachmentQuestion', { name: attachment.file_name })}
          okText={t('remove')}
          cancelText={t('cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={async () => {
            try {
              await onRemove();
            } catch (error) {
              void message.error(errorText(error));
            }
          }}
        >
          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('remove')} />
        </Popconfirm>
      ) : null}
    </Flex>
  );
}
