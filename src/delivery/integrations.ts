// C38: what the built-in integrations share: each talks only to its own service's API host (or,
// for local development and tests, a stand-in's, INTEGRATIONS_API_BASE, keeping the real path);
// one request at a time with a time-out and no redirect; a submission as the values a row, a page
// or a message carries; and what an answer means for the delivery (delivered, retried, failed, or
// the target disabled when the service refuses its credentials or its destination).
import { errorText } from '../lib/faults.ts';
import { readAtMost } from '../lib/stream.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import { type Answer, ATTEMPT_TIMEOUT_MS, retryAfterSeconds } from './answer.ts';

/** How an integration's attempt is made: the stand-in's origin (when allowed), the worker's address, fetch. */
export type IntegrationContext = {
  apiBase: string | undefined;
  publicUrl: string | undefined;
  fetch: typeof fetch;
  now: Date;
};

/**
 * The result of an attempt: the answer as every delivery records it; `final`, never retried (the
 * request itself is wrong); `refused`, the service refused the credentials or the destination, and
 * the target is disabled (C26's machinery: its pending deliveries cancelled, redeliverable).
 */
export type IntegrationAnswer = Answer & { ok: boolean; final?: boolean; refused?: boolean };

/** A real API URL, or the same path on the stand-in when one is set (local development, tests). */
export function apiUrl(real: string, apiBase: string | undefined): string {
  if (apiBase === undefined) return real;
  const url = new URL(real);
  return `${apiBase}${url.pathname}${url.search}`;
}

/** What a service answered: its status, its body as JSON when it is, an excerpt, and a 429's wait. */
export type Reply = Answer & { json: unknown };

/** At most this much of a service's answer is read. */
const READ_LIMIT = 64 * 1024;
const EXCERPT = 200;

/**
 * One request to a service: no redirect followed, the time-out of every delivery attempt, at most
 * READ_LIMIT bytes of the answer read. A network error is an answer without a status.
 */
export async function request(
  ctx: IntegrationContext,
  url: string,
  init: { method: 'GET' | 'POST' | 'PUT'; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  // Called on its own, never as ctx's method: workerd's fetch refuses any other `this`.
  const fetchImpl = ctx.fetch;
  try {
    const res = await fetchImpl(url, {
      method: init.method,
      headers: {
        'User-Agent': 'edge-forms-integrations',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const text =
      res.body === null ? '' : new TextDecoder().decode((await readAtMost(res.body, READ_LIMIT)).bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const retryAfter =
      res.status === 429 ? retryAfterSeconds(res.headers.get('Retry-After'), ctx.now.getTime()) : undefined;
    return {
      status: res.status,
      error: null,
      excerpt: text === '' ? null : text.slice(0, EXCERPT),
      json,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  } catch (cause) {
    return { status: null, error: errorText(cause, 200), excerpt: null, json: undefined };
  }
}

/**
 * What an answer means: 2xx delivered; 401, 403 and 404 refused (a token revoked, a sheet or a
 * database not shared, a chat the bot was removed from: no retry helps, the target is disabled);
 * any other 4xx but 408 and 429 final (the request itself is wrong); the rest retried (429 after
 * its Retry-After, or `quotaSeconds` when it gives none).
 */
export function meaning(reply: Reply, quotaSeconds = 30): IntegrationAnswer {
  const { json: _, ...answer } = reply;
  const status = reply.status;
  if (status !== null && status >= 200 && status < 300) return { ...answer, ok: true };
  if (status === 401 || status === 403 || status === 404) return { ...answer, ok: false, refused: true };
  if (status === 429) return { ...answer, ok: false, retryAfter: reply.retryAfter ?? quotaSeconds };
  if (status !== null && status >= 400 && status < 500 && status !== 408) {
    return { ...answer, ok: false, final: true };
  }
  return { ...answer, ok: false };
}

/** A field of the project, as a delivery knows it. */
export type FieldSpec = { name: string; type: string };

/** The project's fields in order (or, without them, the submission's own names). */
export function specsOf(d: Pick<DeliveryToSend, 'data' | 'fieldSpecs'>): FieldSpec[] {
  const specs = d.fieldSpecs === null ? [] : (JSON.parse(d.fieldSpecs) as FieldSpec[]);
  if (specs.length > 0) return specs;
  return Object.keys(JSON.parse(d.data) as Record<string, unknown>).map((name) => ({ name, type: 'string' }));
}

/**
 * The submission's values by the project's fields in order. A value kept of a field removed since
 * is left out: a sheet's columns follow the header, and Notion and Airtable refuse a name they do
 * not have.
 */
export function fieldsOf(d: Pick<DeliveryToSend, 'data' | 'fieldSpecs'>): [string, unknown][] {
  const data = JSON.parse(d.data) as Record<string, unknown>;
  return specsOf(d).map(({ name }): [string, unknown] => [name, data[name]]);
}

/** A file field's value: its metadata, stored with a `name`. */
export const isFile = (value: unknown): value is { name: string } =>
  typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';

/** C38: where a file is seen: the submission in the dashboard, when the worker knows its address. */
export function fileText(
  value: { name: string },
  d: Pick<DeliveryToSend, 'projectId' | 'submissionId'>,
  publicUrl: string | undefined,
): string {
  return publicUrl === undefined
    ? value.name
    : `${publicUrl}/admin/#/p/${encodeURIComponent(d.projectId)}/inbox/${encodeURIComponent(d.submissionId)}`;
}

/** A value as text: a string as it is, a file as fileText, anything else as JSON; absent, empty. */
export function textOf(
  value: unknown,
  d: Pick<DeliveryToSend, 'projectId' | 'submissionId'>,
  publicUrl: string | undefined,
): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (isFile(value)) return fileText(value, d, publicUrl);
  return JSON.stringify(value);
}

/**
 * At most `max` characters, counted as the services count them (UTF-16 units, so an emoji is two),
 * never cutting one in half.
 */
export function within(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

const sleeps = new Map<string, number>();

/**
 * Keeps requests to one service account or base at least `intervalMs` apart in this isolate (a
 * service's per-project quota: Google's 300 writes a minute, Airtable's 5 requests a second), by
 * waiting for the next free slot.
 */
export async function paced(key: string, intervalMs: number): Promise<void> {
  const now = Date.now();
  const next = Math.max(now, sleeps.get(key) ?? 0);
  sleeps.set(key, next + intervalMs);
  if (sleeps.size > 1000) sleeps.clear();
  if (next > now) await new Promise((resolve) => setTimeout(resolve, next - now));
}
