// `npm run dev`: local migrations (applied on demand), the example project of SPEC with a working key, then `wrangler dev`.
// Arguments after `--` go to wrangler (`npm run dev -- --port 8799 --ip 127.0.0.1`).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import type { FieldRules } from '../src/fields/catalogue.ts';
import { parseFieldSpec } from '../src/fields/spec.ts';
import { defineField } from '../src/ops/fields.ts';
import { createKey } from '../src/ops/keys.ts';
import { createProject } from '../src/ops/projects.ts';
import { hashKey } from '../src/projects/keys.ts';
import { findProjectByKeyHash } from '../src/store/intake.ts';
import { addField, findProject, projectDetails, updateProjectSettings } from '../src/store/projects.ts';
import { openDatabase } from '../toolkit/database.ts';
import { DEV_VARS, ensureAdminToken } from '../toolkit/dev-vars.ts';
import { buildAssets } from './build-assets.ts';
import { EXAMPLE_FIELDS, EXAMPLE_FORM_ID, EXAMPLE_ID, exampleFields } from './example.ts';

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
const wranglerArgs = process.argv.slice(2);
const { values } = parseArgs({
  args: wranglerArgs,
  strict: false,
  options: { port: { type: 'string' }, ip: { type: 'string' }, 'persist-to': { type: 'string' } },
});
const persistTo = typeof values['persist-to'] === 'string' ? values['persist-to'] : undefined;
// Only the hash is in D1 (C7), so the example key itself is kept beside the local state (git-ignored).
const KEY_FILE = join(persistTo ?? '.wrangler', 'example-key');

// The widget, the OpenAPI document and the API reference, served by wrangler dev as static assets.
console.log('Building the assets and the local database…');
await buildAssets();

async function exampleKey(): Promise<string> {
  const { db, close } = await openDatabase({ remote: false, persistTo });
  try {
    const existing = await findProject(db, EXAMPLE_ID);
    if (existing === undefined) {
      // Through the same code as `forms project create`.
      const { apiKey } = await createProject(
        { db, actor: { kind: 'tool' } },
        { id: EXAMPLE_ID, formId: EXAMPLE_FORM_ID, name: 'Example', fields: exampleFields() },
      );
      return apiKey;
    }
    // An example project made before HTML forms and files: given its form address and file field.
    if (existing.formId !== EXAMPLE_FORM_ID) {
      await updateProjectSettings(db, EXAMPLE_ID, { formId: EXAMPLE_FORM_ID });
      const details = await projectDetails(db, EXAMPLE_ID);
      if (details !== undefined && !details.fields.some((f) => f.name === 'cv')) {
        await addField(db, EXAMPLE_ID, parseFieldSpec(EXAMPLE_FIELDS.at(-1) ?? ''));
      }
    }
    // An example project made before its fields had rules: given them through the same code as
    // `forms field set`, each field only while it is as that `npm run dev` made it (a string with no
    // rule), so that a change of one's own to the example is kept.
    const fields = (await projectDetails(db, EXAMPLE_ID))?.fields ?? [];
    const tool = { db, actor: { kind: 'tool' as const } };
    for (const def of exampleFields()) {
      const stored = fields.find((f) => f.name === def.name);
      const ruled = def.type === 'string' && (def.required || def.rules !== undefined);
      if (ruled && stored?.type === 'string' && !stored.required && stored.rules === null)
        await defineField(tool, EXAMPLE_ID, def, 'replace');
      // C44: and, made before fields showed labels, the labels of those whose names read badly.
      // Only the label: the field stays as its owner has it.
      else if (def.label !== undefined && stored !== undefined && stored.label == null)
        await defineField(
          tool,
          EXAMPLE_ID,
          {
            name: stored.name,
            type: stored.type,
            required: stored.required,
            ...(stored.rules == null ? {} : { rules: JSON.parse(stored.rules) as FieldRules }),
            label: def.label,
          },
          'replace',
        );
    }
    const saved = existsSync(KEY_FILE) ? readFileSync(KEY_FILE, 'utf8').trim() : '';
    if (saved && (await findProjectByKeyHash(db.$client, await hashKey(saved)))?.id === EXAMPLE_ID)
      return saved;
    return await createKey({ db, actor: { kind: 'tool' } }, EXAMPLE_ID, 'publishable');
  } finally {
    await close();
  }
}

