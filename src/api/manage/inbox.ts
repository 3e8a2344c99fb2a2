// C32, C34: a project's inbox over HTTP: its submissions with their state and a search, one at a
// time or many at once, exported as a stream, its numbers per day, its audit log.
import * as v from 'valibot';
import { contentDisposition, fileResponse } from '../../files/serve.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { fileNotFound } from '../../http/replies.ts';
import { requestIdOf } from '../../http/request-id.ts';
import { auditLog } from '../../ops/audit.ts';
import { draftCursor, listDraftPage } from '../../ops/drafts.ts';
import { exportSubmissions } from '../../ops/export.ts';
import {
  bulkSubmissions,
  deleteSubmission,
  getSubmission,
  INBOX_PAGE,
  listInbox,
  updateSubmission,
} from '../../ops/inbox.ts';
import { rebuildSearch } from '../../ops/search.ts';
import { submissionStats } from '../../ops/stats.ts';
import { eraseValue } from '../../ops/submissions.ts';
import { type ManageRoutes, plural } from './define.ts';
import { MANAGE_ROUTES } from './table.ts';
import { AuditEntrySchema, DayStatsSchema, DropOffSchema, SubmissionSchema } from './views.ts';

const TAG = 'Inbox';

const SUBMISSION_EXAMPLE = {
  id: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
  receivedAt: '2026-11-22T08:44:13.000Z',
  fields: { email: 'ada@example.com', message: 'Hello!' },
  spam: false,
  read: false,
  readAt: null,
  starred: false,
  files: [],
  spamVerdict: 'ham',
  spamScore: 0.03,
  spamReason: { layer: 'project marks', signals: ['word "slides"', 'words "the workshop"'] },
};

/** Rebuilding search over HTTP indexes this many now; the minute's sweep does the rest. */
const REBUILD_NOW = 5000;

