// C39: what a submission's request says beside its values, read in the isolate between validation
// and the store: the widget's token (its HMAC checked here, no D1) and fill time, the proof of work
// (a project that requires one refuses a submission without a valid one, 400), a script's user
// agent, a missing Accept-Language, the country. The consumer judges them (src/spam/signals.ts);
// they travel in the submission's own insert, so the accepted path stays one D1 round trip.
import type { Context } from 'hono';
import { widgetKeys } from '../auth/operator-secret.ts';
import {
  DRAFT_FIELD,
  FILL_FIELD,
  PASTED_FIELD,
  PROOF_FIELD,
  WIDGET_TOKEN_FIELD,
} from '../fields/catalogue.ts';
import type { AppEnv } from '../http/env.ts';
import { proofOfWorkFailed } from '../http/replies.ts';
import { UnavailableError } from '../lib/faults.ts';
import { charsOf, type Signals, scriptAgent } from '../spam/request-signals.ts';
import { checkToken, TOKEN_LIFETIME_MS } from './widget-token.ts';

type ResolvedProject = AppEnv['Variables']['project'];

/** What the widget sent beside the values: taken out of the body before validation, never stored. */
export type WidgetSent = { token?: string; fillMs?: number; pasted?: number; proof?: string; draft?: string };

/** C46: a draft's token as a page makes it: 22 to 64 characters of base64url (at least 128 bits). */
export const DRAFT_TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/** The longest fill time a widget reports (a day, as analytics take it). */
const MAX_FILL_MS = 86_400_000;
/** The most pasted characters a widget reports (a body is at most 64 KiB anyway). */
const MAX_PASTED = 10_000_000;

/** A count the widget sent (a JSON number, or a form's digits), when it is one and within `max`. */
function countOf(sent: unknown, max: number): number | undefined {
  const n = typeof sent === 'string' && /^\d{1,9}$/.test(sent) ? Number(sent) : sent;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= max ? n : undefined;
}

/** Takes the widget's fields out of a body (JSON values, or a form's text). */
export function takeWidget(body: Record<string, unknown>): WidgetSent {
  const token = body[WIDGET_TOKEN_FIELD];
  const fillMs = countOf(body[FILL_FIELD], MAX_FILL_MS);
  const pasted = countOf(body[PASTED_FIELD], MAX_PASTED);
  const proof = body[PROOF_FIELD];
  const draft = body[DRAFT_FIELD];
  delete body[DRAFT_FIELD];
  delete body[WIDGET_TOKEN_FIELD];
  delete body[FILL_FIELD];
  delete body[PASTED_FIELD];
  delete body[PROOF_FIELD];
  return {
    ...(typeof token === 'string' && token !== '' ? { token } : {}),
    ...(fillMs === undefined ? {} : { fillMs }),
    ...(pasted === undefined ? {} : { pasted }),
    ...(typeof proof === 'string' && proof !== '' ? { proof } : {}),
    ...(typeof draft === 'string' && DRAFT_TOKEN.test(draft) ? { draft } : {}),
  };
}

/**
 * The submission's signals, as its row stores them (JSON). A project that requires a proof of
 * work refuses the request here when the proof is missing, forged, of another project or expired.
 */
export async function readSignals(
  c: Context<AppEnv>,
  project: ResolvedProject,
  values: Record<string, unknown>,
  sent: WidgetSent,
  now: number,
): Promise<string> {
  const keys = widgetKeys(c.env, now);
  const signals: Signals = { page: project.keyKind !== 'secret' };
  // C39: a secret key is a site's own server: never asked for a token, a proof of work or a
  // browser's agent, and judged on its text.
  if (!signals.page) return JSON.stringify(signals);
  if (project.proofOfWork) {
    if (sent.proof === undefined) throw proofOfWorkFailed('missing');
    // The operator's misconfiguration, never the visitor's fault: 503, as an outage.
    if (keys === undefined) throw new UnavailableError('secret', new Error('ADMIN_TOKEN is not set'));
    const { checkProof } = await import('./proof-of-work.ts');
    const proof = await checkProof(keys, project.id, sent.proof);
    if (!proof.ok) throw proofOfWorkFailed(proof.why);
    signals.pow = proof.nonce;
    signals.powUntil = proof.expiresAt;
  }
  if (sent.token === undefined) signals.token = 'missing';
  else if (keys !== undefined) {
    const token = await checkToken(keys, project.id, sent.token, now);
    signals.token = token.state;
    if (token.nonce !== undefined && token.issuedMs !== undefined && token.startMs !== undefined) {
      signals.nonce = token.nonce;
      signals.nonceUntil = new Date(token.issuedMs + TOKEN_LIFETIME_MS).toISOString();
      signals.fillMs = Math.max(0, now - token.startMs);
      signals.chars = charsOf(values);
      if (sent.pasted !== undefined) signals.pasted = Math.min(sent.pasted, signals.chars);
      // The widget's count of the typing, never longer than the token has existed (C39).
      if (sent.fillMs !== undefined && sent.fillMs > 0)
        signals.typingMs = Math.min(sent.fillMs, signals.fillMs);
    }
  }
  const agent = scriptAgent(c.req.header('User-Agent'));
  if (agent !== undefined) signals.agent = agent;
  if ((c.req.header('Accept-Language') ?? '').trim() === '') signals.noLanguage = true;
  const country = (c.req.raw.cf as { country?: unknown } | undefined)?.country;
  if (typeof country === 'string' && /^[A-Z]{2}$/.test(country)) signals.country = country;
  return JSON.stringify(signals);
}
