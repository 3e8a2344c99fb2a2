import { defineConfig } from 'vitest/config';

// The widget in a real browser (Debian's chromium, driven by playwright-core) against
// `npm run dev`, the page served from another origin so that every submission is a CORS request.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
