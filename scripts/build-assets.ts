// `npm run build:assets`: the worker's static assets, generated into assets/ (git-ignored): the
// widget (widget/widget.ts, minified), the dashboard (dashboard/, Preact and uPlot, minified), the
// OpenAPI document (generated from the app's routes, src/document.ts), the API reference page
// (RapiDoc, bundled: no CDN), the widget's message catalogues (the client's, one file a language),
// and their headers.
// Every script that serves or bundles the worker runs this first.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MESSAGES } from '../client/src/messages.ts';
import type { LanguagesFile } from '../src/spam/language.ts';
import type { ModelFile } from '../src/spam/model.ts';
import { loadLists, readPrior } from '../toolkit/spam-lists.ts';
import { buildDashboard, buildWidget, buildWidgetLogic, buildWidgetSteps } from './build-bundles.ts';

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

type Document = {
  info: { description?: string };
  paths: Record<string, Record<string, { responses?: object }>>;
};

/**
 * C24: the document as the reference page shows it: the served one without the operations that
 * only refuse their method (C16), said once in its introduction instead. Listed one by one they
 * were three in four of its entries, and made the page slow to open.
 */
export function readingDocument(document: Document): Document {
  const refusesOnly = (operation: { responses?: object }) =>
    Object.keys(operation.responses ?? {}).join() === '405';
  const paths: Document['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const kept = Object.entries(item).filter(([, operation]) => !refusesOnly(operation));
    if (kept.length > 0) paths[path] = Object.fromEntries(kept);
  }
  const said =
    'A method a path does not list answers 405 in the envelope, with `Allow` naming the methods it takes.';
  return {
    ...document,
    info: { ...document.info, description: `${document.info.description ?? ''}\n\n${said}` },
    paths,
  };
}

/** C33: what the dashboard offers of each delivery kind, from the channels' map (src/delivery/channels/). */
export async function channelChoices(): Promise<unknown> {
  const channels = '../src/delivery/channels/index.ts';
  return ((await import(channels)) as { channelChoices: () => unknown }).channelChoices();
}

/**
 * C24: the API reference page: RapiDoc, served from here, reading the document beside it (as
 * `readingDocument` shapes it), one operation at a time, chosen in its navigation: all at once took
 * some 20 s to draw here. Below 768 px RapiDoc hides that navigation, so there it lists the
 * operations instead, each opened where it stands (REFERENCE_SETUP). Its colours, set here, read
 * at 4.5:1 or better (RapiDoc's own, an orange and light method colours, did not).
 */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>edge-forms API reference</title>
