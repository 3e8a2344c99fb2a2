// The client's core (`@edge-forms/client`) stays small: built as published (esbuild, minified), it
// is at most 3 KiB gzipped (level 9), and carries no message text (those are ./messages) nor React.
import { describe, expect, it } from 'vitest';
import { entrySizes } from '../../scripts/build-client.ts';

describe('the client’s size', () => {
  it('the core, minified, is at most 3072 bytes gzipped, with no message catalogue and no React', async () => {
    const { index } = await entrySizes();
    expect(index?.gzip).toBeGreaterThan(500);
    expect(index?.gzip).toBeLessThanOrEqual(3072);
    expect(index?.inputs).toEqual(['client/src/index.ts']);
    expect(index?.imports).toEqual([]);
  });
});
