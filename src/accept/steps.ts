// The named steps of the acceptance pipeline (pipeline.ts, C5), shared by both endpoints.
import type { Context } from 'hono';
import { refuseSecretKeyInPage } from '../auth/authenticate.ts';
import type { Payer } from '../auth/rate-limit.ts';
import { config } from '../config.ts';
import { UploadedFile } from '../fields/file.ts';
import { type Submission, validateSubmission } from '../fields/validation.ts';
import { deleteFiles, putFiles, restoreFiles } from '../files/r2.ts';
import type { AppEnv } from '../http/env.ts';
import { formClosed, noFields, notConfigured, originNotAllowed, validationFailed } from '../http/replies.ts';
import type { Problem } from '../lib/codes.ts';
import { UnavailableError } from '../lib/faults.ts';
import { sha256Text } from '../lib/hex.ts';
import type { CacheKey } from '../projects/cache.ts';
import { findIdempotencyKey } from '../store/intake.ts';
import { type Place, placeOf } from '../store/places.ts';
import { acceptedRow, commitRow, writeEnv } from './commit.ts';
import { bodyHash, claimKey, replayFirst } from './idempotency.ts';
import { takeWidget, type WidgetSent } from './signals.ts';
import { checkTurnstile, isTestSecret, takeToken } from './turnstile.ts';

type ResolvedProject = AppEnv['Variables']['project'];

/**
 * The project a request is for, as found: what it is cached under (a key's hash, a form's
 * `form:<id>`: forgotten when D1 says the project is gone), the key's hash when a key was sent
 * (its last use is recorded), and who pays (C21).
 */
export type Identified = {
  project: ResolvedProject;
  cacheKey: CacheKey;
  keyHash?: string;
  payer: Payer;
};
const encoder = new TextEncoder();

/** A body read as values, before validation. */
export type BodyValues = {
  /** The values, by field name (C12). */
  body: Record<string, unknown>;
  /** Problems of the body itself, reported with the field problems (a name sent twice, C29). */
  problems: readonly Problem[];
  /** C13: the top-level numbers that were not written as integers. */
  notIntegerText?: ReadonlySet<string>;
  /** C22: marked as spam by the body itself (a form's `_gotcha`). */
  spam?: boolean;
  /** C20: what a retry must repeat byte for byte; absent: what would be stored. */
  idempotencyBytes?: Uint8Array;
};

/** C45: whether a form is outside its times now: not open yet, closed, or neither. */
export function closedByTime(
  times: { opensAt: string | null; closesAt: string | null },
  now: number,
): 'not_open' | 'closed' | undefined {
  if (times.opensAt !== null && now < Date.parse(times.opensAt)) return 'not_open';
  if (times.closesAt !== null && now >= Date.parse(times.closesAt)) return 'closed';
  return undefined;
}

/**
 * C45: a form outside its times takes nothing: 403 `form_closed`, before its body is read. (A full
 * one is refused by the store, in the insert: only it knows how many are accepted.) Its hosted
 * page judges the same (pages/serve.ts).
 */
export function checkOpen(project: { opensAt: string | null; closesAt: string | null }, now: number): void {
  const reason = closedByTime(project, now);
  if (reason !== undefined) throw formClosed(reason);
}

/**
 * C5 step 3 (C15): an empty list allows every origin; a request without an origin (a server)
 * passes. C23: a secret key in a browser's request is refused, whatever the list says.
 */
export function checkOrigin(c: Context, project: ResolvedProject, origin: string | undefined): void {
  refuseSecretKeyInPage(c, project);
  if (origin !== undefined && project.origins.length > 0 && !project.origins.includes(origin)) {
    throw originNotAllowed();
  }
}

/** C5 step 4 (SPEC Errors): a project without fields cannot accept anything. */
export function requireFields(project: ResolvedProject): void {
  if (project.fields.length === 0) throw notConfigured();
}

/** C22: a honeypot counts as filled unless absent or left empty (`""`, `null`, `false`). */
export function takeHoneypot(body: Record<string, unknown>, honeypot: string | null): boolean {
  if (honeypot === null || !Object.hasOwn(body, honeypot)) return false;
  const value = body[honeypot];
  delete body[honeypot];
  return value !== '' && value !== null && value !== false;
}

