// C46: a project's drafts (partial submissions of its hosted page in steps) as the inbox lists them
// with `partial=only`: shaped as submissions, marked `partial`, with the step each reached; never
// in the default listing nor in exports, which read submissions alone.
import { InvalidInput } from '../lib/faults.ts';
import { listDrafts } from '../store/drafts.ts';
import { type Manager, projectIdOf } from './context.ts';
import type { SubmissionView } from './inbox.ts';

export type DraftView = SubmissionView & { partial: true; step: number; expiresAt: string };

/** A page of a project's drafts, last saved first; `before` is the last one's time of the page before. */
export async function listDraftPage(
  m: Manager,
  projectId: string,
  limit: number,
  before?: string,
): Promise<{ drafts: DraftView[]; more: boolean }> {
  const p = await projectIdOf(m, projectId);
  const rows = await listDrafts(m.db, p, new Date().toISOString(), limit + 1, before);
  return {
    more: rows.length > limit,
    drafts: rows.slice(0, limit).map((row) => ({
      id: row.id,
      receivedAt: row.updatedAt,
      fields: JSON.parse(row.data) as SubmissionView['fields'],
      spam: false,
      read: false,
      readAt: null,
      starred: false,
      files: [],
      spamVerdict: 'none',
      spamScore: null,
      spamReason: null,
      partial: true,
      step: row.step,
      expiresAt: row.expiresAt,
    })),
  };
}

/** C46: a page of drafts' cursor: the time the last one of the page before was saved. */
export function draftCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  let text = '';
  try {
    text = atob(cursor);
  } catch {
    // Not base64: refused below.
  }
  const at = /^draft (\d{4}-\d\d-\d\dT[\d:.]+Z)$/.exec(text)?.[1];
  if (at === undefined)
    throw new InvalidInput('Invalid cursor: pass the nextCursor of the previous page of drafts');
  return at;
}
