// The client's core (`@edge-forms/client`) stays small: built as published (esbuild, minified), it
// is at most 3 KiB gzipped (level 9), and carries no message text (those are ./messages) nor React.
// The widget (/widget.js), as every page loads it, is at most 6 KiB gzipped; C45: its conditions
// and prefill (/widget/logic.js) are a script apart, at most 1.5 KiB, which the widget carries none of;
// C46: so are a page's steps (/widget/steps.js), at most 7 KiB.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildWidget, buildWidgetLogic, buildWidgetSteps } from '../../scripts/build-bundles.ts';
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

describe('C45: the widget’s conditions and prefill', () => {
  it('/widget/logic.js, minified, is at most 1536 bytes gzipped; /widget.js holds only the import of it', async () => {
    const logic = await buildWidgetLogic();
    const size = gzipSync(logic, { level: 9 }).length;
    expect(size).toBeGreaterThan(500);
    expect(size).toBeLessThanOrEqual(1536);
    const text = new TextDecoder().decode(logic);
    // The worker's own judgement (src/fields/conditions.ts) is in it.
    expect(text).toContain('.oneOf.includes(');
    const widget = new TextDecoder().decode(await buildWidget());
    expect(widget).toContain('/widget/logic.js');
    expect(widget).not.toContain('oneOf');
    expect(widget).not.toContain('getAttribute("data-when")');
  });
});

describe('C46: the steps’ script of a hosted page', () => {
  it('/widget/steps.js, minified, is at most 7168 bytes gzipped, with the worker’s own rules; /widget.js holds none of it', async () => {
    const steps = await buildWidgetSteps();
    const size = gzipSync(steps, { level: 9 }).length;
    expect(size).toBeGreaterThan(2000);
    expect(size).toBeLessThanOrEqual(7168);
    const text = new TextDecoder().decode(steps);
    // validation.ts's own message, and conditions.ts's judgement.
    expect(text).toContain('is required');
    expect(text).toContain('.oneOf.includes(');
    const widget = new TextDecoder().decode(await buildWidget());
    expect(widget).not.toContain('data-step');
  });
});
