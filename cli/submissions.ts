// `forms submissions …`: export a project's submissions (JSON lines or CSV), or erase them by value (C25).
import { once } from 'node:events';
import { type Command, Option } from 'commander';
import { safeJson } from '../src/lib/printable.ts';
import { parseSince } from '../src/ops/input.ts';
import { type Context, UsageError } from './context.ts';

export function submissionsCommands(cli: Command, { withOps, print, io }: Context): void {
  const submissions = cli.command('submissions').description('export or erase submissions');
  submissions
    .command('erase <project>')
    .description('delete every submission whose field holds exactly the value (C25)')
    .requiredOption('--field <name>', 'the field to match')
    .option('--value <text>', 'the value, as text (a string)')
    .option('--json-value <json>', 'the value as JSON, for numbers, booleans and null: 42, true, null')
    .action(
      withOps(
        async (
          ops,
          global,
          projectId: string,
          opts: { field: string; value?: string; jsonValue?: string },
        ) => {
          const done = await ops.erase(projectId, opts.field, opts);
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
      withOps(
        async (
          ops,
          global,
          projectId: string,
          opts: { format: 'jsonl' | 'csv'; since?: string; includeSpam?: boolean },
        ) => {
          if (global.json && opts.format === 'csv') {
            throw new UsageError('--json gives one JSON document: drop --format csv');
          }
          const since = opts.since === undefined ? undefined : parseSince(opts.since);
          const chunks = await ops.exportSubmissions(projectId, {
            format: opts.format,
            filters: { spam: opts.includeSpam ? 'include' : 'exclude', since },
          });
          // With --json, one document whose array is streamed a page at a time.
          const wrap = global.json === true;
          let first = true;
          if (wrap) io.stdout.write(`{"projectId":${JSON.stringify(projectId)},"submissions":[`);
          for await (const chunk of chunks) {
            const text = wrap ? `${first ? '' : ','}${chunk.trimEnd().split('\n').join(',')}` : chunk;
            first = false;
            if (!io.stdout.write(opts.format === 'csv' ? text : safeJson(text)))
              await once(io.stdout, 'drain');
          }
          if (wrap) io.stdout.write(']}\n');
        },
      ),
    );
}
