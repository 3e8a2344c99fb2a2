// The browser's bundles among the worker's static assets (scripts/build-assets.ts writes them):
// the dashboard (Preact and uPlot, minified, no CDN) and the widget's two scripts, each built by
// esbuild in memory.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** C33: the dashboard, as one script and one style sheet (Preact, uPlot and its CSS bundled in). */
export async function buildDashboard(): Promise<{ js: Uint8Array; css: Uint8Array }> {
  const result = await build({
    entryPoints: { app: join(root, 'dashboard/main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: join(root, 'assets/admin'),
    write: false,
    legalComments: 'none',
  });
  const output = (ext: string) =>
    result.outputFiles.find((f) => f.path.endsWith(ext))?.contents ?? new Uint8Array();
  return { js: output('.js'), css: output('.css') };
}

/**
 * One of the widget's scripts, minified. Browsers of 2022 on (Safari 15.4, Chrome 94, Firefox 93):
 * class fields as written, not rewritten through helpers (about 100 bytes gzip of altcha-lib's).
 * An older browser posts the form itself, as with scripts off.
 */
async function widgetScript(entry: string, format: 'iife' | 'esm'): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format,
    target: 'es2022',
    // altcha-lib's lists of its algorithms, built at load and unused by the widget.
    pure: ['Object.values'],
    write: false,
    legalComments: 'none',
  });
  return result.outputFiles[0]?.contents ?? new Uint8Array();
}

/** The widget as every page loads it (/widget.js): one minified script. */
export const buildWidget = () => widgetScript('widget/widget.ts', 'iife');

/**
 * C45: the widget's second script (/widget/logic.js): conditions and prefill, imported by widget.js
 * only for a form that uses them, so that no other page loads it. A module, as `import()` takes it.
 */
export const buildWidgetLogic = () => widgetScript('widget/logic.ts', 'esm');

/**
 * C46: the widget's third script (/widget/steps.js): a hosted page in steps, one step at a time,
 * each checked by the worker's own rules. Named by such a page alone; no other page loads it.
 */
export const buildWidgetSteps = () => widgetScript('widget/steps.ts', 'esm');
