// POST /api/v1/submit, one middleware per step of C5, in that order.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../auth/authenticate.ts';
import { config } from '../config.ts';
import { validateSubmission } from '../fields/validation.ts';
import { ApiError } from '../http/envelope.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import {
  bodyBrokenOff,
  created as createdEnvelope,
  noFields,
  notConfigured,
  originNotAllowed,
  secretKeyInPage,
  tooLarge,
  unsupportedMediaType,
  validationFailed,
} from '../http/replies.ts';
import { sendJson } from '../http/send.ts';
import { database } from '../store/db.ts';
import { findIdempotencyKey } from '../store/submissions.ts';
import { parseObject } from './body.ts';
import { acceptedRow, commitRow, writeEnv } from './commit.ts';
import {
  bodyHash,
  claimKey,
  IDEMPOTENCY_HEADER,
  parseIdempotencyKey,
  REPLAYED_HEADER,
  replayFirst,
} from './idempotency.ts';
import { checkTurnstile, TURNSTILE_HEADER, takeToken } from './turnstile.ts';

type Step = MiddlewareHandler<AppEnv>;

/** C5 step 3 (C15): an empty list allows every origin; requests without Origin (servers) pass. */
export const checkOrigin: Step = async (c, next) => {
  const origin = c.req.header('Origin');
  // C23: a browser sends Origin; a secret key has no business there, whatever the origin list says.
  if (origin !== undefined && c.var.project.keyKind === 'secret') throw secretKeyInPage();
  const { origins } = c.var.project;
  if (origin !== undefined && origins.length > 0 && !origins.includes(origin)) {
    throw originNotAllowed();
  }
  await next();
};

/** C5 step 4 (SPEC Errors): a project without fields cannot accept anything. */
export const requireFields: Step = async (c, next) => {
  if (c.var.project.fields.length === 0) {
    throw notConfigured();
  }
  await next();
};

/** C5 step 5 (C9), with the form of an Idempotency-Key (C20). */
export const requireJson: Step = async (c, next) => {
  if (!isJsonMediaType(c.req.header('Content-Type'))) {
    throw unsupportedMediaType();
  }
  c.set('idempotencyKey', parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER)));
  await next();
};

/**
 * C5 step 6 (C10): Content-Length when given, else the bytes read; never buffers past the limit.
 * C11: a body that breaks off (the client hung up) is the client's fault, answered 400 and not
 * logged as ours; the reply reaches nobody, but no fault is recorded for it.
 */
export const limitBody: Step = async (c, next) => {
  const maxSize = config(c.env).MAX_BODY_BYTES;
  let reading = true;
  try {
    await bodyLimit({
      maxSize,
      onError: () => {
        throw tooLarge(maxSize);
      },
    })(c, async () => {
      reading = false;
      await next();
    });
  } catch (error) {
    if (reading && !(error instanceof ApiError)) throw bodyBrokenOff();
    throw error;
  }
};

/** C22: a honeypot counts as filled unless absent or left empty (`""`, `null`, `false`). */
export function takeHoneypot(body: Record<string, unknown>, honeypot: string | null): boolean {
  if (honeypot === null || !Object.hasOwn(body, honeypot)) return false;
  const value = body[honeypot];
  delete body[honeypot];
  return value !== '' && value !== null && value !== false;
}

const CREATED_JSON = JSON.stringify(createdEnvelope());

function created(c: Context<AppEnv>, replayed = false): Response {
  return sendJson(c, 201, CREATED_JSON, replayed ? { [REPLAYED_HEADER]: 'true' } : {});
}

/**
 * C5 steps 7–10: read, validate (C12, C13), the spam checks (C22), store (C17) or replay (C20);
 * 201 only once D1 has acknowledged the batch that holds the row.
 */
export async function submit(c: Context<AppEnv>): Promise<Response> {
  const { project, idempotencyKey } = c.var;
  const bytes = await c.req.arrayBuffer().catch(() => {
    throw bodyBrokenOff();
  });
  const { body, notIntegerText } = parseObject(bytes);
  // Neither the Turnstile token nor the honeypot is a field of the project, or ever stored.
  const token = takeToken(body, c.req.header(TURNSTILE_HEADER));
  const spam = takeHoneypot(body, project.honeypot);
  if (Object.keys(body).length === 0) throw noFields();
  const result = validateSubmission(project.compiled, body, notIntegerText);
  if (!result.ok) throw validationFailed(result.errors);
  // C11: with the `discard` policy a body of unknown fields leaves nothing to store.
  if (Object.keys(result.value).length === 0) throw noFields();

  // C20: the body's hash, for a request that carries an Idempotency-Key.
  const hash = idempotencyKey === undefined ? undefined : await bodyHash(bytes);

  // Between steps 9 and 10: Turnstile (C22), for a project with a secret.
  const secret = project.turnstileSecret;
  const spentToken =
    secret !== null &&
    (await checkTurnstile(secret, project.id, token, c.req.header('CF-Connecting-IP'), idempotencyKey, hash));

  const db = database(c.env.DB);
  const row = acceptedRow(project, result.value, spam);
  const keepAlive = (write: Promise<unknown>) => c.executionCtx.waitUntil(write);
  if (idempotencyKey === undefined || hash === undefined) {
    await commitRow(db, row, c.var.keyHash, keepAlive, writeEnv(c.env));
    return created(c);
  }

  // Step 10 with an Idempotency-Key (C20): store it with the row, or replay the first request's 201.
  const release = await claimKey(project.id, idempotencyKey);
  try {
    if (!spentToken) {
      const stored = await commitRow(
        db,
        { ...row, idempotencyKey, bodyHash: hash },
        c.var.keyHash,
        keepAlive,
        writeEnv(c.env),
      );
      if (stored) return created(c);
    }
    replayFirst(await findIdempotencyKey(db, project.id, idempotencyKey), hash, spentToken);
    return created(c, true);
  } finally {
    release();
  }
}
