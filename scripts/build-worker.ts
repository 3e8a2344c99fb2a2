// `npm run build:worker`: the worker as ES modules in dist/worker/, the way it is deployed: the
// entry (index.mjs) holds the submission paths and what they need; every other surface, the queue
// consumer, the cron jobs and the heavy leaves (the pattern engine, file signatures, Access) are
// chunks of their own (chunks/*.mjs), uploaded beside it and evaluated on their first use. A form
// post that starts an isolate evaluates only the entry and the chunks it imports (docs/layout.md).
//
// Wrangler's own bundler makes one file, in which a lazy `import()` wraps every module the lazy
// part shares with the submission path in an initialiser that the submission path then pays for;
// esbuild's code splitting shares them as modules instead. The options are wrangler's (the
// `[alias]` of wrangler.toml, workerd's package conditions), so development (wrangler's bundle of
// src/index.ts) and production run the same code.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import { unstable_readConfig } from 'wrangler';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WORKER_DIR = join(ROOT, 'dist/worker');
/** The entry, as `wrangler deploy <entry> --no-bundle` is given it. */
export const WORKER_ENTRY = join(WORKER_DIR, 'index.mjs');

/**
 * The management API's reply schemas (src/api/manage/views.ts) only describe replies in the OpenAPI
 * document, which is generated at build time (src/document.ts) and served as an asset: the
 * deployed worker never reads them. Its build takes, instead, a module of the same names, each
 * undefined (the routes hand them to descriptions that nothing reads). Wrangler's bundle, under
 * `npm run dev` and the tests, keeps them; they validate nothing either way.
 *
 * Likewise the descriptions the routes share (src/http/openapi-responses.ts) and the submission
 * routes' own operations (src/api/submit/operation.ts, src/api/html-form/operation.ts; C46's drafts'
 * src/api/events/drafts-operation.ts): only a route's
 * description reads them, built when the document is generated, never by the deployed worker. Each
 * name there is a function that describes nothing instead (called, it gives an empty object), so
 * that even a call at a module's top would not stop it.
 */
const DESCRIPTIONS_ONLY =
  /[\\/]src[\\/](?:api[\\/]manage[\\/]views|http[\\/]openapi-responses|api[\\/](?:submit|html-form)[\\/]operation|api[\\/]events[\\/]drafts-operation)\.ts$/;
const descriptionsOnly: Plugin = {
  name: 'descriptions-only',
  setup(b) {
    b.onLoad({ filter: DESCRIPTIONS_ONLY }, (args) => {
      const names = [...readFileSync(args.path, 'utf8').matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
      const stub = /views\.ts$/.test(args.path) ? 'undefined' : '() => ({})';
      return { contents: names.map((name) => `export const ${name} = ${stub};`).join('\n'), loader: 'js' };
    });
  },
};

/** esbuild's options for the worker, with wrangler.toml's aliases, resolved as wrangler resolves for workerd. */
export function workerBuildOptions(root = ROOT): BuildOptions {
  const config = unstable_readConfig({ config: join(root, 'wrangler.toml') });
  const alias = Object.fromEntries(
    Object.entries((config.alias ?? {}) as Record<string, string>).map(([name, path]) => [
      name,
      path.startsWith('.') ? join(root, path) : path,
    ]),
  );
  return {
    absWorkingDir: root,
    entryPoints: { index: join(root, 'src/index.ts') },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2024',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    alias,
    metafile: true,
    logLevel: 'warning',
    plugins: [descriptionsOnly],
    // The messages' typography (’ … — ·) as UTF-8, 3 bytes each, not as 6-byte \u escapes: Workers
    // read a module as UTF-8.
    charset: 'utf8',
  };
}

export type WorkerBuild = {
  metafile: Metafile;
  /** Every module file written, relative to the output directory, the entry first. */
  files: string[];
  bytes: number;
  gzipBytes: number;
};

/** Builds the worker's modules into `outdir` (emptied first). */
export async function buildWorker(outdir = WORKER_DIR, minify = true): Promise<WorkerBuild> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    ...workerBuildOptions(),
    outdir,
    splitting: true,
    // `.mjs`: wrangler.toml's module rule uploads chunks/*.mjs beside the entry as ES modules.
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    minify,
  });
  const metafile = result.metafile as Metafile;
  const files = Object.keys(metafile.outputs)
    .map((path) => relative(outdir, join(ROOT, path)))
    .sort((a, b) => Number(b === 'index.mjs') - Number(a === 'index.mjs') || a.localeCompare(b));
  const contents = files.map((file) => readFileSync(join(outdir, file)));
  return {
    metafile,
    files,
    bytes: contents.reduce((n, c) => n + c.length, 0),
    gzipBytes: gzipSync(Buffer.concat(contents)).length,
  };
}

/**
 * The modules an isolate evaluates at start: the entry and every module it reaches by static
 * imports, by their source path (`src/…`, `node_modules/…`), with the bytes each puts there.
 */
export function startupModules(metafile: Metafile): Map<string, number> {
  const outputs = metafile.outputs;
  // The worker's own entry: each chunk loaded by import() is an entry point of esbuild's too.
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === 'src/index.ts');
  const seen = new Set<string>();
  const queue = entry === undefined ? [] : [entry];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    for (const edge of outputs[path]?.imports ?? []) {
      if (edge.kind === 'import-statement' && !edge.external) queue.push(edge.path);
    }
  }
  const modules = new Map<string, number>();
  for (const path of seen) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]?.inputs ?? {})) {
      if (bytesInOutput > 0) modules.set(input, (modules.get(input) ?? 0) + bytesInOutput);
    }
  }
  return modules;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildWorker(WORKER_DIR, !process.argv.includes('--no-minify'));
  writeFileSync(join(ROOT, 'dist/worker-meta.json'), JSON.stringify(built.metafile));
  const atStart = [...startupModules(built.metafile).values()].reduce((n, b) => n + b, 0);
  console.log(
    `dist/worker: ${built.files.length} modules, ${(built.bytes / 1024).toFixed(1)} KiB, ${(built.gzipBytes / 1024).toFixed(1)} KiB gzip; evaluated at start: ${(atStart / 1024).toFixed(1)} KiB`,
  );
}
