// `npm run deploy` (C42): everything a deploy needs that can be done for the user, in order, each
// step stopping the rest when it fails and saying what to do. The databases are made and migrated
// before the code that needs their schema is uploaded; a first deploy makes the operator token and
// hands it to wrangler in a file only the user can read, never on a command line. `--dry-run`
// prints the plan and checks the upload offline (`wrangler deploy --dry-run`).
//
// Every command is looked up on the PATH (`npm run` puts the project's wrangler first), so the
// tests put a stand-in wrangler and npm there and check what each was asked. Its steps are
// scripts/deploy-steps.ts's; going back, scripts/rollback.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { randomToken, TOKEN_LENGTH } from '../src/lib/hex.ts';
import { accountDatabases, createArgs } from '../toolkit/database.ts';
import { readDeployment, saveDeployment } from '../toolkit/deployment.ts';
import {
  checkMail,
  EXAMPLE_SENDER,
  type MailPlan,
  mailPlan,
  mailWarnings,
  workerSecrets,
} from './deploy-mail.ts';
import { AUTH, run, StepFailed, step } from './deploy-steps.ts';
import { rollback, versionTag } from './rollback.ts';

const ENTRY = 'dist/worker/index.mjs';
const UPLOAD = ['deploy', ENTRY, '--no-bundle'];

type Database = { binding: string; name: string };
type Config = {
  worker: string;
  databases: Database[];
  /** Settings of wrangler.toml's [vars] meant for this machine alone, set on: what each opens. */
  localOnly: string[];
  /** Settings still as the repository ships them, which a deployment should set (said first). */
  examples: string[];
  /** C47: mail as wrangler.toml sets it up, and what a deploy checks of it. */
  mail: MailPlan;
};

/**
 * C26, C38: settings that open a deployed worker to what only local development needs: plain http
 * to private addresses (webhooks to anything on the worker's network) and, with it, every
 * integration's requests sent to a stand-in's address instead of its service.
 */
function localOnlySettings(vars: Record<string, unknown>): string[] {
  const on = vars.ALLOW_LOCAL_WEBHOOKS === true || vars.ALLOW_LOCAL_WEBHOOKS === 'true';
  if (!on) return [];
  const base = typeof vars.INTEGRATIONS_API_BASE === 'string' ? vars.INTEGRATIONS_API_BASE : '';
  const mail = typeof vars.EMAIL_API_BASE === 'string' ? vars.EMAIL_API_BASE.trim() : '';
  return [
    'ALLOW_LOCAL_WEBHOOKS = "true" (webhooks over plain http to private and local addresses; Turnstile\'s test secrets count as a challenge)',
    ...(base === ''
      ? []
      : [`INTEGRATIONS_API_BASE = "${base}" (every integration's requests, with their tokens, go there)`]),
    // C47: a stand-in of the mail provider, over plain http, is local development's too.
    ...(mail.startsWith('http:')
      ? [`EMAIL_API_BASE = "${mail}" (every mail, with the provider's key, goes there)`]
      : []),
  ];
}

/**
 * C42: settings of wrangler.toml still as the repository ships them: a deploy works with them, but
 * something a site owner expects does not (a link, a mail), so they are said before the plan.
 */
export function exampleSettings(vars: Record<string, unknown>): string[] {
  const out: string[] = [];
  const url = typeof vars.PUBLIC_URL === 'string' ? vars.PUBLIC_URL.trim() : '';
  if (url === '')
    out.push(
      "PUBLIC_URL is empty: Slack and Discord messages carry no link to the submission, and a verification mail links to whatever address the request came to. Set it to the worker's address (https://forms.example.com)",
    );
  const from = typeof vars.EMAIL_FROM === 'string' ? vars.EMAIL_FROM : '';
  if (EXAMPLE_SENDER.test(from))
    out.push(
      `EMAIL_FROM is still ${from}: no mail can be sent from it, and a deploy stops on it while mail is set up (C47). Set it to an address on your domain with Email Routing or your mail provider (docs/deploy.md)`,
    );
  return out;
}

/** What wrangler.toml names: the worker, and each D1 database by binding and name (C42: no ids). */
export function readDeployConfig(path = 'wrangler.toml'): Config {
  const config = unstable_readConfig({ config: path });
  const vars = config.vars as Record<string, unknown>;
  return {
    worker: config.name ?? 'edge-forms',
    databases: config.d1_databases.map((d: { binding: string; database_name?: string }) => ({
      binding: d.binding,
      name: d.database_name ?? d.binding,
    })),
    localOnly: localOnlySettings(vars),
    examples: exampleSettings(vars),
    mail: mailPlan(
      vars,
      config.send_email.some((b: { name: string }) => b.name === 'EMAIL'),
    ),
  };
}