/** A submission that passed validation, with what the later steps need of its request. */
export type Accepted = {
  value: Submission;
  spam: boolean;
  token: string | undefined;
  /** C39: what the widget sent beside the values (its token, fill time, proof of work). */
  widget: WidgetSent;
  /** C20: what a retry must repeat, to be hashed when the request carries an Idempotency-Key. */
  idempotencyBytes: Uint8Array | undefined;
};

/**
 * C5 steps 8–9: the Turnstile token, the widget's fields and the honeypot are taken out (never
 * fields, never stored, C22, C39); an object with nothing in it is refused before validation (C11); then every field (C12,
 * C13, C28), the body's own problems first; and nothing left to store (`discard`) is refused too.
 */
export function validate(
  project: ResolvedProject,
  sent: BodyValues,
  tokenHeader: string | undefined,
): Accepted {
  const { body } = sent;
  const token = takeToken(body, tokenHeader);
  const widget = takeWidget(body);
  const spam = takeHoneypot(body, project.honeypot) || sent.spam === true;
  if (Object.keys(body).length === 0 && sent.problems.length === 0) throw noFields();
  const result = validateSubmission(project.compiled, body, sent.notIntegerText);
  if (!result.ok) throw validationFailed([...sent.problems, ...result.problems]);
  if (sent.problems.length > 0) throw validationFailed(sent.problems);
  if (Object.keys(result.value).length === 0) throw noFields();
  return { value: result.value, spam, token, widget, idempotencyBytes: sent.idempotencyBytes };
}

/** C20: a request's Idempotency-Key, and the hash of what a retry with it must repeat. */
export type Idempotency = { key: string; bodyHash: string };

/**
 * C20: the request's Idempotency-Key (when it sent one) with the hash of what a retry must repeat:
 * the body as sent, or (a form) what is stored, its files by their SHA-256, whatever boundary or
 * order a multipart body has.
 */
export async function idempotencyOf(
  key: string | undefined,
  accepted: Accepted,
): Promise<Idempotency | undefined> {
  if (key === undefined) return undefined;
  const bytes = accepted.idempotencyBytes ?? encoder.encode(JSON.stringify(accepted.value));
  return { key, bodyHash: await bodyHash(bytes) };
}

/**
 * What the Turnstile check found (C22): whether the token was redeemed already, and (C35) whether
 * this very request passed a challenge.
 */
export type TurnstileOutcome = { spentToken: boolean; challenged: boolean };

/**
 * Between steps 9 and 10 (C22): for a project with a Turnstile secret, siteverify. A token redeemed
 * already passes only as the retry of its own request (C20), which the store step replays.
 */
export async function verifyTurnstile(
  c: Context<AppEnv>,
  project: ResolvedProject,
  accepted: Accepted,
  idempotency: Idempotency | undefined,
): Promise<TurnstileOutcome> {
  const secret = project.turnstileSecret;
  if (secret === null) return { spentToken: false, challenged: false };
  const spentToken = await checkTurnstile(
    secret,
    project.id,
    accepted.token,
    c.req.header('CF-Connecting-IP'),
    idempotency?.key,
    idempotency?.bodyHash,
  );
  // C35: a test secret passes any token: a challenge only under local development.
  const challenged = !spentToken && (!isTestSecret(secret) || config(c.env).ALLOW_LOCAL_WEBHOOKS);
  return { spentToken, challenged };
}

type FileEntry = [string, UploadedFile];

/**
 * The R2 binding of the project's place, or a 503 (C30: a project with file fields cannot store
 * without it; C41: never another place's bucket).
 */
function bucketOf(place: Place): R2Bucket {
  if (place.files === undefined)
    throw new UnavailableError('r2', new Error(`no R2 bucket for '${place.name}'`));
  return place.files;
}

