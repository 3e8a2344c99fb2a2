// `forms integration …` (C38): the integrations (src/delivery/channels/) as targets, each kind's
// options from its channel. A key or a token is read from a file (`--key-file`, `--token-file`; `-`
// for standard input) or, without one, from FORMS_INTEGRATION_TOKEN or standard input: never from
// an argument, which shell history and npm's log keep.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { SetupInput } from '../src/delivery/channels/channel.ts';
import { integrationChannel } from '../src/delivery/channels/index.ts';
import { INTEGRATION_KINDS, type IntegrationKind, type IntegrationView } from '../src/ops/integrations.ts';
import { type Context, integrationsApiBase, table, UsageError } from './context.ts';

/** Where an integration writes, in a few words: its channel's words, its settings quoted with '. */
function destination(i: IntegrationView): string {
  return integrationChannel(i.kind)
    .writesTo.replace(/[“”]/g, "'")
    .replace(/\{(\w+)\}/g, (_, name: string) => i.settings[name] ?? '');
}

/** An option's flag (`--database`) and commander's name for its value (`database`). */
const flagOf = (input: SetupInput) => input.option.split(' ')[0] ?? input.option;
const optionName = (input: SetupInput) =>
  flagOf(input)
    .slice(2)
    .replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** Every channel's options, once each: an option several kinds share says so. */
function options(): { option: string; help: string }[] {
  const byFlag = new Map<string, { option: string; help: string; kinds: string[] }>();
  for (const kind of INTEGRATION_KINDS) {
    for (const input of integrationChannel(kind).inputs) {
      const known = byFlag.get(input.option);
      if (known === undefined)
        byFlag.set(input.option, { option: input.option, help: input.help, kinds: [kind] });
      else known.kinds.push(kind);
    }
  }
  return [...byFlag.values()].map(({ option, help, kinds }) => ({
    option,
    help: `${kinds.join(', ')}: ${help}`,
  }));
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

  const add = integration
    .command('add <project> <kind>')
    .description(
      `add one: ${INTEGRATION_KINDS.join(', ')} (${INTEGRATION_KINDS.map((kind) => `${kind}: ${integrationChannel(kind).inputs.map(flagOf).join(', ')}`).join('; ')})`,
    );
  for (const { option, help } of options()) add.option(option, help);
  add.action(
    withOps(
      async (ops, global, projectId: string, kind: string, opts: Record<string, string | undefined>) => {
        if (!(INTEGRATION_KINDS as readonly string[]).includes(kind)) {
          throw new UsageError(`Unknown kind '${kind}': use ${INTEGRATION_KINDS.join(', ')}`);
        }
        const inputs = integrationChannel(kind as IntegrationKind).inputs;
        const input: Record<string, unknown> = { kind };
        // What is missing is said before any secret is asked for.
        for (const field of inputs) {
          const given = opts[optionName(field)];
          if (field.secret !== undefined) continue;
          if (given !== undefined) input[field.key] = given;
          else if (field.fallback === undefined) throw new UsageError(`${kind} needs ${flagOf(field)}`);
        }
        for (const field of inputs) {
          if (field.secret === undefined) continue;
          const text = await readSecretFile(opts[optionName(field)], field.secret.what);
          if (field.secret.kind === 'token') {
            input[field.key] = text;
            continue;
          }
          try {
            input[field.key] = JSON.parse(text);
          } catch {
            throw new UsageError(field.secret.invalid);
          }
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
      },
    ),
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
