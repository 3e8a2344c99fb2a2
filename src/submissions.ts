// POST /api/v1/submit, one middleware per step of CONTRACT C5, in that order.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { hashKey, looksLikeKey, parseBearer } from './auth.ts';
import { cacheSeconds, type ResolvedProject, resolveProject } from './cache.ts';
import { ApiError, envelope, send } from './envelope.ts';
import { GroupCommit } from './group-commit.ts';
import { uuidv7 } from './ids.ts';
import { type Db, database, insertSubmissions, type NewSubmission } from './store.ts';
import { validateSubmission } from './validation.ts';

export const SUBMIT_PATH = '/api/v1/submit';

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; project: ResolvedProject };
};
type Step = MiddlewareHandler<AppEnv>;

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

function unauthorized(problem: string): ApiError {
  // C6: every 401 names the scheme it wants.
  return new ApiError(401, 'Authentication failed', problem, { 'WWW-Authenticate': 'Bearer' });
}

/** C5 steps 1–2 (C6, C7): bearer key → project, its fields and origins. */
export const authenticate: Step = async (c, next) => {
  const bearer = parseBearer(c.req.header('Authorization'));
  if (!bearer.ok) throw unauthorized(bearer.problem);
  // A token that cannot be a key costs no D1 query.
  const project = looksLikeKey(bearer.token)
    ? await resolveProject(database(c.env.DB), await hashKey(bearer.token), cacheSeconds(c.env))
    : undefined;
  if (project === undefined) throw unauthorized('Invalid API key');
  c.set('project', project);
  await next();
};

/** C5 step 3 (C15): an empty list allows every origin; requests without Origin (servers) pass. */
export const checkOrigin: Step = async (c, next) => {
  const origin = c.req.header('Origin');
  const { origins } = c.var.project;
  if (origin !== undefined && origins.length > 0 && !origins.includes(origin)) {
    throw new ApiError(403, 'Request refused', 'Origin not allowed');
  }
  await next();
};

/** C5 step 4 (SPEC Errors): a project without fields cannot accept anything. */
export const requireFields: Step = async (c, next) => {
  if (c.var.project.fields.length === 0) {
    throw new ApiError(400, 'Project not configured', 'No fields were found for this project');
  }
  await next();
};

// C9: application/json or application/<anything>+json, any parameters, any case.
const JSON_MEDIA_TYPE = /^application\/(?:[!#$%&'*+.^_`|~0-9a-z-]+\+)?json[ \t]*(?:;|$)/i;

/** C5 step 5 (C9). */
export const requireJson: Step = async (c, next) => {
  if (!JSON_MEDIA_TYPE.test(c.req.header('Content-Type') ?? '')) {
    throw new ApiError(415, 'Unsupported media type', 'Content-Type must be application/json');
  }
  await next();
};

export function maxBodyBytes(env: Env): number {
  const configured = Number(env.MAX_BODY_BYTES);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_BODY_BYTES;
}

/** C5 step 6 (C10): Content-Length when given, else the bytes read; never buffers past the limit. */
export const limitBody: Step = (c, next) => {
  const maxSize = maxBodyBytes(c.env);
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, 'Request body too large', `Request body must not exceed ${maxSize} bytes`);
    },
  })(c, next);
};

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** C5 steps 7–8 (C11): strict UTF-8, then JSON, then an object. */
async function readObject(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    // Invalid UTF-8 is refused rather than silently replaced with U+FFFD.
    body = JSON.parse(utf8.decode(await c.req.arrayBuffer()));
  } catch {
    throw new ApiError(400, 'Invalid request body', 'Request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'Invalid request body', 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

const noFields = () => new ApiError(400, 'Invalid request body', 'Submission has no fields');

// Issue 4: a batch stays well inside D1's limits (100 rows: 4 statements of 25; ~1 MiB of JSON).
const BATCH_LIMITS = { rows: 100, bytes: 1024 * 1024 };
const committers = new WeakMap<Db, GroupCommit<NewSubmission>>();

function committer(db: Db): GroupCommit<NewSubmission> {
  let commit = committers.get(db);
  if (commit === undefined) {
    commit = new GroupCommit(
      (rows) => insertSubmissions(db, rows),
      (row) => row.data.length,
      BATCH_LIMITS,
    );
    committers.set(db, commit);
  }
  return commit;
}

/** C5 steps 7–10: read, validate (C12, C13), store (C17); 201 only once D1 has acknowledged the batch. */
export async function submit(c: Context<AppEnv>): Promise<Response> {
  const body = await readObject(c);
  if (Object.keys(body).length === 0) throw noFields();
  const result = validateSubmission(c.var.project.compiled, body);
  if (!result.ok) throw new ApiError(400, 'Validation failed', result.errors);
  // C11: with the `discard` policy a body of unknown fields leaves nothing to store.
  if (Object.keys(result.value).length === 0) throw noFields();
  const row = {
    id: uuidv7(),
    projectId: c.var.project.id,
    data: JSON.stringify(result.value),
    receivedAt: new Date().toISOString(),
  };
  await committer(database(c.env.DB)).add(row, (write) => c.executionCtx.waitUntil(write));
  return send(c, envelope(201, { message: 'Submission received' }));
}
