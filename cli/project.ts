// `forms project …`: create, list, show, describe as JSON Schema, change and delete projects.
import { type Command, Option } from 'commander';
import { DISPLAY_MEMBERS } from '../src/fields/display.ts';
import { parseFieldSpecs } from '../src/fields/spec.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import type { ProjectChanges } from '../src/ops/project-settings.ts';
import { type Context, collect, line, table, UsageError } from './context.ts';

const TURNSTILE_HELP =
  'require a Cloudflare Turnstile token; the secret key is read from TURNSTILE_SECRET or standard input';

/** The old option that took the secret as an argument: refused, with the way that works. */
export function refusedSecretOption(): Option {
  return new Option('--turnstile-secret <secret>').hideHelp().argParser(() => {
    throw new UsageError(
      'A secret is never given as an argument (shell history and npm keep command lines): use --turnstile, and give the secret in TURNSTILE_SECRET or on standard input',
    );
  });
}

/** `email: string (required) format=email maxLength=100 label[en]="Your email"`. */
export function describeField(f: FieldDef): string {
  const rules = Object.entries(f.rules ?? {}).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : v}`);
  // C44: what it shows, each text as JSON (its line breaks as \n), in each of its languages.
  const shows = DISPLAY_MEMBERS.flatMap((member) =>
    Object.entries(f[member] ?? {}).map(([tag, text]) => `${member}[${tag}]=${JSON.stringify(text)}`),
  );
  const lines = [
    ...(f.multiline === undefined || f.multiline === null ? [] : [`multiline=${f.multiline}`]),
    // C46: a step after the first.
    ...(f.step === undefined || f.step === null ? [] : [`step=${f.step}`]),
  ];
  // C45: when it applies, as JSON.
  const when = [
    ...(f.when === undefined ? [] : [`when=${JSON.stringify(f.when)}`]),
    ...(f.capture === undefined ? [] : [`capture=${f.capture}`]),
  ];
  return [
    `${f.name}: ${f.type}${f.required ? ' (required)' : ''}`,
    ...rules,
    ...when,
    ...shows,
    ...lines,
  ].join(' ');
}

function retentionText(days: number | null): string {
  return days === null ? 'forever' : `${days} day${days === 1 ? '' : 's'}`;
}

export const keyState = (k: { revokedAt: string | null }) =>
  k.revokedAt ? `revoked ${k.revokedAt}` : 'active';

export function projectCommands(cli: Command, { withOps, print, secret, io }: Context): void {
  /** C22: the Turnstile secret, from TURNSTILE_SECRET or standard input, never from an argument. */
  const turnstileSecret = () => secret('TURNSTILE_SECRET', 'Turnstile secret key');
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
    .option(
      '--region <place>',
      "where its data lives: a place of the worker's (e.g. eu); default: the default place",
    )
    .addOption(refusedSecretOption())
    .action(
      withOps(
        async (
          ops,
          global,
          name: string,
          opts: {
            field: string[];
            origin: string[];
            unknownFields: string;
            honeypot?: string;
            turnstile?: boolean;
            region?: string;
          },
        ) => {
          const fields = parseFieldSpecs(opts.field);
          const created = await ops.createProject({
            name,
            fields,
            origins: opts.origin,
            unknownFields: opts.unknownFields,
            honeypot: opts.honeypot,
            turnstileSecret: opts.turnstile ? await turnstileSecret() : undefined,
            region: opts.region,
          });
          print(global, created, () =>
            [
              `Created project ${created.projectId} "${created.name}" with ${created.fields.length} field(s), in the place '${created.place}'.`,
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
      withOps(async (ops, global) => {
        const projects = await ops.listProjects();
        print(global, { projects }, () =>
          projects.length === 0
            ? 'No projects yet: forms project create <name> --field <name>:<type>'
            : table([
                ['ID', 'NAME', 'PLACE', 'FIELDS', 'KEYS', 'SUBMISSIONS'],
                ...projects.map((p) => [
                  p.id,
                  p.name,
                  p.place,
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
      withOps(async (ops, global, projectId: string) => {
        const p = await ops.showProject(projectId);
        print(global, p, () =>
          [
            `Project ${p.id} "${p.name}" (created ${p.createdAt})`,
            `Place: ${p.place} (where its data lives)`,
            `Unknown fields: ${p.unknownFields}`,
            `Honeypot: ${p.honeypot ?? '(none)'}`,
            `Turnstile: ${p.turnstile ? 'required (secret set)' : 'off'}`,
            `Retention: ${retentionText(p.retentionDays)}`,
            `Reply-To field of notification emails: ${p.replyToField ?? '(none)'}`,
            `HTML form address: POST /f/${p.formId}`,
            `Thank-you URL: ${p.thankYouUrl ?? '(none: a built-in page)'}`,
            `Hosted page: ${p.page.enabled ? 'on' : 'off'}, in ${p.page.languages.join(', ')} (forms page show ${p.id})`,
            'Fields:',
            ...(p.fields.length
              ? p.fields.map((f) => `  ${describeField(f)}`)
              : ['  (none: every submission is refused until a field is added)']),
            'Allowed origins:',
            ...(p.origins.length ? p.origins.map((o) => `  ${o}`) : ['  (any)']),
            'Keys:',
            ...p.keys.map((k) => `  ${k.prefix}…  ${k.kind}  created ${k.createdAt}  ${keyState(k)}`),
          ].join('\n'),
        );
      }),
    );

  project
    .command('schema <project>')
    .description("the project's submission as JSON Schema: each field's type and rules (C28)")
    .action(
      withOps(async (ops, _global, projectId: string) => {
        line(io.stdout, JSON.stringify(await ops.projectSchema(projectId), null, 2));
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
      withOps(
        async (
          ops,
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
          const cleared = <T>(value: T | false | undefined) => (value === false ? null : value);
          const changes: ProjectChanges = {
            unknownFields: opts.unknownFields,
            honeypot: cleared(opts.honeypot),
            retentionDays: opts.retention === false ? null : opts.retentionDays,
            replyToField: cleared(opts.replyToField),
            thankYouUrl: cleared(opts.thankYouUrl),
          };
          if (Object.values(changes).every((v) => v === undefined) && opts.turnstile === undefined) {
            throw new UsageError(
              'Nothing to change: give --unknown-fields, --honeypot, --turnstile, --retention-days, --reply-to-field, --thank-you-url or their --no- forms',
            );
          }
          // Everything else is checked before the secret is asked for.
          await ops.showProject(projectId);
          if (opts.turnstile !== undefined) {
            changes.turnstileSecret = opts.turnstile ? await turnstileSecret() : null;
          }
          const after = await ops.updateProject(projectId, changes);
          print(
            global,
            {
              projectId: after.id,
              unknownFields: after.unknownFields,
              honeypot: after.honeypot,
              turnstile: after.turnstile,
              retentionDays: after.retentionDays,
              replyToField: after.replyToField,
              thankYouUrl: after.thankYouUrl,
            },
            () =>
              `Updated ${after.id}: unknown fields ${after.unknownFields}, honeypot ${after.honeypot ?? '(none)'}, Turnstile ${after.turnstile ? 'required' : 'off'}, retention ${retentionText(after.retentionDays)}, Reply-To field ${after.replyToField ?? '(none)'}, thank-you URL ${after.thankYouUrl ?? '(built-in page)'}.`,
          );
        },
      ),
    );

  project
    .command('move <project>')
    .description(
      'move the project and all its data to another place: copied, verified, then deleted where it was',
    )
    .requiredOption('--to <place>', 'the place to move it to (e.g. eu, or default)')
    .action(
      withOps(async (ops, global, projectId: string, opts: { to: string }) => {
        const moved = await ops.moveProject(projectId, opts.to);
        const rows = Object.values(moved.rows).reduce((a, b) => a + b, 0);
        print(
          global,
          moved,
          () =>
            `Moved project ${projectId} from '${moved.from}' to '${moved.to}': ${rows} rows and ${moved.files} file(s), each table's count and content checked; its keys and form address keep working.`,
        );
      }),
    );

  project
    .command('delete <project>')
    .description('delete the project and everything it owns, submissions included')
    .option('--yes', 'confirm')
    .action(
      withOps(async (ops, global, projectId: string, opts: { yes?: boolean }) => {
        await ops.showProject(projectId);
        if (!opts.yes) throw new UsageError(`Refusing to delete project '${projectId}' without --yes`);
        const p = await ops.deleteProject(projectId);
        print(global, { deleted: p.id }, () => `Deleted project ${p.id} "${p.name}" and all it owned.`);
      }),
    );

  // C41: every place's database: how full it is, and a warning at 80% of D1's limit.
  cli
    .command('places')
    .description("every place's database: its size against D1's 10 GB, its rows; a warning at 80%")
    .action(
      withOps(async (ops, global) => {
        const places = await ops.listPlaces();
        print(global, { places }, () =>
          [
            table([
              ['PLACE', 'SIZE', 'USED', 'PROJECTS', 'SUBMISSIONS', 'DELIVERIES'],
              ...places.map((p) => [
                p.name,
                p.bytes === null ? '?' : `${(p.bytes / 1e6).toFixed(1)} MB`,
                p.used === null ? '?' : `${(p.used * 100).toFixed(2)}%`,
                String(p.rows.projects),
                String(p.rows.submissions),
                String(p.rows.deliveries),
              ]),
            ]),
            ...places.flatMap((p) => (p.warning === null ? [] : [`Warning: ${p.warning}`])),
          ].join('\n'),
        );
      }),
    );
}
