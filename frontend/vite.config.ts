/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
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

export default defineConfig({
  base: '/',
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  plugins: [
    react(),
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
        // The app shell: built JS, CSS, HTML, icons. Never API responses.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/eudrtrace\//, /^\/admin\//, /^\/media\//, /^\/static\//],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        cleanupOutdatedCaches: true,
      },
      devOptions: { enabled: false },
    }),
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
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    restoreMocks: true,
    testTimeout: 30_000,
  },
});
