// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

// Archive pages are rendered on demand by the SSR handler and kept in the page store
// (see docs/decisions.md); only the text pages are prerendered at build time.
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react()],
  build: { format: 'directory' },
  trailingSlash: 'ignore',
  vite: {
    ssr: { external: ['better-sqlite3', 'sharp'] },
  },
});
