/** File helpers (docs/specification.md sections 5 and 9). */

const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** Bytes, KB, MB, GB; base 1024; at most 2 decimals (trailing zeros dropped). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(2))} ${UNITS[exponent]}`;
}

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg'] as const;

/** By file extension, case-insensitive; a query string or fragment is ignored. */
export function isImageFile(fileName: string | null | undefined): boolean {
  if (!fileName) return false;
  const clean = fileName.split(/[?#]/)[0] ?? '';
  const dot = clean.lastIndexOf('.');
  if (dot < 0) return false;
  const extension = clean.slice(dot + 1).toLowerCase();
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extension);
}