<link rel="icon" href="data:,">
<style>rapi-doc{--green:#3d6b00;--blue:#1a6ea8;--orange:#9a5200;--yellow:#6b6200;--red:#c0312b;--purple:#7a3e9d;--light-fg:#5f6368}</style>
<script type="module" src="./rapidoc-min.js"></script>
</head>
<body>
<rapi-doc spec-url="./openapi.json" render-style="focused" show-method-in-nav-bar="as-plain-text"
  show-header="false" allow-try="false" primary-color="#b93a0c" nav-bg-color="#eef0f3" nav-text-color="#333333"
  allow-server-selection="false" regular-font="system-ui, sans-serif" mono-font="ui-monospace, monospace"
  schema-style="table" default-schema-tab="schema" load-fonts="false"></rapi-doc>
<script src="./setup.js"></script>
</body>
</html>
`;

/**
 * Run as the page is read, before RapiDoc (a module, run after it) reads its attributes: on a
 * narrow screen, the list of operations rather than the navigation RapiDoc hides there.
 */
const REFERENCE_SETUP = `if (matchMedia('(max-width: 767.98px)').matches) {
  document.querySelector('rapi-doc')?.setAttribute('render-style', 'view');
}
`;

/**
 * Writes the files into `dir` without ever removing the directory (a running `wrangler dev` watches
 * it, and loses assets whose directory vanishes): each file is written beside itself and renamed
 * into place; files no longer built are removed.
 */
function writeAll(dir: string, files: Map<string, Uint8Array | string>): void {
  for (const [name, content] of files) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, path);
  }
  const wanted = new Set([...files.keys()].map((name) => join(dir, name)));
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !wanted.has(path)) rmSync(path);
  }
}

/** C33: the dashboard's page: its script and style beside it, nothing from elsewhere. */
const DASHBOARD_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>edge-forms</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="./app.css">
<script type="module" src="./app.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>The dashboard needs JavaScript. The same can be done with <code>npm run forms</code>.</noscript>
</body>
</html>
`;

/**
 * C39: the languages the detector names without a model: the scripts @nlpjs/language-min counts
 * that are each one language's (its `scripts`, less those @nlpjs/language models), by the key the
 * library gives them.
 */
const SCRIPT_LANGUAGES =
  'cmn ben jpn kor tel tam guj kan mal Myanmar ori pan tha sin ell khm hye sat bod kat lao zgh iii aii';

/**
 * C39: the tags of the languages @nlpjs/language models by an individual code (ISO 639-3) where
 * owners write the macrolanguage's (BCP 47 prefers `sw` to `swh`, `ms` to `zlm`), and of those
 * BCP 47 tags two ways (Norwegian's written standards, Filipino for Tagalog).
 */
const MORE_TAGS: Record<string, string[]> = {
  arb: ['ara'],
  cmn: ['zho'],
  nob: ['no', 'nor'],
  nno: ['no', 'nor'],
  tgl: ['fil'],
  Myanmar: ['my', 'mya'],
  gax: ['om', 'orm'],
  swh: ['sw', 'swa'],
  uzn: ['uz', 'uzb'],
  azj: ['az', 'aze'],
  zlm: ['ms', 'msa'],
  pbu: ['ps', 'pus'],
  ydd: ['yi', 'yid'],
  als: ['sq', 'sqi'],
  plt: ['mg', 'mlg'],
  khk: ['mn', 'mon'],
  ayr: ['ay', 'aym'],
  quz: ['qu', 'que'],
  qug: ['qu', 'que'],
  quy: ['qu', 'que'],
  ckb: ['ku', 'kur'],
  fuv: ['ff', 'ful'],
  fuf: ['ff', 'ful'],
  knc: ['kr', 'kau'],
  koi: ['kv', 'kom'],
  kng: ['kg', 'kon'],
  zyb: ['za', 'zha'],
  src: ['sc', 'srd'],
};

/**
 * C39: assets/spam/languages.json (src/spam/language.ts): @nlpjs/language's trigram models of the
 * languages with an ISO 639-1 code (their own or their macrolanguage's), as the library takes them,
 * and the tags of every language the detector can name: its ISO 639-1 code (reported), its own
 * code, those of MORE_TAGS. The 56 others (Scots, Sardinian, Northern Sotho, Tok Pisin…) mostly
 * took text from a neighbour: with them, 2 genuine English lines of the form corpus read as Scots
 * and 9 own-language lines were flagged; without them none genuine and 6 (as many foreign ones
 * caught), and the best guess is right for 401 lines of 440 instead of 375 (bench/language.ts).
 * An owner expecting one of them is not judged on language.
 */
export function languageModels(): string {
  const read = (path: string) => JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(path)), 'utf8'));
  const data: LanguagesFile['models'] = read('@nlpjs/language/src/data.json');
  const table: [alpha2: string, alpha3: string, name: string][] = read('@nlpjs/language/src/languages.json');
  const alpha2 = new Map(table.map(([two, three]) => [three, two]));
  const tags: LanguagesFile['tags'] = {};
  const tagsOf = (code: string) => {
    const more = MORE_TAGS[code] ?? [];
    const two = alpha2.get(code) ?? more.find((tag) => tag.length === 2);
    const own = /^[a-z]{3}$/.test(code) ? [code] : [];
    return [...new Set([...(two === undefined ? [] : [two]), ...own, ...more])];
  };
  const models: LanguagesFile['models'] = {};
  for (const [script, languages] of Object.entries(data)) {
    const kept = Object.entries(languages).filter(([code]) => tagsOf(code)[0]?.length === 2);
    models[script] = Object.fromEntries(kept);
    for (const [code] of kept) tags[code] = tagsOf(code);
  }
  for (const code of SCRIPT_LANGUAGES.split(' ')) tags[code] = tagsOf(code);
  const file: LanguagesFile = { models, tags };
  return JSON.stringify(file);
}

/** C39: assets/spam/model.json: the committed prior and the lists (src/spam/model.ts). */
function spamModel(): string {
  const lists = loadLists();
  const file: ModelFile = {
    prior: readPrior(),
    disposable: [...lists.disposable].sort(),
    shorteners: [...lists.shorteners].sort(),
  };
  return JSON.stringify(file);
}