export function inboxRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.listInbox,
    tag: TAG,
    summary: 'A page of the inbox, newest first: search, read, starred, spam, files, time',
    description:
      'Pass `nextCursor` as `cursor` (with the same order) for the next page. `q` finds submissions whose values hold words beginning with each of its words, fresh within seconds of their 201 (C34).',
    access: 'project',
    reply: {
      status: 200,
      description: 'A page, and the cursor of the next one (absent on the last page).',
      members: { submissions: v.array(SubmissionSchema), nextCursor: v.optional(v.string()) },
      example: { message: '1 submission', submissions: [SUBMISSION_EXAMPLE] },
    },
    handler: async ({ m, params, query }) => {
      const { cursor, limit, order = 'desc', partial, ...filters } = query;
      if (partial === 'only') {
        // C46: the drafts, last saved first; the cursor is the last one's time.
        const page = await listDraftPage(m, params.projectId, limit ?? INBOX_PAGE, draftCursor(cursor));
        const last = page.drafts.at(-1);
        return {
          message: plural(page.drafts.length, 'draft'),
          data: {
            submissions: page.drafts,
            ...(page.more && last !== undefined ? { nextCursor: btoa(`draft ${last.receivedAt}`) } : {}),
          },
        };
      }
      const page = await listInbox(m, params.projectId, {
        filters,
        order,
        after: cursor === undefined ? undefined : decodeCursor(cursor, order),
        ...(limit === undefined ? {} : { limit }),
      });
      const last = page.submissions.at(-1);
      return {
        message: plural(page.submissions.length, 'submission'),
        data: {
          submissions: page.submissions,
          ...(page.more && last !== undefined ? { nextCursor: encodeCursor(order, last.id) } : {}),
        },
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.exportSubmissions,
    tag: TAG,
    summary: 'Every submission that passes the filters, oldest first, streamed as CSV or JSON lines',
    description:
      'CSV as the tool writes it (RFC 4180, a column per field, formulas defused); JSON lines one submission each. Streamed a page at a time: any number of rows in bounded memory.',
    access: 'project',
    reply: {
      status: 200,
      raw: {
        description: 'The export, as an attachment.',
        content: {
          'text/csv; charset=utf-8': { schema: { type: 'string' } },
          'application/x-ndjson; charset=utf-8': { schema: { type: 'string' } },
        },
      },
    },
    handler: async ({ c, m, params, query }) => {
      const { format = 'jsonl', ...filters } = query;
      const chunks = await exportSubmissions(m, params.projectId, { format, filters });
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await chunks.return(undefined);
        },
      });
      return new Response(body, {
        headers: {
          'Content-Type':
            format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
          'Content-Disposition': contentDisposition(`${params.projectId}-submissions.${format}`),
          'Cache-Control': 'private, no-store',
          'X-Request-Id': requestIdOf(c),
        },
      });
    },
  });

  routes.add({
    ...MANAGE_ROUTES.bulkSubmissions,
    tag: TAG,
    summary: 'One action on up to 500 submissions: read, unread, star, unstar, spam, not-spam, delete',
    access: 'project',
    reply: {
      status: 200,
      description: 'How many changed (ids of other projects, or already so, are not counted).',
      members: { action: v.string(), changed: v.number() },
      example: { message: '2 submissions changed', action: 'read', changed: 2 },
    },
    handler: async ({ m, params, body }) => {
      const done = await bulkSubmissions(m, params.projectId, body.ids, body.action);
      return { message: `${plural(done.changed, 'submission')} changed`, data: done };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.eraseByValue,
    tag: TAG,
    summary: 'Deletes every submission whose field holds exactly the value (C25)',
    access: 'project',
    reply: {
      status: 200,
      description: 'How many were erased.',
      members: {
        projectId: v.string(),
        field: v.string(),
        value: v.union([v.string(), v.number(), v.boolean(), v.null()]),
        erased: v.number(),
      },
      example: {
        message: 'Erased 2 submissions',
        projectId: 'p_k3jd8s2mq0zx',
        field: 'email',
        value: 'ada@example.com',
        erased: 2,
      },
    },
    handler: async ({ m, params, body }) => {
      const done = await eraseValue(m, params.projectId, body.field, body.value);
      return { message: `Erased ${plural(done.erased, 'submission')}`, data: done };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.getInboxSubmission,
    tag: TAG,
    summary: 'One submission with its state (reading it changes nothing)',
    access: 'project',
    reply: {
      status: 200,
      description: 'The submission.',
      members: { submission: SubmissionSchema },
      example: { message: 'Submission found', submission: SUBMISSION_EXAMPLE },
    },
    handler: async ({ m, params }) => ({
      message: 'Submission found',
      data: { submission: await getSubmission(m, params.projectId, params.id) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.viewFile,
    tag: TAG,
    summary: "A submission's file (C30): a picture or a PDF shown inline, anything else downloaded",
    description:
      'For the dashboard’s preview: inline only for PNG, JPEG, GIF, WebP, AVIF and PDF, under a policy that runs no script (`sandbox` but for PDF, which the browser’s viewer shows); a script-capable type (SVG, HTML, XML) is `application/octet-stream`, as an attachment.',
    access: 'project',
    reply: {
      status: 200,
      raw: {
        description: 'The bytes, typed as judged from them.',
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    },
    refusals: [{ name: 'no such file', reply: fileNotFound('cv') }],
    handler: async ({ c, m, params }) =>
      fileResponse(c, m.db, m.place, params.projectId, params.id, params.field, true),
  });

  routes.add({
    ...MANAGE_ROUTES.updateSubmission,
    tag: TAG,
    summary: 'Marks a submission read or unread, starred or not, spam or not',
    description:
      'Taking a submission out of spam delivers it to the targets, once, as if just accepted (C34).',
    access: 'project',
    reply: {
      status: 200,
      description: 'The submission after.',
      members: { submission: SubmissionSchema },
      example: { message: 'Submission updated', submission: { ...SUBMISSION_EXAMPLE, read: true } },
    },
    handler: async ({ m, params, body }) => ({
      message: 'Submission updated',
      data: { submission: await updateSubmission(m, params.projectId, params.id, body) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.deleteInboxSubmission,
    tag: TAG,
    summary: 'Deletes a submission, with its deliveries, search terms and files',
    access: 'project',
    reply: {
      status: 200,
      description: 'Deleted.',
      members: { deleted: v.string() },
      example: { message: 'Submission deleted', deleted: SUBMISSION_EXAMPLE.id },
    },
    handler: async ({ m, params }) => ({
      message: 'Submission deleted',
      data: await deleteSubmission(m, params.projectId, params.id),
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.projectStats,
    tag: TAG,
    summary: 'Per day (UTC): accepted, spam, deliveries delivered and failed, confirmations a cap stopped',
    access: 'project',
    reply: {
      status: 200,
      description:
        'One entry per day, oldest first, today last; C40: where visitors gave up (the fields in order), and the median time from the first input to a submission.',
      members: {
        days: v.array(DayStatsSchema),
        dropOff: v.array(DropOffSchema),
        medianSecondsToSubmit: v.nullable(v.number()),
      },
      example: {
        message: '30 days',
        days: [
          {
            day: '2026-11-22',
            accepted: 12,
            spam: 1,
            delivered: 11,
            failed: 1,
            confirmationsCapped: 0,
            views: 240,
            starts: 30,
            completionRate: 0.4,
            conversionRate: 0.05,
          },
        ],
        dropOff: [
          { field: 'name', step: 1, visitors: 2, averageSeconds: 4.1 },
          { field: 'message', step: 2, visitors: 9, averageSeconds: 51.7 },
        ],
        medianSecondsToSubmit: 48.2,
      },
    },
    handler: async ({ m, params, query }) => {
      const stats = await submissionStats(m, params.projectId, query.days ?? 30);
      return { message: plural(stats.days.length, 'day'), data: stats };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.auditLog,
    tag: TAG,
    summary: 'Every change made through this API or the tool, newest first: when, who, what (C32)',
    access: 'project',
    reply: {
      status: 200,
      description: 'A page of entries, and the cursor of the next.',
      members: { entries: v.array(AuditEntrySchema), nextCursor: v.optional(v.string()) },
      example: {
        message: '1 entry',
        entries: [
          {
            id: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
            projectId: 'p_k3jd8s2mq0zx',
            at: '2026-11-22T08:00:00.000Z',
            actor: 'operator',
            action: 'field.define',
            detail: { name: 'email', type: 'string', required: true, added: true },
          },
        ],
      },
    },
    handler: async ({ m, params, query }) => {
      const page = await auditLog(m, params.projectId, {
        before: query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'desc'),
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      });
      const last = page.entries.at(-1);
      return {
        message: plural(page.entries.length, 'entry', 'entries'),
        data: {
          entries: page.entries,
          ...(page.more && last !== undefined ? { nextCursor: encodeCursor('desc', last.id) } : {}),
        },
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.rebuildSearch,
    tag: TAG,
    summary: "Indexes the project's submissions for search again (C34)",
    description: `Up to ${REBUILD_NOW} now; the rest within minutes, by the sweep.`,
    access: 'project',
    reply: {
      status: 200,
      description: 'How many were marked, and how many indexed now.',
      members: { projectId: v.string(), marked: v.number(), indexed: v.number() },
      example: { message: 'Search rebuilt', projectId: 'p_k3jd8s2mq0zx', marked: 120, indexed: 120 },
    },
    handler: async ({ m, params }) => ({
      message: 'Search rebuilt',
      data: await rebuildSearch(m, params.projectId, REBUILD_NOW),
    }),
  });
}
