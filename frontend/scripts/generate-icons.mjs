// Writes the app icons (PNG for the web app manifest, SVG favicon) into public/.
// Pure Node (zlib): no image tool needed. Colours come from the theme's palette file.
// Run: node scripts/generate-icons.mjs
import { deflateSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const palettes = JSON.parse(readFileSync(join(root, 'src/shared/theme/palettes.json'), 'utf8'));
const background = palettes.surface.slate['950'];
const foreground = palettes.surface.slate['0'];

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x += 1) {
      const [r, g, b, a] = pixel(x + 0.5, y + 0.5, size);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Distance from point p to segment ab.
function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// The carton mark on a 32-unit grid (same as src/shared/components/AppLogo.tsx).
const SEGMENTS = [
  [9, 12.5, 16, 9], [16, 9, 23, 12.5], [23, 12.5, 23, 20.5], [23, 20.5, 16, 24], [16, 24, 9, 20.5], [9, 20.5, 9, 12.5],
  [9, 12.5, 16, 16], [16, 16, 23, 12.5], [16, 16, 16, 24],
];

function icon({ maskable }) {
  const bg = rgb(background);
  const fg = rgb(foreground);
  return (x, y, size) => {
    const unit = size / 32;
    // Maskable icons fill the square and keep the mark inside the safe zone (80%).
    const scale = maskable ? 0.7 : 1;
    const u = (x / unit - 16) / scale + 16;
    const v = (y / unit - 16) / scale + 16;
    let inside = true;
    if (!maskable) {
      const r = 7;
      const cx = Math.min(Math.max(x / unit, 2 + r), 30 - r);
      const cy = Math.min(Math.max(y / unit, 2 + r), 30 - r);
      inside = x / unit >= 2 && x / unit <= 30 && y / unit >= 2 && y / unit <= 30 && Math.hypot(x / unit - cx, y / unit - cy) <= r;
    }
    if (!inside) return [0, 0, 0, 0];
    const d = Math.min(...SEGMENTS.map(([ax, ay, bx, by]) => segmentDistance(u, v, ax, ay, bx, by)));
    const stroke = 0.9;
    const coverage = Math.max(0, Math.min(1, (stroke - d) * unit * scale + 0.5));
    const mix = (i) => Math.round(bg[i] * (1 - coverage) + fg[i] * coverage);
    return [mix(0), mix(1), mix(2), 255];
  };
}

const out = join(root, 'public');
writeFileSync(join(out, 'pwa-192x192.png'), png(192, icon({ maskable: false })));
writeFileSync(join(out, 'pwa-512x512.png'), png(512, icon({ maskable: false })));
writeFileSync(join(out, 'maskable-512x512.png'), png(512, icon({ maskable: true })));
writeFileSync(join(out, 'apple-touch-icon.png'), png(180, icon({ maskable: true })));
writeFileSync(
  join(out, 'favicon.svg'),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28" height="28" rx="7" fill="${background}"/><g fill="none" stroke="${foreground}" stroke-width="1.8" stroke-linejoin="round"><path d="M9 12.5 16 9l7 3.5v8L16 24l-7-3.5z"/><path d="M9 12.5 16 16l7-3.5M16 16v8"/></g></svg>\n`,
);
console.log('icons written to public/');
