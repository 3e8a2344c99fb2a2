// C24, C34: a project's submissions written out, a page at a time, as JSON lines or as CSV (RFC
// 4180, a column per configured field), oldest first: the same text from the tool and from the
// management API, which streams it. Nothing holds more than a page.
import { stringify } from 'csv-stringify/sync';
import { safeCell } from '../lib/printable.ts';
import { MAX_PAGE_BYTES, pagesOf, type StoredSubmission } from '../store/inbox.ts';
import { type Manager, requireProject } from './context.ts';
import { type InboxFilters, pageFilters, reasonOf, reasonText } from './inbox.ts';

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const PAGE_SIZE = 1000;

/** The header, and each page, as CSV text. */
function csvWriter(names: string[], withSpam: boolean) {
  const options = {
    // A cell that starts with = + - @ is prefixed with ' so a spreadsheet shows it, never runs it.
    escape_formulas: true,
    // C19: a cell keeps its line breaks and tabs (CSV quotes them), no other control character.
    cast: { boolean: (b: boolean) => String(b), string: (s: string) => safeCell(s) },
  };
  return {
    // C39: with spam asked for, each row's verdict: its score and reason beside the spam column.
    header: stringify(
      [['id', 'received_at', ...(withSpam ? ['spam', 'spam_score', 'spam_reason'] : []), ...names]],
      options,
    ),
    page: (rows: StoredSubmission[]) =>
      stringify(
        rows.map((s) => {
          const data = JSON.parse(s.data) as Record<string, unknown>;
          const cells = names.map((n) => (Object.hasOwn(data, n) ? data[n] : ''));
          return withSpam
            ? [s.id, s.receivedAt, s.spam, s.spamScore ?? '', reasonText(reasonOf(s.spamReason)), ...cells]
            : [s.id, s.receivedAt, ...cells];
        }),
        options,
      ),
  };
}

/** One submission as a line of JSON: the stored fields as they were stored. */
export function jsonLine(s: StoredSubmission, withSpam: boolean): string {
  const spam = withSpam
    ? `"spam":${s.spam},"spamScore":${JSON.stringify(s.spamScore)},"spamReason":${s.spamReason ?? 'null'},`
    : '';
  return `{"id":${JSON.stringify(s.id)},"receivedAt":${JSON.stringify(s.receivedAt)},${spam}"fields":${s.data}}`;
}

/**
 * The export of the project's submissions that pass the filters (spam left out unless asked for,
 * C22), as chunks of text: the CSV header first, then a chunk per page. The project is looked up
 * before the first chunk, so that an unknown one fails before anything is written.
 */
export async function exportSubmissions(
  m: Manager,
  projectId: string,
  options: { format: ExportFormat; filters?: InboxFilters },
): Promise<AsyncGenerator<string>> {
  const p = await requireProject(m, projectId);
  const filters = options.filters ?? {};
  const withSpam = (filters.spam ?? 'exclude') !== 'exclude';
  const pages = pagesOf(m.db, {
    projectId: p.id,
    limit: PAGE_SIZE,
    maxBytes: MAX_PAGE_BYTES,
    order: 'asc',
    ...pageFilters(p.id, filters),
  });
  const csv =
    options.format === 'csv'
      ? csvWriter(
          p.fields.map((f) => f.name),
          withSpam,
        )
      : undefined;
  return (async function* () {
    if (csv !== undefined) yield csv.header;
    for await (const page of pages) {
      yield csv === undefined ? `${page.map((s) => jsonLine(s, withSpam)).join('\n')}\n` : csv.page(page);
    }
  })();
}
