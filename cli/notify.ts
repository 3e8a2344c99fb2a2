// `forms notify …`: the addresses that get an email per accepted submission (C27); one added with a
// project's key waits for its owner's agreement (C37).
import type { Command } from 'commander';
import { type Context, table } from './context.ts';

export function notifyCommands(cli: Command, { withOps, print }: Context): void {
  const notify = cli
    .command('notify')
    .description('an email per accepted submission, through the send_email binding (C27)');
  notify
    .command('add <project> <address>')
    .description('email every accepted submission to this address')
    .option('--reply-to-field <field>', "the emails' Reply-To is the address in this string field")
    .action(
      withOps(async (ops, global, projectId: string, address: string, opts: { replyToField?: string }) => {
        const added = await ops.addNotification(projectId, address, opts.replyToField);
        print(global, added, () =>
          [
            `Added email notification ${added.notificationId} → ${added.address}`,
            ...(added.state === 'waiting'
              ? [
                  `It waits for its owner to agree (C37): verification mail ${added.verification ?? 'not sent'}`,
                ]
              : []),
            added.replyToField === null
              ? 'Reply-To: none (set one with --reply-to-field <field>)'
              : `Reply-To: the address in field '${added.replyToField}', when it holds one`,
          ].join('\n'),
        );
      }),
    );
  notify
    .command('list <project>')
    .description('the addresses that get an email per submission')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const { replyToField, notifications } = await ops.listNotifications(projectId);
        print(global, { projectId, replyToField, notifications }, () =>
          notifications.length === 0
            ? `No email notifications for ${projectId}: forms notify add ${projectId} <address>`
            : [
                table([
                  ['ID', 'ADDRESS', 'STATE', 'CREATED'],
                  ...notifications.map((r) => [r.notificationId, r.address, r.state, r.createdAt]),
                ]),
                `Reply-To field: ${replyToField ?? '(none)'}`,
              ].join('\n'),
        );
      }),
    );
  notify
    .command('remove <project> <id-or-address>')
    .description('stop emailing an address (by its id or the address), and drop its deliveries')
    .action(
      withOps(async (ops, global, projectId: string, which: string) => {
        const { removed, address } = await ops.removeNotification(projectId, which);
        print(
          global,
          { projectId, removed, address },
          () => `Removed ${address} (${removed}) from ${projectId}.`,
        );
      }),
    );
}
