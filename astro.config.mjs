// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

// Archive pages are rendered on demand by the SSR handler and kept in the page store
// (see docs/decisions.md); only the text pages are prerendered at build time.
// TROVE_DIST_DIR (scripts/lib/build.ts) moves the build and Astro's cache out of the way of another run.
const distDir = process.env.TROVE_DIST_DIR;

export default defineConfig({
  output: 'server',
  ...(distDir ? { outDir: distDir, cacheDir: `${distDir}-cache` } : {}),
  adapter: node({ mode: 'middleware' }),
  // Islands have no Suspense boundaries, so React's plain renderToString is enough; the streaming
  // renderer cost about 10 % of a post page's render time (docs/benchmarks.md).
  integrations: [react({ experimentalDisableStreaming: true })],
  build: { format: 'directory' },
  trailingSlash: 'ignore',
  vite: {
    ssr: { external: ['better-sqlite3', 'sharp'] },
    // Bundled <script> modules stay files under /_astro/ (Astro would inline small ones): the
    // Content-Security-Policy allows scripts of this origin, and inline ones only by hash
    // (api/server/csp.ts). Other assets keep Vite's default (inlined below 4 KiB).
    build: { assetsInlineLimit: (file) => (/\.[cm]?js$/.test(file) ? false : undefined) },
  },
});
