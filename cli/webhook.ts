// `forms webhook …`: signed webhooks (Standard Webhooks, C26), added with a secret shown once, and
// (C36) chat platforms' incoming webhooks (their channels), whose URL is the secret: listed without
// it, tested, rotated, turned off and on, removed.
import { type Command, Option } from 'commander';
import { hookChannel } from '../src/delivery/channels/index.ts';
import { shown } from '../src/lib/printable.ts';
import { WEBHOOK_KINDS, type WebhookKind } from '../src/ops/targets.ts';
import { type Context, table } from './context.ts';

/** C36: the chat platforms' kinds (a hook without a signing secret of ours). */
const CHATS = WEBHOOK_KINDS.filter((kind) => !hookChannel(kind).signs);

export function webhookCommands(cli: Command, { withOps, print }: Context): void {
  const webhook = cli
    .command('webhook')
    .description(
      `signed webhooks (Standard Webhooks), and ${CHATS.map((k) => hookChannel(k).name).join(' and ')} channels, per project`,
    );
  webhook
    .command('add <project> <url>')
    .description(
      `a webhook: every accepted submission is POSTed to it, signed (its secret printed once); or, with --kind, a ${CHATS.map((k) => hookChannel(k).name).join(' or ')} incoming webhook`,
    )
    .addOption(
      new Option('--kind <kind>', `webhook (signed), ${CHATS.join(' or ')}`)
        .choices(WEBHOOK_KINDS)
        .default('webhook'),
    )
    .action(
      withOps(async (ops, global, projectId: string, url: string, opts: { kind: WebhookKind }) => {
        const added = await ops.addWebhook(projectId, url, opts.kind);
        print(global, added, () =>
          added.secret === undefined
            ? `Added ${added.kind} webhook ${added.webhookId}. Its URL is a secret (anyone with it can post to the channel): it is not shown again.`
            : [
                `Added webhook ${added.webhookId} → ${added.url}`,
                `Signing secret (shown once; verify deliveries with it): ${added.secret}`,
              ].join('\n'),
        );
      }),
    );
  webhook
    .command('list <project>')
    .description('ids, URLs and states (never a secret)')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const hooks = await ops.listWebhooks(projectId);
        print(global, { projectId, webhooks: hooks }, () =>
          hooks.length === 0
            ? `No webhooks for ${projectId}: forms webhook add ${projectId} <url>`
            : table([
                ['ID', 'KIND', 'URL', 'STATE', 'CREATED'],
                ...hooks.map((h) => [
                  h.webhookId,
                  h.kind,
                  h.url,
                  h.state === 'active'
                    ? h.rotatingUntil
                      ? `active (two secrets until ${h.rotatingUntil})`
                      : 'active'
                    : `disabled ${h.disabledAt} (${h.disabledReason === 'manual' ? 'by hand' : h.kind === 'webhook' ? '410 Gone' : 'the hook was deleted'})`,
                  h.createdAt,
                ]),
              ]),
        );
      }),
    );
  webhook
    .command('remove <project> <webhook-id>')
    .description('remove a webhook and its deliveries')
    .action(
      withOps(async (ops, global, projectId: string, id: string) => {
        await ops.removeWebhook(projectId, id);
        print(global, { projectId, removed: id }, () => `Removed webhook ${id} from ${projectId}.`);
      }),
    );
  webhook
    .command('rotate-secret <project> <webhook-id>')
    .description('a new signing secret, printed once; for 24 hours deliveries are signed with both')
    .action(
      withOps(async (ops, global, projectId: string, id: string) => {
        const rotated = await ops.rotateSecret(projectId, id);
        print(global, rotated, () =>
          [
            `New signing secret for ${id} (shown once): ${rotated.secret}`,
            `Until ${rotated.previousUntil} every delivery is signed with both the new and the previous secret.`,
          ].join('\n'),
        );
      }),
    );
  for (const enabled of [true, false]) {
    webhook
      .command(`${enabled ? 'enable' : 'disable'} <project> <webhook-id>`)
      .description(
        enabled
          ? 'turn a disabled webhook on again (one that answered 410 Gone, say)'
          : 'turn a webhook off: nothing is sent to it, and its pending deliveries are cancelled',
      )
      .action(
        withOps(async (ops, global, projectId: string, id: string) => {
          const done = await ops.setWebhookEnabled(projectId, id, enabled);
          print(global, done, () =>
            enabled
              ? [
                  `Enabled webhook ${id}: the next submissions are delivered to it.`,
                  `Its cancelled deliveries can be sent again: forms deliveries redeliver ${projectId} --failed`,
                ].join('\n')
              : `Disabled webhook ${id}: its pending deliveries are cancelled.`,
          );
        }),
      );
  }
  webhook
    .command('test <project> <webhook-id>')
    .description('send a webhook.test event now, from this machine, and print the answer')
    .action(
      withOps(async (ops, global, projectId: string, id: string) => {
        const { url, ...answer } = await ops.testWebhook(projectId, id);
        const { status, error, excerpt } = answer;
        print(global, answer, () =>
          error === null
            ? `${shown(url)} answered ${status}${excerpt ? `: ${shown(excerpt)}` : ''}`
            : `${shown(url)}: ${shown(error)}`,
        );
      }),
    );
}
