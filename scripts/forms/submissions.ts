// `forms submissions …`: export a project's submissions (JSON lines or CSV), or erase them by value (C25).
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Command, Option } from 'commander';
import { stringify } from 'csv-stringify';
import { parseSince } from '../../src/manage/input.ts';
import { showProject } from '../../src/manage/projects.ts';
import { erase } from '../../src/manage/submissions.ts';
import { submissionPages } from '../../src/store/inbox.ts';
import { type Context, UsageError } from './context.ts';
import { safeCell, safeJson } from './printable.ts';

export function submissionsCommands(cli: Command, { withManager, print, io }: Context): void {
  const submissions = cli.command('submissions').description('export or erase submissions');
  submissions
    .command('erase <project>')
    .description('delete every submission whose field holds exactly the value (C25)')
    .requiredOption('--field <name>', 'the field to match')
    .option('--value <text>', 'the value, as text (a string)')
    .option('--json-value <json>', 'the value as JSON, for numbers, booleans and null: 42, true, null')
    .action(
      withManager(
        async (m, global, projectId: string, opts: { field: string; value?: string; jsonValue?: string }) => {
          const done = await erase(m, projectId, opts.field, opts);
          print(
            global,
            done,
            () =>
              `Erased ${done.erased} submission${done.erased === 1 ? '' : 's'} of ${done.projectId} whose ${done.field} is ${JSON.stringify(done.value)}.`,
          );
        },
      ),
    );
  submissions
    .command('export <project>')
    .description('every submission, oldest first: JSON lines, or CSV (RFC 4180) with one column per field')
    .addOption(new Option('--format <format>', 'jsonl or csv').choices(['jsonl', 'csv']).default('jsonl'))
    .option('--since <time>', 'only submissions received at or after this ISO 8601 time')
    .option('--include-spam', 'include submissions that filled the honeypot, marked as spam')
    .action(
      withManager(
        async (
          m,
          global,
          projectId: string,
          opts: { format: 'jsonl' | 'csv'; since?: string; includeSpam?: boolean },
        ) => {
          if (global.json && opts.format === 'csv') {
            throw new UsageError('--json gives one JSON document: drop --format csv');
          }
          const since = opts.since === undefined ? undefined : parseSince(opts.since);
          const p = await showProject(m, projectId);
          const includeSpam = opts.includeSpam === true;
          const pages = submissionPages(m.db, p.id, {
            includeSpam,
            ...(since === undefined ? {} : { since }),
          });
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
            return;
          }
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
        },
      ),
    );
}
