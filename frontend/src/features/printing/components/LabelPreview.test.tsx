import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import { isSettled } from '@/shared/printing/printApi';
import type { Preview } from '../api/printing';
import { LabelPreview } from './LabelPreview';

const PREVIEW: Preview = {
  width: 799,
  height: 400,
  dpi: 203,
  template: 'compact',
  label_width_mm: '100.0',
  label_height_mm: '50.0',
  zpl: '^XA^XZ',
  elements: [
    { kind: 'qr', x: 24, y: 24, magnification: 4, data: 'https://t.example/eudrtrace/ABC', modules: ['101', '010', '101'] },
    { kind: 'text', x: 200, y: 30, height: 28, text: 'A<b>&"x"', bold: true },
    { kind: 'line', x: 10, y: 300, width: 500, thickness: 2 },
  ],
};

describe('LabelPreview', () => {
  it('draws the laid-out elements in printer dots, text as text (never markup)', () => {
    initI18n('en', allResources());
    const { container, getByTestId } = render(<LabelPreview preview={PREVIEW} />);
    const svg = getByTestId('label-preview');
    expect(svg.getAttribute('viewBox')).toBe('0 0 799 400');
    expect(svg.getAttribute('aria-label')).toContain('100.0 × 50.0 mm');
    const path = container.querySelector('path[data-qr]');
    expect(path?.getAttribute('data-qr')).toBe('https://t.example/eudrtrace/ABC');
    // five dark modules, each a 4-dot square offset by the 2-module quiet zone
    expect(path?.getAttribute('d')?.match(/M/g)).toHaveLength(5);
    expect(path?.getAttribute('d')).toContain('M32 32h4v4h-4z');
    expect(container.querySelector('text')?.textContent).toBe('A<b>&"x"');
    expect(container.querySelector('b')).toBeNull();
  });

  it('knows when a job is settled', () => {
    expect(isSettled('queued')).toBe(false);
    expect(isSettled('sent')).toBe(false);
    expect(['printed', 'failed', 'expired'].every((s) => isSettled(s as 'printed'))).toBe(true);
  });
});
