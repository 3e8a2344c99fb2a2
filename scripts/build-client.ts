// `npm run build:client`: the client package (client/) as it is published: its three entries as
// minified ES modules in client/dist (`.`, `./react`, `./messages`; the code they share in chunks,
// React left to the page), their declarations (tsc), and each language of the message catalogue as
// JSON (client/dist/i18n/<lang>.json), for a page that fetches only its visitor's language and fills
// it with `fill`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT = join(ROOT, 'client');
export const CLIENT_DIST = join(CLIENT, 'dist');

/** esbuild's options for the package's entries; the size test builds the core with them. */
export function clientBuildOptions(): BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: {
      index: join(CLIENT, 'src/index.ts'),
      messages: join(CLIENT, 'src/messages.ts'),
      react: join(CLIENT, 'src/react.ts'),
    },
    outdir: CLIENT_DIST,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    // Browsers, Node, Deno and Workers alike: nothing of any one platform.
    platform: 'neutral',
    target: 'es2022',
    external: ['react'],
    minify: true,
    charset: 'utf8',
    logLevel: 'warning',
  };
}

/** Each entry built alone, as a bundler that takes only it would: its bytes and its gzip (level 9). */
export async function entrySizes(): Promise<
  Record<string, { bytes: number; gzip: number; inputs: string[]; imports: string[] }>
> {
  const { entryPoints, ...options } = clientBuildOptions();
  const sizes: Record<string, { bytes: number; gzip: number; inputs: string[]; imports: string[] }> = {};
  for (const [name, entry] of Object.entries(entryPoints as Record<string, string>)) {
    const result = await build({
      ...options,
      entryPoints: { [name]: entry },
      splitting: false,
      write: false,
      metafile: true,
    });
    const contents = result.outputFiles?.[0]?.contents ?? new Uint8Array();
    const metafile = result.metafile ?? { inputs: {}, outputs: {} };
    sizes[name] = {
      bytes: contents.length,
      gzip: gzipSync(contents, { level: 9 }).length,
      inputs: Object.keys(metafile.inputs),
      imports: Object.values(metafile.outputs).flatMap((o) => o.imports.map((i) => i.path)),
    };
  }
  return sizes;
}

async function main(): Promise<void> {
  rmSync(CLIENT_DIST, { recursive: true, force: true });
  await build(clientBuildOptions());
  const tsc = spawnSync('tsc', ['-p', join(CLIENT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error('tsc could not write the client’s declarations');
  // The declarations name the modules beside them as published: `./fill.js`, not the source's `./fill.ts`.
  for (const file of readdirSync(CLIENT_DIST, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.d.ts')) continue;
    const path = join(CLIENT_DIST, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/(from '\.{1,2}\/[^']+)\.ts'/g, "$1.js'"));
  }
  const { MESSAGES } = await import('../client/src/messages.ts');
  mkdirSync(join(CLIENT_DIST, 'i18n'));
  for (const [lang, templates] of Object.entries(MESSAGES)) {
    writeFileSync(join(CLIENT_DIST, 'i18n', `${lang}.json`), `${JSON.stringify(templates, null, 2)}\n`);
  }
  const sizes = Object.entries(await entrySizes()).map(
    ([name, s]) => `${name} ${s.bytes} bytes, ${s.gzip} gzip`,
  );
  console.log(`client/dist, each entry alone (React not counted): ${sizes.join('; ')}`);
}

if (import.meta.main) await main();
