// C33: the worker's bundle does not carry the dashboard: the dashboard is static assets, and the
// worker's code imports none of it (nor Preact or uPlot). Checked on the worker's own import graph,
// as esbuild (wrangler's bundler) follows it.
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('C33: the worker and the dashboard', () => {
  it("the worker's import graph holds no file of the dashboard, and neither Preact nor uPlot", async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'src/index.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      // As wrangler resolves packages for workerd.
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
      external: ['cloudflare:*', 'node:*'],
      alias: {
        '@standard-community/standard-openapi': join(ROOT, 'src/http/no-generator.ts'),
        '@standard-community/standard-json': join(ROOT, 'src/http/no-generator.ts'),
      },
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(50);
    expect(inputs.filter((path) => /(^|\/)dashboard\/|node_modules\/(preact|uplot)\//.test(path))).toEqual(
      [],
    );
    expect(inputs.some((path) => path.startsWith('src/admin/'))).toBe(true);
  });
});
