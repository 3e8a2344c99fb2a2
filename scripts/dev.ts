// `npm run dev`: local migrations, the example project of SPEC with a working key, then `wrangler dev`.
// Arguments after `--` go to wrangler (`npm run dev -- --port 8799 --ip 127.0.0.1`).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getPlatformProxy } from 'wrangler';
import { hashKey } from '../src/auth.ts';
import { createKey, createProject, database, findProject, findProjectByKeyHash } from '../src/store.ts';

const EXAMPLE_ID = 'example';
// Only the hash is in D1 (C7), so the example key itself is kept here, git-ignored with .wrangler/.
const KEY_FILE = '.wrangler/example-key';

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
const wranglerArgs = process.argv.slice(2);

function run(args: string[]): void {
  const result = spawnSync('wrangler', args, { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function exampleKey(): Promise<string> {
  const proxy = await getPlatformProxy<{ DB: Parameters<typeof database>[0] }>({
    configPath: 'wrangler.toml',
    persist: true,
  });
  try {
    const db = database(proxy.env.DB);
    if ((await findProject(db, EXAMPLE_ID)) === undefined) {
      const { apiKey } = await createProject(db, {
        id: EXAMPLE_ID,
        name: 'Example',
        fields: [
          { name: 'name', type: 'string', required: false },
          { name: 'email', type: 'string', required: false },
          { name: 'phone', type: 'integer', required: false },
          { name: 'enquiry', type: 'boolean', required: false },
          { name: 'message', type: 'string', required: false },
        ],
      });
      return apiKey;
    }
    const saved = existsSync(KEY_FILE) ? readFileSync(KEY_FILE, 'utf8').trim() : '';
    if (saved && (await findProjectByKeyHash(db, await hashKey(saved)))?.id === EXAMPLE_ID) return saved;
    return await createKey(db, EXAMPLE_ID);
  } finally {
    await proxy.dispose();
  }
}

run(['d1', 'migrations', 'apply', 'DB', '--local']);

const apiKey = await exampleKey();
mkdirSync('.wrangler', { recursive: true });
writeFileSync(KEY_FILE, `${apiKey}\n`);
chmodSync(KEY_FILE, 0o600);

const { values } = parseArgs({
  args: wranglerArgs,
  strict: false,
  options: { port: { type: 'string' }, ip: { type: 'string' } },
});
const host = typeof values.ip === 'string' && values.ip !== '0.0.0.0' ? values.ip : 'localhost';
const port = typeof values.port === 'string' ? values.port : '8787';
const body = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: 2025550123,
  enquiry: true,
  message: 'Hello!',
});

console.log(`
Example project "${EXAMPLE_ID}" (fields: name string, email string, phone integer, enquiry boolean, message string)
API key: ${apiKey}   (also in ${KEY_FILE})

Try it once the server is ready:

curl -i http://${host}:${port}/api/v1/submit \\
  -H 'Authorization: Bearer ${apiKey}' \\
  -H 'Content-Type: application/json' \\
  -d '${body}'
`);

const child = spawn('wrangler', ['dev', ...wranglerArgs], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
