// C29: `POST /f/<form-id>`, for HTML forms without a script: urlencoded or multipart bodies, each
// value converted by its field's type and then validated exactly as the JSON endpoint validates
// (C12, C13, C28); files (C30) go to R2 before the submission's one D1 write. The answer is a 303
// to the form's `_next` or the project's thank-you URL (only ever on an allowed origin), or a
// small built-in page; with `Accept: application/json`, the JSON envelope instead.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import type { AppEnv } from '../auth/authenticate.ts';
import { checkRateLimits, clientAddress, mayLookUpKeys } from '../auth/rate-limit.ts';
import { config } from '../config.ts';
import { UploadedFile } from '../fields/file.ts';
import { maxSizeError } from '../fields/rules.ts';
import { validateSubmission } from '../fields/validation.ts';
import { deleteFiles, putFiles, restoreFiles } from '../files/r2.ts';
import { ApiError, REASON_PHRASES } from '../http/envelope.ts';
import { formMediaType } from '../http/media-type.ts';
import {
  created,
  fileTooLarge,
  formNotFound,
  noFields,
  notAForm,
  notConfigured,
  originNotAllowed,
  redirectNotAllowed,
  tooLarge,
  tooManyRequests,
  unavailable,
  uploadTooLarge,
  validationFailed,
} from '../http/replies.ts';
import { send, sendMethodNotAllowed } from '../http/send.ts';
import { UnavailableError } from '../lib/faults.ts';
import { allowedRedirect } from '../lib/urls.ts';
import { formCacheKey, type ResolvedProject, resolveForm } from '../projects/cache.ts';
import { database } from '../store/db.ts';
import { findIdempotencyKey } from '../store/submissions.ts';
import { acceptedRow, commitRow, writeEnv } from '../submit/commit.ts';
import {
  bodyHash,
  claimKey,
  IDEMPOTENCY_HEADER,
  parseIdempotencyKey,
  REPLAYED_HEADER,
  replayFirst,
} from '../submit/idempotency.ts';
import { takeHoneypot } from '../submit/steps.ts';
import { checkTurnstile, TURNSTILE_HEADER, takeToken } from '../submit/turnstile.ts';
import { FileTooLarge, type FormLimits, readForm } from './body.ts';
import { type Controls, convertForm } from './convert.ts';
import { errorPage, PAGE_HEADERS, thankYouPage } from './pages.ts';

export const FORM_PREFIX = '/f/';
export const FORM_PATH = `${FORM_PREFIX}:formId`;
/** A form id as `project create` makes it (`f_` and base32), as a migration gave one (hex), or `f_example`. */
const FORM_ID = /^f_[a-z0-9]{4,32}$/;

type FormContext = Context<AppEnv>;
const encoder = new TextEncoder();

/** C29: the page's origin, by `Origin`, else by `Referer` (a form posted from a page sends one). */
function requestOrigin(c: FormContext): string | undefined {
  const origin = c.req.header('Origin');
  if (origin !== undefined && origin !== 'null') return origin;
  const referer = c.req.header('Referer');
  if (referer === undefined) return origin;
  try {
    return new URL(referer).origin;
  } catch {
    return origin;
  }
}

/** The limits of this project's form: a file within its largest `maxSize` (C30), all within the total. */
function limitsOf(project: ResolvedProject, env: Env): FormLimits & { fileField?: string } {
  const settings = config(env);
  const total = settings.MAX_UPLOAD_BYTES;
  const files = project.fields.filter((f) => f.type === 'file');
  const sizes = files.map((f) => Math.min(f.rules?.maxSize ?? total, total));
  const fileBytes = sizes.length === 0 ? 0 : Math.max(...sizes);
  const largest = files.filter((_, i) => sizes[i] === fileBytes);
  return {
    textBytes: settings.MAX_BODY_BYTES,
    fileBytes,
    totalFileBytes: files.length === 0 ? 0 : total,
    ...(largest.length === 1 && largest[0] !== undefined ? { fileField: largest[0].name } : {}),
  };
}

function redirect(url: string): Response {
  return new Response(null, { status: 303, headers: { Location: url, 'Cache-Control': 'no-store' } });
}

