// `forms limits …`: a form's limits (C45): the most accepted submissions it takes, when it opens
// and closes, and what its hosted page says outside them; shown, or changed member by member.
import type { Command } from 'commander';
import { textOptions } from '../src/fields/display.ts';
import { CLOSED_TEXT_RULE, type LimitsInput, type LimitsView } from '../src/ops/limits.ts';
import { type Context, UsageError } from './context.ts';
import { collectText } from './field.ts';

const describe = (l: LimitsView) =>
  [
    l.maxSubmissions === null
      ? 'takes any number of submissions'
      : `takes at most ${l.maxSubmissions} submission${l.maxSubmissions === 1 ? '' : 's'}`,
    `opens ${l.opensAt ?? '(always open)'}`,
    `closes ${l.closesAt ?? '(never)'}`,
    ...Object.entries(l.closedText).map(([tag, text]) => `closed text[${tag}]=${JSON.stringify(text)}`),
  ].join(', ');

export function limitsCommands(cli: Command, { withOps, print }: Context): void {
  const limits = cli
    .command('limits')
    .description("a form's limits: how many it takes, when it opens and closes (C45)");
  limits
    .command('show <project>')
    .description("the project's limits")
    .action(
      withOps(async (ops, global, projectId: string) => {
        const p = await ops.showProject(projectId);
        print(
          global,
          { projectId: p.id, limits: p.limits },
          () => `Limits of ${p.id}: ${describe(p.limits)}.`,
        );
      }),
    );
  limits
    .command('set <project>')
    .description('change the limits given; the others stay')
    .option('--max-submissions <n>', 'the most accepted (not spam) submissions it takes')
    .option('--no-max-submissions', 'no most')
    .option('--opens-at <iso>', 'when it opens, an ISO time with its zone (2026-12-24T18:00:00Z)')
    .option('--no-opens-at', 'open from now')
    .option('--closes-at <iso>', 'when it closes, an ISO time with its zone')
    .option('--no-closes-at', 'never closes')
    .option(
      '--closed-text <lang=text>',
      'what its hosted page says when full or closed (repeatable)',
      collectText,
    )
    .option('--no-closed-text', 'the built-in words')
    .action(
      withOps(
        async (
          ops,
          global,
          projectId: string,
          opts: {
            maxSubmissions?: string | false;
            opensAt?: string | false;
            closesAt?: string | false;
            closedText?: string[] | false;
          },
        ) => {
          const input: LimitsInput = {};
          if (opts.maxSubmissions !== undefined)
            input.maxSubmissions = opts.maxSubmissions === false ? null : Number(opts.maxSubmissions);
          if (opts.opensAt !== undefined) input.opensAt = opts.opensAt === false ? null : opts.opensAt;
          if (opts.closesAt !== undefined) input.closesAt = opts.closesAt === false ? null : opts.closesAt;
          if (opts.closedText !== undefined)
            input.closedText =
              opts.closedText === false ? null : textOptions(opts.closedText, CLOSED_TEXT_RULE);
          if (Object.keys(input).length === 0) {
            throw new UsageError(
              'Nothing to change: give --max-submissions, --opens-at, --closes-at, --closed-text or their --no- forms',
            );
          }
          const after = await ops.updateProject(projectId, { limits: input });
          print(
            global,
            { projectId: after.id, limits: after.limits },
            () => `Limits of ${after.id}: ${describe(after.limits)}.`,
          );
        },
      ),
    );
}
