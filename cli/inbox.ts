// `forms inbox …`, `forms stats`, `forms audit`, `forms search rebuild`: a project's inbox (C34)
// from a terminal: a page with its filters, one submission, read/starred/spam marks, deletion;
// its numbers per day; its audit log (C32); its search index rebuilt.
import { type Command, Option } from 'commander';
import { AUDIT_PAGE } from '../src/ops/audit.ts';
import {
  BULK_ACTIONS,
  type BulkAction,
  INBOX_PAGE,
  MAX_BULK,
  MAX_PAGE,
  reasonText,
  type SubmissionView,
} from '../src/ops/inbox.ts';
import { parseSince } from '../src/ops/input.ts';
import { MAX_STATS_DAYS } from '../src/ops/stats.ts';
import { VERDICTS, type Verdict } from '../src/spam/settings.ts';
import { type Context, table, UsageError } from './context.ts';

const whole = (name: string, max: number) => (text: string) => {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}`);
  return n;
};

/** C39: the spam filter's verdict in words: `spam 0.97 (classifier: link domain bit.ly; url shortener)`. */
export function verdictText(s: SubmissionView): string {
  if (s.spamVerdict === 'pending') return 'not judged yet';
  if (s.spamVerdict === 'none') return 'not judged (off, or received before it)';
  const score = s.spamScore === null ? '' : ` ${s.spamScore.toFixed(2)}`;
  return `${s.spamVerdict}${score} (${reasonText(s.spamReason)})`;
}

/** A submission on one line: its time, its state, and its values in short. */
function row(s: SubmissionView): string[] {
  const state = `${s.read ? ' ' : '•'}${s.starred ? '★' : ' '}${s.spam ? 'S' : ' '}`;
  const values = Object.entries(s.fields)
    .map(
      ([k, v]) => `${k}=${typeof v === 'object' && v !== null ? (v as { name?: string }).name : String(v)}`,
    )
    .join(' ');
  return [s.id, s.receivedAt, state, values.length > 80 ? `${values.slice(0, 79)}…` : values];
}

export function inboxCommands(cli: Command, { withOps, print }: Context): void {
  const inbox = cli.command('inbox').description("a project's inbox: list, show, mark, delete submissions");
  inbox
    .command('list <project>')
    .description('a page of submissions, newest first (• unread, ★ starred, S spam)')
    .option('--search <words>', 'only those with words beginning with each of these')
    .option('--unread', 'only unread ones')
    .option('--starred', 'only starred ones')
    .addOption(
      new Option('--spam <which>', 'spam: exclude, include or only').choices(['exclude', 'include', 'only']),
    )
    .option('--files', 'only those with files')
    .addOption(
      new Option('--verdict <verdict>', 'only those the spam filter judged so (none: not judged)').choices(
        VERDICTS,
      ),
    )
    .option('--since <time>', 'only those received at or after this ISO 8601 time')
    .option(
      '--limit <n>',
      `at most this many (1–${MAX_PAGE}, ${INBOX_PAGE} unless told)`,
      whole('--limit', MAX_PAGE),
    )
    .action(
      withOps(
        async (
          ops,
          global,
          projectId: string,
          opts: {
            search?: string;
            unread?: boolean;
            starred?: boolean;
            spam?: 'exclude' | 'include' | 'only';
            files?: boolean;
            verdict?: Verdict;
            since?: string;
            limit?: number;
          },
        ) => {
          const page = await ops.listInbox(projectId, {
            filters: {
              q: opts.search,
              read: opts.unread ? false : undefined,
              starred: opts.starred ? true : undefined,
              spam: opts.spam,
              files: opts.files ? true : undefined,
              verdict: opts.verdict,
              since: opts.since === undefined ? undefined : parseSince(opts.since),
            },
            ...(opts.limit === undefined ? {} : { limit: opts.limit }),
          });
          print(global, page, () =>
            page.submissions.length === 0
              ? 'No submissions.'
              : `${table([['ID', 'RECEIVED', '', 'VALUES'], ...page.submissions.map(row)])}${page.more ? '\n(more: narrow the filters or raise --limit)' : ''}`,
          );
        },
      ),
    );
  inbox
    .command('show <project> <id>')
    .description('one submission, with its state (reading it here changes nothing)')
    .action(
      withOps(async (ops, global, projectId: string, id: string) => {
        const s = await ops.getSubmission(projectId, id);
        print(global, { submission: s }, () =>
          [
            `${s.id} received ${s.receivedAt}${s.spam ? ' (spam)' : ''}${s.starred ? ' ★' : ''}`,
            s.read ? `read ${s.readAt}` : 'unread',
            `spam filter: ${verdictText(s)}`,
            ...Object.entries(s.fields).map(
              ([k, v]) => `  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`,
            ),
          ].join('\n'),
        );
      }),
    );
  inbox
    .command('mark <project> <ids...>')
    .description(
      `one action on up to ${MAX_BULK} submissions: ${BULK_ACTIONS.filter((a) => a !== 'delete').join(', ')}`,
    )
    .addOption(
      new Option('--as <action>', 'what to mark them')
        .choices(BULK_ACTIONS.filter((a) => a !== 'delete'))
        .makeOptionMandatory(),
    )
    .action(
      withOps(async (ops, global, projectId: string, ids: string[], opts: { as: BulkAction }) => {
        const done = await ops.bulkSubmissions(projectId, ids, opts.as);
        print(
          global,
          done,
          () => `Marked ${done.changed} submission${done.changed === 1 ? '' : 's'} ${opts.as}.`,
        );
      }),
    );
  inbox
    .command('delete <project> <ids...>')
    .description('delete submissions, with their deliveries and files')
    .action(
      withOps(async (ops, global, projectId: string, ids: string[]) => {
        const done = await ops.bulkSubmissions(projectId, ids, 'delete');
        print(global, done, () => `Deleted ${done.changed} submission${done.changed === 1 ? '' : 's'}.`);
      }),
    );

  cli
    .command('stats <project>')
    .description(
      'per day (UTC): accepted, spam, delivered, failed, confirmations a cap stopped; form views, starts and rates; where visitors gave up',
    )
    .option(
      '--days <n>',
      `days, today included (1–${MAX_STATS_DAYS}, 30 unless told)`,
      whole('--days', MAX_STATS_DAYS),
    )
    .action(
      withOps(async (ops, global, projectId: string, opts: { days?: number }) => {
        const stats = await ops.submissionStats(projectId, opts.days ?? 30);
        const percent = (r: number | null) => (r === null ? '-' : `${(r * 100).toFixed(1)}%`);
        print(global, stats, () =>
          [
            table([
              [
                'DAY',
                'VIEWS',
                'STARTS',
                'ACCEPTED',
                'COMPLETION',
                'CONVERSION',
                'SPAM',
                'DELIVERED',
                'FAILED',
                'CAPPED',
              ],
              ...stats.days.map((d) => [
                d.day,
                String(d.views),
                String(d.starts),
                String(d.accepted),
                percent(d.completionRate),
                percent(d.conversionRate),
                String(d.spam),
                String(d.delivered),
                String(d.failed),
                String(d.confirmationsCapped),
              ]),
            ]),
            '',
            'Where visitors gave up (left a started form unsent, by the field they touched last):',
            table([
              ['FIELD', 'VISITORS', 'AVERAGE TIME'],
              ...stats.dropOff.map((d) => [
                d.field,
                String(d.visitors),
                d.averageSeconds === null ? '-' : `${d.averageSeconds} s`,
              ]),
            ]),
            '',
            `Median time from the first input to a submission: ${
              stats.medianSecondsToSubmit === null ? 'none yet' : `${stats.medianSecondsToSubmit} s`
            }`,
          ].join('\n'),
        );
      }),
    );

  cli
    .command('audit <project>')
    .description('every change made to the project through the tool or the management API, newest first')
    .option(
      '--limit <n>',
      `at most this many entries (1–${MAX_PAGE}, ${AUDIT_PAGE} unless told)`,
      whole('--limit', MAX_PAGE),
    )
    .action(
      withOps(async (ops, global, projectId: string, opts: { limit?: number }) => {
        const page = await ops.auditLog(projectId, opts.limit === undefined ? {} : { limit: opts.limit });
        print(global, page, () =>
          page.entries.length === 0
            ? 'No changes recorded.'
            : table([
                ['AT', 'WHO', 'WHAT', 'DETAIL'],
                ...page.entries.map((e) => [
                  e.at,
                  e.actor,
                  e.action,
                  e.detail === null ? '' : JSON.stringify(e.detail),
                ]),
              ]),
        );
      }),
    );

  cli
    .command('search')
    .description('the search index of submissions')
    .command('rebuild <project>')
    .description("index the project's submissions for search again")
    .action(
      withOps(async (ops, global, projectId: string) => {
        const done = await ops.rebuildSearch(projectId);
        print(
          global,
          done,
          () => `Indexed ${done.indexed} of ${done.marked} submissions of ${done.projectId}.`,
        );
      }),
    );
}
