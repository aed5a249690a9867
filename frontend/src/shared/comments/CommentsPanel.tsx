import { DeleteOutlined, PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Flex, Input, Pagination, Progress, Skeleton, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/shared/components/ErrorState';
import { useErrorText } from '@/shared/errors/errorText';
import { formatFileSize } from '@/shared/utils/files';
import { CommentItem } from './CommentItem';
import {
  COMMENT_MAX_LENGTH,
  MAX_ATTACHMENT_BYTES,
  commentsQueryKey,
  commentsQueryOptions,
  contentTypeIdQueryOptions,
  createComment,
  deleteComment,
  removeAttachment,
  updateComment,
  uploadAttachment,
} from './commentsApi';
import styles from './CommentsPanel.module.css';

export interface CommentsPanelProps {
  /** The commented record's kind: a name ("supplier", "purchaseorder", "shipment", "salesorder",
   * or "app_label.model") or a numeric content type id. */
  contentType: string | number;
  /** The commented record's id. */
  objectId: number | string;
  /** Comments per page (default 10). */
  pageSize?: number;
  /** Hide the composer (e.g. a read-only view). Own comments stay editable unless this is set. */
  readOnly?: boolean;
}

interface PendingFile {
  uid: string;
  file: File;
  percent: number | null;
}

let pendingCounter = 0;

/**
 * Comments on one record: paged list (newest first), add (Ctrl+Enter sends), edit and delete own
 * comments, attachments with upload progress, image previews and authenticated downloads.
 */
export function CommentsPanel({ contentType, objectId, pageSize = 10, readOnly = false }: CommentsPanelProps) {
  const { t } = useTranslation('comments');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [sendError, setSendError] = useState<string | null>(null);

  const typeQuery = useQuery(contentTypeIdQueryOptions(contentType));
  const contentTypeId = typeQuery.data;
  const key = commentsQueryKey(contentTypeId, objectId);

  const list = useQuery(commentsQueryOptions(contentTypeId, objectId, page, pageSize));

  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const send = useMutation({
    mutationFn: async () => {
      const comment = await createComment(contentTypeId as number, objectId, draft.trim());
      const failed: string[] = [];
      for (const item of pending) {
        try {
          await uploadAttachment(comment.id, item.file, (percent) =>
            setPending((files) => files.map((f) => (f.uid === item.uid ? { ...f, percent } : f))),
          );
        } catch (error) {
          failed.push(`${item.file.name}: ${errorText(error)}`);
        }
      }
      return failed;
    },
    onSuccess: async (failed) => {
      setDraft('');
      setPending([]);
      setPage(1);
      setSendError(failed.length > 0 ? t('someUploadsFailed', { files: failed.join('; ') }) : null);
      await refresh();
    },
    onError: (error) => setSendError(errorText(error)),
  });

  const canSend = draft.trim().length > 0 && contentTypeId !== undefined && !send.isPending;
  const submit = () => {
    if (canSend) {
      setSendError(null);
      send.mutate();
    }
  };

  const addPending = (file: File) => {
    if (file.size > MAX_ATTACHMENT_BYTES) {
      void message.error(t('fileTooLarge', { name: file.name, limit: formatFileSize(MAX_ATTACHMENT_BYTES) }));
      return;
    }
    pendingCounter += 1;
    setPending((files) => [...files, { uid: `f${pendingCounter}`, file, percent: null }]);
  };

  if (typeQuery.isError) return <ErrorState error={typeQuery.error} onRetry={() => void typeQuery.refetch()} />;

  const data = list.data;
  return (
    <div className={styles.panel} data-testid="comments-panel">
      {!readOnly ? (
        <Flex vertical gap="small" className={styles.composer}>
          <Input.TextArea
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder={t('placeholder')}
            aria-label={t('placeholder')}
            autoSize={{ minRows: 3, maxRows: 12 }}
            maxLength={COMMENT_MAX_LENGTH}
            disabled={send.isPending}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                submit();
              }
            }}
          />
          {pending.length > 0 ? (
            <Flex vertical gap={4}>
              {pending.map((item) => (
                <Flex key={item.uid} align="center" gap="small" className={styles.pending} data-testid="pending-file">
                  <PaperClipOutlined />
                  <Typography.Text ellipsis className={styles.pendingName}>
                    {item.file.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" className={styles.fileSize}>
                    {formatFileSize(item.file.size)}
                  </Typography.Text>
                  {item.percent !== null ? (
                    <Progress percent={item.percent} size="small" className={styles.progress} />
                  ) : (
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={t('remove')}
                      disabled={send.isPending}
                      onClick={() => setPending((files) => files.filter((f) => f.uid !== item.uid))}
                    />
                  )}
                </Flex>
              ))}
            </Flex>
          ) : null}
          {sendError ? <Alert type="error" showIcon title={sendError} closable={{ onClose: () => setSendError(null) }} /> : null}
          <Flex justify="space-between" align="center" wrap gap="small">
            <Upload
              multiple
              showUploadList={false}
              beforeUpload={(file) => {
                addPending(file);
                return false;
              }}
            >
              <Button icon={<PaperClipOutlined />} disabled={send.isPending}>
                {t('attachFiles')}
              </Button>
            </Upload>
            <Flex align="center" gap="small">
              <Typography.Text type="secondary" className={styles.hint}>
                {t('sendHint')}
              </Typography.Text>
              <Button type="primary" icon={<SendOutlined />} onClick={submit} disabled={!canSend} loading={send.isPending}>
                {t('send')}
              </Button>
            </Flex>
          </Flex>
        </Flex>
      ) : null}

      {list.isError && !data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !data ? (
        <Skeleton active avatar paragraph={{ rows: 2 }} />
      ) : data.count === 0 ? (
        <Empty description={t('empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <>
          <div>
            {data.results.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                onUpdate={async (content) => {
                  await updateComment(comment.id, content);
                  await refresh();
                }}
                onDelete={async () => {
                  await deleteComment(comment.id);
                  if (data.results.length === 1 && page > 1) setPage(page - 1);
                  await refresh();
                }}
                onUpload={async (file, onProgress) => {
                  await uploadAttachment(comment.id, file, onProgress);
                  await refresh();
                }}
                onRemoveAttachment={async (attachmentId) => {
                  await removeAttachment(comment.id, attachmentId);
                  await refresh();
                }}
              />
            ))}
          </div>
          {data.count > pageSize ? (
            <Flex justify="flex-end">
              <Pagination
                size="small"
                current={page}
                pageSize={pageSize}
                total={data.count}
                onChange={setPage}
                showTotal={(total) => t('total', { count: total })}
              />
            </Flex>
          ) : null}
        </>
      )}
    </div>
  );
}
