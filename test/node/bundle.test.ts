// C33: the worker's bundle does not carry the dashboard: the dashboard is static assets, and the
// worker's code imports none of it (nor Preact or uPlot). Checked on the worker's own import graph,
// as the worker's build (scripts/build-worker.ts) follows it.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { workerBuildOptions } from '../../scripts/build-worker.ts';

describe('C33: the worker and the dashboard', () => {
  it("the worker's import graph holds no file of the dashboard, and neither Preact nor uPlot", async () => {
    const result = await build({ ...workerBuildOptions(), write: false, outdir: 'out' });
    const inputs = Object.keys(result.metafile?.inputs ?? {});
    expect(inputs.length).toBeGreaterThan(50);
    expect(inputs.filter((path) => /(^|\/)dashboard\/|node_modules\/(preact|uplot)\//.test(path))).toEqual(
      [],
    );
    expect(inputs.some((path) => path.startsWith('src/api/manage/'))).toBe(true);
  });
});
