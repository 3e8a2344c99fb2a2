// `npm run example:react`: app.tsx, React and the client as one minified module, dist/app.js.
// With `-- --serve` it then serves this folder on http://127.0.0.1:8000 (`--port` for another), a
// different origin from the worker's, as a site would be.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const HERE = import.meta.dirname;
const OUTFILE = join(HERE, 'dist/app.js');

/** Builds dist/app.js (React's production build); its bytes and its gzip (level 9). */
async function buildExample(): Promise<{ bytes: number; gzip: number }> {
  await build({
    entryPoints: [join(HERE, 'app.tsx')],
    outfile: OUTFILE,
    // The tsconfig's `jsx` and `paths` (@edge-forms/client from this repository's client/src).
    tsconfig: join(HERE, 'tsconfig.json'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    charset: 'utf8',
    logLevel: 'warning',
  });
  const contents = readFileSync(OUTFILE);
  return { bytes: contents.length, gzip: gzipSync(contents, { level: 9 }).length };
}

/** The page and its bundle: the only two paths it answers. */
const FILES: Record<string, [file: string, type: string]> = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/index.html': ['index.html', 'text/html; charset=utf-8'],
  '/dist/app.js': ['dist/app.js', 'text/javascript; charset=utf-8'],
};

/**
 * Serves the page and its bundle from `dir` (this folder) on 127.0.0.1 (`port` 0: any free one);
 * resolves to the server and its address.
 */
export function serveExample(port: number, dir = HERE): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const found = FILES[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (!found) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    const [file, type] = found;
    res
      .writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' })
      .end(readFileSync(join(dir, file)));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      resolve({ server, url: `http://127.0.0.1:${bound}` });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { serve: { type: 'boolean' }, port: { type: 'string', default: '8000' } },
  });
  const { bytes, gzip } = await buildExample();
  console.log(`examples/react/dist/app.js: ${bytes} bytes, ${gzip} gzip (React included)`);
  if (!values.serve) return;
  const { url } = await serveExample(Number(values.port));
  console.log(openLine(url, kept('example-key'), kept('dev-url')));
}

/** What `npm run dev` keeps beside its local state (run from the repository's root), if it ran. */
function kept(name: string): string {
  const file = join(HERE, '../../.wrangler', name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

/**
 * The address to open: the example's key, and the running `npm run dev`'s submit path when it is not
 * the page's default (another port, another host).
 */
export function openLine(url: string, key: string, devUrl: string): string {
  if (key === '') return `Open ${url}/?key=<the key npm run dev prints> (npm run dev is not running yet?)`;
  const endpoint = devUrl === '' ? '' : `${devUrl}/api/v1/submit`;
  const query = new URLSearchParams({ key });
  if (endpoint !== '' && endpoint !== DEFAULT_ENDPOINT) query.set('endpoint', endpoint);
  return `Open ${url}/?${query}`;
}

/** The page's own endpoint (index.html's data-endpoint): `npm run dev` on its default port. */
const DEFAULT_ENDPOINT = 'http://localhost:8787/api/v1/submit';

if (import.meta.main) await main();
