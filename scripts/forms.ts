#!/usr/bin/env node
// `npm run forms -- <command>`: projects, fields, origins, keys and exports, without writing SQL (C19).
import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { stringify } from 'csv-stringify';
import type { FieldType, UnknownFieldPolicy } from '../schema/tables.ts';
import { submissionJsonSchema } from '../src/fields/json-schema.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { StorageError } from '../src/lib/faults.ts';
import { createKey, createProject } from '../src/projects/admin.ts';
import { displayPrefix, looksLikeKey } from '../src/projects/keys.ts';
import type { Db } from '../src/store/db.ts';
import {
  addField,
  addOrigin,
  deleteProject,
  listKeys,
  listProjects,
  type ProjectSettings,
  parseRules,
  projectDetails,
  removeField,
  removeOrigin,
  revokeKey,
  setField,
  updateProjectSettings,
} from '../src/store/projects.ts';
import { eraseSubmissions, submissionPages } from '../src/store/submissions.ts';
import { type Database, openDatabase, type Target } from './database.ts';
import {
  parseErasureValue,
  parseFieldSpec,
  parseFieldSpecs,
  parseHoneypot,
  parseOrigin,
  parsePolicy,
  parseReplyToField,
  parseRetentionDays,
  parseSince,
  parseThankYouUrl,
  parseTurnstileSecret,
  UsageError,
} from './input.ts';
import { safeCell, safeJson, safeText, shown } from './printable.ts';
import { readSecret, type SecretSource } from './secret.ts';
import { webhookCommands } from './webhooks.ts';

export type Io = { stdout: Writable; stderr: Writable } & Partial<Pick<SecretSource, 'stdin' | 'env'>>;
type Global = { remote?: boolean; local?: boolean; json?: boolean; persistTo?: string };
type Open = (target: Target) => Promise<Database>;

const line = (stream: Writable, text: string) => stream.write(`${text}\n`);

/** Creates a project from command-line input; `npm run dev` makes its example project through this. */
export async function createProjectFromInput(
  db: Db,
  input: {
    id?: string;
    formId?: string;
    name: string;
    fields: string[];
    origins?: string[];
    unknownFields?: string;
    honeypot?: string;
    turnstileSecret?: string;
  },
) {
  const fields = parseFieldSpecs(input.fields);
  const spec = {
    name: input.name,
    fields,
    origins: [...new Set((input.origins ?? []).map(parseOrigin))],
    unknownFields: parsePolicy(input.unknownFields ?? 'reject') as UnknownFieldPolicy,
    honeypot: input.honeypot === undefined ? null : parseHoneypot(input.honeypot, fields),
  };
  const turnstileSecret =
    input.turnstileSecret === undefined ? null : parseTurnstileSecret(input.turnstileSecret);
  if (spec.name.trim() === '') throw new UsageError('A project needs a name');
  const created = await createProject(db, {
    ...spec,
    turnstileSecret,
    ...(input.id === undefined ? {} : { id: input.id }),
    ...(input.formId === undefined ? {} : { formId: input.formId }),
  });
  // The Turnstile secret is not printed back: only whether one is set.
  return { ...created, ...spec, turnstile: turnstileSecret !== null };
}

async function requireProject(db: Db, projectId: string) {
  const project = await projectDetails(db, projectId);
  if (project === undefined) throw new UsageError(`Unknown project '${projectId}' (see: forms project list)`);
  return project;
}