/** CI=true (any value but empty, 0 or false), as CI services and Workers Builds set it. */
export const inCi = (env: NodeJS.ProcessEnv = process.env) =>
  env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase());

export function plan(config: Config): string[] {
  const bindings = config.databases.map((d) => d.binding).join(', ');
  return [
    'build the assets (widget, dashboard, API document) and the worker’s modules',
    `find the D1 databases of wrangler.toml in the account (${config.databases.map((d) => d.name).join(', ')})`,
    'create each one that does not exist yet, by its name in wrangler.toml (DB_EU in the EU jurisdiction)',
    `apply the migrations to every database, by binding (${bindings}), before any code that needs them`,
    'first deploy only: make the operator token (ADMIN_TOKEN) and put it in a file only you can read',
    `upload the worker (wrangler deploy), which creates the R2 bucket and the queues it names; the token goes with it from that file, then the file is deleted`,
    `apply the migrations again (${bindings}): a database the upload made is migrated before it is used`,
    'print the worker’s address, the dashboard’s, how to sign in, and the command for a first project',
  ];
}

/** Whether the deployed worker has an ADMIN_TOKEN; `undefined` when wrangler could not say. */
async function hasOperatorToken(worker: string): Promise<boolean | undefined> {
  return (await workerSecrets(worker))?.includes('ADMIN_TOKEN');
}

const workerAddress = (output: string) =>
  /https:\/\/[^\s/]+\.workers\.dev\b/.exec(stripVTControlCharacters(output))?.[0];

async function migrate(databases: Database[], next: string): Promise<void> {
  for (const d of databases) {
    await step(
      `apply the migrations to ${d.binding} (${d.name})`,
      next,
      async () => (await run('wrangler', ['d1', 'migrations', 'apply', d.binding, '--remote'])).code === 0,
    );
  }
}

/** The assets and the worker's modules, as `npm run build` makes them. */
function build(next: string): Promise<void> {
  return step('build', next, async () => {
    for (const script of ['build:assets', 'build:worker'])
      if ((await run('npm', ['run', '-s', script])).code !== 0) return false;
    return true;
  });
}

