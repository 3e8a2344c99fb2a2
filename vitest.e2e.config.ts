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
    // A test reads D1 through a second runtime while `npm run dev` writes it; the lock it meets is
    // tried again (`reading` in test/e2e/harness.ts), and that runtime's report of it, with its
    // native stack, is noise in a passing run. A read that still fails throws its own error.
    onConsoleLog: (log) => !/workerd\/util\/sqlite\.c\+\+.*SQLITE_BUSY/.test(log),
  },
});
