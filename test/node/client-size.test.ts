// The client's core (`@edge-forms/client`) stays small: built as published (esbuild, minified), it
// is at most 3 KiB gzipped (level 9), and carries no message text (those are ./messages) nor React.
// The widget (/widget.js), as every page loads it, is at most 6 KiB gzipped.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-assets.ts';
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

describe('the widget’s size', () => {
  it('/widget.js, minified, is at most 6144 bytes gzipped', async () => {
    const widget = await buildWidget();
    expect(gzipSync(widget, { level: 9 }).length).toBeLessThanOrEqual(6144);
  });
});