/** Columns padded to their widest cell; each cell one line, its control characters escaped (C19). */
function table(cells: string[][]): string {
  const rows = cells.map((r) => r.map(shown));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A field row as the tool shows it: name, type, required, and its rules when it has any (C28). */
function fieldDef(row: { name: string; type: FieldType; required: boolean; rules: string | null }): FieldDef {
  const rules = parseRules(row.rules);
  return {
    name: row.name,
    type: row.type,
    required: row.required,
    ...(rules === undefined ? {} : { rules }),
  };
}

/** `email: string (required) format=email maxLength=100`. */
function describeField(f: FieldDef): string {
  const rules = Object.entries(f.rules ?? {}).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : v}`);
  return [`${f.name}: ${f.type}${f.required ? ' (required)' : ''}`, ...rules].join(' ');
}

function retentionText(days: number | null): string {
  return days === null ? 'forever' : `${days} day${days === 1 ? '' : 's'}`;
}

function keyState(k: { revokedAt: string | null }) {
  return k.revokedAt ? `revoked ${k.revokedAt}` : 'active';
}

const TURNSTILE_HELP =
  'require a Cloudflare Turnstile token; the secret key is read from TURNSTILE_SECRET or standard input';

/** The old option that took the secret as an argument: refused, with the way that works. */
function refusedSecretOption(): Option {
  return new Option('--turnstile-secret <secret>').hideHelp().argParser(() => {
    throw new UsageError(
      'A secret is never given as an argument (shell history and npm keep command lines): use --turnstile, and give the secret in TURNSTILE_SECRET or on standard input',
    );
  });
}

export function program(io: Io, openDb: Open = openDatabase): Command {
  const cli = new Command('forms')
    .description(
      'Manage the projects, fields, origins, API keys and webhooks of the form endpoint, and export or erase submissions.',
    )
    .addOption(new Option('--local', 'use the local database of `npm run dev` (default)').conflicts('remote'))
    .addOption(new Option('--remote', 'use the deployed D1 database of wrangler.toml'))
    .option('--json', 'print one JSON document on standard output and nothing else')
    .addOption(
      new Option(
        '--persist-to <dir>',
        'local state directory, as for `wrangler dev --persist-to`',
      ).hideHelp(),
    )
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();

  /** Opens the database named by the global options, runs the action, and closes it. */
  const withDb =
    <A extends unknown[]>(action: (db: Db, global: Global, ...args: A) => Promise<void>) =>
    async (...args: A) => {
      const command = args.at(-1) as Command;
      const global = command.optsWithGlobals() as Global;
      const database = await openDb({ remote: global.remote === true, persistTo: global.persistTo });
      try {
        await action(database.db, global, ...args);
      } finally {
        await database.close();
      }
    };
  // C19: no control character from outside reaches the terminal, in text or in JSON.
  const print = (global: Global, json: unknown, text: () => string) =>
    global.json ? line(io.stdout, safeJson(JSON.stringify(json))) : line(io.stdout, safeText(text()));
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  const secretSource: SecretSource = {
    stdin: io.stdin ?? process.stdin,
    stderr: io.stderr,
    env: io.env ?? process.env,
  };
  /** C22: the Turnstile secret, from TURNSTILE_SECRET or standard input, never from an argument. */
  const turnstileSecretFromInput = async () =>
    parseTurnstileSecret(await readSecret(secretSource, 'TURNSTILE_SECRET', 'Turnstile secret key'));

  const project = cli.command('project').description('create, list, show and delete projects');
  project
    .command('create <name>')
    .description('create a project with its fields, origins and first API key (printed once)')
    .option(
      '--field <name:type[:required]>',
      'a field: type string, integer, number, boolean or file',
      collect,
      [],
    )
    .option('--origin <origin>', 'an allowed origin, scheme://host[:port] (none: every origin)', collect, [])
    .option('--unknown-fields <policy>', 'reject or discard fields the project does not define', 'reject')
    .option('--honeypot <field>', 'a hidden form field that people leave empty; filled, it marks spam')
    .option('--turnstile', TURNSTILE_HELP)
    .addOption(refusedSecretOption())
    .action(
      withDb(
        async (
          db,
          global,
          name: string,
          opts: {
            field: string[];
            origin: string[];
            unknownFields: string;
            honeypot?: string;
            turnstile?: boolean;
          },
        ) => {
          const turnstileSecret = opts.turnstile ? await turnstileSecretFromInput() : undefined;
          const created = await createProjectFromInput(db, {
            name,
            fields: opts.field,
            origins: opts.origin,
            unknownFields: opts.unknownFields,
            ...(opts.honeypot === undefined ? {} : { honeypot: opts.honeypot }),
            ...(turnstileSecret === undefined ? {} : { turnstileSecret }),
          });
          print(global, created, () =>
            [
              `Created project ${created.projectId} "${created.name}" with ${created.fields.length} field(s).`,
              `API key (shown once; only its hash is stored): ${created.apiKey}`,
              `HTML form address (no key needed): POST /f/${created.formId}`,
            ].join('\n'),
          );
        },
      ),
    );

  project
    .command('list')
    .description('every project with its numbers of fields, keys and submissions')
    .action(
      withDb(async (db, global) => {
        const projects = await listProjects(db);
        print(global, { projects }, () =>
          projects.length === 0
            ? 'No projects yet: forms project create <name> --field <name>:<type>'
            : table([
                ['ID', 'NAME', 'FIELDS', 'KEYS', 'SUBMISSIONS'],
                ...projects.map((p) => [
                  p.id,
                  p.name,
                  String(p.fields),
                  String(p.keys),
                  String(p.submissions),
                ]),
              ]),
        );
      }),
    );

  project
    .command('show <project>')
    .description('fields, origins, policy and keys (never a key itself)')
    .action(
      withDb(async (db, global, projectId: string) => {
        const p = await requireProject(db, projectId);
        const json = {
          id: p.id,
          name: p.name,
          unknownFields: p.unknownFields,
          honeypot: p.honeypot,
          turnstile: p.turnstileSecret !== null,
          retentionDays: p.retentionDays,
          replyToField: p.replyToField,
          formId: p.formId,
          thankYouUrl: p.thankYouUrl,
          createdAt: p.createdAt,
          fields: p.fields.map(fieldDef),
          origins: p.origins.map((o) => o.origin),
          keys: p.keys.map((k) => ({
            prefix: k.displayPrefix,
            kind: k.kind,
            createdAt: k.createdAt,
            revokedAt: k.revokedAt,
          })),
        };
        print(global, json, () =>
          [
            `Project ${p.id} "${p.name}" (created ${p.createdAt})`,
            `Unknown fields: ${p.unknownFields}`,
            `Honeypot: ${p.honeypot ?? '(none)'}`,
            `Turnstile: ${p.turnstileSecret === null ? 'off' : 'required (secret set)'}`,
            `Retention: ${retentionText(p.retentionDays)}`,
            `Reply-To field of notification emails: ${p.replyToField ?? '(none)'}`,
            `HTML form address: POST /f/${p.formId}`,
            `Thank-you URL: ${p.thankYouUrl ?? '(none: a built-in page)'}`,
            'Fields:',
            ...(p.fields.length
              ? p.fields.map((f) => `  ${describeField(fieldDef(f))}`)
              : ['  (none: every submission is refused until a field is added)']),
            'Allowed origins:',
            ...(p.origins.length ? p.origins.map((o) => `  ${o.origin}`) : ['  (any)']),
            'Keys:',
            ...p.keys.map((k) => `  ${k.displayPrefix}…  ${k.kind}  created ${k.createdAt}  ${keyState(k)}`),
          ].join('\n'),
        );
      }),
    );

  project
    .command('schema <project>')
    .description("the project's submission as JSON Schema: each field's type and rules (C28)")
    .action(
      withDb(async (db, _global, projectId: string) => {
        const p = await requireProject(db, projectId);
        line(
          io.stdout,
          JSON.stringify(submissionJsonSchema(p.fields.map(fieldDef), p.unknownFields), null, 2),
        );
      }),
    );

  project
    .command('set <project>')
    .description('change the unknown-field policy, the honeypot, Turnstile or the retention period')
    .option('--unknown-fields <policy>', 'reject or discard fields the project does not define')
    .option('--honeypot <field>', 'a hidden form field that people leave empty; filled, it marks spam')
    .option('--no-honeypot', 'no honeypot')
    .option('--turnstile', TURNSTILE_HELP)
    .option('--no-turnstile', 'no longer require a Turnstile token')
    .option('--retention-days <days>', 'delete submissions older than this many days (hourly)')
    .option('--no-retention', 'keep submissions until they are deleted (the default)')
    .option('--reply-to-field <field>', 'notification emails reply to the address in this string field')
    .option('--no-reply-to-field', 'notification emails have no Reply-To')
    .option('--thank-you-url <url>', 'where an HTML form goes after a success (on an allowed origin)')
    .option('--no-thank-you-url', 'a built-in thank-you page')
    .addOption(refusedSecretOption())
    .action(
      withDb(
        async (
          db,
          global,
          projectId: string,
          opts: {
            unknownFields?: string;
            honeypot?: string | false;
            turnstile?: boolean;
            retentionDays?: string;
            retention?: false;
            replyToField?: string | false;
            thankYouUrl?: string | false;
          },
        ) => {
          if (opts.retentionDays !== undefined && opts.retention === false) {
            throw new UsageError('Give --retention-days or --no-retention, not both');
          }
          const p = await requireProject(db, projectId);
          const turnstileSecret = opts.turnstile === true ? await turnstileSecretFromInput() : undefined;
          const settings: ProjectSettings = {
            ...(opts.unknownFields === undefined ? {} : { unknownFields: parsePolicy(opts.unknownFields) }),
            ...(opts.honeypot === undefined
              ? {}
              : { honeypot: opts.honeypot === false ? null : parseHoneypot(opts.honeypot, p.fields) }),
            ...(turnstileSecret === undefined
              ? {}
              : { turnstileSecret: parseTurnstileSecret(turnstileSecret) }),
            ...(opts.turnstile === false ? { turnstileSecret: null } : {}),
            ...(opts.retentionDays === undefined
              ? {}
              : { retentionDays: parseRetentionDays(opts.retentionDays) }),
            ...(opts.retention === false ? { retentionDays: null } : {}),
            ...(opts.replyToField === undefined
              ? {}
              : {
                  replyToField:
                    opts.replyToField === false ? null : parseReplyToField(opts.replyToField, p.fields),
                }),
            ...(opts.thankYouUrl === undefined
              ? {}
              : {
                  thankYouUrl:
                    opts.thankYouUrl === false
                      ? null
                      : parseThankYouUrl(
                          opts.thankYouUrl,
                          p.origins.map((o) => o.origin),
                        ),
                }),
          };
          if (Object.keys(settings).length === 0) {
            throw new UsageError(
              'Nothing to change: give --unknown-fields, --honeypot, --turnstile, --retention-days, --reply-to-field, --thank-you-url or their --no- forms',
            );
          }
          await updateProjectSettings(db, p.id, settings);
          const after = { ...p, ...settings };
          print(
            global,
            {
              projectId: p.id,
              unknownFields: after.unknownFields,
              honeypot: after.honeypot,
              turnstile: after.turnstileSecret !== null,
              retentionDays: after.retentionDays,
              replyToField: after.replyToField,
              thankYouUrl: after.thankYouUrl,
            },
            () =>
              `Updated ${p.id}: unknown fields ${after.unknownFields}, honeypot ${after.honeypot ?? '(none)'}, Turnstile ${after.turnstileSecret === null ? 'off' : 'required'}, retention ${retentionText(after.retentionDays)}, Reply-To field ${after.replyToField ?? '(none)'}, thank-you URL ${after.thankYouUrl ?? '(built-in page)'}.`,
          );
        },
      ),
    );

  project
    .command('delete <project>')
    .description('delete the project and everything it owns, submissions included')
    .option('--yes', 'confirm')
    .action(
      withDb(async (db, global, projectId: string, opts: { yes?: boolean }) => {
        const p = await requireProject(db, projectId);
        if (!opts.yes) throw new UsageError(`Refusing to delete project '${projectId}' without --yes`);
        await deleteProject(db, p.id);
        print(global, { deleted: p.id }, () => `Deleted project ${p.id} "${p.name}" and all it owned.`);
      }),
    );

  const field = cli.command('field').description('add, change or remove fields');
  field
    .command('add <project> <spec>')
    .description('add a field, <name>:<type>[:required][:<rule>=<value>]…')
    .action(
      withDb(async (db, global, projectId: string, spec: string) => {
        const def = parseFieldSpec(spec);
        const p = await requireProject(db, projectId);
        if (p.fields.some((f) => f.name === def.name)) {
          throw new UsageError(`Field '${def.name}' already exists in project '${p.id}'`);
        }
        if (p.honeypot === def.name) {
          throw new UsageError(`'${def.name}' is the honeypot of project '${p.id}': it cannot be a field`);
        }
        await addField(db, p.id, def);
        print(global, { projectId: p.id, field: def }, () => `Added field ${describeField(def)} to ${p.id}.`);
      }),
    );
  field
    .command('set <project> <spec>')
    .description("replace a field's definition (type, required, rules), keeping its place (C28)")
    .action(
      withDb(async (db, global, projectId: string, spec: string) => {
        const def = parseFieldSpec(spec);
        const p = await requireProject(db, projectId);
        if (!(await setField(db, p.id, def))) {
          throw new UsageError(`Project '${p.id}' has no field '${def.name}' (add it with: forms field add)`);
        }
        print(global, { projectId: p.id, field: def }, () => `Set field ${describeField(def)} in ${p.id}.`);
      }),
    );
  field
    .command('remove <project> <name>')
    .description('remove a field (stored submissions keep their values)')
    .action(
      withDb(async (db, global, projectId: string, name: string) => {
        const p = await requireProject(db, projectId);
        if (!(await removeField(db, p.id, name))) {
          throw new UsageError(`Project '${p.id}' has no field '${name}'`);
        }
        print(global, { projectId: p.id, removed: name }, () => `Removed field ${name} from ${p.id}.`);
      }),
    );

  const origin = cli.command('origin').description('add or remove allowed origins');
  origin
    .command('add <project> <origin>')
    .description('allow an origin, scheme://host[:port]; once any is listed, others get 403')
    .action(
      withDb(async (db, global, projectId: string, text: string) => {
        const value = parseOrigin(text);
        const p = await requireProject(db, projectId);
        if (p.origins.some((o) => o.origin === value)) {
          throw new UsageError(`Origin '${value}' is already allowed for project '${p.id}'`);
        }
        await addOrigin(db, p.id, value);
        print(global, { projectId: p.id, origin: value }, () => `Allowed origin ${value} for ${p.id}.`);
      }),
    );
  origin
    .command('remove <project> <origin>')
    .description('remove an allowed origin')
    .action(
      withDb(async (db, global, projectId: string, text: string) => {
        const value = parseOrigin(text);
        const p = await requireProject(db, projectId);
        if (!(await removeOrigin(db, p.id, value))) {
          throw new UsageError(`Origin '${value}' is not in the list of project '${p.id}'`);
        }
        print(global, { projectId: p.id, removed: value }, () => `Removed origin ${value} from ${p.id}.`);
      }),
    );

  const key = cli.command('key').description('create, revoke and list API keys');
  key
    .command('create <project>')
    .description(
      'a further key (printed once): publishable, for web pages, or --secret, for servers (submit, read, erase)',
    )
    .option('--secret', 'a secret key, for servers: it can also read and erase submissions')
    .action(
      withDb(async (db, global, projectId: string, opts: { secret?: boolean }) => {
        const p = await requireProject(db, projectId);
        const kind = opts.secret ? 'secret' : 'publishable';
        const apiKey = await createKey(db, p.id, kind);
        print(global, { projectId: p.id, apiKey, kind }, () =>
          [
            `New ${kind} API key for ${p.id} (shown once): ${apiKey}`,
            ...(kind === 'secret' ? ['Keep it on your server: never put a secret key in a web page.'] : []),
          ].join('\n'),
        );
      }),
    );
  key
    .command('revoke <project> <prefix>')
    .description('revoke a key, by the prefix that `key list` shows (never the whole key)')
    .action(
      withDb(async (db, global, projectId: string, given: string) => {
        // A whole key on a command line stays in the shell's history and npm's log.
        if (looksLikeKey(given)) {
          throw new UsageError(
            `Give the key's prefix as \`key list\` shows it (${displayPrefix(given)}), not the whole key: a command line is kept in shell history and logs`,
          );
        }
        const p = await requireProject(db, projectId);
        const keys = await listKeys(db, p.id);
        const matches = keys.filter((k) => k.displayPrefix === given.replace(/…$/, ''));
        const [match] = matches;
        if (match === undefined)
          throw new UsageError(`Project '${p.id}' has no key with the prefix '${given}'`);
        if (matches.length > 1) {
          throw new UsageError(
            `'${given}' is the prefix of several keys of '${p.id}': they cannot be told apart`,
          );
        }
        if (match.revokedAt) throw new UsageError(`Key ${match.displayPrefix}… is already revoked`);
        if (!(await revokeKey(db, p.id, match.keyHash))) {
          throw new UsageError(`Key ${match.displayPrefix}… is already revoked`);
        }
        print(
          global,
          { projectId: p.id, revoked: match.displayPrefix },
          () => `Revoked key ${match.displayPrefix}… of ${p.id}.`,
        );
      }),
    );
  key
    .command('list <project>')
    .description('display prefixes, kinds, created and revoked times')
    .action(
      withDb(async (db, global, projectId: string) => {
        const p = await requireProject(db, projectId);
        const keys = (await listKeys(db, p.id)).map((k) => ({
          prefix: k.displayPrefix,
          kind: k.kind,
          createdAt: k.createdAt,
          revokedAt: k.revokedAt,
        }));
        print(global, { projectId: p.id, keys }, () =>
          table([
            ['PREFIX', 'KIND', 'CREATED', 'STATE'],
            ...keys.map((k) => [`${k.prefix}…`, k.kind, k.createdAt, keyState(k)]),
          ]),
        );
      }),
    );

  const submissionsCommand = cli.command('submissions').description('export or erase submissions');
  submissionsCommand
    .command('erase <project>')
    .description('delete every submission whose field holds exactly the value (C25)')
    .requiredOption('--field <name>', 'the field to match')
    .option('--value <text>', 'the value, as text (a string)')
    .option('--json-value <json>', 'the value as JSON, for numbers, booleans and null: 42, true, null')
    .action(
      withDb(
        async (
          db,
          global,
          projectId: string,
          opts: { field: string; value?: string; jsonValue?: string },
        ) => {
          const value = parseErasureValue(opts.value, opts.jsonValue);
          const p = await requireProject(db, projectId);
          const erased = await eraseSubmissions(db, p.id, opts.field, value);
          print(
            global,
            { projectId: p.id, field: opts.field, value, erased },
            () =>
              `Erased ${erased} submission${erased === 1 ? '' : 's'} of ${p.id} whose ${opts.field} is ${JSON.stringify(value)}.`,
          );
        },
      ),
    );
  submissionsCommand
    .command('export <project>')
    .description('every submission, oldest first: JSON lines, or CSV (RFC 4180) with one column per field')
    .addOption(new Option('--format <format>', 'jsonl or csv').choices(['jsonl', 'csv']).default('jsonl'))
    .option('--since <time>', 'only submissions received at or after this ISO 8601 time')
    .option('--include-spam', 'include submissions that filled the honeypot, marked as spam')
    .action(
      withDb(
        async (
          db,
          global,
          projectId: string,
          opts: { format: 'jsonl' | 'csv'; since?: string; includeSpam?: boolean },
        ) => {
          if (global.json && opts.format === 'csv')
            throw new UsageError('--json gives one JSON document: drop --format csv');
          const since = opts.since === undefined ? undefined : parseSince(opts.since);
          const p = await requireProject(db, projectId);
          const includeSpam = opts.includeSpam === true;
          const pages = submissionPages(db, p.id, { includeSpam, ...(since === undefined ? {} : { since }) });
          if (opts.format === 'csv') {
            const names = p.fields.map((f) => f.name);
            const rows = async function* () {
              for await (const page of pages) {
                for (const s of page) {
                  const data = JSON.parse(s.data) as Record<string, unknown>;
                  const cells = names.map((n) => (Object.hasOwn(data, n) ? data[n] : ''));
                  yield includeSpam ? [s.id, s.receivedAt, s.spam, ...cells] : [s.id, s.receivedAt, ...cells];
                }
              }
            };
            // A cell that starts with = + - @ is prefixed with ' so a spreadsheet shows it, never runs it.
            const csv = stringify({
              header: true,
              columns: ['id', 'received_at', ...(includeSpam ? ['spam'] : []), ...names],
              escape_formulas: true,
              // C19: a cell keeps its line breaks and tabs (CSV quotes them), no other control character.
              cast: { boolean: (b) => String(b), string: (s) => safeCell(s) },
            });
            await pipeline(Readable.from(rows()), csv, io.stdout, { end: false });
          } else {
            // JSON lines; with --json, one document whose array is streamed a page at a time.
            const wrap = global.json === true;
            let first = true;
            if (wrap) io.stdout.write(`{"projectId":${JSON.stringify(p.id)},"submissions":[`);
            for await (const page of pages) {
              const items = page.map(
                (s) =>
                  `{"id":${JSON.stringify(s.id)},"receivedAt":${JSON.stringify(s.receivedAt)},${includeSpam ? `"spam":${s.spam},` : ''}"fields":${s.data}}`,
              );
              const text = safeJson(wrap ? `${first ? '' : ','}${items.join(',')}` : `${items.join('\n')}\n`);
              first = false;
              if (!io.stdout.write(text)) await once(io.stdout, 'drain');
            }
            if (wrap) io.stdout.write(']}\n');
          }
        },
      ),
    );

  webhookCommands(cli, { withDb, print, requireProject, table, updateProjectSettings });

  return cli;
}

/** Runs one command line; returns the exit status (0 done, 2 bad input, 1 anything else). */
export async function main(argv: string[], io: Io = process, openDb: Open = openDatabase): Promise<number> {
  try {
    await program(io, openDb).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its own message (usage errors) or the help (exit code 0).
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError) {
      line(io.stderr, safeText(`forms: ${err.message}`));
      return 2;
    }
    const detail =
      err instanceof StorageError && err.cause instanceof Error ? err.cause.message : String(err);
    line(
      io.stderr,
      shown(`forms: ${err instanceof StorageError ? 'database error' : 'error'}: ${detail.split('\n')[0]}`),
    );
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
