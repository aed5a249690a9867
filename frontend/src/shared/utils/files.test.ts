import { describe, expect, it } from 'vitest';
import { formatFileSize, isImageFile } from './files';

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1234567, '1.18 MB'],
    [1024 ** 3, '1 GB'],
    [5.5 * 1024 ** 4, '5632 GB'],
  ])('%d bytes -> %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
  it('treats invalid sizes as 0', () => {
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
  });
});

describe('isImageFile', () => {
  it.each(['a.jpg', 'a.JPEG', 'b.png', 'c.gif', 'd.bmp', 'e.webp', 'f.svg', '/x/y.Png?v=2'])('%s is an image', (name) => {
    expect(isImageFile(name)).toBe(true);
  });
  it.each(['a.pdf', 'a.tiff', 'jpg', 'a.jpg.txt', '', null, undefined])('%s is not', (name) => {
    expect(isImageFile(name)).toBe(false);
  });
});
