import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The path aliases of tsconfig.json (Vite does not read its `paths`; Astro, tsx and Playwright do). */
const folder = (name: string) => fileURLToPath(new URL(`./${name}/`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@shared\//, replacement: folder('shared') },
      { find: /^@api\//, replacement: folder('api') },
      { find: /^@site\//, replacement: folder('src') },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['tests/global-setup.ts'],
  },
});
