// `npm run build:assets`: the worker's static assets, generated into assets/ (git-ignored): the
// widget (widget/widget.ts, minified), the OpenAPI document (generated from the app's routes, src/document.ts), and their headers.
// Every script that serves or bundles the worker runs this first.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'assets');

/**
 * The OpenAPI document, generated from the worker's app. Loaded by a path held in a variable, so
 * that this Node script's type check stays out of the worker's code, which is checked with the
 * Workers types (tsconfig.json).
 */
export async function generateDocument(): Promise<unknown> {
  const generator = '../src/document.ts';
  const { openApiDocument } = (await import(generator)) as { openApiDocument: () => Promise<unknown> };
  return openApiDocument();
}

export async function buildAssets(): Promise<{ widgetBytes: number; widgetGzipBytes: number }> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'api/v1'), { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'widget/widget.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    legalComments: 'none',
  });
  const widget = result.outputFiles[0]?.contents ?? new Uint8Array();
  writeFileSync(join(out, 'widget.js'), widget);
  writeFileSync(join(out, 'api/v1/openapi.json'), `${JSON.stringify(await generateDocument(), null, 2)}\n`);
  // Cloudflare's static assets read these headers (https://developers.cloudflare.com/workers/static-assets/headers/).
  writeFileSync(
    join(out, '_headers'),
    [
      '/widget.js',
      // A day fresh, a week more while revalidating: a fix reaches every site within a day.
      '  Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
      '  Access-Control-Allow-Origin: *',
      '  X-Content-Type-Options: nosniff',
      '/api/v1/openapi.json',
      '  Cache-Control: public, max-age=300',
      '  Access-Control-Allow-Origin: *',
      '',
    ].join('\n'),
  );
  return { widgetBytes: widget.length, widgetGzipBytes: gzipSync(widget, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = await buildAssets();
  console.log(
    `assets/widget.js: ${sizes.widgetBytes} bytes, ${sizes.widgetGzipBytes} gzip; assets/api/v1/openapi.json`,
  );
}