export async function buildAssets(): Promise<{
  widgetBytes: number;
  widgetGzipBytes: number;
  logicGzipBytes: number;
  stepsGzipBytes: number;
  dashboardGzipBytes: number;
}> {
  const widget = await buildWidget();
  const logic = await buildWidgetLogic();
  const steps = await buildWidgetSteps();
  const dashboard = await buildDashboard();
  const document = await generateDocument();
  const files = new Map<string, Uint8Array | string>([
    ['widget.js', widget],
    ['widget/logic.js', logic],
    ['widget/steps.js', steps],
    // C43: each language's sentences for the failures' codes, as the client words them, fetched by
    // the widget for a page in that language when a submission fails (widget/i18n.ts).
    ...Object.entries(MESSAGES).map(([lang, templates]): [string, string] => [
      `widget/i18n/${lang}.json`,
      JSON.stringify(templates),
    ]),
    ['admin/index.html', DASHBOARD_PAGE],
    ['admin/app.js', dashboard.js],
    ['admin/app.css', dashboard.css],
    ['admin/preview.css', readFileSync(join(root, 'dashboard/preview.css'))],
    ['admin/channels.json', JSON.stringify(await channelChoices())],
    ['api/v1/openapi.json', `${JSON.stringify(document, null, 2)}\n`],
    ['reference/index.html', REFERENCE_PAGE],
    ['reference/setup.js', REFERENCE_SETUP],
    ['reference/openapi.json', JSON.stringify(readingDocument(document as Document))],
    [
      'reference/rapidoc-min.js',
      readFileSync(fileURLToPath(import.meta.resolve('rapidoc/dist/rapidoc-min.js'))),
    ],
    // C39: the spam filter's prior and lists, read by the worker through its ASSETS binding only
    // (wrangler.toml sends requests for /spam/* to the worker, which serves none of it).
    ['spam/model.json', spamModel()],
    // C39: the language models (@nlpjs/language's, MIT), read the same way (src/spam/language.ts).
    ['spam/languages.json', languageModels()],
    // Cloudflare's static assets read these headers (https://developers.cloudflare.com/workers/static-assets/headers/).
    [
      '_headers',
      [
        '/widget.js',
        // A day fresh, a week more while revalidating: a fix reaches every site within a day.
        '  Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
        '  Access-Control-Allow-Origin: *',
        '  X-Content-Type-Options: nosniff',
        // Fetched from every site's pages as widget.js is, and as long-lived: a new sentence reaches
        // pages with the next widget.
        '/widget/i18n/*',
        '  Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
        '  Access-Control-Allow-Origin: *',
        '  X-Content-Type-Options: nosniff',
        // C45: imported by widget.js as a module, which a page of another origin may import
        // only with CORS; as long-lived as widget.js, which it goes with.
        '/widget/logic.js',
        '  Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
        '  Access-Control-Allow-Origin: *',
        '  X-Content-Type-Options: nosniff',
        // C46: named by the hosted page of a form in steps, of this origin, as long-lived.
        '/widget/steps.js',
        '  Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
        '  X-Content-Type-Options: nosniff',
        '/api/v1/openapi.json',
        '  Cache-Control: public, max-age=300',
        '  Access-Control-Allow-Origin: *',
        // The reference page loads nothing from elsewhere; RapiDoc sets its styles inline.
        '/reference/*',
        "  Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        '  X-Content-Type-Options: nosniff',
        // C33: the dashboard loads nothing from elsewhere, and no other site may frame it. Its
        // files are revalidated on every load, so a new version is seen at once.
        '/admin/*',
        "  Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        '  X-Content-Type-Options: nosniff',
        '  Referrer-Policy: no-referrer',
        '  Cache-Control: no-cache',
        '',
      ].join('\n'),
    ],
  ]);
  mkdirSync(out, { recursive: true });
  writeAll(out, files);
  return {
    widgetBytes: widget.length,
    widgetGzipBytes: gzipSync(widget, { level: 9 }).length,
    logicGzipBytes: gzipSync(logic, { level: 9 }).length,
    stepsGzipBytes: gzipSync(steps, { level: 9 }).length,
    dashboardGzipBytes: [dashboard.js, dashboard.css, DASHBOARD_PAGE].reduce(
      (n, f) => n + gzipSync(f, { level: 9 }).length,
      0,
    ),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = await buildAssets();
  console.log(
    `assets/widget.js: ${sizes.widgetBytes} bytes, ${sizes.widgetGzipBytes} gzip; assets/widget/logic.js (conditions, capture and prefill): ${sizes.logicGzipBytes} gzip; assets/widget/steps.js (a page in steps): ${sizes.stepsGzipBytes} gzip; assets/widget/i18n/ (${Object.keys(MESSAGES).length} languages); assets/admin/ (the dashboard): ${sizes.dashboardGzipBytes} gzip; assets/api/v1/openapi.json; assets/reference/`,
  );
}
