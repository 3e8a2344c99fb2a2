// The lazy boundary (docs/layout.md): an isolate that starts for a form post evaluates only what
// `POST /api/v1/submit` and `POST /f/:formId` need. Checked on the deployed build's own import
// graph (scripts/build-worker.ts): every module the entry reaches by static imports is one of the
// submission path's; anything else must sit behind an `import()` (a chunk loaded on first use).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker, startupModules, type WorkerBuild } from '../../scripts/build-worker.ts';

/**
 * The submission path's own files: config, the key check, field checks, the pipeline, its own
 * statements (store/intake.ts, SQL on the binding: not Drizzle), the outbox's first step.
 */
const SUBMISSION_PATH = [
  'src/index.ts',
  'src/app.ts',
  'src/config.ts',
  'src/api/submit/',
  'src/api/html-form/',
  'src/accept/',
  'src/auth/authenticate.ts',
  'src/auth/rate-limit.ts',
  // C39: the widget's keys, read from the operator's secret, that a token is checked with.
  'src/auth/operator-secret.ts',
  // C21: one client (an IPv6 /64), for the rate limits.
  'src/lib/clients.ts',
  'src/projects/cache.ts',
  'src/projects/keys.ts',
  'src/fields/catalogue.ts',
  'src/fields/file.ts',
  'src/fields/pattern.ts',
  'src/fields/rules.ts',
  'src/fields/validation.ts',
  'src/files/bytes.ts',
  'src/files/r2.ts',
  'src/http/',
  'src/lib/faults.ts',
  'src/lib/group-commit.ts',
  'src/lib/hex.ts',
  'src/lib/ids.ts',
  'src/lib/lru.ts',
  'src/lib/stream.ts',
  'src/lib/time.ts',
  'src/lib/urls.ts',
  'src/store/d1.ts',
  'src/store/intake.ts',
  // Why D1 refused a row (C18), and (C45) which unique value was taken.
  'src/store/refusals.ts',
  // C41: which database a key or form address names: the bindings' names, no query.
  'src/store/places.ts',
  'src/delivery/outbox.ts',
  // C39: what a request says, checked in the isolate (the widget's token; the proof of work's
  // library is loaded only for a project that requires one).
  'src/spam/request-signals.ts',
];
/** The packages it runs on. */
const PACKAGES = ['hono', 'hono-openapi', '@hono/standard-validator', 'valibot', 'drizzle-orm', 'ipaddr.js'];

const packageOf = (path: string) => {
  const [, scope = '', name = ''] = path.split('/');
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
};
const allowed = (path: string) =>
  path.startsWith('node_modules/')
    ? PACKAGES.includes(packageOf(path))
    : SUBMISSION_PATH.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry));

describe('the lazy boundary: what a form post evaluates at start', () => {
  let out: string;
  let built: WorkerBuild;
  let atStart: string[];
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'forms-startup-'));
    built = await buildWorker(out, false);
    atStart = [...startupModules(built.metafile).keys()];
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('reaches, by static imports, only the submission path', () => {
    expect(atStart).toContain('src/accept/pipeline.ts');
    expect(atStart.filter((path) => !allowed(path))).toEqual([]);
  });

  it('loads every other surface, the consumer, the cron jobs and the heavy leaves on first use', () => {
    const everything = Object.keys(built.metafile.inputs);
    const lazy = [
      'src/surfaces.ts',
      'src/api/manage/routes.ts',
      'src/api/submissions/routes.ts',
      'src/ops/projects.ts',
      'src/cron.ts',
      'src/jobs/consumer.ts',
      'src/jobs/sweep.ts',
      'src/delivery/attempt.ts',
      // C47: the mail provider's settings, and its requests (loaded by the first mail sent).
      'src/delivery/mail-settings.ts',
      'src/delivery/providers/index.ts',
      'src/fields/spec.ts',
      // C44: what a field shows and the hosted page's settings and logo: never on a form post's start.
      'src/fields/display.ts',
      'src/files/logo.ts',
      'src/ops/hosted-page.ts',
      'src/files/sweep.ts',
      'src/store/db.ts',
      'schema/tables.ts',
    ];
    const leaves = [
      'drizzle-orm',
      're2js',
      'magic-bytes.js',
      '@remix-run/multipart-parser',
      'jose',
      'csv-stringify',
      'altcha-lib',
      '@nlpjs/language-min',
      // C47: SES's signer.
      'aws4fetch',
    ];
    // Each is in the build (a chunk of its own or shared), and none is evaluated at start.
    for (const path of lazy) expect(everything).toContain(path);
    for (const name of leaves) expect(everything.some((path) => packageOf(path) === name)).toBe(true);
    expect(atStart.filter((path) => lazy.includes(path) || leaves.includes(packageOf(path)))).toEqual([]);
  });

  it("is one entry module and its chunks, the files wrangler.toml's module rule uploads", () => {
    expect(built.files[0]).toBe('index.mjs');
    expect(built.files.slice(1).every((file) => /^chunks\/[\w-]+\.mjs$/.test(file))).toBe(true);
    expect(built.files.length).toBeGreaterThan(3);
  });
});
