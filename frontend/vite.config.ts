/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import enCommon from './src/i18n/en/common.json';
import { DEFAULT_THEME, pageBackground, prePaintScript, surfaceScale } from './src/shared/theme/themeConfig';

const API_TARGET = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8000';

/** Puts the stored theme on <html> before first paint (no flash of the wrong theme). */
function themePrePaint(): Plugin {
  return {
    name: 'theme-pre-paint',
    transformIndexHtml(html) {
      return html.replace('<!-- theme-pre-paint -->', `<script>${prePaintScript()}</script>`);
    },
  };
}

/** In development, /eudrtrace/* is the trace entry, as the backend serves it in production. */
function traceEntryInDev(): Plugin {
  return {
    name: 'trace-entry-dev',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/eudrtrace\//.test(req.url)) req.url = '/trace.html';
        next();
      });
    },
  };
}

/**
 * Ant Design's popups (Dropdown, Tooltip, Modal, Drawer: `_util/ContextIsolator`) import `FormProvider`
 * through `antd/es/form/context`, from the index of @rc-component/form, whose property assignments
 * (`RefForm.Field = Field`, ...) Rollup must keep: every page with a dropdown got the whole form store and
 * its async validator. That one import is resolved to the module that defines `FormProvider`.
 */
function formProviderOnly(): Plugin {
  const formContext = fileURLToPath(new URL('./node_modules/@rc-component/form/es/FormContext.js', import.meta.url));
  return {
    name: 'form-provider-only',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@rc-component/form' && importer?.replace(/\\/g, '/').endsWith('/antd/es/form/context.js')) return formContext;
      return null;
    },
  };
}

const DIST = fileURLToPath(new URL('./dist', import.meta.url));

/**
 * React in a chunk of its own: it changes less often than the app, so a release does not make a
 * returning visitor download it again. (Grouping antd's component families by hand as well made
 * Rollup pull their shared helpers along, and the entry then imported every group.)
 */
function vendorChunk(id: string): string | undefined {
  return /\/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined;
}

/**
 * Precompressed copies of the built text files (name.br and name.gz beside name.js), made once at build
 * time at the highest levels: WhiteNoise (the server) sends the one the browser accepts, with
 * Content-Encoding, instead of the raw file (backend/config/settings.py, "The built React app").
 */
function precompress(): Plugin {
  const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(DIST)) {
          if (!compressible.test(file) || file.includes(`${join(DIST, '.vite')}`)) continue;
          const raw = readFileSync(file);
          if (raw.length < 1024) continue;
          writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(raw, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
            }),
          );
        }
      },
    },
  };
}

/**
 * The service worker precaches the app shell only: index.html with the entry chunks and styles it
 * loads, the texts, and the icons. Every other chunk (pages, the plot map) is cached when first used
 * (runtime caching below), so a first visit does not download the whole app twice.
 */
function shellOnly<T extends { url: string }>(entries: T[]) {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const referenced = new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]));
  const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; css?: string[] }
  >;
  // the entry's static imports (already in index.html as modulepreload) and the two language bundles
  for (const [key, chunk] of Object.entries(manifest)) {
    if (key === 'index.html' || /src\/i18n\/bundles\/(en|zh)\.ts$/.test(key)) {
      referenced.add(chunk.file);
      for (const css of chunk.css ?? []) referenced.add(css);
      for (const imported of chunk.imports ?? []) {
        const dep = manifest[imported];
        if (dep) referenced.add(dep.file);
      }
    }
  }
  const kept = entries.filter(
    (entry) => referenced.has(entry.url) || !entry.url.startsWith('assets/') || entry.url === 'index.html',
  );
  return { manifest: kept, warnings: [] };
}

export default defineConfig({
  base: '/',
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  plugins: [
    react(),
    formProviderOnly(),
    themePrePaint(),
    traceEntryInDev(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: null,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: enCommon.appName,
        short_name: enCommon.appName,
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: surfaceScale(DEFAULT_THEME.surface)['950'],
        background_color: pageBackground(DEFAULT_THEME),
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: '/maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell (shellOnly): index.html, the entry chunks, texts and icons. Never API responses.
        globPatterns: ['index.html', 'assets/*.{js,css}', '*.{svg,png,ico}'],
        manifestTransforms: [(entries) => Promise.resolve(shellOnly(entries))],
        // The other chunks (hashed, never changing) are kept once a page has used them, for offline use.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'assets', expiration: { maxEntries: 400, maxAgeSeconds: 365 * 24 * 3600 } },
          },
        ],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/eudrtrace\//, /^\/admin\//, /^\/media\//, /^\/static\//],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        cleanupOutdatedCaches: true,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: API_TARGET, changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: API_TARGET, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // dist/.vite/manifest.json: scripts/bundle-budget.mjs measures what loads before the first page.
    manifest: true,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        trace: fileURLToPath(new URL('./trace.html', import.meta.url)),
      },
      output: { manualChunks: vendorChunk },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    restoreMocks: true,
    // Node loads antd's CommonJS build (lib/) for `antd`: the deep import of App's context
    // (src/app/feedback/FeedbackProvider.tsx) must be the same module there.
    alias: { 'antd/es/app/context': 'antd/lib/app/context' },
    testTimeout: 30_000,
    // Vitest's default is one process fewer than the cores: one on a two-core machine such as CI's, where
    // two halve the wall time (each file's jsdom and imports keep one core busy; the main process idles).
    maxWorkers: Math.max(availableParallelism() - 1, 2),
  },
});