const apiKey = await exampleKey();
// C32: the management API's operator token, made once and kept in .dev.vars; never printed.
const madeToken = ensureAdminToken();
mkdirSync(dirname(KEY_FILE), { recursive: true });
writeFileSync(KEY_FILE, `${apiKey}\n`);
chmodSync(KEY_FILE, 0o600);

const host = typeof values.ip === 'string' && values.ip !== '0.0.0.0' ? values.ip : 'localhost';
const port = typeof values.port === 'string' ? values.port : '8787';
// Where this server listens, kept beside the example's key: `npm run example:react -- --serve`
// prints an address that posts here, whatever the port.
writeFileSync(join(dirname(KEY_FILE), 'dev-url'), `http://${host}:${port}\n`);
const body = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: 2025550123,
  enquiry: true,
  message: 'Hello!',
});

const summary = `
Ready. The example project "${EXAMPLE_ID}" (fields: name required, email format=email, phone integer, enquiry boolean, message of up to 5,000 characters, cv file labelled "Your CV"):
  API key        ${apiKey}   (also in ${KEY_FILE})
  HTML form      http://${host}:${port}/f/${EXAMPLE_FORM_ID}   (try examples/plain.html)
  Dashboard      http://${host}:${port}/admin/   (sign in with ADMIN_TOKEN from ${DEV_VARS}${madeToken ? ', made just now' : ''})
  API reference  http://${host}:${port}/reference/   (the management API: the same token as a Bearer)

Try it:

curl -i http://${host}:${port}/api/v1/submit \\
  -H 'Authorization: Bearer ${apiKey}' \\
  -H 'Content-Type: application/json' \\
  -d '${body}'
`;

/**
 * What wrangler prints that tells a person trying the example nothing: its banner, the table of
 * bindings (drawn on every reload), and the failed look-up of Cloudflare's request metadata when
 * offline, with its stack. Everything else (the worker's own logs, warnings, "Ready on") passes.
 */
function relay(from: Readable, to: NodeJS.WriteStream, onReady: () => void): void {
  let inBindings = false;
  let inLookupFailure = false;
  createInterface({ input: from }).on('line', (line) => {
    const plain = stripVTControlCharacters(line);
    if (plain.startsWith('Your Worker has access to the following bindings')) {
      inBindings = true;
      return;
    }
    if (inBindings) {
      inBindings = plain.trim() !== '';
      return;
    }
    if (plain.includes('Unable to fetch the `Request.cf` object')) {
      inLookupFailure = true;
      return;
    }
    if (inLookupFailure && (/^Error: getaddrinfo/.test(plain) || /^\s+at /.test(plain))) return;
    inLookupFailure = false;
    if (/^\s*⛅️ wrangler/.test(plain) || /^─+$/.test(plain.trim())) return;
    to.write(`${line}\n`);
    if (plain.includes('Ready on ')) onReady();
  });
}

// C26: under `npm run dev`, webhooks may point at a receiver on this machine over plain http.
// C36: the worker's own address, for the links to the dashboard in chat messages.
const child = spawn(
  'wrangler',
  [
    'dev',
    '--var',
    'ALLOW_LOCAL_WEBHOOKS:true',
    '--var',
    `PUBLIC_URL:http://${host}:${port}`,
    ...wranglerArgs,
  ],
  { stdio: ['inherit', 'pipe', 'pipe'], env },
);
let ready = false;
const onReady = () => {
  if (ready) return;
  ready = true;
  console.log(summary);
};
relay(child.stdout, process.stdout, onReady);
relay(child.stderr, process.stderr, onReady);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
