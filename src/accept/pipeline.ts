// C5: the one acceptance pipeline that both endpoints run, `POST /api/v1/submit` (a key, a JSON
// body) and `POST /f/<form-id>` (a form address, an HTML form): the same steps in the same order,
// so that a new check is written once. What differs is the intake: how the project is found, what
// the page's origin is, which media types are taken, and how the body becomes values. How the
// outcome is answered (the envelope, or a page or redirect) is the endpoint's own.
import type { Context } from 'hono';
import { limitEarly, limitShared } from '../auth/rate-limit.ts';
import type { AppEnv } from '../http/env.ts';
import { IDEMPOTENCY_HEADER } from '../http/headers.ts';
import { parseIdempotencyKey } from './idempotency.ts';
import { readSignals } from './signals.ts';
import {
  type BodyValues,
  checkOpen,
  checkOrigin,
  type Identified,
  idempotencyOf,
  requireFields,
  storeSubmission,
  validate,
  verifyTurnstile,
} from './steps.ts';
import { TURNSTILE_HEADER } from './turnstile.ts';

type ResolvedProject = AppEnv['Variables']['project'];

/** What an endpoint reads from a request: the parts of the pipeline that differ. */
export type Intake<Kind extends string> = {
  /** C5 1–2: the project the request is for (a key's, a form address's), and who pays (C21). */
  identify(c: Context<AppEnv>): Promise<Identified>;
  /** C15: the origin of the page that sent it, when known. */
  origin(c: Context<AppEnv>): string | undefined;
  /** C5 5: the body's kind by its Content-Type; anything else throws 415. */
  mediaType(c: Context<AppEnv>): Kind;
  /** C5 6–8: the body, within its limits, as values to validate. */
  read(c: Context<AppEnv>, project: ResolvedProject, kind: Kind): Promise<BodyValues>;
};

/** How far a request got, for an endpoint that answers a refusal with the project's pages (C29). */
export type Progress = { project?: ResolvedProject };

/**
 * C5, in its order, for both endpoints. Returns whether the answer is the replay of an earlier
 * request with the same Idempotency-Key (C20); every refusal is thrown.
 */
export async function acceptSubmission<Kind extends string>(
  c: Context<AppEnv>,
  intake: Intake<Kind>,
  progress: Progress = {},
): Promise<{ replayed: boolean }> {
  const found = await intake.identify(c); // 1–2: the key, or the form address (C6, C7, C29)
  const { project, payer } = found;
  progress.project = project;
  await limitEarly(c, c.env, payer); // C21: the client's address (a secret key: its own budget)
  checkOrigin(c, project, intake.origin(c)); // 3: allowed origins (C15, C23)
  checkOpen(project, Date.now()); // C45: within the form's times
  requireFields(project); // 4: the project has fields
  const kind = intake.mediaType(c); // 5: Content-Type (C9, C29)
  const idempotencyKey = parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER)); // 5: its form (C20)
  const sent = await intake.read(c, project, kind); // 6–8: size, syntax, an object (C10, C11, C29, C30)
  const accepted = validate(project, sent, c.req.header(TURNSTILE_HEADER)); // 9 (C11–C13, C22, C28)
  // C39: the widget's token, a proof of work (400 without one, when required), what the request says.
  const signals = await readSignals(c, project, accepted.value, accepted.widget, Date.now());
  await limitShared(c, c.env, payer); // C21: the budget every visitor shares, for a valid submission
  const idempotency = await idempotencyOf(idempotencyKey, accepted); // C20: what a retry must repeat
  const turnstile = await verifyTurnstile(c, project, accepted, idempotency); // C22
  return storeSubmission(c, found, accepted, idempotency, turnstile, signals); // 10: stored, or replayed (C17, C20)
}