async function deploy(config: Config): Promise<void> {
  await build('fix the error above (`npm run build` shows it alone), then run `npm run deploy` again');

  const existing = new Set<string>();
  await step('find the databases', `${AUTH}; then run \`npm run deploy\` again`, async () => {
    try {
      for (const d of accountDatabases()) existing.add(d.name);
      return true;
    } catch {
      // accountDatabases has shown wrangler's words.
      return false;
    }
  });
  for (const d of config.databases.filter((d) => !existing.has(d.name))) {
    await step(
      `create the database ${d.name}`,
      `nothing was uploaded. Read wrangler's message above (a name taken, a limit reached, a permission missing: ${AUTH}), then run \`npm run deploy\` again`,
      async () => (await run('wrangler', createArgs(d))).code === 0,
    );
  }
  await migrate(
    config.databases,
    'nothing was uploaded: the worker still runs its previous version against the schema it knows. Fix what wrangler names above, then run `npm run deploy` again',
  );

  let token: string | undefined;
  await step(
    'the operator token',
    'run `npm run deploy` again once wrangler can read the worker’s secrets',
    async () => {
      const has = await hasOperatorToken(config.worker);
      if (has === undefined) return false;
      if (has) {
        console.log('The worker has its operator token (ADMIN_TOKEN): kept as it is.');
        return true;
      }
      if (inCi()) {
        // A token the CI service holds as a secret variable: handed on by file, never made here
        // and never printed.
        const given = process.env.ADMIN_TOKEN;
        if (given !== undefined && given.length >= TOKEN_LENGTH) {
          token = given;
          return true;
        }
        throw new StepFailed(
          'the operator token',
          `this is CI (CI is set), and the worker has no operator token yet: a first deploy makes one and shows it once to a person, never in a log. Run \`npm run deploy\` once from your own machine, or give CI the token as a secret variable ADMIN_TOKEN (at least ${TOKEN_LENGTH} characters: \`openssl rand -base64 32\`), then deploy again`,
        );
      }
      // A token saved by a first deploy whose upload failed is the one that may be on the worker.
      token = readDeployment()?.token ?? randomToken();
      saveDeployment({ token });
      return true;
    },
  );

  let output = '';
  const dir = token === undefined ? undefined : mkdtempSync(join(tmpdir(), 'edge-forms-deploy-'));
  try {
    await step(
      'upload the worker',
      'the databases are migrated and the previous version still runs. Read wrangler’s message above, then run `npm run deploy` again',
      async () => {
        const args = [...UPLOAD, ...versionTag()];
        if (dir !== undefined && token !== undefined) {
          // C42: the secret reaches wrangler in a file only this user can read, never as an argument.
          const file = join(dir, 'secrets.json');
          writeFileSync(file, JSON.stringify({ ADMIN_TOKEN: token }), { mode: 0o600, flag: 'wx' });
          args.push('--secrets-file', file);
        }
        const ran = await run('wrangler', args);
        output = ran.output;
        return ran.code === 0;
      },
    );
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
  const url = workerAddress(output);
  // A token made here is kept and shown; CI's own (its secret variable) is neither.
  const made = inCi() ? undefined : token;
  if (made !== undefined) saveDeployment({ token: made, ...(url === undefined ? {} : { url }) });

  await migrate(
    config.databases,
    'the worker is uploaded; a database it made has no tables yet, so its requests answer 503 until this step succeeds. Run `npm run deploy` again: it migrates before it uploads',
  );

  const address = url ?? 'https://<your worker>.workers.dev (printed by wrangler above)';
  console.log(`\nDeployed: ${address}`);
  console.log(`The dashboard: ${address}/admin/`);
  if (made !== undefined) {
    // C42: printed this once; kept in .forms/deployment.json (only you can read it) for the tool.
    console.log(
      `\nThe operator token (sign in to the dashboard with it; it is shown only now):\n\n  ${made}\n`,
    );
    console.log('It is kept in .forms/deployment.json, where `npm run forms -- --url` finds it.');
  } else {
    console.log(
      'Sign in with the operator token made by the first deploy (kept in .forms/deployment.json on that machine).',
    );
  }
  console.log(
    `\nYour first project:\n\n  npm run forms -- --url ${address} project create "Contact" --field name:string:required --field email:string:format=email\n`,
  );
  console.log('Email, Cloudflare Access, PUBLIC_URL, updating and rolling back: docs/deploy.md');
}

/** C42: the settings still as shipped, first, so that they are not lost under the build's output. */
function warnExamples(config: Config): void {
  if (config.examples.length === 0) return;
  console.warn(`Still as shipped in wrangler.toml:\n${config.examples.map((w) => `  ! ${w}.`).join('\n')}\n`);
}

/** C47: what a deploy would stop on in the mail settings, and the provider's key it checks. */
function warnMail(config: Config): void {
  const lines = mailWarnings(config.mail);
  if (lines.length > 0) console.warn(`Mail:\n${lines.map((w) => `  ! ${w}.`).join('\n')}\n`);
}

/** `wrangler deploy --dry-run`'s size line, the rest of its output (its table of modules) left out. */
const uploadSize = (output: string) =>
  /Total Upload: [^\n]*/.exec(stripVTControlCharacters(output))?.[0] ?? 'checked';

async function dryRun(config: Config, verbose: boolean): Promise<void> {
  warnExamples(config);
  warnMail(config);
  console.log('npm run deploy will:');
  for (const [i, line] of plan(config).entries()) console.log(`  ${i + 1}. ${line}`);
  console.log('\nDry run: the build, and the upload checked offline (wrangler deploy --dry-run).');
  await build('fix the error above, then run it again');
  await step('check the upload', 'fix what wrangler names above, then run it again', async () => {
    // Its table of every module only with --verbose; on a failure, all it said.
    const checked = await run('wrangler', [...UPLOAD, '--dry-run'], { quiet: !verbose });
    if (checked.code !== 0 && !verbose) process.stderr.write(checked.output);
    if (checked.code === 0 && !verbose) console.log(`The upload checks out (${uploadSize(checked.output)}).`);
    return checked.code === 0;
  });
}

/**
 * C42: a deploy never takes local development's settings to an account unasked: they stop it,
 * unless `--allow-local-settings` says they are meant, and then they are named loudly.
 */
function checkLocalSettings(config: Config, allowed: boolean): void {
  if (config.localOnly.length === 0) return;
  const list = config.localOnly.map((line) => `  - ${line}`).join('\n');
  if (!allowed) {
    console.error(`wrangler.toml sets what only local development needs:\n${list}`);
    throw new StepFailed(
      'check the settings',
      'nothing was built or uploaded. Set ALLOW_LOCAL_WEBHOOKS = "false" in wrangler.toml (`npm run dev` turns it on for itself), or, if this worker is really meant to reach private addresses, run `npm run deploy -- --allow-local-settings`',
    );
  }
  console.warn(
    `\n!!! This deploy carries local development's settings, as --allow-local-settings asked:\n${list}\n`,
  );
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'dry-run': { type: 'boolean' },
      'allow-local-settings': { type: 'boolean' },
      rollback: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
  });
  const config = readDeployConfig();
  try {
    if (values.rollback === true) {
      await rollback(values['dry-run'] === true);
      return 0;
    }
    checkLocalSettings(config, values['allow-local-settings'] === true);
    if (values['dry-run']) await dryRun(config, values.verbose === true);
    else {
      warnExamples(config);
      await checkMail(config.mail, config.worker);
      await deploy(config);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    console.error(`\n✗ ${error.step} failed: ${error.next}.`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
