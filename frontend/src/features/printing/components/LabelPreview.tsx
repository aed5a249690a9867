import { useTranslation } from 'react-i18next';
import type { Preview } from '../api/printing';
import styles from './printing.module.css';

/** The QR modules as one SVG path (each dark module a unit square, at the ^BQ magnification). */
function qrPath(modules: readonly string[], x: number, y: number, size: number): string {
  const parts: string[] = [];
  modules.forEach((row, r) => {
    for (let c = 0; c < row.length; c += 1) {
      if (row[c] === '1') parts.push(`M${x + (c + 2) * size} ${y + (r + 2) * size}h${size}v${size}h-${size}z`);
    }
  });
  return parts.join('');
}

/**
 * The label as the printer lays it out, drawn from the elements the server used to write the ZPL
 * (positions and font heights in dots; the QR at its magnification). Fonts are the browser's, so the
 * widths are close to, not exactly, the printer's font 0.
 */
export function LabelPreview({ preview }: { preview: Preview }) {
  const { t } = useTranslation('printing');
  return (
    <svg
      viewBox={`0 0 ${preview.width} ${preview.height}`}
      className={styles.preview}
      role="img"
      aria-label={t('demo.previewLabel', { width: preview.label_width_mm, height: preview.label_height_mm, dpi: preview.dpi })}
      data-testid="label-preview"
    >
      <rect x={0} y={0} width={preview.width} height={preview.height} fill="white" />
      {preview.elements.map((element, index) => {
        if (element.kind === 'text') {
          const height = element.height ?? 20;
          return (
            <text
              key={index}
              x={element.x}
              y={element.y + height * 0.82}
              fontSize={height}
              fontFamily="'Arial Narrow', 'Helvetica Neue', Arial, sans-serif"
              fontWeight={element.bold ? 700 : 400}
              fill="black"
            >
              {element.text}
            </text>
          );
        }
        if (element.kind === 'line') {
          return <rect key={index} x={element.x} y={element.y} width={element.width} height={element.thickness} fill="black" />;
        }
        const size = element.magnification ?? 1;
        return <path key={index} d={qrPath(element.modules ?? [], element.x, element.y, size)} fill="black" data-qr={element.data} />;
      })}
    </svg>
  );
}
