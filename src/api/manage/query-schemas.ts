// C24, C34: the query parameters the management API's lists take, as valibot schemas beside the
// bodies of schemas.ts: the inbox's filters (C46: and its drafts), deliveries, stats and the audit.
import * as v from 'valibot';
import { DELIVERY_STATES } from '../../../schema/tables.ts';
import { described, flag, known, oneOf, time, whole } from '../../http/query-values.ts';
import { AUDIT_PAGE } from '../../ops/audit.ts';
import { INBOX_PAGE, MAX_PAGE } from '../../ops/inbox.ts';
import { MAX_STATS_DAYS } from '../../ops/stats.ts';
import { VERDICTS } from '../../spam/settings.ts';

const text = v.pipe(v.string(), v.minLength(1), v.maxLength(300));

const INBOX_FILTERS = {
  q: v.optional(
    described(
      v.pipe(v.string(), v.maxLength(500, 'must be at most 500 characters')),
      'Full-text search: every word must begin a word of the values (C34).',
    ),
  ),
  read: v.optional(described(flag, 'Read (true) or unread (false) only.')),
  starred: v.optional(described(flag, 'Starred (true) or not (false) only.')),
  spam: v.optional(
    described(
      oneOf(['exclude', 'include', 'only'] as const),
      'Spam: left out (exclude, the default), included, or alone.',
    ),
  ),
  files: v.optional(described(flag, 'With files (true) or without (false) only.')),
  verdict: v.optional(
    described(
      oneOf(VERDICTS),
      "The spam filter's verdict only: ham, unsure, spam, or none (not judged) (C39).",
    ),
  ),
  since: v.optional(described(time, 'Received at or after this time.')),
  until: v.optional(described(time, 'Received before this time.')),
};

const LIST_NAMES = [...Object.keys(INBOX_FILTERS), 'cursor', 'limit', 'order', 'partial'];
export const InboxQuery = v.strictObject(
  {
    ...INBOX_FILTERS,
    partial: v.optional(
      described(
        oneOf(['exclude', 'only'] as const),
        'C46: the drafts of the hosted page in steps instead of submissions (only: last saved first, each `partial: true` with the step it reached; the other filters and order do not apply), or none of them (exclude, the default).',
      ),
    ),
    cursor: v.optional(described(v.string(), 'The `nextCursor` of the previous page.')),
    limit: v.optional(
      described(whole(1, MAX_PAGE), `Submissions per page, 1–${MAX_PAGE} (default ${INBOX_PAGE}).`),
    ),
    order: v.optional(
      described(oneOf(['desc', 'asc'] as const), 'Newest first (desc, the default) or oldest first.'),
    ),
  },
  known(LIST_NAMES),
);

export const ExportQuery = v.strictObject(
  {
    ...INBOX_FILTERS,
    format: v.optional(
      described(oneOf(['csv', 'jsonl'] as const), 'CSV (a column per field) or JSON lines (the default).'),
    ),
  },
  known([...Object.keys(INBOX_FILTERS), 'format']),
);

export const DeliveriesQuery = v.strictObject(
  {
    failed: v.optional(
      described(flag, 'Those that ended undelivered: failed, or cancelled with their target.'),
    ),
    state: v.optional(described(oneOf(DELIVERY_STATES), 'Only deliveries in this state.')),
    target: v.optional(described(text, 'Only deliveries to this webhook or address (its id).')),
    submission: v.optional(described(text, 'Only the deliveries of this submission.')),
  },
  known(['failed', 'state', 'target', 'submission']),
);

export const StatsQuery = v.strictObject(
  { days: v.optional(described(whole(1, MAX_STATS_DAYS), `Days, today included (default 30).`)) },
  known(['days']),
);

export const AuditQuery = v.strictObject(
  {
    cursor: v.optional(described(v.string(), 'The `nextCursor` of the previous page.')),
    limit: v.optional(
      described(whole(1, MAX_PAGE), `Entries per page, 1–${MAX_PAGE} (default ${AUDIT_PAGE}).`),
    ),
  },
  known(['cursor', 'limit']),
);
