// The client's core (`@edge-forms/client`) stays small: built as published (esbuild, minified), it
// is at most 3 KiB gzipped (level 9), and carries no message text (those are ./messages) nor React.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { clientBuildOptions } from '../../scripts/build-client.ts';

describe('the client’s size', () => {
  it('the core, minified, is at most 3072 bytes gzipped, with no message catalogue and no React', async () => {
    const { entryPoints } = clientBuildOptions() as { entryPoints: Record<string, string> };
    const result = await build({
      ...clientBuildOptions(),
      entryPoints: { index: entryPoints.index ?? '' },
      splitting: false,
      write: false,
      metafile: true,
    });
    const [core] = result.outputFiles;
    const gzipped = gzipSync(core?.contents ?? new Uint8Array(), { level: 9 }).length;
    expect(gzipped).toBeGreaterThan(500);
    expect(gzipped).toBeLessThanOrEqual(3072);
    expect(Object.keys(result.metafile.inputs)).toEqual(['client/src/index.ts']);
    expect(core?.text).not.toMatch(/Pflichtfeld|react/);
  });
});