/** C18, C30: the files of a stored submission that R2 lacks, put back from a retry's own bytes. */
async function restore(place: Place, projectId: string, submissionId: string, files: FileEntry[]) {
  if (files.length === 0) return;
  await restoreFiles(bucketOf(place), projectId, submissionId, files).catch((cause) => {
    throw new UnavailableError('r2', cause);
  });
}

/**
 * C5 step 10: the files (C30) to R2, then the row, in the group commit (C17); or, for a request
 * whose Idempotency-Key was used already, the first request's answer (C20). Returns whether the
 * answer is a replay.
 */
export async function storeSubmission(
  c: Context<AppEnv>,
  { project, cacheKey, keyHash }: Identified,
  accepted: Accepted,
  idempotency: Idempotency | undefined,
  { spentToken, challenged }: TurnstileOutcome,
  signals?: string,
): Promise<{ replayed: boolean }> {
  // C41: the database and bucket of the project's place.
  const place = placeOf(c.env, project.place);
  const db = place.d1;
  const files = Object.entries(accepted.value).filter((e): e is FileEntry => e[1] instanceof UploadedFile);
  const made = acceptedRow(project, accepted.value, accepted.spam, challenged, signals);
  // C46: sent from a draft: its insert deletes the draft (a trigger), in the same write.
  const { draft } = accepted.widget;
  const base = draft === undefined ? made : { ...made, draftHash: await sha256Text(draft) };
  const row = files.length === 0 ? base : { ...base, files: JSON.stringify(files.map(([name]) => name)) };
  const keepAlive = (write: Promise<unknown>) => c.executionCtx.waitUntil(write);
  // Files put in R2 for a row that was surely not stored are deleted again, after the answer.
  const dropFiles = () => {
    if (files.length > 0) {
      keepAlive(deleteFiles(bucketOf(place), project.id, row.id, files).catch(() => {}));
    }
  };
  const write = async (): Promise<boolean> => {
    if (files.length > 0) {
      await putFiles(db, bucketOf(place), project.id, row.id, files).catch((cause) => {
        // D1 failing first, before any upload, is D1's own 503; anything after is R2's.
        throw cause instanceof UnavailableError ? cause : new UnavailableError('r2', cause);
      });
    }
    try {
      const keyed =
        idempotency === undefined
          ? row
          : { ...row, idempotencyKey: idempotency.key, bodyHash: idempotency.bodyHash };
      const sent = keyHash === undefined ? keyed : { ...keyed, keyHash };
      return await commitRow(db, sent, cacheKey, keepAlive, writeEnv(c.env, place.name));
    } catch (error) {
      // Nothing of a refused submission stays: its files leave R2 too. But when the write's
      // outcome is unknown (presumed lost, or D1 failing after it may have committed), the files
      // may belong to a stored row (C18): they stay, and the upload's cleanup record deletes them
      // an hour on unless the row is there (its insert removed the record).
      if (!(error instanceof UnavailableError)) dropFiles();
      throw error;
    }
  };
  if (idempotency === undefined) {
    await write();
    return { replayed: false };
  }
  const { key: idempotencyKey, bodyHash: hash } = idempotency;
  // C20: with an Idempotency-Key, the row is stored with it, or the first request's answer given.
  const release = await claimKey(project.id, idempotencyKey);
  try {
    // A retry of a stored submission is answered before any file is put again; a redeemed token
    // is only ever a retry.
    if (spentToken || files.length > 0) {
      const first = await findIdempotencyKey(db, project.id, idempotencyKey);
      if (first !== undefined || spentToken) {
        replayFirst(first, hash, spentToken);
        // C18, C30: a replay checks what is stored: the files of the stored submission, which are
        // this retry's own (the same hash), are put back if any is missing.
        if (first !== undefined) await restore(place, project.id, first.id, files);
        return { replayed: true };
      }
    }
    if (await write()) return { replayed: false };
    // Stored first by a request in another isolate: this one's files go, its answer is that one's.
    dropFiles();
    const first = await findIdempotencyKey(db, project.id, idempotencyKey);
    replayFirst(first, hash, spentToken);
    if (first !== undefined) await restore(place, project.id, first.id, files);
    return { replayed: true };
  } finally {
    release();
  }
}
