import { DeleteOutlined, EditOutlined, PaperClipOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Flex, Input, Popconfirm, Progress, Tooltip, Typography, Upload } from 'antd';
import dayjs from '@/shared/utils/dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/shared/errors/errorText';
import { formatFileSize } from '@/shared/utils/files';
import { useFormatters } from '@/shared/utils/format';
import { AttachmentItem } from './AttachmentItem';
import { COMMENT_MAX_LENGTH, MAX_ATTACHMENT_BYTES, type Comment } from './commentsApi';
import styles from './CommentsPanel.module.css';

interface Props {
  comment: Comment;
  onUpdate: (content: string) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
  onUpload: (file: File, onProgress: (percent: number) => void) => Promise<unknown>;
  onRemoveAttachment: (attachmentId: number) => Promise<unknown>;
}

/** One comment; its author may edit the text, delete it, and add or remove attachments. */
export function CommentItem({ comment, onUpdate, onDelete, onUpload, onRemoveAttachment }: Props) {
  const { t } = useTranslation('comments');
  const f = useFormatters();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.content);
  const [saving, setSaving] = useState(false);
  const [upload, setUpload] = useState<{ name: string; size: number; percent: number } | null>(null);
  const edited = dayjs(comment.updated_at).diff(dayjs(comment.created_at), 'second') > 1;

  const save = async () => {
    if (!draft.trim()) return;
    setSaving(true);
    try {
      await onUpdate(draft.trim());
      setEditing(false);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  const addFile = async (file: File) => {
    if (file.size > MAX_ATTACHMENT_BYTES) {
      void message.error(t('fileTooLarge', { name: file.name, limit: formatFileSize(MAX_ATTACHMENT_BYTES) }));
      return;
    }
    setUpload({ name: file.name, size: file.size, percent: 0 });
    try {
      await onUpload(file, (percent) => setUpload((current) => (current ? { ...current, percent } : current)));
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setUpload(null);
    }
  };

  return (
    <Flex gap="middle" className={styles.comment} data-testid="comment">
      <Avatar icon={<UserOutlined />} />
      <div className={styles.body}>
        <Flex justify="space-between" align="center" wrap gap="small">
          <Flex gap="small" align="baseline" wrap>
            <Typography.Text strong>{comment.author.name || comment.author.username}</Typography.Text>
            <Typography.Text type="secondary" className={styles.hint}>
              {f.dateTime(comment.created_at)}
              {edited ? ` · ${t('edited')}` : ''}
            </Typography.Text>
          </Flex>
          {comment.can_edit && !editing ? (
            <Flex gap={4}>
              <Upload
                showUploadList={false}
                multiple={false}
                beforeUpload={(file) => {
                  void addFile(file);
                  return false;
                }}
              >
                <Tooltip title={t('attach')}>
                  <Button type="text" size="small" icon={<PaperClipOutlined />} aria-label={t('attach')} disabled={upload !== null} />
                </Tooltip>
              </Upload>
              <Tooltip title={t('edit')}>
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('edit')}
                  onClick={() => {
                    setDraft(comment.content);
                    setEditing(true);
                  }}
                />
              </Tooltip>
              <Popconfirm
                title={t('deleteTitle')}
                description={t('deleteQuestion')}
                okText={t('delete')}
                cancelText={t('cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={async () => {
                  try {
                    await onDelete();
                  } catch (error) {
                    void message.error(errorText(error));
                  }
                }}
              >
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
              </Popconfirm>
            </Flex>
          ) : null}
        </Flex>
        {editing ? (
          <Flex vertical gap="small" className={styles.attachments}>
            <Input.TextArea
              value={draft}
              autoSize={{ minRows: 2, maxRows: 10 }}
              maxLength={COMMENT_MAX_LENGTH}
              aria-label={t('edit')}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  void save();
                }
                if (event.key === 'Escape') setEditing(false);
              }}
            />
            <Flex gap="small" justify="flex-end">
              <Button onClick={() => setEditing(false)}>{t('cancel')}</Button>
              <Button type="primary" loading={saving} disabled={!draft.trim()} onClick={() => void save()}>
                {t('save')}
              </Button>
            </Flex>
          </Flex>
        ) : (
          <Typography.Paragraph className={styles.content}>{comment.content}</Typography.Paragraph>
        )}
        {comment.attachments.length > 0 || upload ? (
          <Flex vertical gap="small" className={styles.attachments}>
            {comment.attachments.map((attachment) => (
              <AttachmentItem
                key={attachment.id}
                attachment={attachment}
                onRemove={comment.can_edit ? () => onRemoveAttachment(attachment.id) : undefined}
              />
            ))}
            {upload ? (
              <Flex align="center" gap="small" className={styles.pending}>
                <PaperClipOutlined />
                <Typography.Text ellipsis className={styles.pendingName}>
                  {upload.name}
                </Typography.Text>
                <Typography.Text type="secondary" className={styles.fileSize}>
                  {formatFileSize(upload.size)}
                </Typography.Text>
                <Progress percent={upload.percent} size="small" className={styles.progress} />
              </Flex>
            ) : null}
          </Flex>
        ) : null}
      </div>
    </Flex>
  );
}
