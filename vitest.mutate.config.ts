import { defineConfig } from 'vitest/config';

// The tests `npm run mutate` (Stryker) runs against each mutant: those of the pure modules, in Node.
// The suite inside workerd (@cloudflare/vitest-plugin) cannot run under Stryker's runner
// (docs/testing.md); its rules are held by the hand-made mutants of scripts/mutants.ts.
export default defineConfig({
  test: {
    name: 'mutate',
    environment: 'node',
    include: [
      'test/node/rules.test.ts',
      'test/node/spam-cases.test.ts',
      'test/node/field-spec-cases.test.ts',
      'test/node/spam.test.ts',
      'test/node/spam-signals.test.ts',
      'test/node/spam-trust.test.ts',
      'test/node/page-language.test.ts',
      'test/node/field-spec.test.ts',
      'test/node/conditions.test.ts',
      'test/node/widget-logic.test.ts',
      'test/node/capture.test.ts',
      'test/node/destinations.test.ts',
      'test/node/outbound-text.test.ts',
      'test/node/printable.test.ts',
      'test/node/email.test.ts',
      'test/node/config.test.ts',
      'test/validation.test.ts',
      'test/ids.test.ts',
      'test/lru.test.ts',
      'test/envelope.test.ts',
      'test/keys.test.ts',
    ],
  },
});
