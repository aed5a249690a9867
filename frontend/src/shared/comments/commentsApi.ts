/**
 * Comments and their attachments (docs/specification.md section 7, docs/api-contract.md "Common"): one small
 * module per call, plus the query keys the CommentsPanel uses.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { del, download, get, patch, post, type UploadProgress } from '@/api/http';
import type { Paginated } from '@/api/types';
import { contentTypes } from '@/shared/contentTypes/registry';

export const COMMENTS_URL = '/api/common/comments/';
/** Mirrors the server's ATTACHMENT_MAX_BYTES (20 MB) so a too-large file is refused before uploading. */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
export const COMMENT_MAX_LENGTH = 10000;

export interface CommentAuthor {
  id: number;
  username: string;
  name: string;
}

export interface CommentAttachment {
  id: number;
  file_name: string;
  size: number;
  content_type: string;
  url: string;
  is_image: boolean;
  created_at: string;
}

export interface Comment {
  id: number;
  content_type: number;
  object_id: number;
  content: string;
  status: string;
  author: CommentAuthor;
  attachments: CommentAttachment[];
  can_edit: boolean;
  created_at: string;
  updated_at: string;
}

export const commentsQueryKey = (contentTypeId: number | undefined, objectId: number | string) =>
  ['common', 'comments', contentTypeId, String(objectId)] as const;

export function fetchComments(contentTypeId: number, objectId: number | string, page: number, pageSize: number) {
  return get<Paginated<Comment>>(COMMENTS_URL, {
    params: { content_type: contentTypeId, object_id: objectId, page, page_size: pageSize },
  });
}

export function createComment(contentTypeId: number, objectId: number | string, content: string) {
  return post<Comment>(COMMENTS_URL, { content_type: contentTypeId, object_id: Number(objectId), content, status: 'normal' });
}

export function updateComment(id: number, content: string) {
  return patch<Comment>(`${COMMENTS_URL}${id}/`, { content });
}

export function deleteComment(id: number) {
  return del(`${COMMENTS_URL}${id}/`);
}

/** Uploads one file; `onProgress` receives 0..100. */
export function uploadAttachment(commentId: number, file: File, onProgress?: (percent: number) => void) {
  const form = new FormData();
  form.append('file', file);
  return post<CommentAttachment>(`${COMMENTS_URL}${commentId}/add_attachment/`, form, {
    onUploadProgress: (event: UploadProgress) => {
      const total = event.total ?? file.size;
      if (onProgress && total > 0) onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    },
  });
}

export function removeAttachment(commentId: number, attachmentId: number) {
  return del(`${COMMENTS_URL}${commentId}/remove_attachment/${attachmentId}/`);
}

/** The attachment's file as a blob, fetched with the bearer token (the link needs authentication). */
export function fetchAttachmentBlob(attachmentId: number) {
  return download(`/api/common/attachments/${attachmentId}/download/`);
}

/** The id of a content type name (`salesorder`), resolved once. */
export const contentTypeIdQueryOptions = (contentType: string | number) =>
  queryOptions({
    queryKey: ['common', 'content-type-id', String(contentType)],
    queryFn: () => contentTypes.resolveId(contentType),
    staleTime: Infinity,
  });

/** A page of an object's comments (under `commentsQueryKey`, which refreshes them all). */
export const commentsQueryOptions = (contentTypeId: number | undefined, objectId: number | string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...commentsQueryKey(contentTypeId, objectId), page, pageSize],
    queryFn: () => fetchComments(contentTypeId as number, objectId, page, pageSize),
    enabled: contentTypeId !== undefined,
    placeholderData: keepPreviousData,
  });

/** An attachment's file, fetched with the session's credentials (for a preview or a download). */
export const attachmentBlobQueryOptions = (attachmentId: number) =>
  queryOptions({ queryKey: ['common', 'attachment-blob', attachmentId], queryFn: () => fetchAttachmentBlob(attachmentId) });
