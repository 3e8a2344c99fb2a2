// `forms integration …` (C38): Google Sheets, Notion, Airtable and Telegram as targets. A key or a
// token is read from a file (`--key-file`, `--token-file`; `-` for standard input) or, without one,
// from FORMS_INTEGRATION_TOKEN or standard input: never from an argument, which shell history and
// npm's log keep.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { INTEGRATION_KINDS, type IntegrationKind } from '../schema/tables.ts';
import type { IntegrationView } from '../src/ops/integrations.ts';
import { type Context, integrationsApiBase, table, UsageError } from './context.ts';

type AddOptions = {
  spreadsheet?: string;
  sheet?: string;
  keyFile?: string;
  database?: string;
  base?: string;
  table?: string;
  chat?: string;
  tokenFile?: string;
};

/** Where each integration writes, in a word. */
function destination(i: IntegrationView): string {
  const s = i.settings;
  if (i.kind === 'google-sheets') return `sheet '${s.sheet}' of ${s.spreadsheetId}`;
  if (i.kind === 'notion') return `database ${s.databaseId}`;
  if (i.kind === 'airtable') return `table '${s.table}' of ${s.baseId}`;
  return `chat ${s.chatId}`;
}

const stateOf = (i: IntegrationView) =>
  i.state === 'active'
    ? 'active'
    : `disabled ${i.disabledAt} (${i.disabledReason === 'manual' ? 'by hand' : 'the service refused it: check its access, then add it again'})`;

export function integrationCommands(cli: Command, { withOps, print, secret }: Context): void {
  const integration = cli
    .command('integration')
    .description('Google Sheets, Notion, Airtable and Telegram: every accepted submission written there too');

  /** A secret from a file (`-`: standard input), else from FORMS_INTEGRATION_TOKEN or standard input. */
  const readSecretFile = async (path: string | undefined, what: string): Promise<string> => {
    if (path === undefined) return secret('FORMS_INTEGRATION_TOKEN', what);
    // No variable by the empty name: standard input (a prompt that does not echo, or what is piped).
    if (path === '-') return secret('', what);
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      throw new UsageError(
        `Cannot read ${path}: give the path of the file that holds the ${what.toLowerCase()}`,
      );
    }
  };

  integration
    .command('add <project> <kind>')
    .description(
      `add one: ${INTEGRATION_KINDS.join(', ')} (google-sheets: --spreadsheet, --sheet, --key-file; notion: --database, --token-file; airtable: --base, --table, --token-file; telegram: --chat, --token-file)`,
    )
    .option('--spreadsheet <id>', "google-sheets: the spreadsheet's id (in its address: …/d/<id>/edit)")
    .option('--sheet <name>', 'google-sheets: the sheet (tab) to append to (Sheet1 unless told)')
    .option('--key-file <path>', "google-sheets: the service account's JSON key file (- for standard input)")
    .option('--database <id>', "notion: the database's id (the 32 characters in its link)")
    .option('--base <id>', "airtable: the base's id (app…)")
    .option('--table <name>', "airtable: the table's name or id")
    .option('--chat <id>', 'telegram: the chat id (a group’s is negative) or @channel')
    .option(
      '--token-file <path>',
      'notion, airtable, telegram: a file holding the token (- for standard input)',
    )
    .action(
      withOps(async (ops, global, projectId: string, kind: string, opts: AddOptions) => {
        if (!(INTEGRATION_KINDS as readonly string[]).includes(kind)) {
          throw new UsageError(`Unknown kind '${kind}': use ${INTEGRATION_KINDS.join(', ')}`);
        }
        const need = (value: string | undefined, option: string) => {
          if (value === undefined) throw new UsageError(`${kind} needs ${option}`);
          return value;
        };
        let input: Record<string, unknown>;
        const k = kind as IntegrationKind;
        if (k === 'google-sheets') {
          const text = await readSecretFile(opts.keyFile, "Service account's JSON key");
          let serviceAccount: unknown;
          try {
            serviceAccount = JSON.parse(text);
          } catch {
            throw new UsageError(
              "The key file is not JSON: give the service account's key file as Google made it",
            );
          }
          input = {
            kind: k,
            spreadsheetId: need(opts.spreadsheet, '--spreadsheet'),
            ...(opts.sheet === undefined ? {} : { sheet: opts.sheet }),
            serviceAccount,
          };
        } else if (k === 'notion') {
          input = {
            kind: k,
            databaseId: need(opts.database, '--database'),
            token: await readSecretFile(opts.tokenFile, 'Notion token'),
          };
        } else if (k === 'airtable') {
          input = {
            kind: k,
            baseId: need(opts.base, '--base'),
            table: need(opts.table, '--table'),
            token: await readSecretFile(opts.tokenFile, 'Airtable token'),
          };
        } else {
          input = {
            kind: k,
            chatId: need(opts.chat, '--chat'),
            botToken: await readSecretFile(opts.tokenFile, 'Bot token'),
          };
        }
        const added = await ops.addIntegration(projectId, input);
        print(global, added, () =>
          [
            `Added ${added.kind} integration ${added.integrationId} → ${destination(added)}. Its secret is kept, never shown again (it ends ${added.secret}).`,
            ...(added.serviceAccount === undefined
              ? []
              : [
                  `Share the spreadsheet with ${added.serviceAccount} (as an editor), or Google refuses every row.`,
                ]),
            `Try it: forms integration test ${projectId} ${added.integrationId}`,
          ].join('\n'),
        );
      }),
    );

  integration
    .command('list <project>')
    .description('ids, kinds, where each writes, states (a secret only by its last four characters)')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const list = await ops.listIntegrations(projectId);
        print(global, { projectId, integrations: list }, () =>
          list.length === 0
            ? `No integrations for ${projectId}: forms integration add ${projectId} <kind> …`
            : table([
                ['ID', 'KIND', 'WRITES TO', 'SECRET', 'STATE'],
                ...list.map((i) => [i.integrationId, i.kind, destination(i), i.secret, stateOf(i)]),
              ]),
        );
      }),
    );

  integration
    .command('remove <project> <integration-id>')
    .description('remove an integration and its deliveries')
    .action(
      withOps(async (ops, global, projectId: string, id: string) => {
        await ops.removeIntegration(projectId, id);
        print(global, { projectId, removed: id }, () => `Removed integration ${id} from ${projectId}.`);
      }),
    );

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    integration
      .command(`${name} <project> <integration-id>`)
      .description(
        enabled
          ? 'turn an integration on again (after fixing its access): `deliveries redeliver --failed` then sends what it missed'
          : 'turn an integration off: its pending deliveries are cancelled',
      )
      .action(
        withOps(async (ops, global, projectId: string, id: string) => {
          const done = await ops.setIntegrationEnabled(projectId, id, enabled);
          print(global, done, () => `Integration ${id} is ${done.state}.`);
        }),
      );
  }

  integration
    .command('test <project> <integration-id>')
    .description('send a test row or message now (from this machine; with --url, from the worker)')
    .action(
      withOps(async (ops, global, projectId: string, id: string) => {
        const result = await ops.testIntegration(projectId, id, {
          allowLocalHttp: true,
          integrationsApiBase: integrationsApiBase(global),
        });
        print(global, result, () =>
          result.ok
            ? `Test sent to ${result.kind} integration ${id}: the service answered ${result.status}.`
            : `The test to ${id} was refused: ${result.status === null ? (result.error ?? 'no answer') : `the service answered ${result.status}`}${result.excerpt ? ` (${result.excerpt})` : ''}`,
        );
      }),
    );
}
