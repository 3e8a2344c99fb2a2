// C46: the drafts of a hosted page in steps (partial submissions), saved by /widget/steps.js after
// each step and opened from the page's `?resume=<token>`. A draft is the form's (its form id), the
// page's origin checked as for a submission, limited per address and project by a limiter of its
// own; its token is the page's, at least 128 random bits, kept here only as its SHA-256, so that
// what is stored never opens a draft, and a token never opens another project's. Saving is one
// statement (one D1 round trip), the same for a retry. Never judged, delivered or counted: a draft
// is no submission. Loaded with the events app: a form post never evaluates it.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import * as v from 'valibot';
import { DRAFT_TOKEN } from '../../accept/signals.ts';
import { config } from '../../config.ts';
import { MAX_STEPS } from '../../fields/display.ts';
import { describeRoute, pagePath, resolver } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { REASON_PHRASES } from '../../http/envelope.ts';
import { okEnvelope } from '../../http/openapi.ts';
import { DRAFT_OPEN_PATH, DRAFTS_PATH } from '../../http/paths.ts';
import * as replies from '../../http/replies.ts';
import { sendJson } from '../../http/send.ts';
import { sha256Text } from '../../lib/hex.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { FORM_ID, type ResolvedProject } from '../../projects/cache.ts';
import { openDraft, saveDraft } from '../../store/drafts.ts';
import { placeOf } from '../../store/places.ts';
import { openDraftDescription, saveDraftDescription } from './drafts-operation.ts';

const TAG = 'Widget';

import { projectOfPageRequest, readSmall } from './routes.ts';

const token = v.pipe(v.string(), v.regex(DRAFT_TOKEN, 'must be 22 to 64 characters of base64url'));
const form = v.pipe(v.string(), v.regex(FORM_ID, 'must be a form id (f_…)'));
const SaveRequest = v.strictObject({
  form,
  token,
  step: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_STEPS)),
  values: v.custom<Record<string, unknown>>(
    (values) => typeof values === 'object' && values !== null && !Array.isArray(values),
    'must be an object of values by field name',
  ),
});
const OpenRequest = v.strictObject({ form, token });

const SaveReply = okEnvelope(200, { expiresAt: v.pipe(v.string(), v.isoTimestamp()) });
const OpenReply = okEnvelope(200, {
  step: v.number(),
  values: v.record(v.string(), v.unknown()),
  expiresAt: v.pipe(v.string(), v.isoTimestamp()),
});

/** A draft's form, with partial submissions on; a form without them keeps nothing (404). */
async function draftsOf(
  c: Context<AppEnv>,
  asked: { form: string },
): Promise<ResolvedProject & { keepDays: number }> {
  const project = await projectOfPageRequest(c, asked, 'DRAFT_RATE_LIMIT');
  if (project.partialsKeepDays === null) throw replies.notFoundHere('This form keeps no drafts');
  return { ...project, keepDays: project.partialsKeepDays };
}

/**
 * What a draft keeps of the values a page sent: its project's fields that are not files, each a
 * text, a number or a true or false; anything else is left out, never refused (a draft is never
 * judged).
 */
export function draftValues(
  fields: readonly { name: string; type: string }[],
  values: Record<string, unknown>,
): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = Object.create(null);
  for (const f of fields) {
    if (f.type === 'file' || !Object.hasOwn(values, f.name)) continue;
    const value = values[f.name];
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    )
      kept[f.name] = value;
  }
  return kept;
}

const reply = (c: Context<AppEnv>, data: Record<string, unknown>) =>
  sendJson(c, 200, JSON.stringify({ data, status: { code: 200, message: REASON_PHRASES[200] } }), {
    'Cache-Control': 'no-store',
  });

async function save(c: Context<AppEnv>): Promise<Response> {
  // As large as a submission may be (C10): a draft is the same values, fewer of them.
  const asked = await readSmall(c, config(c.env).MAX_BODY_BYTES, SaveRequest, 'A draft');
  const project = await draftsOf(c, asked);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + project.keepDays * 86_400_000).toISOString();
  const saved = await saveDraft(placeOf(c.env, project.place).d1, {
    id: uuidv7(),
    projectId: project.id,
    tokenHash: await sha256Text(asked.token),
    data: JSON.stringify(draftValues(project.fields, asked.values)),
    step: asked.step,
    now: now.toISOString(),
    expiresAt,
  });
  // Another project's token (a page cannot make one by chance): nothing changed, nothing said of it.
  if (!saved) throw replies.notFoundHere('No draft here');
  return reply(c, { message: 'Draft saved', expiresAt });
}

async function open(c: Context<AppEnv>): Promise<Response> {
  const asked = await readSmall(c, 1024, OpenRequest, 'A draft to open');
  const project = await draftsOf(c, asked);
  const found = await openDraft(
    placeOf(c.env, project.place).d1,
    project.id,
    await sha256Text(asked.token),
    new Date().toISOString(),
  );
  if (found === undefined) throw replies.notFoundHere('No draft here: it was sent, or its days ended');
  return reply(c, {
    message: 'Draft found',
    step: found.step,
    values: JSON.parse(found.data) as Record<string, unknown>,
    expiresAt: found.expiresAt,
  });
}

const saveOperation = describeRoute(() => saveDraftDescription(resolver(SaveReply)));
const openOperation = describeRoute(() => openDraftDescription(resolver(OpenReply)));

export function draftRoutes(app: HonoBase<AppEnv>): void {
  app.post(DRAFTS_PATH, saveOperation, save);
  pagePath(app, DRAFTS_PATH, TAG, 'saveDraftPreflight');
  app.post(DRAFT_OPEN_PATH, openOperation, open);
  pagePath(app, DRAFT_OPEN_PATH, TAG, 'openDraftPreflight');
}
