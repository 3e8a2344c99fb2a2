// `forms confirm …`: the confirmation email to the person who filled in the form (C35): its
// address field, subject and body (from a file, `{{field}}` for a field's value) and Reply-To;
// shown; turned off.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type Context, UsageError } from './context.ts';

export function confirmCommands(cli: Command, { withOps, print }: Context): void {
  const confirm = cli
    .command('confirm')
    .description('the confirmation email to the person who submits a form');
  confirm
    .command('set <project>')
    .description(
      'send each submitter who passed Turnstile a confirmation (not for spam; one a day to a mailbox at most)',
    )
    .requiredOption('--field <name>', 'the string field with format=email that holds their address')
    .requiredOption(
      '--subject <text>',
      'the subject, one line; {{field}} stands for a number, yes/no or choice (never free text)',
    )
    .requiredOption('--body-file <path>', 'a plain-text file: the body; {{field}} stands for a value')
    .requiredOption('--reply-to <address>', 'your address, for their replies')
    .option(
      '--open',
      'the operator sends it for submissions that passed no Turnstile challenge too (anyone could make the form mail strangers)',
    )
    .action(
      withOps(
        async (
          ops,
          global,
          projectId: string,
          opts: { field: string; subject: string; bodyFile: string; replyTo: string; open?: boolean },
        ) => {
          let body: string;
          try {
            body = readFileSync(opts.bodyFile, 'utf8');
          } catch {
            throw new UsageError(`Cannot read --body-file '${opts.bodyFile}'`);
          }
          const after = await ops.updateProject(projectId, {
            confirmation: {
              field: opts.field,
              subject: opts.subject,
              body,
              replyTo: opts.replyTo,
              ...(opts.open ? { open: true } : {}),
            },
          });
          print(
            global,
            { projectId: after.id, confirmation: after.confirmation },
            () =>
              `${after.id} now confirms each submission to the address in '${after.confirmation?.field}': "${after.confirmation?.subject}".`,
          );
        },
      ),
    );
  confirm
    .command('show <project>')
    .description('the confirmation, if one is sent')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const { confirmation } = await ops.showProject(projectId);
        print(global, { projectId, confirmation }, () =>
          confirmation === null
            ? `${projectId} sends no confirmation.`
            : [
                `To: the address in '${confirmation.field}'${confirmation.open ? ' (open: without a Turnstile challenge too)' : ', of a submission that passed Turnstile'}`,
                `Reply-To: ${confirmation.replyTo ?? '(none)'}`,
                `Subject: ${confirmation.subject}`,
                '',
                confirmation.body.trimEnd(),
              ].join('\n'),
        );
      }),
    );
  confirm
    .command('off <project>')
    .description('send no more confirmations')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const after = await ops.updateProject(projectId, { confirmation: null });
        print(
          global,
          { projectId: after.id, confirmation: null },
          () => `${after.id} sends no more confirmations.`,
        );
      }),
    );
}