function htmlPage(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

const wantsJson = (c: FormContext) => /\bapplication\/json\b/i.test(c.req.header('Accept') ?? '');

/**
 * What the answer needs to know of how far the request got; `replayed`: it is the answer of the
 * first request with the same Idempotency-Key (C20).
 */
type FormState = { controls: Controls; project?: ResolvedProject; replayed?: boolean };

/** Everything up to the stored row; throws ApiError for every refusal. */
async function accept(c: FormContext, formId: string, state: FormState): Promise<ResolvedProject> {
  const { controls } = state;
  const db = database(c.env.DB);
  const project = await resolveForm(db, formId, config(c.env).CONFIG_CACHE_SECONDS, () => {
    if (!mayLookUpKeys(clientAddress(c))) throw tooManyRequests();
  });
  if (project === undefined) throw formNotFound();
  state.project = project;
  // C21: per form (as per key) and per client address and project, as for a publishable key.
  await checkRateLimits(c, c.env, formCacheKey(formId), project.id, true);
  const origin = requestOrigin(c);
  if (origin !== undefined && project.origins.length > 0 && !project.origins.includes(origin)) {
    throw originNotAllowed();
  }
  if (project.fields.length === 0) throw notConfigured();
  const kind = formMediaType(c.req.header('Content-Type'));
  if (kind === undefined) throw notAForm();
  // C20: optional here too (a script can send it; a plain form cannot), in the same form.
  const idempotencyKey = parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
  const limits = limitsOf(project, c.env);
  let entries: Awaited<ReturnType<typeof readForm>>;
  try {
    entries = await readForm(c.req.raw, kind, limits);
  } catch (error) {
    if (!(error instanceof FileTooLarge)) throw error;
    if (error.limit === 'total' || limits.fileBytes === limits.totalFileBytes) {
      throw uploadTooLarge(limits.totalFileBytes);
    }
    throw limits.fileField === undefined
      ? tooLarge(limits.fileBytes)
      : fileTooLarge(maxSizeError(limits.fileField, limits.fileBytes));
  }
  const converted = await convertForm(entries, project.fields);
  Object.assign(controls, converted.controls);
  // The redirects the form asks for are checked before anything is stored.
  for (const [name, target] of [
    ['_next', controls.next],
    ['_error', controls.error],
  ] as const) {
    if (target !== undefined && target !== '' && allowedRedirect(target, project.origins) === undefined) {
      // Not an _error redirect to a refused target.
      if (name === '_error') delete controls.error;
      throw redirectNotAllowed(name);
    }
  }
  const body = converted.body;
  const token = takeToken(body, c.req.header(TURNSTILE_HEADER));
  const spam =
    takeHoneypot(body, project.honeypot) || (controls.gotcha !== undefined && controls.gotcha !== '');
  if (Object.keys(body).length === 0 && converted.errors.length === 0) throw noFields();
  const result = validateSubmission(project.compiled, body);
  const errors = [...converted.errors, ...(result.ok ? [] : result.errors)];
  if (errors.length > 0 || !result.ok) throw validationFailed(errors);
  if (Object.keys(result.value).length === 0) throw noFields();
  const files = Object.entries(result.value).filter(
    (entry): entry is [string, UploadedFile] => entry[1] instanceof UploadedFile,
  );
  const row = {
    ...acceptedRow(project, result.value, spam),
    files: files.length > 0 ? JSON.stringify(files.map(([name]) => name)) : null,
  };
  // C20: what a retry must repeat is what would be stored (files by their SHA-256), whatever
  // boundary or order its multipart body has.
  const hash = idempotencyKey === undefined ? undefined : await bodyHash(encoder.encode(row.data));

  // As on the JSON endpoint (C22): a redeemed token passes only as the retry of its own request.
  const secret = project.turnstileSecret;
  const spentToken =
    secret !== null &&
    (await checkTurnstile(secret, project.id, token, c.req.header('CF-Connecting-IP'), idempotencyKey, hash));

  // Files put in R2 for a row that was surely not stored are deleted again, after the answer.
  const dropFiles = () => {
    if (files.length > 0) {
      c.executionCtx.waitUntil(deleteFiles(c.env.FILES, project.id, row.id, files).catch(() => {}));
    }
  };
  const release = idempotencyKey === undefined ? undefined : await claimKey(project.id, idempotencyKey);
  try {
    if (idempotencyKey !== undefined && hash !== undefined) {
      // C20: a retry of a stored submission is answered from it before any file is put again.
      const first = await findIdempotencyKey(db, project.id, idempotencyKey);
      if (first !== undefined || spentToken) {
        replayFirst(first, hash, spentToken);
        // C18, C30: a replay checks what is stored: the files of the stored submission, which are
        // this retry's own (the same hash), are put back if any is missing.
        if (first !== undefined) await restore(c.env, project.id, first.id, files);
        state.replayed = true;
        return project;
      }
    }
    if (files.length > 0) {
      if (c.env.FILES === undefined) throw new UnavailableError('r2', new Error('no R2 binding FILES'));
      await putFiles(db, c.env.FILES, project.id, row.id, files).catch((cause) => {
        // D1 failing first, before any upload, is D1's own 503; anything after is R2's.
        throw cause instanceof UnavailableError ? cause : new UnavailableError('r2', cause);
      });
    }
    let stored: boolean;
    try {
      stored = await commitRow(
        db,
        idempotencyKey === undefined || hash === undefined ? row : { ...row, idempotencyKey, bodyHash: hash },
        formCacheKey(formId),
        (write) => c.executionCtx.waitUntil(write),
        writeEnv(c.env),
      );
    } catch (caught) {
      // A project deleted while its form was cached: the form is gone (C31), not a key.
      const error = caught instanceof ApiError && caught.status === 401 ? formNotFound() : caught;
      // Nothing of a refused submission stays: its files leave R2 too. But when the write's outcome
      // is unknown (presumed lost, or D1 failing after it may have committed), the files may belong
      // to a stored row (C18): they stay, and the upload's cleanup record deletes them an hour on
      // unless the row is there (its insert removed the record).
      if (!(caught instanceof UnavailableError)) dropFiles();
      throw error;
    }
    if (!stored && idempotencyKey !== undefined && hash !== undefined) {
      // Stored first by a request in another isolate: this one's files go, its answer is that one's.
      dropFiles();
      const first = await findIdempotencyKey(db, project.id, idempotencyKey);
      replayFirst(first, hash, spentToken);
      if (first !== undefined) await restore(c.env, project.id, first.id, files);
      state.replayed = true;
    }
    return project;
  } finally {
    release?.();
  }
}

/** The files of a stored submission that are missing from R2, put back from a retry's own bytes. */
async function restore(
  env: Env,
  projectId: string,
  submissionId: string,
  files: readonly (readonly [string, UploadedFile])[],
): Promise<void> {
  if (files.length === 0) return;
  if (env.FILES === undefined) throw new UnavailableError('r2', new Error('no R2 binding FILES'));
  const bucket = env.FILES;
  await restoreFiles(bucket, projectId, submissionId, files).catch((cause) => {
    throw new UnavailableError('r2', cause);
  });
}

async function handleForm(c: FormContext): Promise<Response> {
  const formId = c.req.param('formId') ?? '';
  const json = wantsJson(c);
  const state: FormState = { controls: {} };
  const referer = c.req.header('Referer');
  let project: ResolvedProject;
  try {
    if (!FORM_ID.test(formId)) throw formNotFound();
    project = await accept(c, formId, state);
  } catch (error) {
    const reply =
      error instanceof ApiError ? error : error instanceof UnavailableError ? unavailable() : undefined;
    // Anything else is a fault of ours: the error handler logs it and answers 500.
    if (reply === undefined) throw error;
    if (json) throw reply;
    const envelope = reply.toEnvelope();
    const status = envelope.status.code;
    const back =
      state.project === undefined ? undefined : allowedRedirect(state.controls.error, state.project.origins);
    if (back !== undefined) return redirect(back);
    const messages = envelope.data.errors ?? [envelope.data.error?.message ?? envelope.data.message];
    return htmlPage(status, errorPage(REASON_PHRASES[status], messages, referer), reply.headers);
  }
  if (json) return send(c, created(), state.replayed ? { [REPLAYED_HEADER]: 'true' } : {});
  const next =
    allowedRedirect(state.controls.next, project.origins) ??
    allowedRedirect(project.thankYouUrl, project.origins);
  return next === undefined ? htmlPage(200, thankYouPage(referer)) : redirect(next);
}

export function formRoutes(app: HonoBase<AppEnv>): void {
  app.post(FORM_PATH, handleForm);
  // C16: as the submit path, its other methods are 405 (OPTIONS is the preflight, C14).
  app.all(FORM_PATH, sendMethodNotAllowed);
}
