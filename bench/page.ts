// C44: a hosted form page under `npm run bench`: its size (the page, and with the widget it loads)
// and its time to first byte, side by side with the widget's own file served by a worker that does
// nothing else (as Workers Static Assets would serve it). The page is turned on for the bench's
// project, in two languages; its first answer renders it (a miss of the edge cache), the others
// are the edge cache's (Miniflare's Cache API). Medians of RUNS sequential requests each.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { renderPage } from '../src/pages/render.ts';
import { median } from './harness.ts';

const RUNS = 200;

/** Time to the answer's headers, then its whole body read. */
async function firstByte(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; body: Uint8Array }> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const ms = performance.now() - started;
  const body = new Uint8Array(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return { ms, body };
}

export type PageFigures = {
  pageBytes: number;
  pageGzip: number;
  widgetGzip: number;
  /** C46: the bench's page in two steps, with the widget and the steps' script (budget 24 KB). */
  steppedGzip: number;
  firstMs: number;
  pageMs: number;
  widgetMs: number;
};

/** Turns the project's page on (its database is the service's) and measures it. */
export async function measurePage(mf: Miniflare, submitUrl: string, projectId: string): Promise<PageFigures> {
  const db = await mf.getD1Database('DB');
  await db
    .prepare(
      `update projects set page_enabled = 1, page_languages = '["en","de"]',
        page_title = '{"en":"Bench","de":"Bench"}', page_intro = '{"en":"A form of five fields."}'
       where id = ?`,
    )
    .bind(projectId)
    .run();
  const row = await db
    .prepare('select form_id from projects where id = ?')
    .bind(projectId)
    .first<{ form_id: string }>();
  const pageUrl = new URL(`/f/${row?.form_id ?? ''}`, submitUrl).href;
  const widget = readFileSync('assets/widget.js');
  const floor = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: `const body = new Uint8Array(${JSON.stringify([...widget])});
export default { fetch: () => new Response(body, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } }) };`,
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    }),
  );
  await floor.ready;
  const widgetUrl = `${await floor.unsafeGetDirectURL()}widget.js`;
  try {
    const first = await firstByte(pageUrl, { 'Accept-Language': 'de' });
    const page: number[] = [];
    const file: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, as the service and the floor are.
      file.push((await firstByte(widgetUrl)).ms);
      page.push((await firstByte(pageUrl, { 'Accept-Language': 'de' })).ms);
    }
    return {
      pageBytes: first.body.length,
      pageGzip: gzipSync(first.body, { level: 9 }).length,
      widgetGzip: gzipSync(widget, { level: 9 }).length,
      steppedGzip: await steppedPage(),
      firstMs: first.ms,
      pageMs: median(page),
      widgetMs: median(file),
    };
  } finally {
    await floor.dispose();
  }
}

/**
 * C46: the bench's five fields on two steps (the last three on the second), titled in two
 * languages, as the page renders them: its gzip with widget.js's and steps.js's.
 */
async function steppedPage(): Promise<number> {
  const step = (name: string) => (['phone', 'enquiry', 'message'].includes(name) ? 2 : 1);
  const types = {
    name: 'string',
    email: 'string',
    phone: 'integer',
    enquiry: 'boolean',
    message: 'string',
  } as const;
  const { html } = await renderPage({
    origin: 'https://forms.example',
    formId: 'f_bench',
    projectName: 'Bench',
    lang: 'de',
    languages: ['en', 'de'],
    title: 'Bench',
    intro: 'A form of five fields.',
    thanks: undefined,
    accent: '#1f5fbf',
    theme: 'auto',
    logo: undefined,
    honeypot: null,
    steps: ['Über Sie', 'Ihre Nachricht'],
    fields: Object.entries(types).map(([name, type]) => ({
      field: { name, type, required: name !== 'phone', step: step(name) },
      shown: {},
    })),
  });
  const gz = (bytes: Uint8Array | string) => gzipSync(bytes, { level: 9 }).length;
  return gz(html) + gz(readFileSync('assets/widget.js')) + gz(readFileSync('assets/widget/steps.js'));
}

export const pageLine = (f: PageFigures) =>
  `Hosted page (C44): ${f.pageBytes} bytes, ${f.pageGzip} gzip; with the widget ${f.pageGzip + f.widgetGzip} gzip (budget 20,000); in two steps (C46), with the widget and steps.js, ${f.steppedGzip} gzip (budget 24,000). Time to first byte, median of ${RUNS}: the page ${f.pageMs.toFixed(2)} ms from the edge cache (rendered: ${f.firstMs.toFixed(1)} ms), the widget's file ${f.widgetMs.toFixed(2)} ms.`;
