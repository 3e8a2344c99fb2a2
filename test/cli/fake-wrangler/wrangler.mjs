// A stand-in for wrangler (and npm) on the deploy script's PATH (C42's tests): it records every
// call's arguments, and answers as wrangler does for the commands a deploy uses, from a state file
// the test writes (FAKE_STATE): the account's databases, whether the worker exists and its
// secrets, and which call fails.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const path = process.env.FAKE_STATE;
const state = JSON.parse(readFileSync(path, 'utf8'));
const tool = basename(process.argv[1])
  .replace(/\.mjs$/, '')
  .replace(/^npm-shim$/, 'npm');
const args = process.argv.slice(2);
const call = {
  tool: process.env.FAKE_TOOL ?? tool,
  args,
  ciEnv: process.env.CI ?? null,
  tokenInEnv: 'ADMIN_TOKEN' in process.env,
};
state.calls.push(call);
const save = () => writeFileSync(path, JSON.stringify(state, null, 2));
const fail = (message) => {
  save();
  process.stderr.write(`✘ [ERROR] ${message}\n`);
  process.exit(1);
};
const line = [call.tool, ...args].join(' ');
if (state.failOn && line.startsWith(state.failOn)) fail(`simulated failure of ${line}`);

if (call.tool === 'npm') {
  save();
  process.stdout.write(`built (${args.join(' ')})\n`);
  process.exit(0);
}
const [command, sub] = args;
if (command === 'd1' && sub === 'list') {
  if (state.loggedOut) fail('Not logged in. Run `wrangler login`.');
  save();
  process.stdout.write(
    JSON.stringify(
      state.databases.map((name, i) => ({ uuid: `uuid-${i}`, name })),
      null,
      2,
    ),
  );
} else if (command === 'd1' && sub === 'create') {
  state.databases.push(args[2]);
  save();
  process.stdout.write(`✅ Successfully created DB '${args[2]}'\n`);
} else if (command === 'd1' && sub === 'migrations') {
  const name = state.bindings[args[3]];
  if (!state.databases.includes(name)) fail(`Couldn't find a D1 DB with the name or binding '${args[3]}'`);
  state.migrated.push(name);
  save();
  process.stdout.write('✅ No migrations to apply!\n');
} else if (command === 'secret' && sub === 'list') {
  if (!state.worker)
    fail(
      `Worker "${state.name}" not found.\n\nIf this is a new Worker, run \`wrangler deploy\` first to create it.`,
    );
  save();
  process.stdout.write(
    JSON.stringify(Object.keys(state.secrets).map((name) => ({ name, type: 'secret_text' }))),
  );
} else if (command === 'deploy') {
  if (args.includes('--dry-run')) {
    save();
    // As wrangler prints it: a table of every module, the total, then the exit.
    const table = Array.from({ length: 40 }, (_, i) => `│ chunk-${i}.mjs │ esm │ 12.3 KiB │`).join('\n');
    process.stdout.write(`${table}\nTotal Upload: 681.95 KiB / gzip: 224.13 KiB\n--dry-run: exiting now.\n`);
    process.exit(0);
  }
  const at = args.indexOf('--secrets-file');
  if (at !== -1) {
    const file = args[at + 1];
    call.secretsFile = { path: file, mode: statSync(file).mode & 0o777 };
    Object.assign(state.secrets, JSON.parse(readFileSync(file, 'utf8')));
  }
  state.worker = true;
  save();
  process.stdout.write(
    `Uploaded ${state.name}\nDeployed ${state.name} triggers\n  https://${state.name}.example-account.workers.dev\n`,
  );
} else if (command === 'versions' && sub === 'list') {
  save();
  process.stdout.write(JSON.stringify(state.versions ?? [], null, 2));
} else if (command === 'rollback') {
  state.rolledBackTo = args[1];
  save();
  process.stdout.write(`Worker Version ${args[1]} has been deployed to 100% of traffic.\n`);
} else {
  fail(`the stand-in does not know \`${line}\``);
}
